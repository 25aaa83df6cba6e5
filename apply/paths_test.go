//go:build unix

package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testtree"
)

var escapeSandbox = testtree.EscapeSandbox

func TestApplyPathAttacks(t *testing.T) {
	for _, p := range []string{
		"../secret.txt",
		"../../secret.txt",
		"a/../../../secret.txt",
		"..",
		"/etc/passwd",
		"/o1/secret.txt",
		"a\x00b",
		`C:\Windows\x`,
		`C:/x`,
		`\\server\share\x`,
		`\x`,
		`..\..\secret.txt`,
		"out",
		"outrel",
		"dangling",
		"danglingAbs",
		"outdir/x",
		"outdir/new.txt",
		"sub/up/x",
		"subdir/../outdir/x",
	} {
		for _, e := range []edit.Edit{
			replace(p, "x", "y"),
			replace(p, "", "new\n"),
			{Op: edit.Create, Path: p, New: "new\n"},
			{Op: edit.Rewrite, Path: p, New: "new\n"},
			{Op: edit.Delete, Path: p},
			{Op: edit.Rename, Path: "a.txt", New: p},
		} {
			t.Run(strings.ReplaceAll(p, "/", "∕")+"/"+e.Op.String(), func(t *testing.T) {
				sandbox, root := escapeSandbox(t)
				before := readTree(t, sandbox)
				// A legitimate edit first: it must not be written either.
				edits := []edit.Edit{replace("sub/s.txt", "s\n", "S\n"), e}
				res, err := Apply(context.Background(), edits, testOpts(t, root))
				if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeOutOfRoot || res.Errors[0].Edit != 1 {
					t.Errorf("Apply(%q) = %v, want one OUT_OF_ROOT for edit 1", p, err)
				}
				diffTrees(t, "sandbox", readTree(t, sandbox), before)
			})
		}
	}
}

func TestApplySymlinkInRoot(t *testing.T) {
	for _, p := range []string{"link", "sub/link2", "absin", "subdir/../link", "sub/../sub/link2"} {
		t.Run(strings.ReplaceAll(p, "/", "∕"), func(t *testing.T) {
			sandbox, root := escapeSandbox(t)
			before := readTree(t, sandbox)
			res, err := Apply(context.Background(), []edit.Edit{replace(p, "target\n", "TARGET\n")}, testOpts(t, root))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			want := before
			want["o1/o2/tree/target.txt"] = "TARGET\n" // links kept: readTree shows them as "-> target"
			diffTrees(t, "sandbox", readTree(t, sandbox), want)
			if res.Files[0].Path != filepath.Clean(p) {
				t.Errorf("path = %q, want %q as written", res.Files[0].Path, p)
			}
		})
	}
	t.Run("twoNamesOneFile", func(t *testing.T) {
		_, root := escapeSandbox(t)
		_, err := Apply(context.Background(), []edit.Edit{
			replace("link", "target\n", "one\n"),
			replace("target.txt", "one\n", "two\n"), // sees what the edit through the link wrote
		}, testOpts(t, root))
		if err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, root)["target.txt"]; got != "two\n" {
			t.Errorf("target.txt = %q", got)
		}
	})
	t.Run("createThroughDangling", func(t *testing.T) {
		_, root := escapeSandbox(t)
		if _, err := Apply(context.Background(), []edit.Edit{{Op: edit.Create, Path: "newlink", New: "n\n"}}, testOpts(t, root)); err != nil {
			t.Fatal(err)
		}
		got := readTree(t, root)
		if got["newlink"] != "-> sub/new.txt" || got["sub/new.txt"] != "n\n" {
			t.Errorf("newlink = %q, sub/new.txt = %q", got["newlink"], got["sub/new.txt"])
		}
	})
	t.Run("loop", func(t *testing.T) {
		_, root := escapeSandbox(t)
		res, err := Apply(context.Background(), []edit.Edit{replace("loop", "a", "b")}, testOpts(t, root))
		if err == nil || !hasCode(res.Errors, edit.CodeIO) {
			t.Errorf("Apply = %v, want IO_ERROR", err)
		}
	})
}

func TestApplyFIFO(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Opening a FIFO for reading would block with no writer; finishing
	// proves it is only inspected.
	for _, e := range []edit.Edit{replace("fifo", "a", "b"), {Op: edit.Create, Path: "fifo", New: "x"}, {Op: edit.Delete, Path: "fifo"}} {
		res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
		if err == nil || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("%v on a fifo: %v, want IO_ERROR naming a named pipe", e.Op, err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, "fifo")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("fifo changed: %v %v", fi, err)
	}
}

// TestApplyAbsoluteInRoot applies edits that name files by absolute path
// inside the root, and refuses one outside it with nothing written.
func TestApplyAbsoluteInRoot(t *testing.T) {
	sandbox, root := escapeSandbox(t)
	before := readTree(t, sandbox)
	_, err := Apply(context.Background(), []edit.Edit{
		replace(root+"/sub/s.txt", "s\n", "S\n"),
		replace(root+"/link", "target\n", "TARGET\n"),
		{Op: edit.Create, Path: root + "/sub/new.txt", New: "n\n"},
	}, testOpts(t, root))
	if err != nil {
		t.Fatal(err)
	}
	want := before
	want["o1/o2/tree/sub/s.txt"] = "S\n"
	want["o1/o2/tree/target.txt"] = "TARGET\n"
	want["o1/o2/tree/sub/new.txt"] = "n\n"
	diffTrees(t, "sandbox", readTree(t, sandbox), want)

	before = readTree(t, sandbox)
	res, err := Apply(context.Background(), []edit.Edit{
		replace(root+"/a.txt", "a\n", "A\n"),
		replace(root+"2/x", "x\n", "y\n"),
	}, testOpts(t, root))
	if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeOutOfRoot || res.Errors[0].Edit != 1 {
		t.Errorf("Apply = %v, want one OUT_OF_ROOT for edit 1", err)
	}
	diffTrees(t, "sandbox", readTree(t, sandbox), before)
}
