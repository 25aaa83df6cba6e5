package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run the edapply binary (the test binary as testscript's
// "edapply" command; see hooks_test.go), hold its commit at each step with
// EDAPPLY_TEST_PAUSE, and then interrupt, terminate or kill it there.

// A tfile is a regular file in a test tree.
type tfile struct {
	data string
	mode fs.FileMode // permission bits; 0: not compared (a new file, under the umask)
}

// A ttree is a snapshot of a tree: its regular files and directories,
// by slash-separated path. Anything else found is an error.
type ttree struct {
	files map[string]tfile
	dirs  []string // sorted
}

// killResponse touches every kind of change: a modification (with a mode
// to keep), a creation in new directories, a CRLF modification, a deletion
// and a rename into a new directory. keep.txt is not touched.
const killResponse = `*** Begin Patch
*** Update File: a.txt
@@
-a
+A
*** Add File: new/deep/n.txt
+n
*** Update File: b.txt
@@
-b
+B
*** Delete File: del.txt
*** Update File: mv.txt
*** Move to: moved/mv.txt
*** End Patch
`

var (
	killBefore = ttree{files: map[string]tfile{
		"a.txt":    {"a\n", 0o751},
		"b.txt":    {"b\r\nb2\r\n", 0o644},
		"del.txt":  {"del\n", 0o644},
		"mv.txt":   {"mv\n", 0o640},
		"keep.txt": {"keep\n", 0o600},
	}}
	killAfter = ttree{files: map[string]tfile{
		"a.txt":          {"A\n", 0o751},
		"b.txt":          {"B\r\nb2\r\n", 0o644},
		"new/deep/n.txt": {"n\n", 0},
		"moved/mv.txt":   {"mv\n", 0o640},
		"keep.txt":       {"keep\n", 0o600},
	}, dirs: []string{"moved", "new", "new/deep"}}
)

// killSteps are the commit's hook calls for killResponse, in order: the
// journal, a directory and a temp file for each of the four files written,
// four renames, two removals, the end.
var killSteps = []string{
	"journal:1",
	"mkdir:1", "temp:1", "mkdir:2", "temp:2", "mkdir:3", "temp:3", "mkdir:4", "temp:4",
	"rename:1", "rename:2", "rename:3", "rename:4",
	"remove:1", "remove:2",
	"done:1",
}

// pastNoReturn reports whether an interrupt at step can no longer stop the
// commit: the commit notices signals between steps, and after the last
// removal there is no step left.
func pastNoReturn(step string) bool { return step == "remove:2" || step == "done:1" }

// termSteps are the steps SIGTERM is tried at: the commit handles it as it
// does SIGINT, so a few points (before the journal, while staging, while
// renaming, past the point of no return) cover it without doubling the
// test's time.
var termSteps = []string{"journal:1", "temp:2", "rename:3", "remove:2"}

func TestKillDuringCommit(t *testing.T) {
	for _, step := range killSteps {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
			if sig == syscall.SIGTERM && !slices.Contains(termSteps, step) {
				continue
			}
			t.Run(step+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				k := newKillEnv(t)
				status, out := k.run(t, step, sig)
				got := snapshot(t, k.root)
				if sig == syscall.SIGKILL {
					// Each file alone is old or new, never partial; the
					// only other things are temp files and new directories.
					k.checkEachOldOrNew(t, got)
					// Undo puts everything back exactly.
					status, out := k.undo(t)
					if step == "journal:1" {
						// Killed before the journal was saved: nothing had
						// changed, and there is nothing to undo.
						if status != exitUsage || !strings.Contains(out, "nothing to undo") {
							t.Errorf("undo: exit %d, want 2 (nothing to undo)\n%s", status, out)
						}
					} else if status != exitOK {
						t.Errorf("undo: exit %d, want 0\n%s", status, out)
					}
					diffTTree(t, "after SIGKILL and undo", snapshot(t, k.root), killBefore)
					return
				}
				want, wantOK := killBefore, false
				if pastNoReturn(step) {
					want, wantOK = killAfter, true
				}
				diffTTree(t, "after "+sig.String(), got, want)
				if (status == exitOK) != wantOK || status < 0 {
					t.Errorf("edapply exited %d, want ok=%v\n%s", status, wantOK, out)
				}
				if !wantOK && !strings.Contains(out, "interrupted") {
					t.Errorf("receipt does not say interrupted:\n%s", out)
				}
				// Undo undoes a finished apply; after an interrupted one
				// there is nothing to undo and nothing changes.
				status, out = k.undo(t)
				if wantOK && status != exitOK || !wantOK && status != exitUsage {
					t.Errorf("undo: exit %d\n%s", status, out)
				}
				diffTTree(t, "after undo", snapshot(t, k.root), killBefore)
			})
		}
	}
}

