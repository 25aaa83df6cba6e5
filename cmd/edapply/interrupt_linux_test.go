package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestJSONInterruptedBeforeCommit: a --json run terminated while it still
// reads its reply, from a pipe its writer keeps open, ends: it prints the
// one receipt the contract owes, which says it was interrupted, exits 1
// and writes nothing; a run without --json ends the default way, having
// written nothing either.
func TestJSONInterruptedBeforeCommit(t *testing.T) {
	for _, asJSON := range []bool{true, false} {
		root, state := t.TempDir(), t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-C", root}
		if asJSON {
			args = append(args, "--json")
		}
		cmd := exec.Command("edapply", args...)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "NO_COLOR=1")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once the command has taken the reply's first bytes from the pipe,
		// it is past its start-up and reading.
		reply := "a.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"
		if _, err := in.Write([]byte(reply[:6])); err != nil {
			t.Fatal(err)
		}
		waitDrained(t, in.(*os.File))
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		// The rest of the reply never comes and the pipe stays open, as a
		// harness that gives up on a slow writer leaves it: the signal
		// alone must end the run.
		ended := make(chan error, 1)
		go func() { ended <- cmd.Wait() }()
		select {
		case err = <-ended:
		case <-time.After(2 * time.Minute):
			cmd.Process.Kill()
			<-ended
			t.Fatalf("json=%v: the run went on reading its reply after SIGTERM\n%s", asJSON, out.String())
		}
		in.Close()
		if got, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(got) != "a\n" {
			t.Errorf("json=%v: an interrupted run wrote a.txt: %q", asJSON, got)
		}
		if !asJSON {
			continue
		}
		if status := exitStatusOf(t, err); status != exitFailed {
			t.Errorf("exit %d, want %d\n%s", status, exitFailed, out.String())
		}
		var r struct {
			OK     bool
			Errors []struct{ Code, Message string }
		}
		dec := json.NewDecoder(&out)
		if err := dec.Decode(&r); err != nil || dec.More() {
			t.Fatalf("stdout is not one JSON object (%v):\n%s", err, out.String())
		}
		if r.OK || len(r.Errors) != 1 || r.Errors[0].Code != "IO_ERROR" || !strings.Contains(r.Errors[0].Message, "interrupted") {
			t.Errorf("receipt %+v, want one IO_ERROR saying interrupted", r)
		}
	}
}

// waitDrained waits until the pipe w writes to holds no unread byte.
func waitDrained(t *testing.T, w *os.File) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var n int32
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, w.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
			t.Skipf("FIONREAD on a pipe: %v", errno)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the command never read its standard input")
		}
		time.Sleep(time.Millisecond)
	}
}
