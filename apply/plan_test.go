package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/rogpeppe/go-internal/txtar"
)

// tree is a file tree for tests: slash path → content.
type tree map[string]string

func writeTree(t *testing.T, dir string, tr tree) {
	t.Helper()
	for name, content := range tr {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns every regular file under dir; symlinks are reported as
// "-> target" so that a test sees a link replaced by a file.
func readTree(t *testing.T, dir string) tree {
	t.Helper()
	tr := tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			tr[rel] = "-> " + target
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tr[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func diffTrees(t *testing.T, what string, got, want tree) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: %s missing", what, name)
		case g != w:
			t.Errorf("%s: %s = %q, want %q", what, name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected file %s (%q)", what, name, got[name])
		}
	}
}

// noTemps fails when a temp file of edapply's is left under dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".edapply-") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
}

func testOpts(t *testing.T, root string) Options {
	return Options{Root: root, StateDir: filepath.Join(t.TempDir(), "state")}
}

func codes(errs edit.ErrorList) []string {
	var cs []string
	for _, e := range errs {
		cs = append(cs, string(e.Code))
	}
	return cs
}

// applyCase applies edits to before, written in root. With after nil it
// demands an error with code and the tree unchanged, and returns nil;
// else success and the tree after, and returns the result.
func applyCase(t *testing.T, root string, before tree, edits []edit.Edit, after tree, code string) *Result {
	t.Helper()
	writeTree(t, root, before)
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	got := readTree(t, root)
	if after == nil {
		if err == nil || !hasCode(res.Errors, edit.Code(code)) {
			t.Fatalf("Apply: %v, want %s", err, code)
		}
		diffTrees(t, "tree", got, before)
		return nil
	}
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	diffTrees(t, "tree", got, after)
	return res
}

func hasCode(errs edit.ErrorList, c edit.Code) bool {
	for _, e := range errs {
		if e.Code == c {
			return true
		}
	}
	return false
}

func replace(p, old, nw string) edit.Edit {
	return edit.Edit{Op: edit.Replace, Path: p, Old: old, New: nw, Count: 1}
}

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

// TestPlanArchives runs the cases in testdata/plan. Each archive holds
// before/… (the tree), edits (a JSON array of edits; "op" spelled as
// edit.Op.String()), and either after/… (the tree afterwards) or errors (one
// code per line, in order; the tree must then be unchanged).
func TestPlanArchives(t *testing.T) {
	files, err := filepath.Glob("testdata/plan/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/plan")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			before, after := tree{}, tree{}
			var edits []edit.Edit
			var wantErrs []string
			hasAfter := false
			for _, f := range ar.Files {
				switch {
				case strings.HasPrefix(f.Name, "before/"):
					before[strings.TrimPrefix(f.Name, "before/")] = string(f.Data)
				case strings.HasPrefix(f.Name, "after/"):
					after[strings.TrimPrefix(f.Name, "after/")] = string(f.Data)
					hasAfter = true
				case f.Name == "edits":
					if edits, err = decodeEdits(f.Data); err != nil {
						t.Fatalf("edits: %v", err)
					}
				case f.Name == "errors":
					wantErrs = strings.Fields(string(f.Data))
				default:
					t.Fatalf("unknown section %s", f.Name)
				}
			}
			if hasAfter == (wantErrs != nil) {
				t.Fatal("a case needs either after/… or errors")
			}
			root := t.TempDir()
			writeTree(t, root, before)
			res, err := Apply(context.Background(), edits, testOpts(t, root))
			got := readTree(t, root)
			if wantErrs != nil {
				if err == nil || res.OK {
					t.Fatalf("Apply succeeded, want %v", wantErrs)
				}
				if g := codes(res.Errors); strings.Join(g, " ") != strings.Join(wantErrs, " ") {
					t.Errorf("errors = %v, want %v (%v)", g, wantErrs, err)
				}
				diffTrees(t, "tree", got, before)
				return
			}
			if err != nil || !res.OK {
				t.Fatalf("Apply: %v", err)
			}
			diffTrees(t, "tree", got, after)
		})
	}
}