// TestKillThenRerun: after a SIGKILL, running the same response again
// finishes the job and removes the temp files the killed run left, which
// its journal names.
func TestKillThenRerun(t *testing.T) {
	for _, step := range []string{"temp:4", "rename:2"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			k := newKillEnv(t)
			k.run(t, step, syscall.SIGKILL)
			if len(temps(t, k.root)) == 0 {
				t.Fatalf("no temp file left by the killed run: the test proves nothing")
			}
			status, out := k.run(t, "", 0)
			if status != exitOK {
				t.Fatalf("rerun: exit %d\n%s", status, out)
			}
			diffTTree(t, "after rerun", snapshot(t, k.root), killAfter)
		})
	}
}

// TestKillDuringUndo: undo commits the same way, and names its own temp
// files in the journal first, so an undo killed part way is finished by
// the next undo, and one interrupted part way leaves the applied tree.
func TestKillDuringUndo(t *testing.T) {
	for _, step := range []string{"journal:1", "temp:3", "rename:2", "remove:1"} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
			t.Run(step+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				k := newKillEnv(t)
				if status, out := k.run(t, "", 0); status != exitOK {
					t.Fatalf("apply: exit %d\n%s", status, out)
				}
				status, out := k.runCmd(t, step, sig, "undo", "-C", k.root)
				if sig == syscall.SIGINT {
					if status != exitFailed || !strings.Contains(out, "interrupted") {
						t.Errorf("interrupted undo: exit %d\n%s", status, out)
					}
					diffTTree(t, "after an interrupted undo", snapshot(t, k.root), killAfter)
				}
				if status, out := k.undo(t); status != exitOK {
					t.Errorf("second undo: exit %d\n%s", status, out)
				}
				diffTTree(t, "after the second undo", snapshot(t, k.root), killBefore)
			})
		}
	}
}

type killEnv struct {
	root, state, response string
}

