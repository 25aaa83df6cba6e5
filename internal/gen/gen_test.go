package gen

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestSource(t *testing.T) {
	a, b := Source(1, "lease", 2000), Source(1, "lease", 2000)
	if !bytes.Equal(a, b) {
		t.Fatalf("Source(1) is not deterministic")
	}
	if bytes.Equal(a, Source(2, "lease", 2000)) {
		t.Errorf("Source(1) == Source(2)")
	}
	n := bytes.Count(a, []byte("\n"))
	if n < 2000 || n > 2200 {
		t.Errorf("Source(1, 2000 lines) has %d lines", n)
	}
	if !bytes.HasSuffix(a, []byte("}\n")) {
		t.Errorf("Source does not end with a declaration and a newline: %q", a[len(a)-20:])
	}
	f, err := parser.ParseFile(token.NewFileSet(), "lease.go", a, parser.ParseComments)
	if err != nil {
		t.Fatalf("generated source does not parse: %v", err)
	}
	if f.Name.Name != "lease" || len(f.Imports) == 0 || len(f.Decls) < 20 || len(f.Comments) < 20 {
		t.Errorf("generated file is thin: package %s, %d imports, %d decls, %d comments",
			f.Name.Name, len(f.Imports), len(f.Decls), len(f.Comments))
	}
	// Real-looking code repeats some lines (braces, "return nil") but not most.
	lines := splitLines(a)
	distinct := map[string]bool{}
	for _, l := range lines {
		distinct[l] = true
	}
	if len(distinct) < len(lines)/2 {
		t.Errorf("only %d distinct lines of %d", len(distinct), len(lines))
	}
}