// decodeEdits reads the archives' edits: the edit.Edit fields, lowercased,
// with op by name.
func decodeEdits(data []byte) ([]edit.Edit, error) {
	var raw []struct {
		Op, Path, Old, New string
		Count              *int
		Hint               int
		Mode               uint32
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	ops := map[string]edit.Op{}
	for op := edit.Create; op.Valid(); op++ {
		ops[op.String()] = op
	}
	var edits []edit.Edit
	for _, r := range raw {
		op, ok := ops[r.Op]
		if !ok {
			return nil, errors.New("unknown op " + r.Op)
		}
		e := edit.Edit{Op: op, Path: r.Path, Old: r.Old, New: r.New, Count: 1, Hint: r.Hint, Mode: r.Mode}
		if r.Count != nil {
			e.Count = *r.Count
		}
		edits = append(edits, e)
	}
	return edits, nil
}

func TestApplyAtomic(t *testing.T) {
	root := t.TempDir()
	before := tree{"a.txt": "one\ntwo\n", "b/b.txt": "three\n", "c.txt": "four\nfive\n"}
	writeTree(t, root, before)
	edits := []edit.Edit{
		replace("a.txt", "two\n", "TWO\n"),
		replace("b/b.txt", "three\n", "THREE\n"),
		{Op: edit.Create, Path: "new/dir/n.txt", New: "new\n"},
		replace("c.txt", "six\n", "SIX\n"),
	}
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err == nil || res.OK {
		t.Fatalf("Apply = ok, want NO_MATCH")
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeNoMatch || res.Errors[0].Edit != 3 || res.Errors[0].Path != "c.txt" {
		t.Errorf("errors = %v, want one NO_MATCH for edit 3 in c.txt", res.Errors)
	}
	diffTrees(t, "tree", readTree(t, root), before)
	if _, err := os.Stat(filepath.Join(root, "new")); !os.IsNotExist(err) {
		t.Errorf("directory new was created: %v", err)
	}
	noTemps(t, root)
	// The receipt still shows what the other edits would have done, as
	// matched, and what is on disk: every after hash is the before hash.
	if len(res.Files) != 4 || res.Files[0].Edits[0].Status != edit.StatusMatched || res.Files[3].Edits[0].Status != edit.StatusFailed {
		t.Errorf("files = %+v", res.Files)
	}
	for _, f := range res.Files {
		if f.AfterHash != f.BeforeHash {
			t.Errorf("%s: after hash %.8s, want the before hash %.8s: nothing was written", f.Path, f.AfterHash, f.BeforeHash)
		}
	}
	if string(res.Files[0].After) != "one\nTWO\n" {
		t.Errorf("a.txt: After = %q, want the content the edit makes", res.Files[0].After)
	}
}

func TestApplyReportsEveryFailure(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "x\ny\n"})
	edits := []edit.Edit{
		replace("a.txt", "nope\n", "1\n"),
		replace("a.txt", "x\n", "X\n"),
		replace("a.txt", "also nope\n", "2\n"),
		replace("missing.txt", "a", "b"),
	}
	res, _ := Apply(context.Background(), edits, testOpts(t, root))
	want := []string{"NO_MATCH", "NO_MATCH", "FILE_NOT_FOUND"}
	if g := codes(res.Errors); strings.Join(g, " ") != strings.Join(want, " ") {
		t.Errorf("codes = %v, want %v", g, want)
	}
	if res.Errors[1].Edit != 2 || res.Errors[2].Hint == "" {
		t.Errorf("errors = %+v", res.Errors)
	}
	if got := readTree(t, root)["a.txt"]; got != "x\ny\n" {
		t.Errorf("a.txt = %q, written despite errors", got)
	}
}

// TestApplyErrorsInFormatWords: the receipt tells an edit's failure in the
// words of the format it was written in, and quotes the file's line as it
// stands even when that line holds those words.
func TestApplyErrorsInFormatWords(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "// the SEARCH text goes here\nx := 1\n"})
	edits := []edit.Edit{
		{Op: edit.Replace, Path: "a.txt", Old: "// the SEARCH text goes her\n", New: "y\n", Count: 1, Format: edit.FormatJSON},
		{Op: edit.Replace, Path: "b.txt", Old: "x\n", New: "y\n", Count: 1, Format: edit.FormatJSON},
		{Op: edit.Replace, Path: "b.txt", Old: "x\n", New: "y\n", Count: 1, Format: edit.FormatUDiff},
		{Op: edit.Replace, Path: "b.txt", Old: "x\n", New: "y\n", Count: 1, Format: edit.FormatSearchReplace},
	}
	res, _ := Apply(context.Background(), edits, testOpts(t, root))
	if len(res.Errors) != 4 {
		t.Fatalf("errors = %+v, want 4", res.Errors)
	}
	for i, want := range []string{
		"Line 1 differs: the file has `// the SEARCH text goes here`, old_string has `// the SEARCH text goes her`.",
		"to create a new file, use an empty old_string or a whole-file block.",
		"to create a new file, use a hunk of only + lines or a whole-file block.",
		"to create a new file, use an empty SEARCH section or a whole-file block.",
	} {
		if !strings.Contains(res.Errors[i].Hint, want) {
			t.Errorf("edit %d: hint %q, want it to say %q", i, res.Errors[i].Hint, want)
		}
	}
}

