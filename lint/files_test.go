package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/growth"
)

// newRepo makes a git repository in a new directory, moves the test into
// it and returns its path. Git reads no configuration of the user's, so
// the test sees what a fresh installation does.
func newRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
	} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	gitRun(t, "init", "-q")
	return dir
}

// gitRun runs git in the current directory, failing t unless it succeeds.
func gitRun(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// writeFiles writes each file (its path slash-separated) under the current
// directory.
func writeFiles(t testing.TB, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.FromSlash(name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// render prints findings as lint's command does, one a line.
func render(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintln(&b, f)
	}
	return b.String()
}

// hostileNames are file names a work tree may hold that a line-based
// protocol or a shell would misread.
func hostileNames() []string {
	names := []string{"two words.go", " lead.txt", "trail .txt", "ünïcødé.go", "a*b?.txt", "-dash.txt",
		":(top)magic.txt", "dir with space/x.go", "x missing"}
	if runtime.GOOS != "windows" {
		names = append(names, "new\nline.go", "cr\r", "back\\slash.txt", "tab\tname.go")
	}
	return names
}

// TestFilesHostileNames: whatever a file is named, lint compares it with
// its own version at HEAD, listed as changed or named, so a committed
// placeholder stays quiet and a new line is reported under the name as
// it is.
func TestFilesHostileNames(t *testing.T) {
	newRepo(t)
	names := hostileNames()
	committed := map[string]string{}
	for _, n := range names {
		committed[n] = "// ...\nfirst\n"
	}
	writeFiles(t, committed)
	gitRun(t, "add", "-A")
	gitRun(t, "commit", "-q", "-m", "base")
	edited := map[string]string{}
	for _, n := range names {
		edited[n] = "// ...\nfirst\n*** End Patch\n"
	}
	writeFiles(t, edited)

	var want []string
	for _, n := range names {
		want = append(want, filepath.FromSlash(n)+":3: patch-envelope: *** End Patch\n")
	}
	slices.Sort(want)
	found, err := Files(context.Background(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := render(found); got != strings.Join(want, "") {
		t.Errorf("changed files:\n%s\nwant:\n%s", got, strings.Join(want, ""))
	}

	named := make([]string, len(names))
	for i, n := range names {
		named[i] = filepath.FromSlash(n)
	}
	slices.Sort(named)
	found, err = Files(context.Background(), named, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := render(found); got != strings.Join(want, "") {
		t.Errorf("named files:\n%s\nwant:\n%s", got, strings.Join(want, ""))
	}
}

// TestFilesChangedSkips: in the changed-files listing what is not a file
// has nothing to lint: a file deleted, turned into a directory (whose
// files are new), into a symlink, a submodule; a binary file has no
// findings; a file dropped from the index but kept keeps its committed
// version; a conflict's markers count.
func TestFilesChangedSkips(t *testing.T) {
	newRepo(t)
	writeFiles(t, map[string]string{
		"gone.go":     "package a\n",
		"became-dir":  "text\n",
		"became-link": "text\n",
		"binary.bin":  "\x00\x01",
		"untracked":   "// ...\n",
		"conflict.go": "package a\n\nvar x = 0\n",
		"target.go":   "package a\n",
		"sub/s.go":    "package s\n",
	})
	// A submodule: a repository of its own, committed as a gitlink.
	os.Chdir("sub")
	gitRun(t, "init", "-q")
	gitRun(t, "add", "s.go")
	gitRun(t, "commit", "-q", "-m", "sub")
	os.Chdir("..")
	gitRun(t, "add", "-A")
	gitRun(t, "commit", "-q", "-m", "base")

	gitRun(t, "checkout", "-q", "-b", "other")
	writeFiles(t, map[string]string{"conflict.go": "package a\n\nvar x = 2\n"})
	gitRun(t, "commit", "-q", "-am", "other")
	gitRun(t, "checkout", "-q", "-")
	writeFiles(t, map[string]string{"conflict.go": "package a\n\nvar x = 1\n"})
	gitRun(t, "commit", "-q", "-am", "ours")
	if out, err := exec.Command("git", "merge", "-q", "other").CombinedOutput(); err == nil {
		t.Fatalf("the merge did not conflict:\n%s", out)
	}

	writeFiles(t, map[string]string{"target.go": "package a\n<<<<<<< SEARCH\n"})
	for _, f := range []string{"gone.go", "became-dir", "became-link"} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, map[string]string{
		"became-dir/new.go": "// ... existing code ...\n",
		"binary.bin":        "\x00<<<<<<< SEARCH\n",
		"sub/s.go":          "package s\n>>>>>>> REPLACE\n",
	})
	if err := os.Symlink("target.go", "became-link"); err != nil {
		t.Skip("no symlinks here:", err)
	}
	gitRun(t, "rm", "-q", "--cached", "untracked")

	found, err := Files(context.Background(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.FromSlash("became-dir/new.go") + ":1: elision: // ... existing code ...\n" +
		"conflict.go:3: conflict-marker: <<<<<<< HEAD\n" +
		"conflict.go:5: conflict-marker: =======\n" +
		"conflict.go:7: conflict-marker: >>>>>>> other\n" +
		"target.go:2: search-replace-marker: <<<<<<< SEARCH\n"
	if got := render(found); got != want {
		t.Errorf("Files:\n%s\nwant:\n%s", got, want)
	}

	// Named, each is what it is: a symlink is read through, a directory
	// or a missing file is an error that names it.
	found, err = Files(context.Background(), []string{"became-link"}, Options{})
	if err != nil || render(found) != "became-link:2: search-replace-marker: <<<<<<< SEARCH\n" {
		t.Errorf("Files(became-link) = %q, %v", render(found), err)
	}
	for _, name := range []string{"gone.go", "became-dir", "sub"} {
		var pe *fs.PathError
		if _, err := Files(context.Background(), []string{"target.go", name}, Options{}); !errors.As(err, &pe) || !strings.Contains(err.Error(), name) {
			t.Errorf("Files(%s) = %v, want an *fs.PathError naming it", name, err)
		}
	}
}

// TestFilesNamedOutsideTree: a name outside the work tree has no
// committed version; asking git for one would end the batch that reads
// the others'.
func TestFilesNamedOutsideTree(t *testing.T) {
	dir := newRepo(t)
	writeFiles(t, map[string]string{"sub/a.go": "// ...\n"})
	gitRun(t, "add", "-A")
	gitRun(t, "commit", "-q", "-m", "base")
	outside := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-outside.go")
	if err := os.WriteFile(outside, []byte("// ...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(outside) })
	t.Chdir("sub")
	rel := filepath.Join("..", "..", filepath.Base(outside))
	for _, names := range [][]string{{rel, "a.go"}, {outside, filepath.Join(dir, "sub", "a.go"), "a.go"}} {
		found, err := Files(context.Background(), names, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := render(found), names[0]+":1: elision: // ...\n"; got != want {
			t.Errorf("Files(%q) = %q, want %q", names, got, want)
		}
	}
}

// TestFilesNoHead: before the first commit nothing is committed, for
// names too, the ones git cat-file cannot read included.
func TestFilesNoHead(t *testing.T) {
	newRepo(t)
	names := hostileNames()
	files := map[string]string{}
	for _, n := range names {
		files[n] = "// ...\n"
	}
	writeFiles(t, files)
	gitRun(t, "add", "-A")
	for i, n := range names {
		names[i] = filepath.FromSlash(n)
	}
	found, err := Files(context.Background(), names, Options{})
	if err != nil || len(found) != len(names) {
		t.Errorf("Files = %q, %v; want one finding a file", render(found), err)
	}
}

// TestFilesHugeFile: a file of many megabytes, committed and changed at
// its end, is read whole from git and compared line by line.
func TestFilesHugeFile(t *testing.T) {
	newRepo(t)
	var b bytes.Buffer
	b.WriteString("// ... existing code ...\n")
	for i := 0; b.Len() < 4<<20; i++ {
		fmt.Fprintf(&b, "var v%d = %d // %s\n", i, i, strings.Repeat("x", i%200))
	}
	b.WriteString(strings.Repeat("y", 2<<20) + "\n") // one line longer than any buffer
	writeFiles(t, map[string]string{"big.go": b.String(), "small.go": "// ...\n"})
	gitRun(t, "add", "-A")
	gitRun(t, "commit", "-q", "-m", "base")
	b.WriteString("// ... rest unchanged ...\n")
	writeFiles(t, map[string]string{"big.go": b.String(), "small.go": "// ...\nx\n// ...\n"})
	lines := bytes.Count(b.Bytes(), []byte("\n"))
	want := fmt.Sprintf("big.go:%d: elision: // ... rest unchanged ...\nsmall.go:3: elision: // ...\n", lines)
	for _, names := range [][]string{nil, {"big.go", "small.go"}} {
		found, err := Files(context.Background(), names, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := render(found); got != want {
			t.Errorf("Files(%q) = %q, want %q", names, got, want)
		}
	}
}

// TestFilesProgress: the callback counts every file, checked or skipped,
// up to the total, in order.
func TestFilesProgress(t *testing.T) {
	newRepo(t)
	files := map[string]string{"skipped": "x\n"}
	for i := range 20 {
		files[fmt.Sprintf("f%02d.go", i)] = "package f\n"
	}
	writeFiles(t, files)
	gitRun(t, "add", "-A")
	gitRun(t, "commit", "-q", "-m", "base")
	for name := range files {
		writeFiles(t, map[string]string{name: "package g\n"})
	}
	os.Remove("skipped")
	if err := os.Symlink("f00.go", "skipped"); err != nil { // listed as changed, not a file
		t.Skip("no symlinks here:", err)
	}
	for _, names := range [][]string{nil, {"f00.go", "f01.go", "f02.go"}} {
		var calls [][2]int
		if _, err := Files(context.Background(), names, Options{Progress: func(done, total int) {
			calls = append(calls, [2]int{done, total})
		}}); err != nil {
			t.Fatal(err)
		}
		total := len(names)
		if names == nil {
			total = len(files)
		}
		if len(calls) != total {
			t.Fatalf("%d calls for %d files: %v", len(calls), total, calls)
		}
		for i, c := range calls {
			if c != [2]int{i + 1, total} {
				t.Errorf("call %d = %v, want [%d %d]", i, c, i+1, total)
			}
		}
	}
}

// manyChanged makes a repository of n committed files and changes each,
// adding a placeholder to every tenth, and returns the files' names.
func manyChanged(t testing.TB, n int) []string {
	t.Helper()
	files := map[string]string{}
	var names []string
	for i := range n {
		name := fmt.Sprintf("d%d/f%04d.go", i%7, i)
		files[name] = fmt.Sprintf("package d\n\n// ...\nfunc f%d() int {\n\treturn %d\n}\n", i, i)
		names = append(names, filepath.FromSlash(name))
	}
	writeFiles(t, files)
	gitRun(t, "add", "-A")
	gitRun(t, "commit", "-q", "-m", "base")
	for name, c := range files {
		c = strings.Replace(c, "return", "return 1 +", 1)
		if strings.HasSuffix(name, "0.go") {
			c += "// ... existing code ...\n"
		}
		files[name] = c
	}
	writeFiles(t, files)
	slices.Sort(names)
	return names
}

// TestFilesAllocsLinear: what Files allocates grows with the files, not
// faster, and stays within a bound per file beside the bytes it reads.
func TestFilesAllocsLinear(t *testing.T) {
	growth.SkipUnderRace(t)
	dirs := map[int]string{}
	for _, k := range []int{1, 2} {
		dirs[k] = newRepo(t)
		manyChanged(t, 150*k)
	}
	growth.Linear(t, "Files", func(k int) {
		t.Chdir(dirs[k])
		found, err := Files(context.Background(), nil, Options{})
		if err != nil || len(found) != 15*k {
			t.Fatalf("Files = %d findings, %v; want %d", len(found), err, 15*k)
		}
	})
	t.Chdir(dirs[2])
	objects, _ := growth.Allocs(func() { Files(context.Background(), nil, Options{}) })
	if perFile := objects / 300; perFile > 40 {
		t.Errorf("Files allocates %d objects a file, want at most 40", perFile)
	}
}
