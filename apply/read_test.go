package apply

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func TestCutWindow(t *testing.T) {
	for name, tc := range map[string]struct {
		text          string
		offset, limit int
		wantStart     int
		wantLines     []string
		wantTotal     int
	}{
		"whole":            {"a\nb\nc\n", 0, 0, 1, []string{"a", "b", "c"}, 3},
		"no final newline": {"a\nb", 1, 10, 1, []string{"a", "b"}, 2},
		"middle":           {"a\nb\nc\nd\n", 2, 2, 2, []string{"b", "c"}, 4},
		"past the end":     {"a\nb\n", 5, 2, 5, nil, 2},
		"empty":            {"", 1, 10, 1, nil, 0},
		"crlf and bom":     {"\uFEFFa\r\nb\r\n", 1, 0, 1, []string{"a", "b"}, 2},
		"blank last line":  {"a\n\n", 1, 0, 1, []string{"a", ""}, 2},
	} {
		t.Run(name, func(t *testing.T) {
			w := cutWindow(tc.text, tc.offset, 1, tc.limit)
			if w.Start != tc.wantStart || !slices.Equal(w.Lines, tc.wantLines) || w.Total != tc.wantTotal {
				t.Errorf("cutWindow(%q, %d, %d) = start %d lines %q total %d, want start %d lines %q total %d",
					tc.text, tc.offset, tc.limit, w.Start, w.Lines, w.Total, tc.wantStart, tc.wantLines, tc.wantTotal)
			}
		})
	}
}

// A window of long lines stops near the byte budget, yet always shows a
// line, so that reading on from its end makes progress; a line past
// ReadLineBudget shows its beginning.
func TestCutWindowBudget(t *testing.T) {
	line := strings.Repeat("x", 1000)
	text := strings.Repeat(line+"\n", 1000)
	w := cutWindow(text, 1, 1, 0)
	if n := len(w.Lines); n == 0 || n >= 1000 || n*1001 < readBudget || (n-1)*1001 >= readBudget {
		t.Errorf("a window of 1000-byte lines holds %d lines, want the fewest past %d bytes", n, readBudget)
	}
	huge := strings.Repeat("y", 2*readBudget)
	if w := cutWindow(huge+"\nz\n", 1, 1, 0); len(w.Lines) != 2 || w.Lines[0] != huge[:ReadLineBudget] || w.Lines[1] != "z" {
		t.Errorf("a window starting at a line longer than the budget holds %d lines, want that line's beginning and the next", len(w.Lines))
	}
}

// A line past ReadLineBudget is cut, the window saying how many bytes
// follow and the column that reads on; reading on at that column shows
// the next piece, and the pieces make the line. A 50 MB line makes no
// 50 MB window. A column inside a character starts at that character.
func TestCutWindowLongLine(t *testing.T) {
	long := strings.Repeat("0123456789", 5<<20) // 50 MiB
	text := "a\n" + long + "\nb\n"
	w := cutWindow(text, 1, 1, 0)
	if len(w.Lines) != 3 || w.Lines[0] != "a" || len(w.Lines[1]) != ReadLineBudget || w.Lines[2] != "b" ||
		!slices.Equal(w.Rest, []int{0, len(long) - ReadLineBudget, 0}) {
		t.Fatalf("window of a 50 MiB line: %d lines, line 2 %d bytes, rest %v; want it cut at %d", len(w.Lines), len(w.Lines[1]), w.Rest, ReadLineBudget)
	}
	var got strings.Builder
	got.WriteString(w.Lines[1])
	for col, n := w.NextColumn(1), 0; col <= len(long); n++ {
		next := cutWindow(text, 2, col, 1)
		if next.Column != col || len(next.Lines) != 1 || len(next.Lines[0]) > ReadLineBudget || n > len(long)/ReadLineBudget {
			t.Fatalf("reading on at column %d: column %d, %d lines", col, next.Column, len(next.Lines))
		}
		got.WriteString(next.Lines[0])
		col = next.NextColumn(0)
	}
	if got.String() != long {
		t.Errorf("the pieces read on make %d bytes, want the line's %d", got.Len(), len(long))
	}

	wide := strings.Repeat("é", ReadLineBudget) // two bytes each
	w = cutWindow(wide+"\n", 1, 4, 0)
	if w.Column != 3 || !strings.HasPrefix(w.Lines[0], "é") || len(w.Lines[0]) != ReadLineBudget || w.Rest[0] != len(wide)-2-ReadLineBudget {
		t.Errorf("column 4 of a line of é: column %d, %d bytes shown, rest %v; want column 3 and whole characters", w.Column, len(w.Lines[0]), w.Rest)
	}
}