func TestApplySequentialAndResult(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "alpha\nbeta\n"})
	edits := []edit.Edit{
		replace("a.txt", "beta\n", "beta\ngamma\n"),
		replace("./a.txt", "gamma\n", "GAMMA\n"), // quotes what edit 0 wrote
		{Op: edit.Create, Path: "d/e/new.txt", New: "n\n"},
	}
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "alpha\nbeta\nGAMMA\n", "d/e/new.txt": "n\n"})
	if len(res.Files) != 2 {
		t.Fatalf("files = %d, want 2", len(res.Files))
	}
	a, n := res.Files[0], res.Files[1]
	if a.Path != "a.txt" || a.Op != "modify" || len(a.Edits) != 2 || a.Edits[1].Index != 1 ||
		a.BeforeHash != HashBytes([]byte("alpha\nbeta\n")) || a.AfterHash != HashBytes([]byte("alpha\nbeta\nGAMMA\n")) {
		t.Errorf("a.txt result = %+v", a)
	}
	if a.Edits[1].LineStart != 3 || a.Edits[1].Strategy != edit.StrategyExact {
		t.Errorf("edit 1 = %+v, want exact at line 3", a.Edits[1])
	}
	if n.Op != "create" || n.BeforeHash != "" || string(n.After) != "n\n" || n.Edits[0].Strategy != edit.StrategyCreate {
		t.Errorf("new.txt result = %+v", n)
	}
	if m := mode(t, filepath.Join(root, "d/e/new.txt")).Perm(); m&0o600 != 0o600 || m&0o111 != 0 {
		t.Errorf("new file mode = %v", m)
	}
	noTemps(t, root)
}

func TestApplyDryRun(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n", "gone.txt": "g\n"})
	opts := testOpts(t, root)
	opts.DryRun = true
	res, err := Apply(context.Background(), []edit.Edit{
		replace("a.txt", "a\n", "b\n"),
		{Op: edit.Delete, Path: "gone.txt"},
		{Op: edit.Create, Path: "n/new.txt", New: "new\n"},
	}, opts)
	if err != nil || !res.OK || !res.DryRun {
		t.Fatalf("Apply = %v, %v", res, err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "a\n", "gone.txt": "g\n"})
	if string(res.Files[0].Before) != "a\n" || string(res.Files[0].After) != "b\n" || res.Files[1].Op != "delete" || res.Files[1].After != nil {
		t.Errorf("files = %+v %+v", res.Files[0], res.Files[1])
	}
	// Nothing was written: every edit is matched, every after hash the before hash.
	for _, f := range res.Files {
		if f.AfterHash != f.BeforeHash || f.Edits[0].Status != edit.StatusMatched {
			t.Errorf("%s: status %s, after hash %.8s, want matched and the before hash %.8s", f.Path, f.Edits[0].Status, f.AfterHash, f.BeforeHash)
		}
	}
	if _, err := os.Stat(opts.StateDir); !os.IsNotExist(err) {
		t.Errorf("dry run wrote state: %v", err)
	}
}

