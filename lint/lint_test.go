package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lines joins its arguments as a file's lines, each ending in "\n".
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// short renders findings as "line kind", one per element, for comparison.
func short(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d %s", f.Line, f.Kind))
	}
	return out
}

func TestFile(t *testing.T) {
	for name, tc := range map[string]struct {
		path    string
		content string
		base    *string // nil: no committed version
		want    []string
	}{
		"searchReplace": {
			path:    "a.go",
			content: lines("package a", "<<<<<<< SEARCH", "x := 1", "=======", "x := 2", ">>>>>>> REPLACE"),
			want:    []string{"2 search-replace-marker", "4 search-replace-marker", "6 search-replace-marker"},
		},
		"conflict": {
			path:    "a.go",
			content: lines("<<<<<<< HEAD", "x := 1", "=======", "x := 2", ">>>>>>> feature/x"),
			want:    []string{"1 conflict-marker", "3 conflict-marker", "5 conflict-marker"},
		},
		"diff3": {
			path:    "a.go",
			content: lines("<<<<<<< ours", "a", "||||||| base", "b", "=======", "c", ">>>>>>> theirs"),
			want:    []string{"1 conflict-marker", "3 conflict-marker", "5 conflict-marker", "7 conflict-marker"},
		},
		"unlabeled": {
			path:    "a.txt",
			content: lines("<<<<<<<", "a", "=======", "b", ">>>>>>>"),
			want:    []string{"1 search-replace-marker", "3 search-replace-marker", "5 search-replace-marker"},
		},
		"fiveAndNine": {
			path:    "a.py",
			content: lines("<<<<< SEARCH", "a", "=========", "b", ">>>>>>>>> REPLACE"),
			want:    []string{"1 search-replace-marker", "3 search-replace-marker", "5 search-replace-marker"},
		},
		"noSpace": {
			path:    "a.py",
			content: lines("<<<<<<<SEARCH", "a", "=======", "b", ">>>>>>>REPLACE"),
			want:    []string{"1 search-replace-marker", "3 search-replace-marker", "5 search-replace-marker"},
		},
		"loneCloser": {
			path:    "a.go",
			content: lines("x := 2", ">>>>>>> REPLACE", "y := 3"),
			want:    []string{"2 search-replace-marker"},
		},
		"loneGitOpener": {
			path:    "a.go",
			content: lines("<<<<<<< HEAD", "x := 2"),
			want:    []string{"1 conflict-marker"},
		},
		"truncated": {
			path:    "a.go",
			content: lines("<<<<<<< SEARCH", "x := 1", "=======", "x := 2"),
			want:    []string{"1 search-replace-marker", "3 search-replace-marker"},
		},
		"nested": {
			// A block whose text quotes a conflict: both arrangements.
			path:    "a.txt",
			content: lines("<<<<<<< SEARCH", "<<<<<<< HEAD", "a", "=======", "b", ">>>>>>> main", "=======", "c", ">>>>>>> REPLACE"),
			want: []string{"1 search-replace-marker", "2 conflict-marker", "4 conflict-marker",
				"6 conflict-marker", "7 search-replace-marker", "9 search-replace-marker"},
		},
		"loneDivider": {
			path:    "a.txt",
			content: lines("a", "=======", "b"),
		},
		"unlabeledUnpaired": {
			path:    "a.txt",
			content: lines("<<<<<<<", "a", ">>>>>>>"),
		},
		"longRuns": {
			path:    "a.txt",
			content: lines("<<<<<<<<<< SEARCH", "==========", ">>>>>>>>>> REPLACE"),
		},
		"indented": {
			// Code is indented with tabs or four spaces; a marker is not.
			path:    "a.go",
			content: lines("\t<<<<<<< SEARCH", "\t=======", "\t>>>>>>> REPLACE", "    <<<<<<< SEARCH", "    =======", "    >>>>>>> REPLACE"),
		},
		"listIndented": {
			// Up to three spaces, as a block inside a Markdown list item.
			path:    "notes.txt",
			content: lines("1. Change it:", "   <<<<<<< SEARCH", "   a", "   =======", "   b", "   >>>>>>> REPLACE"),
			want:    []string{"2 search-replace-marker", "4 search-replace-marker", "6 search-replace-marker"},
		},
		"quote": {
			// Deep Markdown quotes are not closers; git's commit subject is.
			path:    "mail.txt",
			content: lines(">>>>> as she said", "<<<<<<< HEAD", "a", "=======", "b", ">>>>>>> abc123 (fix the thing)"),
			want:    []string{"2 conflict-marker", "4 conflict-marker", "6 conflict-marker"},
		},
		"setext": {
			path:    "README.md",
			content: lines("Title", "=======", "", "Text.", "", "Other", "======="),
		},
		"setextInsideBlock": {
			// Between an opener and a closer a row of '=' is a divider even
			// in Markdown.
			path:    "README.md",
			content: lines("<<<<<<< SEARCH", "Title", "=======", "Heading", ">>>>>>> REPLACE"),
			want:    []string{"1 search-replace-marker", "3 search-replace-marker", "5 search-replace-marker"},
		},
		"rstAdornment": {
			path:    "doc.rst",
			content: lines("<<<<<<<", "Title", "<<<<<<<", "", "Sub", "=======", "", "Low", ">>>>>>>"),
		},
		"rstLabeled": {
			// A label is never an underline, so the ends still count.
			path:    "doc.rst",
			content: lines("<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE"),
			want:    []string{"1 search-replace-marker", "5 search-replace-marker"},
		},
		"sameLinesNotRST": {
			path:    "doc.txt",
			content: lines("<<<<<<<", "Title", "<<<<<<<", "", "Sub", "=======", "", "Low", ">>>>>>>"),
			want:    []string{"3 search-replace-marker", "6 search-replace-marker", "9 search-replace-marker"},
		},
		"envelope": {
			path: "a.go",
			content: lines("*** Begin Patch", "*** Update File: a.go", "*** Move to: b.go", "@@ func f() {",
				"*** Add File: c.go", "*** Delete File: d.go", "*** End of File", "*** End Patch"),
			want: []string{"1 patch-envelope", "2 patch-envelope", "3 patch-envelope", "5 patch-envelope",
				"6 patch-envelope", "7 patch-envelope", "8 patch-envelope"},
		},
		"notEnvelope": {
			path:    "a.md",
			content: lines("***", "*** Important ***", "*** Begin Patching the server"),
		},
		"markdownFence": {
			path: "README.md",
			content: lines("Example:", "", "```go", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "// ... existing code ...",
				"*** Begin Patch", "```", "", "<!-- ... existing sections ... -->", "~~~~", "```", "// ...", "~~~~", "// ..."),
			want: []string{"11 elision", "16 elision"},
		},
		"markdownHeading": {
			path:    "README.md",
			content: lines("# ...", "## ... existing sections ...", "..."),
		},
		"elision": {
			path:    "a.go",
			content: lines("func f() {", "\t// ... existing code ...", "\treturn g(args...)", "}", "..."),
			want:    []string{"2 elision", "5 elision"},
		},
		"python": {
			path:    "a.py",
			content: lines("def f():", "    ...", "", "class P(Protocol):", "    def g(self): ...", "    # ... rest of the class unchanged ..."),
			want:    []string{"6 elision"},
		},
		"javascript": {
			path:    "a.js",
			content: lines("const o = {", "  ...rest,", "  {/* ... */}", "};", "f(...args);"),
			want:    []string{"3 elision"},
		},
		"bom": {
			path:    "a.cs",
			content: "\ufeff<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n",
			want:    []string{"1 search-replace-marker", "3 search-replace-marker", "5 search-replace-marker"},
		},
		"binary": {
			path:    "a.bin",
			content: "\x00<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n",
		},
		"empty": {path: "a.go"},
		"oldPlaceholder": {
			path:    "a.go",
			content: lines("func f() {", "\t// ... existing code ...", "\treturn 2", "}"),
			base:    ptr(lines("func f() {", "\t// ... existing code ...", "\treturn 1", "}")),
		},
		"newCopyOfOldPlaceholder": {
			// The second copy is the new one; the diff says which.
			path:    "a.go",
			content: lines("func f() {", "\t// ...", "\treturn 1", "}", "", "func g() {", "\t// ...", "}"),
			base:    ptr(lines("func f() {", "\t// ...", "\treturn 1", "}")),
			want:    []string{"7 elision"},
		},
		"crlfCheckout": {
			// A base with CRLF and a working copy with LF (or trailing blanks)
			// differ in no line.
			path:    "a.go",
			content: lines("a", "// ...  ", "b"),
			base:    ptr("a\r\n// ...\r\nb\r\n"),
		},
		"fixtureUnchanged": {
			// A committed file that shows the format; an edit elsewhere
			// does not make its markers leftovers.
			path:    "doc.txt",
			content: lines("Example:", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "More text."),
			base:    ptr(lines("Example:", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE")),
		},
		"newDividerInOldPair": {
			// One new line completes an arrangement: all of it is reported.
			path:    "doc.txt",
			content: lines("<<<<<<<", "a", "=======", "b", ">>>>>>>"),
			base:    ptr(lines("<<<<<<<", "a", "b", ">>>>>>>")),
			want:    []string{"1 search-replace-marker", "3 search-replace-marker", "5 search-replace-marker"},
		},
		"binaryBase": {
			path:    "a.go",
			content: lines("// ..."),
			base:    ptr("\x00// ...\n"),
			want:    []string{"1 elision"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			var base []byte
			if tc.base != nil {
				base = []byte(*tc.base)
			}
			content := []byte(tc.content)
			orig := slices.Clone(content)
			got := short(File(tc.path, content, base))
			if !slices.Equal(got, tc.want) {
				t.Errorf("File(%q) = %q, want %q", tc.path, got, tc.want)
			}
			if string(content) != string(orig) {
				t.Errorf("File modified its content")
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestFindingText(t *testing.T) {
	fs := File("dir/a.go", []byte("x\n\t// ... existing code ...  \r\n"), nil)
	if len(fs) != 1 {
		t.Fatalf("File = %v, want one finding", fs)
	}
	if got, want := fs[0].String(), "dir/a.go:2: elision: // ... existing code ..."; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestIsElision holds what a file's language adds to locate.IsPlaceholder,
// whose table is the rule's own test.
func TestIsElision(t *testing.T) {
	for _, tc := range []struct {
		path, line string
		want       bool
	}{
		{"a.go", "\t...", true},
		{"a.go", "…", true},
		{"a.py", "# ... rest of the file unchanged ...", true},
		{"a.py", "# ...", true},
		{"a.py", "#   . . .", true},
		{"a.py", "# Rest of the file unchanged.", true},
		{"a.txt", "{{ ... }}", true},
		{"a.py", "...", false},
		{"a.py", "    ...", false},
		{"a.py", "... x = 1", false},
		{"a.py", "... existing = 1", false},
		{"a.md", "...", false},
		{"a.md", "# ...", false},
		{"a.rst", ".. note::", false},
		{"a.rst", "..", false},
		{"a.txt", "....", false},
		{"a.md", "<!-- ... -->", true},
		{"a.md", "## rest of the file unchanged", false},
		{"a.go", "// ...", true},
	} {
		if got := isElision([]string{tc.line}, 0, language(tc.path)); got != tc.want {
			t.Errorf("isElision(%q) in %s = %v, want %v", tc.line, tc.path, got, tc.want)
		}
	}
}

func TestMarkNew(t *testing.T) {
	for name, tc := range map[string]struct {
		base, cur string // one line per character
		want      string // the new lines of cur, as characters
	}{
		"same":       {"abc", "abc", ""},
		"append":     {"abc", "abcd", "d"},
		"prepend":    {"abc", "xabc", "x"},
		"middle":     {"abc", "abxc", "x"},
		"replace":    {"abc", "axc", "x"},
		"empty":      {"", "ab", "ab"},
		"deleted":    {"abc", "", ""},
		"moved":      {"abcd", "dabc", "d"},
		"repeated":   {"a}b}", "a}}b}", "}"},
		"duplicated": {"a.b", "a.b.", "."},
		"swap":       {"ab", "ba", "b"},
	} {
		t.Run(name, func(t *testing.T) {
			base, cur := strings.Split(tc.base, ""), strings.Split(tc.cur, "")
			isNew := make([]bool, len(cur))
			markNew(base, cur, isNew)
			var got strings.Builder
			for j, n := range isNew {
				if n {
					got.WriteString(cur[j])
				}
			}
			if got.String() != tc.want {
				t.Errorf("markNew(%q, %q) marked %q, want %q", tc.base, tc.cur, got.String(), tc.want)
			}
		})
	}
}

// TestMarkNewLarge guards the cost: a file of many repeated lines (no
// unique anchors) with one change must be quick and exact in count.
func TestMarkNewLarge(t *testing.T) {
	var base []string
	for i := range 200000 {
		base = append(base, []string{"}", "", "\treturn nil", fmt.Sprint(i)}[i%4])
	}
	cur := slices.Insert(slices.Clone(base), 100000, "// ... existing code ...")
	isNew := make([]bool, len(cur))
	markNew(base, cur, isNew)
	var n []int
	for j, v := range isNew {
		if v {
			n = append(n, j)
		}
	}
	if !slices.Equal(n, []int{100000}) {
		t.Errorf("markNew marked lines %v, want [100000]", n[:min(len(n), 10)])
	}
}

func TestUniqueCommon(t *testing.T) {
	a := strings.Split("abcdef", "")
	b := strings.Split("xbadcfe", "")
	got := uniqueCommon(a, b)
	// Runs increasing in both: b,d,f or b,c,f or a,d,e ...: length 3.
	if len(got) != 3 {
		t.Fatalf("uniqueCommon = %v, want a run of 3", got)
	}
	for k := 1; k < len(got); k++ {
		if got[k][0] <= got[k-1][0] || got[k][1] <= got[k-1][1] {
			t.Errorf("uniqueCommon = %v, not increasing", got)
		}
	}
	for _, p := range got {
		if a[p[0]] != b[p[1]] {
			t.Errorf("uniqueCommon pair %v joins %q and %q", p, a[p[0]], b[p[1]])
		}
	}
}

// TestFilesNamed: named files are linted whether or not git knows them,
// and one that cannot be read is an error that names it, never clean.
func TestFilesNamed(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.go")
	if err := os.WriteFile(name, []byte("package x\n<<<<<<< SEARCH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := Files(context.Background(), []string{name}, Options{})
	if err != nil || len(found) != 1 || found[0].Kind != KindSearchReplace || found[0].Line != 2 {
		t.Fatalf("Files = %v, %v; want the marker at line 2", found, err)
	}
	var unreadable *fs.PathError
	if _, err := Files(context.Background(), []string{name, filepath.Join(dir, "missing.go")}, Options{}); !errors.As(err, &unreadable) {
		t.Fatalf("Files of a missing file: %v, want an *fs.PathError", err)
	}
}
