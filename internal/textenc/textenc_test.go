package textenc

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// Cases from git's own wildmatch tests (t3070), with WM_PATHNAME.
func TestWildmatchAsGit(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"foo", "foo", true},
		{"bar", "foo", false},
		{"", "", true},
		{"???", "foo", true},
		{"??", "foo", false},
		{"*", "foo", true},
		{"f*", "foo", true},
		{"*f", "foo", false},
		{"*foo*", "foo", true},
		{"*ob*a*r*", "foobar", true},
		{"*ab", "aaaaaaabababab", true},
		{"foo\\*", "foo*", true},
		{"foo\\*bar", "foobar", false},
		{"f\\\\oo", "f\\oo", true},
		{"*[al]?", "ball", true},
		{"[ten]", "ten", false},
		{"**[!te]", "ten", true},
		{"**[!ten]", "ten", false},
		{"t[a-g]n", "ten", true},
		{"t[!a-g]n", "ten", false},
		{"t[!a-g]n", "ton", true},
		{"t[^a-g]n", "ton", true},
		{"a[]]b", "a]b", true},
		{"a[]-]b", "a-b", true},
		{"a[]a-]b", "aab", true},
		{"]", "]", true},
		{"foo*bar", "foo/baz/bar", false},
		{"foo**bar", "foo/baz/bar", false},
		{"foo**bar", "foobazbar", true},
		{"foo/**/bar", "foo/baz/bar", true},
		{"foo/**/**/bar", "foo/baz/bar", true},
		{"foo/**/bar", "foo/b/a/z/bar", true},
		{"foo/**/bar", "foo/bar", true},
		{"foo/**/**/bar", "foo/bar", true},
		{"foo?bar", "foo/bar", false},
		{"foo[/]bar", "foo/bar", false},
		{"foo[^a-z]bar", "foo/bar", false},
		{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo/bar", false},
		{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true},
		{"**/foo", "foo", true},
		{"**/foo", "XXX/foo", true},
		{"**/foo", "bar/baz/foo", true},
		{"*/foo", "bar/baz/foo", false},
		{"**/bar*", "foo/bar/baz", false},
		{"**/bar/*", "deep/foo/bar/baz", true},
		{"**/bar/*", "deep/foo/bar/baz/", false},
		{"**/bar/**", "deep/foo/bar/baz/", true},
		{"**/bar/*", "deep/foo/bar", false},
		{"**/bar/**", "deep/foo/bar/", true},
		{"**/bar**", "foo/bar/baz", false},
		{"*/bar/**", "deep/foo/bar/baz/x", false},
		{"**/bar/*/*", "deep/foo/bar/baz/x", true},
		{"**/**/**/bar*", "deep/foo/bar/baz", false},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true},
		{"[[:digit:][:upper:][:space:]]", "a", false},
		{"[[:digit:][:upper:][:space:]]", "A", true},
		{"[[:digit:][:punct:][:space:]]", ".", true},
		{"[[:xdigit:]]", "5", true},
		{"[a-c[:digit:]x-z]", "y", true},
		{"[a-c[:digit:]x-z]", "q", false},
		{"[[:nope:]]", "a", false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
		{"*/*/*", "foo/bar", false},
		{"*/*/*", "foo/bb/aa/rr", false},
		{"**/**/*", "foo/bb/aa/rr", true},
		{"*X*i", "abcXdefXghi", true},
		{"*/*X*/*/*i", "ab/cXd/efXg/hi", true},
		{"**/*X*/**/*i", "ab/cXd/efXg/hi", true},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text); got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

// A pattern of many stars against a long name that does not match ends
// at once, as git's does.
func TestWildmatchManyStars(t *testing.T) {
	p := strings.Repeat("*a", 40) + "b"
	if wildmatch(p, strings.Repeat("a", 2000)) {
		t.Error("matched")
	}
}