func TestApplyPreserves(t *testing.T) {
	for name, tc := range map[string]struct {
		before string
		mode   fs.FileMode
		e      edit.Edit
		after  string
	}{
		"replaceCRLF":        {"a\r\nb\r\nc\r\n", 0o644, replace("f", "b\n", "B\nB2\n"), "a\r\nB\r\nB2\r\nc\r\n"},
		"replaceBOM":         {bom + "a\nb\n", 0o644, replace("f", "a\n", "A\n"), bom + "A\nb\n"},
		"replaceMode":        {"a\nb\n", 0o755, replace("f", "b\n", "B\n"), "a\nB\n"},
		"replaceSetgid":      {"a\n", 0o2750, replace("f", "a\n", "A\n"), "A\n"},
		"replaceNoFinalNL":   {"a\nb", 0o644, replace("f", "b", "B"), "a\nB"},
		"replaceLatin1":      {"caf\xe9\nna\xefve\n", 0o644, replace("f", "na\xefve", "naive"), "caf\xe9\nnaive\n"},
		"rewriteCRLF":        {"a\r\nb\r\n", 0o644, edit.Edit{Op: edit.Rewrite, Path: "f", New: "x\ny\n"}, "x\r\ny\r\n"},
		"rewriteBOM":         {bom + "a\n", 0o644, edit.Edit{Op: edit.Rewrite, Path: "f", New: "x\n"}, bom + "x\n"},
		"rewriteBOMTwice":    {bom + "a\n", 0o644, edit.Edit{Op: edit.Rewrite, Path: "f", New: bom + "x\n"}, bom + "x\n"},
		"rewriteMode":        {"a\n", 0o700, edit.Edit{Op: edit.Rewrite, Path: "f", New: "x\n"}, "x\n"},
		"rewriteNoFinalNL":   {"a\nb", 0o644, edit.Edit{Op: edit.Rewrite, Path: "f", New: "x\ny\n"}, "x\ny"},
		"rewriteAddsFinalNL": {"a\n", 0o644, edit.Edit{Op: edit.Rewrite, Path: "f", New: "x"}, "x\n"},
		"rewriteCRLFNoNL":    {"a\r\nb", 0o644, edit.Edit{Op: edit.Rewrite, Path: "f", New: "x\ny\n"}, "x\r\ny"},
		"modeFromEdit":       {"a\n", 0o644, edit.Edit{Op: edit.Replace, Path: "f", Old: "a\n", New: "b\n", Count: 1, Mode: 0o755}, "b\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, "f")
			if err := os.WriteFile(p, []byte(tc.before), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, tc.mode); err != nil {
				t.Fatal(err)
			}
			want := mode(t, p)
			if tc.e.Mode != 0 {
				want = fs.FileMode(tc.e.Mode)
			}
			res, err := Apply(context.Background(), []edit.Edit{tc.e}, testOpts(t, root))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got, _ := os.ReadFile(p); string(got) != tc.after {
				t.Errorf("content = %q, want %q", got, tc.after)
			}
			if got := mode(t, p); got != want {
				t.Errorf("mode = %v, want %v", got, want)
			}
			if res.Files[0].Edits[0].Status != edit.StatusApplied {
				t.Errorf("status = %v", res.Files[0].Edits[0].Status)
			}
			noTemps(t, root)
		})
	}
}

func TestApplyCreateAndRewrite(t *testing.T) {
	for name, tc := range map[string]struct {
		before tree
		edits  []edit.Edit
		after  tree        // nil when it must fail and leave before
		code   string      // the expected error
		status edit.Status // of the first edit, on success
	}{
		"createNested":      {tree{}, []edit.Edit{{Op: edit.Create, Path: "a/b/c.txt", New: "c\n"}}, tree{"a/b/c.txt": "c\n"}, "", edit.StatusApplied},
		"createEmpty":       {tree{"e.txt": ""}, []edit.Edit{{Op: edit.Create, Path: "e.txt", New: "e\n"}}, tree{"e.txt": "e\n"}, "", edit.StatusApplied},
		"emptySearch":       {tree{"e.txt": ""}, []edit.Edit{replace("e.txt", "", "e\n")}, tree{"e.txt": "e\n"}, "", edit.StatusApplied},
		"createExists":      {tree{"e.txt": "old\n"}, []edit.Edit{{Op: edit.Create, Path: "e.txt", New: "new\n"}}, nil, "FILE_EXISTS", ""},
		"emptySearchExists": {tree{"e.txt": "old\n"}, []edit.Edit{replace("e.txt", "", "new\n")}, nil, "FILE_EXISTS", ""},
		"createSame":        {tree{"e.txt": "same\n"}, []edit.Edit{{Op: edit.Create, Path: "e.txt", New: "same\n"}}, tree{"e.txt": "same\n"}, "", edit.StatusAlreadyApplied},
		// An empty file "filled" with nothing, in every format that can
		// say it, is what it was: already applied, nothing written.
		"createNothingOnEmpty": {tree{"e.txt": ""}, []edit.Edit{{Op: edit.Create, Path: "e.txt", Format: edit.FormatJSON}}, tree{"e.txt": ""}, "", edit.StatusAlreadyApplied},
		"addNothingOnEmpty":    {tree{"e.txt": ""}, []edit.Edit{{Op: edit.Create, Path: "e.txt", Format: edit.FormatCodex}}, tree{"e.txt": ""}, "", edit.StatusAlreadyApplied},
		"emptySearchNothing":   {tree{"e.txt": ""}, []edit.Edit{replace("e.txt", "", "")}, tree{"e.txt": ""}, "", edit.StatusAlreadyApplied},
		// A file the reply creates, created again: the second is its new
		// version, and the first is not written (issue 31).
		"createTwice": {tree{}, []edit.Edit{{Op: edit.Create, Path: "n.txt", New: "1\n"}, {Op: edit.Create, Path: "n.txt", New: "2\n"}},
			tree{"n.txt": "2\n"}, "", edit.StatusMatched},
		"rewriteAbsent": {tree{}, []edit.Edit{{Op: edit.Rewrite, Path: "d/n.txt", New: "n\n"}}, tree{"d/n.txt": "n\n"}, "", edit.StatusApplied},
		"rewriteSame":   {tree{"r.txt": "r\r\n"}, []edit.Edit{{Op: edit.Rewrite, Path: "r.txt", New: "r\n"}}, tree{"r.txt": "r\r\n"}, "", edit.StatusAlreadyApplied},
		"rewriteThenReplace": {tree{"r.txt": "a\n"}, []edit.Edit{{Op: edit.Rewrite, Path: "r.txt", New: "b\nc\n"}, replace("r.txt", "c\n", "C\n")},
			tree{"r.txt": "b\nC\n"}, "", edit.StatusApplied},
		"createUnderFile": {tree{"f": "x"}, []edit.Edit{{Op: edit.Create, Path: "f/n.txt", New: "n\n"}}, nil, "IO_ERROR", ""},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			res := applyCase(t, root, tc.before, tc.edits, tc.after, tc.code)
			if res == nil {
				return
			}
			if s := res.Files[0].Edits[0].Status; s != tc.status {
				t.Errorf("status = %v, want %v", s, tc.status)
			}
		})
	}
}

