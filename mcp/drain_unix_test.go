//go:build unix

package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// holdRootLock takes the lock every edapply takes on root before it
// writes, as another edapply in the middle of a commit would hold it, and
// returns its release. An apply_edits in the root waits for it: a call
// that stays in flight for as long as the test wants, with no clock.
func holdRootLock(t *testing.T, root string) func() {
	t.Helper()
	f, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		t.Fatal(err)
	}
	var once sync.Once
	release := func() { once.Do(func() { f.Close() }) }
	t.Cleanup(release)
	return release
}

// lockedBuffer is a server's output that a test may read while the
// server writes it; wrote has a token after each write.
type lockedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func newLockedBuffer() *lockedBuffer { return &lockedBuffer{wrote: make(chan struct{}, 1)} }

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer func() {
		select {
		case b.wrote <- struct{}{}:
		default:
		}
	}()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// servePiped serves what comes from in in root in the background and
// returns the output, a channel that is closed when the server has met
// the end of input with calls unanswered, and one that yields Serve's
// error.
func servePiped(t *testing.T, ctx context.Context, root string, in io.Reader) (*lockedBuffer, <-chan struct{}, <-chan error) {
	t.Helper()
	out := newLockedBuffer()
	draining := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		served <- serve(ctx, New(Options{Root: root, StateDir: t.TempDir()}), in, out, func() { close(draining) })
	}()
	return out, draining, served
}

// awaitDraining waits until the server has met the end of input with
// calls unanswered, and fails the test if Serve returns first: the calls
// the test holds in flight (an apply waiting for the root's lock) must
// keep it serving.
func awaitDraining(t *testing.T, out *lockedBuffer, draining <-chan struct{}, served <-chan error) {
	t.Helper()
	select {
	case <-draining:
	case err := <-served:
		t.Fatalf("Serve returned %v at the end of input with the apply still waiting; output:\n%s", err, out.Bytes())
	}
}

// An apply_edits still running when the input ends (here waiting for the
// root's lock) runs to its end, and its receipt, like every other answer,
// is written before Serve returns nil.
func TestServeFinishesACallInFlightAtEndOfInput(t *testing.T) {
	root := pipedRoot(t)
	release := holdRootLock(t, root)
	out, draining, served := servePiped(t, context.Background(), root, strings.NewReader(pipedSession))
	awaitDraining(t, out, draining, served)
	release()
	if err := <-served; err != nil {
		t.Fatalf("Serve at the end of input: %v", err)
	}
	checkApplied(t, out.Bytes(), 4, 3, root)
}

// Serve's context done (edapply-mcp's SIGINT or SIGTERM) stops a call in
// flight, at the end of input too: an apply waiting for the root's lock
// gives up and writes nothing, even once the lock is free, and Serve
// returns the context's error. The client waits for initialize's answer
// before it sends the apply, which is then the only call in flight: the
// SDK cancels the calls in flight when it fails to write a response, as it
// does once closing, and no other response is owed here.
func TestServeStopsACallInFlightWhenCancelled(t *testing.T) {
	root := pipedRoot(t)
	release := holdRootLock(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, client := io.Pipe()
	out, draining, served := servePiped(t, ctx, root, in)
	lines := strings.SplitAfter(pipedSession, "\n")
	if _, err := io.WriteString(client, lines[0]); err != nil {
		t.Fatal(err)
	}
	for !bytes.Contains(out.Bytes(), []byte(`"id":1`)) {
		select {
		case <-out.wrote:
		case err := <-served:
			t.Fatalf("Serve returned %v before answering initialize", err)
		}
	}
	for _, line := range lines[1:] {
		if strings.Contains(line, `"apply_edits"`) || strings.Contains(line, `"initialized"`) {
			if _, err := io.WriteString(client, line); err != nil {
				t.Fatal(err)
			}
		}
	}
	client.Close()
	awaitDraining(t, out, draining, served)
	cancel()
	release()
	if err := <-served; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve after its context was cancelled: %v, want %v", err, context.Canceled)
	}
	if got := readFile(t, root, "a.txt"); got != "a\n" {
		t.Errorf("a.txt holds %q after the apply was stopped, want it untouched", got)
	}
}

// A call that reuses the id of a call in flight is dropped by the SDK
// unanswered; the end of input does not wait for it (a server that did
// would never exit, and this test would hang), and the call in flight is
// answered once.
func TestServeEndsDespiteAReusedID(t *testing.T) {
	root := pipedRoot(t)
	release := holdRootLock(t, root)
	lines := strings.SplitAfter(pipedSession, "\n")
	var session strings.Builder
	for _, line := range lines {
		if strings.Contains(line, `"tools/list"`) {
			continue
		}
		// read_file under the id of the apply, which waits for the lock.
		session.WriteString(strings.Replace(line, `"id":4,`, `"id":3,`, 1))
	}
	out, draining, served := servePiped(t, context.Background(), root, strings.NewReader(session.String()))
	awaitDraining(t, out, draining, served)
	release()
	if err := <-served; err != nil {
		t.Fatalf("Serve at the end of input: %v", err)
	}
	as := answers(t, out.Bytes())
	if len(as) != 2 || as[0].ID != 1 || as[1].ID != 3 || !bytes.Contains(as[1].Result, []byte(`"ok":true`)) {
		t.Errorf("answers %+v, want initialize's and the apply's receipt; output:\n%s", as, out.Bytes())
	}
	if got := readFile(t, root, "a.txt"); got != "a\nb\n" {
		t.Errorf("a.txt holds %q, want %q", got, "a\nb\n")
	}
}
