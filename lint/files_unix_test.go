//go:build unix

package lint

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// countGit puts a git first on PATH that logs each start and runs the
// real one, and returns how many starts run makes.
func countGit(t *testing.T, run func()) int {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	script := "#!/bin/sh\necho x >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	run()
	b, _ := os.ReadFile(log)
	return bytes.Count(b, []byte("\n"))
}

// TestFilesGitProcesses: lint starts the same few git processes for 20
// changed files as for 200, listed or named, with names cat-file cannot
// read among them: none per file.
func TestFilesGitProcesses(t *testing.T) {
	dirs := map[int]string{}
	names := map[int][]string{}
	for _, n := range []int{20, 200} {
		dirs[n] = newRepo(t)
		names[n] = append(manyChanged(t, n), "new\nline.go", "cr\r")
		writeFiles(t, map[string]string{"new\nline.go": "x\n", "cr\r": "y\n"})
	}
	for _, mode := range []struct {
		name  string
		named bool
		most  int // rev-parse, diff, ls-files, cat-file
	}{{"changed", false, 4}, {"named", true, 3}} {
		starts := map[int]int{}
		for n, dir := range dirs {
			t.Chdir(dir)
			var args []string
			if mode.named {
				args = names[n]
			}
			starts[n] = countGit(t, func() {
				found, err := Files(context.Background(), args, Options{})
				if err != nil || len(found) != n/10 {
					t.Fatalf("%s: Files = %d findings, %v; want %d", mode.name, len(found), err, n/10)
				}
			})
		}
		t.Logf("%s: %d git processes for 20 files, %d for 200", mode.name, starts[20], starts[200])
		if starts[20] != starts[200] || starts[200] > mode.most {
			t.Errorf("%s: %d git processes for 20 files, %d for 200; want the same, at most %d", mode.name, starts[20], starts[200], mode.most)
		}
	}
}