func TestApplyDeleteRename(t *testing.T) {
	for name, tc := range map[string]struct {
		before tree
		edits  []edit.Edit
		after  tree
		code   string
		op     string // of the first file
	}{
		"delete":         {tree{"a": "a\n", "b": "b\n"}, []edit.Edit{{Op: edit.Delete, Path: "a"}}, tree{"b": "b\n"}, "", "delete"},
		"deleteMatching": {tree{"a": "a\r\nb\r\n"}, []edit.Edit{{Op: edit.Delete, Path: "a", Old: "a\nb\n"}}, tree{}, "", "delete"},
		"deleteOther":    {tree{"a": "a\n"}, []edit.Edit{{Op: edit.Delete, Path: "a", Old: "z\n"}}, nil, "NO_MATCH", ""},
		"deleteMissing":  {tree{}, []edit.Edit{{Op: edit.Delete, Path: "a"}}, nil, "FILE_NOT_FOUND", ""},
		"deleteTwice":    {tree{"a": "a\n"}, []edit.Edit{{Op: edit.Delete, Path: "a"}, {Op: edit.Delete, Path: "a"}}, nil, "FILE_NOT_FOUND", ""},
		"deleteRecreate": {tree{"a": "a\n"}, []edit.Edit{{Op: edit.Delete, Path: "a"}, {Op: edit.Create, Path: "a", New: "b\n"}}, tree{"a": "b\n"}, "", "modify"},
		"rename": {tree{"a": "a\n"}, []edit.Edit{{Op: edit.Rename, Path: "a", New: "d/b"}, replace("d/b", "a\n", "A\n")},
			tree{"d/b": "A\n"}, "", "rename"},
		"renameExists":  {tree{"a": "a\n", "b": "b\n"}, []edit.Edit{{Op: edit.Rename, Path: "a", New: "b"}}, nil, "FILE_EXISTS", ""},
		"renameMissing": {tree{}, []edit.Edit{{Op: edit.Rename, Path: "a", New: "b"}}, nil, "FILE_NOT_FOUND", ""},
		"renameOut":     {tree{"a": "a\n"}, []edit.Edit{{Op: edit.Rename, Path: "a", New: "../b"}}, nil, "OUT_OF_ROOT", ""},
		"renameSwapped": {tree{"a": "a\n", "b": "b\n"}, []edit.Edit{{Op: edit.Rename, Path: "a", New: "t"}, {Op: edit.Rename, Path: "b", New: "a"}, {Op: edit.Rename, Path: "t", New: "b"}},
			tree{"a": "b\n", "b": "a\n"}, "", "rename"},
		"replaceDeleted": {tree{"a": "a\n"}, []edit.Edit{{Op: edit.Delete, Path: "a"}, replace("a", "a\n", "b\n")}, nil, "FILE_NOT_FOUND", ""},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			res := applyCase(t, root, tc.before, tc.edits, tc.after, tc.code)
			if res == nil {
				return
			}
			if res.Files[0].Op != tc.op {
				t.Errorf("op = %q, want %q", res.Files[0].Op, tc.op)
			}
			noTemps(t, root)
		})
	}
}