func newKillEnv(t *testing.T) *killEnv {
	dir := t.TempDir()
	k := &killEnv{root: filepath.Join(dir, "root"), state: filepath.Join(dir, "state"), response: filepath.Join(dir, "response.txt")}
	for _, d := range []string{k.root, k.state} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, f := range killBefore.files {
		name := filepath.Join(k.root, p)
		if err := os.WriteFile(name, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(k.response, []byte(killResponse), 0o644); err != nil {
		t.Fatal(err)
	}
	diffTTree(t, "before", snapshot(t, k.root), killBefore)
	return k
}

func (k *killEnv) command(args ...string) *exec.Cmd {
	cmd := exec.Command("edapply", args...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+k.state, "NO_COLOR=1")
	return cmd
}

// run applies the response, pausing at step and sending sig there (or
// neither, when step is ""), and returns the exit status (-1 when killed)
// and the combined output.
func (k *killEnv) run(t *testing.T, step string, sig syscall.Signal) (int, string) {
	t.Helper()
	return k.runCmd(t, step, sig, "-C", k.root, k.response)
}

// runCmd is run for any command line.
func (k *killEnv) runCmd(t *testing.T, step string, sig syscall.Signal, args ...string) (int, string) {
	t.Helper()
	cmd := k.command(args...)
	if step == "" {
		out, err := cmd.CombinedOutput()
		return exitStatusOf(t, err), string(out)
	}
	cmd.Env = append(cmd.Env, "EDAPPLY_TEST_PAUSE="+step)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	paused := make(chan bool, 1)
	rest := make(chan string, 1)
	go func() {
		var all strings.Builder
		r := bufio.NewReader(stderr)
		seen := false
		for {
			line, err := r.ReadString('\n')
			all.WriteString(line)
			if !seen && strings.HasPrefix(line, pausedMarker) {
				seen = true
				paused <- true
			}
			if err != nil {
				break
			}
		}
		if !seen {
			paused <- false
		}
		rest <- all.String()
	}()
	select {
	case ok := <-paused:
		if !ok {
			cmd.Wait()
			t.Fatalf("edapply never paused at %s:\n%s%s", step, stdout.String(), <-rest)
		}
	case <-time.After(pauseLimit):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("edapply did not reach %s in %v", step, pauseLimit)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	errOut := <-rest
	err = cmd.Wait()
	return exitStatusOf(t, err), stdout.String() + errOut
}

func (k *killEnv) undo(t *testing.T) (int, string) {
	t.Helper()
	return k.runCmd(t, "", 0, "undo", "-C", k.root)
}

func exitStatusOf(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// checkEachOldOrNew checks that every file of got is as it was before or
// as the apply leaves it, besides temp files and the directories the apply
// makes.
func (k *killEnv) checkEachOldOrNew(t *testing.T, got ttree) {
	t.Helper()
	paths := map[string]bool{}
	for p := range got.files {
		paths[p] = true
	}
	for p := range killBefore.files {
		paths[p] = true
	}
	for p := range killAfter.files {
		paths[p] = true
	}
	for p := range paths {
		if isTemp(p) {
			continue
		}
		g, ok := got.files[p]
		b, inBefore := killBefore.files[p]
		a, inAfter := killAfter.files[p]
		switch {
		case !ok && (!inBefore || !inAfter):
		case ok && inBefore && sameFile(g, b):
		case ok && inAfter && sameFile(g, a):
		default:
			t.Errorf("%s is neither as before nor as after: %+v (present %v)", p, g, ok)
		}
	}
	for _, d := range got.dirs {
		if !slices.Contains(killAfter.dirs, d) {
			t.Errorf("unexpected directory %s", d)
		}
	}
}

func sameFile(got, want tfile) bool {
	return got.data == want.data && (want.mode == 0 || got.mode == want.mode)
}

func isTemp(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, ".edapply-")
}

func temps(t *testing.T, root string) []string {
	var ts []string
	for p := range snapshot(t, root).files {
		if isTemp(p) {
			ts = append(ts, p)
		}
	}
	return ts
}

// snapshot reads the tree at root.
func snapshot(t *testing.T, root string) ttree {
	t.Helper()
	tr := ttree{files: map[string]tfile{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case rel == ".":
		case d.IsDir():
			tr.dirs = append(tr.dirs, rel)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tr.files[rel] = tfile{string(data), fi.Mode().Perm()}
		default:
			return fmt.Errorf("%s: unexpected %v", rel, fi.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(tr.dirs)
	return tr
}

// diffTTree reports every difference between got and want: content, mode
// (where want names one), missing and extra files, temp files included,
// and directories.
func diffTTree(t *testing.T, what string, got, want ttree) {
	t.Helper()
	for p, w := range want.files {
		g, ok := got.files[p]
		switch {
		case !ok:
			t.Errorf("%s: %s missing", what, p)
		case g.data != w.data:
			t.Errorf("%s: %s = %q, want %q", what, p, g.data, w.data)
		case w.mode != 0 && g.mode != w.mode:
			t.Errorf("%s: %s mode %v, want %v", what, p, g.mode, w.mode)
		}
	}
	for p := range got.files {
		if _, ok := want.files[p]; !ok {
			t.Errorf("%s: extra file %s", what, p)
		}
	}
	if !slices.Equal(got.dirs, want.dirs) {
		t.Errorf("%s: directories %q, want %q", what, got.dirs, want.dirs)
	}
}