// Which line of which attributes file decides a path's encoding, as git
// decides it.
func TestGitattributesPrecedence(t *testing.T) {
	fsys := fstest.MapFS{
		".gitattributes": {Data: []byte(
			"# comment\n" +
				"*.txt working-tree-encoding=cp1251\n" +
				"docs/*.txt working-tree-encoding=latin1\n" +
				"/top.md working-tree-encoding=shift_jis\n" +
				"\"with space.txt\" working-tree-encoding=utf-16le\n" +
				"*.bin -working-tree-encoding\n" +
				"!*.txt working-tree-encoding=utf-16\n" +
				"vendor/ working-tree-encoding=utf-16\n" +
				"[attr]enc working-tree-encoding=utf-16\n" +
				"later.txt text\n")},
		"sub/.gitattributes":    {Data: []byte("*.txt working-tree-encoding=euc-jp\nkeep.txt !working-tree-encoding\n")},
		".editorconfig":         {Data: []byte("[*.{txt,bin}]\ncharset = utf-16be\n")},
		".git/info/attributes":  {Data: []byte("override.txt working-tree-encoding=gbk\n")},
		"sub/deeper/x.txt":      {Data: []byte("x")},
		"sub/deeper/other.json": {Data: []byte("x")},
	}
	r, err := NewResolver(fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"a.txt":            "cp1251 (.gitattributes)",
		"x/y/a.txt":        "cp1251 (.gitattributes)", // a name with no slash matches at any depth
		"docs/a.txt":       "latin1 (.gitattributes)", // a later line wins
		"docs/x/a.txt":     "cp1251 (.gitattributes)", // docs/*.txt: no deeper
		"top.md":           "shift_jis (.gitattributes)",
		"x/top.md":         "",
		"with space.txt":   "utf-16le (.gitattributes)",
		"later.txt":        "cp1251 (.gitattributes)",     // a line that says nothing of it decides nothing
		"sub/a.txt":        "euc-jp (sub/.gitattributes)", // the deeper file wins
		"sub/deeper/x.txt": "euc-jp (sub/.gitattributes)",
		// Unspecified or unset in git: .editorconfig may say.
		"sub/keep.txt": "utf-16be (.editorconfig)",
		"a.bin":        "utf-16be (.editorconfig)",
		"override.txt": "gbk (.git/info/attributes)",
		"vendor/a.c":   "", // a pattern ending in a slash matches directories only
		"a.c":          "",
	} {
		e, err := r.For(name, nil, false)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := ""
		if e != nil {
			got = e.String()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// sections is n sections of an .editorconfig that set a charset for
// files no test names.
func sections(n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "[*.x%d]\ncharset = utf-16le\n", k)
	}
	return b.String()
}

func TestEditorconfigCharset(t *testing.T) {
	fsys := fstest.MapFS{
		".editorconfig":      {Data: []byte("[*]\ncharset = latin1\n[*.{c,h}]\ncharset = utf-16le\n[lib/**.py]\ncharset = utf-8\n[file{1..3}.txt]\ncharset = utf-16be\n[huge{1..99999999}.txt]\ncharset = utf-16be\n")},
		"a/.editorconfig":    {Data: []byte("[*.c]\ncharset = unset\n[*.weird]\ncharset = klingon\n")},
		"r/.editorconfig":    {Data: []byte("root = true\n[*.md]\ncharset = utf-16be\n")},
		"r/x/.editorconfig":  {Data: []byte("[*.md]\ncharset = utf-8-bom\n")},
		"bad/.editorconfig":  {Data: []byte("[*\n")},
		"link/.editorconfig": {Data: []byte("real"), Mode: fs.ModeSymlink}, // not read through
		"link/real":          {Data: []byte("[*]\ncharset = utf-16le\n")},
		"big/.editorconfig":  {Data: []byte("[*]\ncharset = utf-16le\n" + strings.Repeat("#\n", maxConfig))},
		"many/.editorconfig": {Data: []byte(sections(maxSections) + "[*]\ncharset = utf-16le\n")},
		"some/.editorconfig": {Data: []byte(sections(maxSections-1) + "[*]\ncharset = utf-16le\n")},
		"span/.editorconfig": {Data: []byte("[{1..6000}{1..6000}.txt]\ncharset = utf-16le\n")},
	}
	r, _ := NewResolver(fsys, "")
	for name, want := range map[string]string{
		"x.txt":      "latin1 (.editorconfig)",
		"src/m.c":    "utf-16le (.editorconfig)",
		"a/m.c":      "",                       // unset by the nearer file
		"a/m.weird":  "latin1 (.editorconfig)", // a charset EditorConfig has not: ignored
		"a/m.txt":    "latin1 (.editorconfig)",
		"lib/q/z.py": "",
		"file2.txt":  "utf-16be (.editorconfig)",
		"huge5.txt":  "latin1 (.editorconfig)", // a range too wide to match
		"r/m.md":     "utf-16be (r/.editorconfig)",
		"r/x.txt":    "", // root = true: the root's file is not read
		"r/x/m.md":   "", // utf-8-bom is UTF-8
		"bad/m.txt":  "latin1 (.editorconfig)",
		"big/m.txt":  "latin1 (.editorconfig)",
		"link/m.txt": "latin1 (.editorconfig)",
		"many/m.txt": "latin1 (.editorconfig)", // more sections than edapply matches
		"some/m.txt": "utf-16le (some/.editorconfig)",
		"span/1.txt": "latin1 (.editorconfig)",
	} {
		e, err := r.For(name, nil, false)
		got := ""
		if e != nil {
			got = e.String()
		}
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}

// --encoding wins over every declaration and every byte order mark; a
// byte order mark shows UTF-16 when nothing is declared, or only UTF-8.
func TestResolverOrder(t *testing.T) {
	fsys := fstest.MapFS{".gitattributes": {Data: []byte("*.txt working-tree-encoding=utf-8\n*.po working-tree-encoding=cp1251\n")}}
	forced, _ := NewResolver(fsys, "latin1")
	if e, _ := forced.For("a.po", []byte("\xff\xfe"), true); e == nil || e.String() != "latin1 (--encoding)" {
		t.Errorf("forced: %v", e)
	}
	r, _ := NewResolver(fsys, "")
	for _, tt := range []struct {
		name, data, want string
	}{
		{"a.c", "\xff\xfea\x00", "utf-16le (its byte order mark)"},
		{"a.c", "\xfe\xff\x00a", "utf-16be (its byte order mark)"},
		{"a.c", "\xff\xfe\x00\x00a\x00\x00\x00", ""}, // UTF-32's mark
		{"a.c", "\xef\xbb\xbfa", ""},
		{"a.txt", "\xff\xfea\x00", "utf-16le (its byte order mark)"},
		{"a.po", "\xff\xfea\x00", "cp1251 (.gitattributes)"},
	} {
		e, _ := r.For(tt.name, []byte(tt.data), true)
		got := ""
		if e != nil {
			got = e.String()
		}
		if got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.name, tt.data, got, tt.want)
		}
	}
	if _, err := NewResolver(fsys, "nope"); err == nil {
		t.Error("an unknown --encoding is accepted")
	}
	bad, _ := NewResolver(fstest.MapFS{".gitattributes": {Data: []byte("* working-tree-encoding=nope\n")}}, "")
	if _, err := bad.For("a", nil, false); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown declared encoding: %v", err)
	}
}