func TestApplyRenameKeepsMode(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"run.sh": "#!/bin/sh\n"})
	os.Chmod(filepath.Join(root, "run.sh"), 0o750)
	res, err := Apply(context.Background(), []edit.Edit{{Op: edit.Rename, Path: "run.sh", New: "bin/run.sh"}}, testOpts(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(t, filepath.Join(root, "bin/run.sh")).Perm(); m != 0o750 {
		t.Errorf("mode = %v, want 0750", m)
	}
	if fr := res.Files[0]; fr.Path != "run.sh" || fr.NewPath != "bin/run.sh" || fr.Op != "rename" {
		t.Errorf("result = %+v", fr)
	}
}

func TestApplyBinary(t *testing.T) {
	for name, content := range map[string]string{
		"nul":     "abc\x00def\n",
		"lateNUL": strings.Repeat("a\n", 9000) + "\x00",
		// UTF-32, whose mark begins as UTF-16LE's: a UTF-16 file is
		// edited as its text (see decode_test.go).
		"utf32le":    "\xff\xfe\x00\x00a\x00\x00\x00",
		"nulNoMatch": "\x00",
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"bin": content})
			for _, e := range []edit.Edit{
				replace("bin", "a", "b"),
				{Op: edit.Rewrite, Path: "bin", New: "text\n"},
				{Op: edit.Delete, Path: "bin", Old: content},
			} {
				res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
				if err == nil || !hasCode(res.Errors, edit.CodeBinaryFile) {
					t.Errorf("%v: Apply = %v, want BINARY_FILE", e.Op, err)
				}
				binaryWorded(t, res.Errors)
			}
			if got := readTree(t, root)["bin"]; got != content {
				t.Errorf("binary file changed")
			}
		})
	}
	// An edit that would make a text file binary is refused itself, in
	// words of its own (see TestNULInNewTextRefused), and nothing is
	// written.
	root := t.TempDir()
	writeTree(t, root, tree{"f": "a\nb\nc\n"})
	res, err := Apply(context.Background(), []edit.Edit{replace("f", "a\n", "a\x00\n"), replace("f", "c\n", "C\n")}, testOpts(t, root))
	if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeBinaryFile || res.Errors[0].Edit != 0 || res.Errors[0].Msg != nulErr().Msg {
		t.Errorf("an edit that writes a NUL: Apply = %v, want its BINARY_FILE alone", err)
	}
	if got := readTree(t, root)["f"]; got != "a\nb\nc\n" {
		t.Errorf("file changed to %q", got)
	}
}

// binaryWorded fails unless every BINARY_FILE in errs says what a binary
// file's refusal says.
func binaryWorded(t *testing.T, errs edit.ErrorList) {
	t.Helper()
	want := binaryErr()
	for _, e := range errs {
		if e.Code == edit.CodeBinaryFile && (e.Msg != want.Msg || e.Hint != want.Hint) {
			t.Errorf("BINARY_FILE worded %q, %q; want %q, %q", e.Msg, e.Hint, want.Msg, want.Hint)
		}
	}
}

func TestApplyBase(t *testing.T) {
	content := "x := 1\n"
	h := HashBytes([]byte(content))
	for name, tc := range map[string]struct {
		base map[string]string
		code string // "" when it applies
	}{
		"full":       {map[string]string{"a.go": h}, ""},
		"upper":      {map[string]string{"a.go": strings.ToUpper(h)}, ""},
		"prefix":     {map[string]string{"./a.go": h[:8]}, ""},
		"mismatch":   {map[string]string{"a.go": HashBytes([]byte("x := 0\n"))}, "OUT_OF_DATE"},
		"badPrefix":  {map[string]string{"a.go": "0123abcd"}, "OUT_OF_DATE"},
		"missing":    {map[string]string{"nope.go": h}, "OUT_OF_DATE"},
		"untouched":  {map[string]string{"b.go": HashBytes([]byte("other\n"))}, "OUT_OF_DATE"},
		"short":      {map[string]string{"a.go": h[:7]}, "PARSE_ERROR"},
		"notHex":     {map[string]string{"a.go": "zzzzzzzzzz"}, "PARSE_ERROR"},
		"baseEscape": {map[string]string{"../a.go": h}, "OUT_OF_ROOT"},
	} {
		// Without the receipt's hashes (Omit.Hashes), --base is checked all
		// the same.
		for _, noHashes := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/nohashes=%v", name, noHashes), func(t *testing.T) {
				testApplyBase(t, content, tc.base, tc.code, noHashes)
			})
		}
	}
}