func TestSites(t *testing.T) {
	src := Source(7, "shard", 5000)
	edits, err := Sites("a.go", src, 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 50 {
		t.Fatalf("Sites returned %d edits, want 50", len(edits))
	}
	kinds := map[[2]int]int{}
	cur := string(src)
	end := 0
	for i, e := range edits {
		if e.Line <= end+1 {
			t.Errorf("edit %d at line %d is not at least one line after the previous (ends at %d)", i, e.Line, end)
		}
		end = e.Line + e.oldLen() - 1
		if len(e.Before) != Context || len(e.After) != Context {
			t.Errorf("edit %d: context %d/%d lines, want %d", i, len(e.Before), len(e.After), Context)
		}
		if e.Old() == e.New() {
			t.Errorf("edit %d changes nothing", i)
		}
		kinds[[2]int{len(e.Del), min(len(e.Add), 2)}]++
		if n := strings.Count(string(src), e.Old()); n != 1 {
			t.Errorf("edit %d: old text occurs %d times in the file, want 1:\n%s", i, n, e.Old())
		}
		// Applied one after another, by text, each must still be unique.
		if n := strings.Count(cur, e.Old()); n != 1 {
			t.Errorf("edit %d: old text occurs %d times after edits 0..%d", i, n, i-1)
		}
		cur = strings.Replace(cur, e.Old(), e.New(), 1)
	}
	if len(kinds) < 3 {
		t.Errorf("edits are not varied: %v", kinds)
	}
	want, err := ApplyEdits(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	if cur != string(want) {
		t.Errorf("text replacement and ApplyEdits disagree")
	}
	again, _ := Sites("a.go", src, 50, 7)
	if fmt.Sprint(again) != fmt.Sprint(edits) {
		t.Errorf("Sites is not deterministic")
	}
	if _, err := Sites("a.go", src[:2000], 50, 7); err == nil {
		t.Errorf("Sites on a short file: no error")
	}
}

// testTree returns a few files with several edits each.
func testTree(t *testing.T) ([]File, []Edit) {
	t.Helper()
	files := Tree(3, 12, 300)
	var edits []Edit
	for i, f := range files {
		es, err := Sites(f.Path, f.Src, 1+i%4, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		edits = append(edits, es...)
	}
	return files, edits
}

func expected(t *testing.T, files []File, edits []Edit) map[string][]byte {
	t.Helper()
	want := map[string][]byte{}
	for _, f := range files {
		var es []Edit
		for _, e := range edits {
			if e.Path == f.Path {
				es = append(es, e)
			}
		}
		b, err := ApplyEdits(f.Src, es)
		if err != nil {
			t.Fatal(err)
		}
		want[f.Path] = b
	}
	return want
}

var hunkRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// TestUnifiedDiffNumbers applies UnifiedDiff's output with a strict applier
// that trusts only the hunk headers: every count and both line numbers
// must be right.
func TestUnifiedDiffNumbers(t *testing.T) {
	files, edits := testTree(t)
	diff := string(UnifiedDiff(edits))
	src := map[string][]string{}
	for _, f := range files {
		src[f.Path] = splitLines(f.Src)
	}
	got := map[string][]string{}
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	var path string
	var old, out []string
	next := 0 // next unread line of old
	flush := func() {
		if path != "" {
			got[path] = append(out, old[next:]...)
		}
	}
	num := func(s string, def int) int {
		if s == "" {
			return def
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			flush()
			path = strings.TrimPrefix(strings.Fields(l)[2], "a/")
			old, out, next = src[path], nil, 0
			if lines[i+1] != "--- a/"+path || lines[i+2] != "+++ b/"+path {
				t.Fatalf("bad file header at diff line %d", i+1)
			}
			i += 2
		case hunkRE.MatchString(l):
			m := hunkRE.FindStringSubmatch(l)
			ol, on, nl, nn := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
			out = append(out, old[next:ol-1]...)
			if len(out)+1 != nl {
				t.Errorf("%s: hunk %q: new start %d, want %d", path, l, nl, len(out)+1)
			}
			next = ol - 1
			var seenOld, seenNew int
			for i+1 < len(lines) && len(lines[i+1]) > 0 && strings.ContainsRune(" -+", rune(lines[i+1][0])) && seenOld+seenNew < on+nn {
				i++
				body := lines[i][1:]
				switch lines[i][0] {
				case ' ', '-':
					if old[next] != body {
						t.Fatalf("%s: hunk %q: line %d is %q, diff says %q", path, l, next+1, old[next], body)
					}
					next++
					seenOld++
					if lines[i][0] == ' ' {
						out = append(out, body)
						seenNew++
					}
				case '+':
					out = append(out, body)
					seenNew++
				}
			}
			if seenOld != on || seenNew != nn {
				t.Errorf("%s: hunk %q has %d old and %d new lines", path, l, seenOld, seenNew)
			}
		default:
			t.Fatalf("unexpected diff line %d: %q", i+1, l)
		}
	}
	flush()
	want := expected(t, files, edits)
	for p, w := range want {
		if g, ok := got[p]; ok && joinLines(g) != string(w) {
			t.Errorf("%s: applying the diff by its headers differs from ApplyEdits", p)
		}
	}
	if len(got) != len(files) {
		t.Errorf("diff touches %d files, want %d", len(got), len(files))
	}
}

// TestUnifiedDiffTools applies UnifiedDiff's output with GNU patch and git
// apply, where installed, and compares the tree with ApplyEdits.
func TestUnifiedDiffTools(t *testing.T) {
	files, edits := testTree(t)
	diff := UnifiedDiff(edits)
	want := expected(t, files, edits)
	for _, tool := range [][]string{{"patch", "-p1", "-s", "--no-backup-if-mismatch", "-i"}, {"git", "apply"}} {
		t.Run(tool[0], func(t *testing.T) {
			if _, err := exec.LookPath(tool[0]); err != nil {
				t.Skipf("%s not installed", tool[0])
			}
			dir := t.TempDir()
			if err := WriteTree(dir, files); err != nil {
				t.Fatal(err)
			}
			df := filepath.Join(t.TempDir(), "x.diff")
			if err := os.WriteFile(df, diff, 0o666); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(tool[0], append(tool[1:], df)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
			if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
				t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
			}
			for p, w := range want {
				g, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(g, w) {
					t.Errorf("%s: %s result differs from ApplyEdits", p, tool[0])
				}
			}
		})
	}
}

func TestSearchReplace(t *testing.T) {
	_, edits := testTree(t)
	var blocks []Block
	for _, e := range edits {
		blocks = append(blocks, e.Block())
	}
	resp := string(SearchReplace(blocks))
	re := regexp.MustCompile("(?s)([^\n]+)\n```go\n<<<<<<< SEARCH\n(.*?)=======\n(.*?)>>>>>>> REPLACE\n```\n")
	ms := re.FindAllStringSubmatch(resp, -1)
	if len(ms) != len(blocks) {
		t.Fatalf("found %d blocks in the response, want %d", len(ms), len(blocks))
	}
	for i, m := range ms {
		if got := (Block{m[1], m[2], m[3]}); got != blocks[i] {
			t.Errorf("block %d = %+v, want %+v", i, got, blocks[i])
		}
	}
}

func TestDrift(t *testing.T) {
	src := Source(11, "plan", 3000)
	edits, err := Sites("a.go", src, 20, 11)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range edits {
		d := Drift(e)
		if strings.Contains(string(src), d.Search) {
			t.Errorf("edit %d: drifted SEARCH occurs in the file", i)
		}
		undo := func(s string, trail bool) string {
			ls := splitLines([]byte(s))
			for j, l := range ls {
				if trail {
					l = strings.TrimRight(l, " \t")
				}
				ls[j] = strings.TrimPrefix(l, "\t")
			}
			return joinLines(ls)
		}
		if undo(d.Search, true) != e.Old() || undo(d.Replace, false) != e.New() {
			t.Errorf("edit %d: drift is not one tab plus trailing blanks:\n%s", i, d.Search)
		}
		if !strings.Contains(d.Search, " \n") && !strings.Contains(d.Search, "\t\n") {
			t.Errorf("edit %d: drifted SEARCH has no trailing blanks", i)
		}
	}
}

func TestNearMiss(t *testing.T) {
	src := Source(5, "quota", 4000)
	bl, err := NearMiss("a.go", src, 5)
	if err != nil {
		t.Fatal(err)
	}
	norm := strings.Join(normalize(splitLines(src)), "")
	if strings.Contains(norm, strings.Join(normalize(splitLines([]byte(bl.Search))), "")) {
		t.Errorf("near miss matches the file when whitespace is ignored:\n%s", bl.Search)
	}
	var found int
	ls := splitLines([]byte(bl.Search))
	for _, l := range ls {
		if bytes.Contains(src, []byte(l+"\n")) {
			found++
		}
	}
	if found < len(ls)/2 {
		t.Errorf("near miss is not near: only %d of %d lines are in the file", found, len(ls))
	}
	if bl.Search == bl.Replace {
		t.Errorf("near miss replaces nothing")
	}
}
