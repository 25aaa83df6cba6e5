package apply

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/edapply/edapply/edit"
)

// pollerSetUp reports whether the process holds the runtime's network
// poller (its epoll descriptor), looking at its descriptors' links in
// /proc without opening anything, which could set the poller up itself.
func pollerSetUp(t *testing.T) bool {
	var fds, links int
	buf := make([]byte, 256)
	for fd := 0; fd < 256; fd++ {
		n, err := syscall.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd), buf)
		if err != nil {
			continue
		}
		fds++
		if strings.Contains(string(buf[:n]), "eventpoll") {
			links++
		}
	}
	if fds == 0 {
		t.Skip("no /proc/self/fd to look at")
	}
	return links > 0
}

// TestApplyLeavesThePollerAlone applies, in a process of its own, edits
// to a small file in the root and one in a directory below it, twice,
// with the syncs, in a root whose state directory holds a journal and
// whose state base's daily pruning pass has ended (an apply in the
// test's own process did both): the root's lock, the journal, the state
// directory, the tree's directories and the small files the resolver
// reads are all opened without offering them to the runtime's poller, so
// it is never set up, and the scheduler never polls it.
func TestApplyLeavesThePollerAlone(t *testing.T) {
	if root := os.Getenv("EDAPPLY_TEST_POLLER_ROOT"); root != "" {
		if pollerSetUp(t) {
			t.Skip("the poller was set up before the apply")
		}
		opts := Options{Root: root, StateDir: os.Getenv("EDAPPLY_TEST_POLLER_STATE")}
		for _, step := range [][2]string{{"old", "new"}, {"new", "newer"}} {
			edits := []edit.Edit{
				{Op: edit.Replace, Path: "f.txt", Old: step[0] + "\n", New: step[1] + "\n"},
				{Op: edit.Replace, Path: "sub/g.txt", Old: step[0] + "\n", New: step[1] + "\n"},
			}
			if res, err := Apply(context.Background(), edits, opts); err != nil || !res.OK || res.Journal == "" {
				t.Fatalf("apply %s to %s: %v", step[0], step[1], err)
			}
		}
		fmt.Printf("poller set up: %v\n", pollerSetUp(t))
		return
	}
	root, state := t.TempDir(), t.TempDir()
	for _, p := range []string{"f.txt", "sub/g.txt", "first.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte("x\nold\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := []edit.Edit{{Op: edit.Replace, Path: "first.txt", Old: "old\n", New: "new\n"}}
	if res, err := Apply(context.Background(), first, Options{Root: root, StateDir: state}); err != nil || !res.OK {
		t.Fatalf("first apply: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestApplyLeavesThePollerAlone$", "-test.v")
	cmd.Env = append(os.Environ(), "EDAPPLY_TEST_POLLER_ROOT="+root, "EDAPPLY_TEST_POLLER_STATE="+state)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(string(out), "SKIP") {
		t.Skipf("the child skipped:\n%s", out)
	}
	if !strings.Contains(string(out), "poller set up: false\n") {
		t.Errorf("the apply set up the poller:\n%s", out)
	}
	for _, p := range []string{"f.txt", "sub/g.txt"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != "x\nnewer\n" {
			t.Errorf("%s holds %q", p, b)
		}
	}
}