func TestLookupNames(t *testing.T) {
	for name, sample := range map[string]string{
		"latin1": "café", "ISO-8859-1": "café", "cp1251": "привет", "windows-1251": "привет", "CP1252": "€",
		"shift_jis": "日本", "sjis": "日本", "euc-jp": "日本", "gbk": "中文", "gb18030": "中文", "big5": "中文",
		"euc-kr": "한국", "koi8-r": "привет", "utf-16": "ü", "UTF-16LE": "ü", "utf-16be": "ü", "utf-32le": "ü",
		"UTF-16LE-BOM": "ü",
	} {
		e, err := Lookup(name, "")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b, u := e.Encode(sample+"\n", nil)
		if u != nil {
			t.Errorf("%s cannot hold %q: %v", name, sample, u)
			continue
		}
		if string(b) == sample+"\n" {
			t.Errorf("%s: %q encoded as UTF-8", name, sample)
		}
		if text, ok := e.Decode(b); !ok || text != sample+"\n" {
			t.Errorf("%s: decodes back %q, %v", name, text, ok)
		}
	}
	for _, name := range []string{"", "klingon", "iso-2022-jp", "hz-gb-2312", "iso-2022-kr"} {
		if _, err := Lookup(name, ""); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
	for _, name := range []string{"utf-8", "UTF8", "utf-8-bom"} {
		if e, err := Lookup(name, ""); err != nil || !e.UTF8() {
			t.Errorf("%s: not UTF-8 (%v)", name, err)
		}
	}
}

// A file decodes only when its bytes are exactly its text's; text encodes
// only when each character reads back as itself.
func TestDecodeEncodeExactly(t *testing.T) {
	cp, _ := Lookup("cp1251", "")
	if _, ok := cp.Decode([]byte("a\x98b")); ok {
		t.Error("cp1251 decodes 0x98, which it has no character for")
	}
	le, _ := Lookup("utf-16le", "")
	if _, ok := le.Decode([]byte("a\x00b")); ok {
		t.Error("UTF-16LE decodes an odd number of bytes")
	}
	if _, ok := le.Decode([]byte("\x00\xd8a\x00")); ok {
		t.Error("UTF-16LE decodes a lone surrogate")
	}
	if text, ok := le.Decode([]byte("\xff\xfea\x00")); !ok || text != "\ufeffa" {
		t.Errorf("the byte order mark is not kept as U+FEFF: %q", text)
	}
	u16, _ := Lookup("utf-16", "")
	if b, u := u16.Encode("\ufeffa", []byte("\xff\xfe")); u != nil || string(b) != "\xff\xfea\x00" {
		t.Errorf("utf-16 with a little-endian mark: %q, %v", b, u)
	}
	if b, u := u16.Encode("a", nil); u != nil || string(b) != "\x00a" {
		t.Errorf("utf-16 without a mark is big-endian: %q, %v", b, u)
	}
	_, u := cp.Encode("да\nнет ü\n", nil)
	if u == nil || u.Rune != 'ü' || u.Line != 2 || u.Text != "нет ü" {
		t.Errorf("unencodable: %+v", u)
	}
	sj, _ := Lookup("shift_jis", "")
	if u := sj.Check("¥"); u == nil {
		t.Error("Shift_JIS holds the yen sign, which it writes as a backslash's byte")
	}
	if u := cp.Check("plain\xffbytes"); u == nil {
		t.Error("bytes that are no UTF-8 pass as text")
	}
}

// A .gitattributes with more rules on the encoding than edapply matches
// against every file (a hostile one) declares nothing.
func TestGitattributesTooManyRules(t *testing.T) {
	rules := func(n int) []byte {
		var b strings.Builder
		for k := range n - 1 {
			fmt.Fprintf(&b, "x%d working-tree-encoding=utf-16le\n", k)
		}
		b.WriteString("*.txt working-tree-encoding=cp1251\n")
		return []byte(b.String())
	}
	for n, want := range map[int]string{maxAttrRules: "cp1251", maxAttrRules + 1: ""} {
		r, _ := NewResolver(fstest.MapFS{".gitattributes": {Data: rules(n)}}, "")
		e, _ := r.For("a.txt", nil, false)
		got := ""
		if e != nil {
			got = e.Name()
		}
		if got != want {
			t.Errorf("%d rules: %q, want %q", n, got, want)
		}
	}
}

// Whatever the bytes, a file decodes only to a text that encodes back to
// exactly them; whatever the text, one Check passes encodes to bytes that
// decode back to exactly it.
func FuzzExact(f *testing.F) {
	f.Add([]byte("\xcf\xf0\xe8\xe2\xe5\xf2\r\n"), "привет\n")
	f.Add([]byte("\xff\xfea\x00\n\x00"), "a¥b\\")
	f.Add([]byte("\x82\xa0\x5c\x7e"), "\ufeff日本\r\n")
	f.Add([]byte("\x00\xd8"), "\xff")
	names := []string{"cp1251", "latin1", "windows-1252", "shift_jis", "euc-kr", "gb18030", "big5", "utf-16", "utf-16le", "utf-16be", "koi8-r"}
	f.Fuzz(func(t *testing.T, raw []byte, text string) {
		for _, name := range names {
			e, err := Lookup(name, "")
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := e.Decode(raw); ok {
				back, u := e.Encode(got, raw)
				if u != nil || string(back) != string(raw) {
					t.Errorf("%s: %q decodes to %q, which encodes to %q (%v)", name, raw, got, back, u)
				}
			}
			if e.Check(text) == nil {
				b, u := e.Encode(text, nil)
				if u != nil {
					t.Errorf("%s: %q passes Check but does not encode: %v", name, text, u)
					continue
				}
				if got, ok := e.Decode(b); !ok || got != text {
					t.Errorf("%s: %q encodes to %q, which decodes to %q (%v)", name, text, b, got, ok)
				}
			} else if _, u := e.Encode(text, nil); u == nil {
				t.Errorf("%s: %q fails Check but encodes", name, text)
			}
		}
	})
}
