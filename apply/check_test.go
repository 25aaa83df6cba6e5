package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edapply/edapply/edit"
)

func TestCheckPass(t *testing.T) {
	root, _, edits := txnCase(t)
	opts := testOpts(t, root)
	opts.Check = "cat a.txt new/deep/n.txt; echo ok >&2"
	res, err := Apply(context.Background(), edits, opts)
	if err != nil || !res.OK {
		t.Fatalf("Apply: %v", err)
	}
	if res.CheckOutput != "A\nn\nok\n" {
		t.Errorf("CheckOutput = %q", res.CheckOutput)
	}
}

func TestCheckFail(t *testing.T) {
	root, before, edits := txnCase(t)
	// The mode change must be undone too.
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "b.txt", Old: "B", New: "BB", Count: 1, Mode: 0o700})
	opts := testOpts(t, root)
	// The check sees the new tree, scribbles on a file the apply wrote,
	// and fails: that file keeps the scribble, and the receipt says it
	// was not restored.
	opts.Check = `test "$(cat b.txt)" = BB && echo scribble > a.txt && seq 1 3000 && exit 7`
	res, err := Apply(context.Background(), edits, opts)
	if err == nil || res.OK || len(res.Errors) != 2 || res.Errors[0].Code != edit.CodeCheckFailed ||
		res.Errors[1].Code != edit.CodeOutOfDate || res.Errors[1].Path != "a.txt" || !strings.Contains(res.Errors[1].Msg, "not restored") {
		t.Fatalf("Apply = %v, want CHECK_FAILED and a.txt not restored", res.Errors)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "scribble\n" {
		t.Errorf("a.txt = %q, want the check's scribble kept", b)
	}
	before["a.txt"] = "scribble\n"
	if !strings.Contains(err.Error(), "exit status 7") || res.Errors[0].Hint == "" {
		t.Errorf("error = %v (hint %q), want the exit status", err, res.Errors[0].Hint)
	}
	if len(res.CheckOutput) > checkTail || !strings.HasSuffix(res.CheckOutput, "2999\n3000\n") {
		t.Errorf("CheckOutput = %d bytes ending %q", len(res.CheckOutput), res.CheckOutput[max(0, len(res.CheckOutput)-20):])
	}
	unchanged(t, root, before)
	for _, f := range res.Files {
		for _, er := range f.Edits {
			if f.Path == "a.txt" {
				// Written, then changed by the check: the receipt says
				// what is on disk, and that the edit was written.
				if er.Status != StatusApplied || f.AfterHash != HashBytes([]byte("scribble\n")) {
					t.Errorf("a.txt: edit %d %s, after hash %.8s: want applied and the scribble's hash", er.Index, er.Status, f.AfterHash)
				}
				continue
			}
			if er.Status != StatusMatched || f.AfterHash != f.BeforeHash {
				t.Errorf("%s: edit %d %s, after hash %.8s: want matched and the before hash %.8s, as restored", f.Path, er.Index, er.Status, f.AfterHash, f.BeforeHash)
			}
		}
	}
	if m := mode(t, filepath.Join(root, "b.txt")).Perm(); m != 0o644 {
		t.Errorf("b.txt mode = %v, want 0644 back", m)
	}
	// Nothing was left applied, so there is nothing to undo.
	if _, err := Undo(context.Background(), opts); err == nil {
		t.Errorf("Undo after a failed check succeeded")
	}
}

func TestCheckTimeout(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	opts := testOpts(t, root)
	opts.Check = "sleep 10"
	opts.CheckTimeout = 100 * time.Millisecond
	res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts)
	if err == nil || !hasCode(res.Errors, edit.CodeCheckFailed) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Apply = %v, want CHECK_FAILED timed out", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt = %q, not restored", b)
	}
}

func TestTailBuffer(t *testing.T) {
	var tb tailBuffer
	tb.Write([]byte(strings.Repeat("x", checkTail-1)))
	tb.Write([]byte("yz"))
	if s := tb.String(); len(s) != checkTail || !strings.HasSuffix(s, "xyz") {
		t.Errorf("tail = %d bytes ending %q", len(s), s[len(s)-3:])
	}
	tb.Write([]byte(strings.Repeat("w", 2*checkTail)))
	if s := tb.String(); s != strings.Repeat("w", checkTail) {
		t.Errorf("tail after a large write is wrong")
	}
}
