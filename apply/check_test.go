package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestVerifyPass: Verify sees the written tree at the absolute root; what
// it returns as output is the Result's, and the edits stay.
func TestVerifyPass(t *testing.T) {
	root, _, edits := txnCase(t)
	opts := testOpts(t, root)
	var seen string
	opts.Verify = func(_ context.Context, dir string) (string, error) {
		a, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
		n, _ := os.ReadFile(filepath.Join(dir, "new/deep/n.txt"))
		seen = string(a) + string(n)
		return "ok\n", nil
	}
	res, err := Apply(context.Background(), edits, opts)
	if err != nil || !res.OK {
		t.Fatalf("Apply: %v", err)
	}
	if seen != "A\nn\n" || res.Verify != "passed" || res.VerifyOutput != "ok\n" {
		t.Errorf("Verify saw %q; Result.Verify %q, VerifyOutput %q; want the new content, passed and its output", seen, res.Verify, res.VerifyOutput)
	}
}

func TestVerifyFail(t *testing.T) {
	root, before, edits := txnCase(t)
	// The mode change must be undone too.
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "b.txt", Old: "B", New: "BB", Count: 1, Mode: 0o700})
	opts := testOpts(t, root)
	// The verification sees the new tree, scribbles on a file the apply
	// wrote, and fails: that file keeps the scribble, and the receipt says
	// it was not restored.
	opts.Verify = func(_ context.Context, dir string) (string, error) {
		if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "BB\n" {
			return "", errors.New("b.txt not written")
		}
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("scribble\n"), 0o644); err != nil {
			return "", err
		}
		return "FAIL: TestB\n", errors.New("tests failed")
	}
	res, err := Apply(context.Background(), edits, opts)
	if err == nil || res.OK || len(res.Errors) != 2 || res.Errors[0].Code != edit.CodeCheckFailed ||
		res.Errors[1].Code != edit.CodeOutOfDate || res.Errors[1].Path != "a.txt" || !strings.Contains(res.Errors[1].Msg, "not restored") {
		t.Fatalf("Apply = %v, want CHECK_FAILED and a.txt not restored", res.Errors)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "scribble\n" {
		t.Errorf("a.txt = %q, want the verification's scribble kept", b)
	}
	before["a.txt"] = "scribble\n"
	if msg := res.Errors[0].Msg; msg != "tests failed; some files were not restored" || res.Errors[0].Hint == "" {
		t.Errorf("error %q (hint %q), want Verify's error and what was restored", msg, res.Errors[0].Hint)
	}
	if res.Verify != "failed" || res.VerifyOutput != "FAIL: TestB\n" {
		t.Errorf("Result.Verify %q, VerifyOutput %q; want failed and its output", res.Verify, res.VerifyOutput)
	}
	unchanged(t, root, before)
	for _, f := range res.Files {
		for _, er := range f.Edits {
			if f.Path == "a.txt" {
				// Written, then changed by the verification: the receipt
				// says what is on disk, and that the edit was written.
				if er.Status != edit.StatusApplied || f.AfterHash != HashBytes([]byte("scribble\n")) {
					t.Errorf("a.txt: edit %d %s, after hash %.8s: want applied and the scribble's hash", er.Index, er.Status, f.AfterHash)
				}
				continue
			}
			if er.Status != edit.StatusMatched || f.AfterHash != f.BeforeHash {
				t.Errorf("%s: edit %d %s, after hash %.8s: want matched and the before hash %.8s, as restored", f.Path, er.Index, er.Status, f.AfterHash, f.BeforeHash)
			}
		}
	}
	if m := mode(t, filepath.Join(root, "b.txt")).Perm(); m != 0o644 {
		t.Errorf("b.txt mode = %v, want 0644 back", m)
	}
	// Nothing was left applied, so there is nothing to undo.
	if _, err := Undo(context.Background(), opts); err == nil {
		t.Errorf("Undo after a failed verification succeeded")
	}
}

// TestVerifyInterrupted: a verification ended by its context (an
// interrupt) fails, and the files are put back all the same.
func TestVerifyInterrupted(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	opts := testOpts(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Verify = func(ctx context.Context, _ string) (string, error) {
		cancel()
		<-ctx.Done()
		return "", ctx.Err()
	}
	res, err := Apply(ctx, []edit.Edit{replace("a.txt", "a", "A")}, opts)
	if err == nil || !hasCode(res.Errors, edit.CodeCheckFailed) || !strings.Contains(err.Error(), "every file was restored") {
		t.Fatalf("Apply = %v, want CHECK_FAILED with every file restored", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt = %q, not restored", b)
	}
}

// TestVerifySkipped: Verify is never called when nothing is written, and
// the Result says it was skipped; without Verify it says nothing.
func TestVerifySkipped(t *testing.T) {
	for name, c := range map[string]struct {
		dryRun bool
		edit   edit.Edit
	}{
		"dry run":     {true, replace("a.txt", "a", "A")},
		"edit failed": {false, replace("a.txt", "nowhere", "A")},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"a.txt": "a\n"})
			opts := testOpts(t, root)
			opts.DryRun = c.dryRun
			called := false
			opts.Verify = func(context.Context, string) (string, error) { called = true; return "", nil }
			res, _ := Apply(context.Background(), []edit.Edit{c.edit}, opts)
			if called || res.Verify != "skipped" {
				t.Errorf("Verify called: %v; Result.Verify %q, want not called and skipped", called, res.Verify)
			}
			opts.Verify = nil
			if res, _ := Apply(context.Background(), []edit.Edit{c.edit}, opts); res.Verify != "" {
				t.Errorf("without Verify, Result.Verify = %q, want empty", res.Verify)
			}
		})
	}
}
