//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestConcurrentProcesses: edapply processes started at once in one root,
// each replacing its own line of a shared file and creating a file of its
// own, all exit 0, and every edit is on disk.
func TestConcurrentProcesses(t *testing.T) {
	const n = 8
	dir := t.TempDir()
	root, state := filepath.Join(dir, "root"), filepath.Join(dir, "state")
	os.Mkdir(root, 0o755)
	var shared, want strings.Builder
	for i := range n {
		fmt.Fprintf(&shared, "line %d\n", i)
		fmt.Fprintf(&want, "LINE %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "shared.txt"), []byte(shared.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	k := &killEnv{root: root, state: state}
	var wg sync.WaitGroup
	outs := make([]string, n)
	status := make([]int, n)
	for i := range n {
		response := filepath.Join(dir, fmt.Sprintf("r%d.txt", i))
		os.WriteFile(response, fmt.Appendf(nil, "shared.txt\n<<<<<<< SEARCH\nline %d\n=======\nLINE %d\n>>>>>>> REPLACE\n\nown%d.txt\n<<<<<<< SEARCH\n=======\nmine\n>>>>>>> REPLACE\n", i, i, i), 0o644)
		wg.Go(func() {
			out, err := k.command("--json", "-C", root, response).CombinedOutput()
			status[i], outs[i] = exitStatusOf(t, err), string(out)
		})
	}
	wg.Wait()
	for i := range n {
		if status[i] != exitOK {
			t.Errorf("edapply %d exited %d:\n%s", i, status[i], outs[i])
		}
		if b, err := os.ReadFile(filepath.Join(root, fmt.Sprintf("own%d.txt", i))); err != nil || string(b) != "mine\n" {
			t.Errorf("own%d.txt = %q, %v", i, b, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "shared.txt")); string(b) != want.String() {
		t.Errorf("shared.txt =\n%s\nwant\n%s", b, want.String())
	}
}

// TestLockHeldByProcess: while one edapply is part way through its commit,
// another in the same root waits; with --lock-timeout 0 it fails at once
// with IO_ERROR and writes nothing. Once the first is killed, the system
// has dropped its lock and the next one goes ahead.
func TestLockHeldByProcess(t *testing.T) {
	k := newKillEnv(t)
	first := k.command("-C", k.root, k.response)
	first.Env = append(first.Env, "EDAPPLY_TEST_PAUSE=rename:2")
	stderr, err := first.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	if !strings.HasPrefix(line, pausedMarker) {
		first.Process.Kill()
		first.Wait()
		t.Fatalf("first edapply did not pause: %q", line)
	}
	held := snapshot(t, k.root)

	other := filepath.Join(t.TempDir(), "other.txt")
	os.WriteFile(other, []byte("keep.txt\n<<<<<<< SEARCH\nkeep\n=======\nKEEP\n>>>>>>> REPLACE\n"), 0o644)
	out, err := k.command("--json", "--lock-timeout", "0", "-C", k.root, other).CombinedOutput()
	if s := exitStatusOf(t, err); s != exitFailed {
		t.Errorf("second edapply exited %d, want 1:\n%s", s, out)
	}
	var r struct {
		Errors []struct{ Code, Message, Hint string }
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.Errors) != 1 || r.Errors[0].Code != "IO_ERROR" || !strings.Contains(r.Errors[0].Message, "another edapply") {
		t.Errorf("second edapply's receipt does not name the lock (%v):\n%s", err, out)
	} else if !strings.Contains(r.Errors[0].Hint, "--lock-timeout") {
		t.Errorf("the command line's hint does not name --lock-timeout: %q", r.Errors[0].Hint)
	}
	out, err = k.command("undo", "--lock-timeout", "0", "-C", k.root).CombinedOutput()
	if s := exitStatusOf(t, err); s != exitFailed || !strings.Contains(string(out), "another edapply") {
		t.Errorf("undo exited %d, want 1 naming the lock:\n%s", s, out)
	}
	diffTTree(t, "while the lock is held", snapshot(t, k.root), held)

	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	out, err = k.command("--lock-timeout", "0", "-C", k.root, other).CombinedOutput()
	if s := exitStatusOf(t, err); s != exitOK {
		t.Errorf("edapply after the holder died exited %d:\n%s", s, out)
	}
}