func testApplyBase(t *testing.T, content string, base map[string]string, code string, noHashes bool) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.go": content, "b.go": "b\n"})
	opts := testOpts(t, root)
	opts.Base, opts.Omit.Hashes = base, noHashes
	res, err := Apply(context.Background(), []edit.Edit{replace("a.go", "1", "2")}, opts)
	got := readTree(t, root)["a.go"]
	if code == "" {
		if err != nil || got != "x := 2\n" {
			t.Errorf("Apply: %v; a.go = %q", err, got)
		}
		return
	}
	if err == nil || !hasCode(res.Errors, edit.Code(code)) || res.OK {
		t.Errorf("Apply: %v, want %s", err, code)
	}
	if got != content {
		t.Errorf("a.go written despite %s", code)
	}
}

// TestApplyNoHashes checks that Omit.Hashes leaves the receipt's hashes out
// and changes nothing else: the same files written, the same results.
func TestApplyNoHashes(t *testing.T) {
	big := strings.Repeat("filler line\n", 20_000) // past streamMin: its after hash is streamed
	results := map[bool]*Result{}
	for _, noHashes := range []bool{false, true} {
		root := t.TempDir()
		writeTree(t, root, tree{"a.go": "x := 1\n", "big.txt": "head\n" + big + "tail\n"})
		opts := testOpts(t, root)
		opts.Omit.Hashes = noHashes
		res, err := Apply(context.Background(), []edit.Edit{replace("a.go", "1", "2"), replace("big.txt", "head", "HEAD"), replace("big.txt", "tail", "TAIL"),
			{Op: edit.Create, Path: "n.txt", New: "n\n"}}, opts)
		if err != nil || !res.OK {
			t.Fatalf("Omit.Hashes=%v: Apply: %v", noHashes, err)
		}
		diffTrees(t, "tree", readTree(t, root), tree{"a.go": "x := 2\n", "big.txt": "HEAD\n" + big + "TAIL\n", "n.txt": "n\n"})
		results[noHashes] = res
	}
	for k, f := range results[true].Files {
		with := results[false].Files[k]
		if f.BeforeHash != "" || f.AfterHash != "" {
			t.Errorf("%s: hashes %q, %q with Omit.Hashes, want none", f.Path, f.BeforeHash, f.AfterHash)
		}
		if with.AfterHash != HashBytes(with.After) || f.Path != with.Path || f.Op != with.Op || !bytes.Equal(f.After, with.After) || !bytes.Equal(f.Before, with.Before) {
			t.Errorf("%s: result with Omit.Hashes differs from the one without", f.Path)
		}
	}
}

func TestApplyNotRegular(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"dir/x": "x"})
	for _, e := range []edit.Edit{
		replace("dir", "a", "b"),
		{Op: edit.Create, Path: "dir", New: "x"},
		{Op: edit.Delete, Path: "dir"},
		{Op: edit.Rewrite, Path: ".", New: "x"},
	} {
		res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
		if err == nil || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("%v on a directory: %v, want IO_ERROR is a directory", e.Op, err)
		}
	}
}

func TestApplyUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	root := t.TempDir()
	writeTree(t, root, tree{"secret": "s\n"})
	p := filepath.Join(root, "secret")
	os.Chmod(p, 0)
	defer os.Chmod(p, 0o644)
	res, err := Apply(context.Background(), []edit.Edit{replace("secret", "s", "t")}, testOpts(t, root))
	if err == nil || !hasCode(res.Errors, edit.CodeIO) || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Apply = %v, want IO_ERROR wrapping permission denied", err)
	}
}

func TestValidBase(t *testing.T) {
	for h, want := range map[string]bool{"0123abcd": true, "0123ABCD": true, "0123abc": false, "0123abcg": false, strings.Repeat("a", 64): true, strings.Repeat("a", 65): false} {
		if got := ValidBase(h); got != want {
			t.Errorf("ValidBase(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestTrimAdded(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a": "keep  \nb\n"})
	opts := testOpts(t, root)
	opts.TrimTrailingWS = true
	_, err := Apply(context.Background(), []edit.Edit{
		{Op: edit.Rewrite, Path: "a", New: "keep  \nnew \t\nb\n"},
		{Op: edit.Create, Path: "c", New: "c  \n"},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a": "keep  \nnew\nb\n", "c": "c\n"})
}

// TestApplyElision checks the planner's wiring to the elision rules: a
// rewrite or replacement that elides code is ELISION and nothing is
// written. Which placeholders elide is locate's business, tested there.
func TestApplyElision(t *testing.T) {
	orig := "package p\n\nfunc a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n"
	rewrite := "package p\n\n// ... existing code ...\n\nfunc b() {\n\treturn 1\n}\n"
	old, nw := "func b() {\n\treturn\n}\n", "// ... existing code ...\n"
	for name, e := range map[string]edit.Edit{
		"rewrite": {Op: edit.Rewrite, Path: "p.go", New: rewrite},
		"replace": replace("p.go", old, nw),
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"p.go": orig})
			res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
			if err == nil || !hasCode(res.Errors, edit.CodeElision) {
				t.Errorf("Apply = %v, want ELISION", err)
			}
			diffTrees(t, "tree", readTree(t, root), tree{"p.go": orig})
		})
	}
}

