package shell

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestFixTimeout: a fixer past its time is an error, its output does not
// count.
func TestFixTimeout(t *testing.T) {
	out, err := Fix(context.Background(), t.TempDir(), "echo partial; sleep 30", 200*time.Millisecond, nil)
	if err == nil || !strings.Contains(err.Error(), "timed out") || out != nil {
		t.Fatalf("Fix = %q, %v; want a timeout error and no output", out, err)
	}
}

// TestFixOutput: a fixer's stdout is the answer, within maxFixerOutput;
// a failing one's error ends with its stderr, on one line.
func TestFixOutput(t *testing.T) {
	if _, err := Fix(context.Background(), t.TempDir(), "head -c 5000000 /dev/zero", 10*time.Second, nil); err == nil {
		t.Error("Fix accepted more than maxFixerOutput bytes")
	}
	out, err := Fix(context.Background(), t.TempDir(), "cat", 10*time.Second, []byte("in"))
	if err != nil || string(out) != "in" {
		t.Errorf("Fix(cat) = %q, %v; want the input back", out, err)
	}
	_, err = Fix(context.Background(), t.TempDir(), "printf 'no\\nfix' >&2; exit 3", 10*time.Second, nil)
	if err == nil || err.Error() != "the fixer exited with status 3; stderr: no fix" {
		t.Errorf("Fix of a failing fixer = %v", err)
	}
}

// TestVerify: the output's tail comes back whether the command passes or
// fails, and a failure says it was --verify's.
func TestVerify(t *testing.T) {
	out, err := Verify("echo ok", 0)(context.Background(), t.TempDir())
	if err != nil || out != "ok\n" {
		t.Errorf("Verify(echo ok) = %q, %v", out, err)
	}
	out, err = Verify("echo broken >&2; exit 1", 0)(context.Background(), t.TempDir())
	if err == nil || err.Error() != "--verify command exited with status 1" || out != "broken\n" {
		t.Errorf("Verify of a failing command = %q, %v", out, err)
	}
}
