package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edapply/edapply/internal/growth"
	"github.com/edapply/edapply/internal/rusage"
)

// Hostile inputs the scripts in testdata/scripts/hostile-*.txtar cannot
// hold: tens of megabytes, and file modes. Each runs the edapply command
// (the test binary, see hooks_test.go) as its own process, so that its
// time and peak memory can be measured.

// hostileRun runs edapply with args in dir and returns its exit status,
// stdout, stderr, wall time and peak resident memory in bytes.
func hostileRun(t *testing.T, dir string, args ...string) (status int, stdout, stderr string, took time.Duration, maxRSS int64) {
	t.Helper()
	cmd := exec.Command("edapply", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "..", "state"), "NO_COLOR=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	status = exitStatusOf(t, err)
	return status, o.String(), e.String(), took, rusage.PeakRSS(cmd.ProcessState)
}

// TestHostileHugeLine feeds edapply a single line of tens of megabytes with
// no newline: as the whole response, in the file being edited, as SEARCH
// text and as REPLACE text. Each must finish with the right
// outcome, in memory that grows linearly with the input (measured: about
// eight times the line at worst: the receipt keeps before and after copies).
// The test itself never holds the line in memory (it streams it), so that
// the child's peak RSS, which Linux counts from the fork, is its own.
func TestHostileHugeLine(t *testing.T) {
	size := int64(50 << 20)
	// The race detector slows the command and multiplies its memory.
	if growth.Race || testing.Short() {
		size = 4 << 20
	}
	memLimit := 12*size + 128<<20
	if growth.Race {
		memLimit *= 8
	}
	const X = "\x00X" // stands for the huge line
	for _, tc := range []struct {
		name     string
		response string // X stands for the huge line
		file     string // f.txt's content before
		status   int
		out      string // in stdout
		after    string
	}{
		{"response", X, "alpha\n", 2, "no edits found", "alpha\n"},
		{"fileHit", sr("head\n", "HEAD\n"), "head\n" + X + "\ntail\n", 0, "applied", "HEAD\n" + X + "\ntail\n"},
		{"fileMiss", sr("nope\n", "NOPE\n"), "head\n" + X + "\ntail\n", 1, "NO_MATCH", "head\n" + X + "\ntail\n"},
		{"fileNoNewline", sr("head\n", "HEAD\n"), "head\n" + X, 0, "applied", "HEAD\n" + X},
		{"search", sr(X+"\n", "NOPE\n"), "alpha\nbeta\n", 1, "NO_MATCH", "alpha\nbeta\n"},
		{"replace", sr("alpha\n", X+"\n"), "alpha\nbeta\n", 0, "applied", X + "\nbeta\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "root")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			resp := filepath.Join(dir, "..", "response.md")
			writePieces(t, resp, tc.response, X, size)
			writePieces(t, filepath.Join(dir, "f.txt"), tc.file, X, size)
			status, stdout, stderr, took, rss := hostileRun(t, dir, resp)
			t.Logf("%d MiB line: exit %d in %v, peak RSS %d MiB", size>>20, status, took.Round(time.Millisecond), rss>>20)
			if status != tc.status || !strings.Contains(stdout, tc.out) {
				t.Errorf("exit %d, want %d with %q in stdout:\n%.2000s\n%s", status, tc.status, tc.out, stdout, stderr)
			}
			if rss > memLimit {
				t.Errorf("peak RSS %d MiB, want under %d MiB", rss>>20, memLimit>>20)
			}
			f, err := os.Open(filepath.Join(dir, "f.txt"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if same, err := sameReaders(f, piecesReader(tc.after, X, size)); err != nil || !same {
				t.Errorf("f.txt is not as expected (%v)", err)
			}
		})
	}
}

// sr is a SEARCH/REPLACE block for f.txt.
func sr(search, replace string) string {
	return "f.txt\n```\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n```\n"
}

// piecesReader reads s with each x in it read as n bytes of 'x'.
func piecesReader(s, x string, n int64) io.Reader {
	var rs []io.Reader
	for i, p := range strings.Split(s, x) {
		if i > 0 {
			rs = append(rs, io.LimitReader(xs{}, n))
		}
		rs = append(rs, strings.NewReader(p))
	}
	return io.MultiReader(rs...)
}

// xs reads as an endless run of 'x'.
type xs struct{}

func (xs) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func writePieces(t *testing.T, name, pieces, x string, n int64) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, piecesReader(pieces, x, n)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameReaders reports whether a and b read the same bytes.
func sameReaders(a, b io.Reader) (bool, error) {
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(a, ba)
		nb, eb := io.ReadFull(b, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if ea == io.EOF || ea == io.ErrUnexpectedEOF {
			return eb == io.EOF || eb == io.ErrUnexpectedEOF, nil
		}
		if ea != nil {
			return false, ea
		}
		if eb != nil {
			return false, eb
		}
	}
}

// TestHostileReadOnly edits a read-only file in a read-only directory.
// An ordinary user is refused (the file's mode, then the directory's):
// IO_ERROR, nothing written. Root (as in this project's CI containers)
// may write any file, so there the edit goes through; what is checked then
// is that the file and its directory keep their read-only modes. The failing branch is
// covered for root by apply's commit tests, which make a step fail through
// the commit hook.
func TestHostileReadOnly(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	ro := filepath.Join(dir, "ro")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ro, "f.txt")
	if err := os.WriteFile(file, []byte("alpha\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	resp := filepath.Join(base, "response.md")
	if err := os.WriteFile(resp, []byte(strings.Replace(sr("alpha\n", "omega\n"), "f.txt", "ro/f.txt", 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	status, stdout, stderr, _, _ := hostileRun(t, dir, "--json", resp)
	got, _ := os.ReadFile(file)
	if os.Geteuid() == 0 {
		// The superuser may write any file, as open(2) lets it.
		t.Log("running as root: permission bits do not stop writes; checking that modes are kept")
		if status != 0 || string(got) != "omega\n" {
			t.Errorf("exit %d, f.txt = %q; want 0 and the edit\n%s%s", status, got, stdout, stderr)
		}
	} else {
		// A file without write permission is refused, by name: a harness
		// protects files that way.
		if status != 1 || !strings.Contains(stdout, `"code":"IO_ERROR","path":"ro/f.txt"`) || string(got) != "alpha\n" {
			t.Errorf("exit %d, f.txt = %q; want 1 (IO_ERROR naming ro/f.txt) and f.txt untouched\n%s%s", status, got, stdout, stderr)
		}
		// --force-readonly lifts that; the directory's permission still
		// holds for a user it stops.
		status, stdout, stderr, _, _ = hostileRun(t, dir, "--json", "--force-readonly", resp)
		got, _ = os.ReadFile(file)
		if status != 1 || !strings.Contains(stdout, `"code":"IO_ERROR"`) || string(got) != "alpha\n" {
			t.Errorf("exit %d, f.txt = %q; want 1 (IO_ERROR) and f.txt untouched\n%s%s", status, got, stdout, stderr)
		}
		if !strings.Contains(stdout, "this user may not write in directory ro") {
			t.Errorf("the error does not name the directory ro:\n%s", stdout)
		}
	}
	for name, want := range map[string]os.FileMode{file: 0o444, ro: 0o555 | os.ModeDir} {
		if fi, err := os.Stat(name); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v (%v), want %v", name, fi.Mode(), err, want)
		}
	}
	if ents, _ := os.ReadDir(ro); len(ents) != 1 {
		t.Errorf("ro holds %d entries, want only f.txt (a temp file left?)", len(ents))
	}
}