func TestApplyRepair(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "one\ntwo\nthree\n", "b.txt": "b\n"})
	var reqs []RepairRequest
	opts := testOpts(t, root)
	opts.RepairAttempts = 2
	opts.Repair = func(ctx context.Context, req RepairRequest) ([]edit.Edit, error) {
		reqs = append(reqs, req)
		switch req.Edit.Old {
		case "tow\n": // first round: still wrong
			return []edit.Edit{replace("a.txt", "twoo\n", "TWO\n")}, nil
		case "twoo\n": // second round: right, and split in two
			return []edit.Edit{replace("a.txt", "two\n", "TWO\n"), replace("a.txt", "three\n", "THREE\n")}, nil
		}
		return nil, errors.New("no idea")
	}
	edits := []edit.Edit{
		replace("b.txt", "b\n", "B\n"),
		replace("a.txt", "tow\n", "TWO\n"),
	}
	res, err := Apply(context.Background(), edits, opts)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "one\nTWO\nTHREE\n", "b.txt": "B\n"})
	if len(reqs) != 2 || reqs[0].Index != 1 || reqs[0].Err.Code != edit.CodeNoMatch || !strings.Contains(reqs[0].FileExcerpt, "two\n") {
		t.Errorf("requests = %+v", reqs)
	}
	a := res.Files[1]
	if a.Path != "a.txt" || len(a.Edits) != 2 || a.Edits[0].Index != 1 || !a.Edits[0].Repaired || !a.Edits[1].Repaired || res.Files[0].Edits[0].Repaired {
		t.Errorf("results = %+v %+v", res.Files[0].Edits, a.Edits)
	}
}

func TestApplyRepairFails(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n", "b.txt": "b\n"})
	called := map[edit.Code]int{}
	opts := testOpts(t, root)
	opts.Repair = func(ctx context.Context, req RepairRequest) ([]edit.Edit, error) {
		called[req.Err.Code]++
		if req.Err.Code == edit.CodeFileNotFound {
			return nil, nil // gives up
		}
		return nil, errors.New("fixer crashed")
	}
	edits := []edit.Edit{
		replace("b.txt", "b\n", "B\n"),
		replace("a.txt", "zzz\n", "A\n"),
		replace("../x", "x", "y"),
		replace("nope.txt", "x", "y"),
	}
	res, err := Apply(context.Background(), edits, opts)
	if want := "NO_MATCH OUT_OF_ROOT FILE_NOT_FOUND"; err == nil || strings.Join(codes(res.Errors), " ") != want {
		t.Fatalf("Apply = %v, want %s", codes(res.Errors), want)
	}
	if called[edit.CodeOutOfRoot] != 0 || called[edit.CodeNoMatch] != 1 || called[edit.CodeFileNotFound] != 1 {
		t.Errorf("fixer called %v", called)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "a\n", "b.txt": "b\n"})
}

// TestPlanNesting: a response that makes a.txt a file and also writes
// a.txt/x (either order) cannot be committed; planning says so, rather
// than commit making the directory and then calling it a change on disk.
func TestPlanNesting(t *testing.T) {
	for name, edits := range map[string][]edit.Edit{
		"fileFirst": {{Op: edit.Create, Path: "a.txt", New: "a\n"}, {Op: edit.Create, Path: "a.txt/x", New: "x\n"}},
		"dirFirst":  {{Op: edit.Create, Path: "d/x", New: "x\n"}, {Op: edit.Rewrite, Path: "d", New: "d\n"}},
		"rename":    {{Op: edit.Create, Path: "n/x", New: "x\n"}, {Op: edit.Rename, Path: "b.txt", New: "n"}},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"b.txt": "b\n"})
			res, err := Apply(context.Background(), edits, testOpts(t, root))
			if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeIO ||
				!strings.Contains(res.Errors[0].Msg, "needs it to be a directory") {
				t.Fatalf("Apply = %v, want one IO_ERROR about the nesting", err)
			}
			diffTrees(t, "tree", readTree(t, root), tree{"b.txt": "b\n"})
			noTemps(t, root)
		})
	}
}
