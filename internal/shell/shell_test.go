package shell

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunEnds: each way a command ends is said in words that follow its
// name, and only exit status 0 is success.
func TestRunEnds(t *testing.T) {
	dir := t.TempDir()
	interrupted, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("SIGTERM"))
	for _, c := range []struct {
		name, line string
		ctx        context.Context
		dir        string
		timeout    time.Duration
		want       string // "" for success
	}{
		{"exit 0", "true", context.Background(), dir, 0, ""},
		{"exit 7", "exit 7", context.Background(), dir, 0, "exited with status 7"},
		{"timeout", "sleep 30", context.Background(), dir, 100 * time.Millisecond, "timed out after 100ms and was killed"},
		{"interrupted", "sleep 30", interrupted, dir, time.Minute, "was interrupted: SIGTERM"},
		{"no dir", "true", context.Background(), filepath.Join(dir, "missing"), 0, "did not start: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Run(c.ctx, c.dir, c.line, c.timeout, nil, nil, nil)
			if c.want == "" {
				if err != nil {
					t.Errorf("Run(%q) = %v, want nil", c.line, err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("Run(%q) = %v, want %q", c.line, err, c.want)
			}
		})
	}
}

// TestRunStreams: the command reads stdin and writes stdout and stderr in
// dir.
func TestRunStreams(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	err := Run(context.Background(), dir, "cat; pwd >&2", 0, strings.NewReader("in"), &out, &errOut)
	if err != nil || out.String() != "in" || strings.TrimSpace(errOut.String()) != dir {
		t.Errorf("Run = %v, stdout %q, stderr %q; want the input back and %s", err, out.String(), errOut.String(), dir)
	}
}

func TestTail(t *testing.T) {
	tb := Tail{Max: 8}
	tb.Write([]byte("1234567"))
	tb.Write([]byte("89"))
	if s := tb.String(); s != "23456789" {
		t.Errorf("tail = %q, want the last 8 bytes", s)
	}
	if n, _ := tb.Write([]byte("abcdefghijkl")); n != 12 || tb.String() != "efghijkl" {
		t.Errorf("after a large write: %d written, tail %q", n, tb.String())
	}
	tb = Tail{Max: 2}
	tb.Write([]byte("é!")) // a cut inside é
	if s := tb.String(); s != "!" {
		t.Errorf("tail = %q, want the broken character dropped", s)
	}
}

// TestHead: a Head keeps the first Max bytes, takes every write whole,
// and says whether anything was left out.
func TestHead(t *testing.T) {
	h := Head{Max: 4}
	if n, _ := h.Write([]byte("123")); n != 3 || h.Over() {
		t.Fatalf("after 3 of 4 bytes: %d written, over %v", n, h.Over())
	}
	h.Write([]byte("4"))
	if string(h.Bytes()) != "1234" || h.Over() {
		t.Fatalf("at the limit: %q, over %v; want 1234, not over", h.Bytes(), h.Over())
	}
	if n, _ := h.Write([]byte("56")); n != 2 || string(h.Bytes()) != "1234" || !h.Over() {
		t.Errorf("past the limit: %d written, %q, over %v; want 2, 1234, over", n, h.Bytes(), h.Over())
	}
}