// readWindowTree makes the tree TestRead and TestHash read: dir holds
// outside.txt and root, whose a.txt, d/b.txt and binary bin are files and
// whose out is a symlink to outside.txt.
func readWindowTree(t *testing.T) (dir, root string) {
	dir = t.TempDir()
	root = filepath.Join(dir, "root")
	for name, data := range map[string]string{
		"root/a.txt":   "one\ntwo\n",
		"root/bin":     "a\x00b",
		"outside.txt":  "secret\n",
		"root/d/b.txt": "b\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside.txt", filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	return dir, root
}

func TestRead(t *testing.T) {
	_, root := readWindowTree(t)
	w, err := Read(Options{Root: root}, filepath.Join(root, "d/../a.txt"), 2, 1, 0)
	if err != nil {
		t.Fatalf("Read of an absolute path inside the root: %v", err)
	}
	if w.Path != "a.txt" || w.Hash != HashBytes([]byte("one\ntwo\n")) || w.Start != 2 || !slices.Equal(w.Lines, []string{"two"}) || w.Total != 2 {
		t.Errorf("Read = %+v, want a.txt's second line and its hash", w)
	}
	// A missing path names the file it probably means, as an edit's does.
	_, nf := Read(Options{Root: root}, "b.txt", 1, 1, 0)
	if nf == nil || nf.Code != edit.CodeFileNotFound || len(nf.Candidates) != 1 || nf.Candidates[0].Path != "d/b.txt" {
		t.Errorf("Read(b.txt) = %+v, want FILE_NOT_FOUND naming d/b.txt", nf)
	}
	// A missing path with no such file is told to check it, not how an
	// edit creates a file: a read creates none.
	if _, nf := Read(Options{Root: root}, "missing.txt", 1, 1, 0); nf == nil || nf.Hint != "Check the path against the tree." {
		t.Errorf("Read(missing.txt) = %+v, want a hint to check the path", nf)
	}
	_, abs := Read(Options{Root: root}, "/elsewhere/repo/d/b.txt", 1, 1, 0)
	if abs == nil || abs.Code != edit.CodeOutOfRoot || len(abs.Candidates) != 1 || abs.Candidates[0].Path != "d/b.txt" {
		t.Errorf("Read of another machine's absolute path = %+v, want OUT_OF_ROOT naming d/b.txt", abs)
	}
	for p, code := range map[string]edit.Code{
		"missing.txt":     edit.CodeFileNotFound,
		"../outside.txt":  edit.CodeOutOfRoot,
		"out":             edit.CodeOutOfRoot,
		"bin":             edit.CodeBinaryFile,
		"d":               edit.CodeIO,
		"a.txt/x":         edit.CodeIO,
		"/etc/passwd":     edit.CodeOutOfRoot,
		"C:\\Windows\\x":  edit.CodeOutOfRoot,
		"d/b.txt\x00.png": edit.CodeOutOfRoot,
	} {
		if w, err := Read(Options{Root: root}, p, 1, 1, 0); err == nil || err.Code != code || err.Edit != -1 || err.Path == "" {
			t.Errorf("Read(%q) = %v, %v; want %s with its path", p, w, err, code)
		}
	}
}

// TestHash: a path is hashed where an edit of it would land (and where
// --base looks), binary files included, and refused where an edit of it
// would be.
func TestHash(t *testing.T) {
	dir, root := readWindowTree(t)
	opts := Options{Root: root, PathPrefixes: []string{"/workspace"}}
	for p, want := range map[string]struct{ rel, data string }{
		"d/b.txt":                         {"d/b.txt", "b\n"},
		`d\b.txt`:                         {"d/b.txt", "b\n"},
		"/workspace/d/b.txt":              {"d/b.txt", "b\n"},
		filepath.Join(root, "d", "b.txt"): {"d/b.txt", "b\n"},
		"bin":                             {"bin", "a\x00b"},
	} {
		rel, h, err := Hash(opts, p)
		if err != nil || rel != want.rel || h != HashBytes([]byte(want.data)) {
			t.Errorf("Hash(%q) = %q, %q, %v; want %s and the hash of %q", p, rel, h, err, want.rel, want.data)
		}
	}
	for p, code := range map[string]edit.Code{
		"b.txt":                           edit.CodeFileNotFound,
		"../outside.txt":                  edit.CodeOutOfRoot,
		"out":                             edit.CodeOutOfRoot,
		filepath.Join(dir, "outside.txt"): edit.CodeOutOfRoot,
		"d":                               edit.CodeIO,
	} {
		if _, h, err := Hash(opts, p); err == nil || err.Code != code || err.Edit != -1 || err.Path == "" {
			t.Errorf("Hash(%q) = %q, %v; want %s with its path", p, h, err, code)
		}
	}
}
