package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runEdapply runs the edapply command in-process with args and stdin, and
// returns its stdout.
func runEdapply(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := newRootCmd()
	var out, errOut bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.Execute() // a failed apply is an error too; the tests judge the output
	return out.String()
}

// Inside the root, an absolute path (a tool call's) and one under
// --path-prefix are relative everywhere: in the dry run's diff, which git
// applies as it stands, in the receipt, and in undo's receipt.
func TestAbsolutePathsRelativeEverywhere(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"src/a.py": "x = 1\n", "src/b.py": "y = 2\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call, err := json.Marshal(map[string]any{"name": "str_replace_based_edit_tool", "input": map[string]string{
		"command": "str_replace", "path": filepath.Join(root, "src", "a.py"), "old_str": "x = 1", "new_str": "x = 10"}})
	if err != nil {
		t.Fatal(err)
	}
	response := string(call) + "\n\n/repo/src/b.py\n```\n<<<<<<< SEARCH\ny = 2\n=======\ny = 20\n>>>>>>> REPLACE\n```\n"

	diff := runEdapply(t, response, "-C", root, "--path-prefix", "/repo", "--dry-run", "--color", "never")
	for _, want := range []string{"--- a/src/a.py\n+++ b/src/a.py\n", "--- a/src/b.py\n+++ b/src/b.py\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("dry-run diff lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(diff, root) || strings.Contains(diff, "/repo") {
		t.Errorf("dry-run output names an absolute path:\n%s", diff)
	}
	if _, err := exec.LookPath("git"); err == nil {
		patch := diff[:strings.Index(diff, "\n\n")+1] // the human receipt follows a blank line
		check := exec.Command("git", "apply", "--check", "-")
		check.Dir = root
		check.Stdin = strings.NewReader(patch)
		if out, err := check.CombinedOutput(); err != nil {
			t.Errorf("git apply --check: %v\n%s\npatch:\n%s", err, out, patch)
		}
	}

	receipt := runEdapply(t, response, "-C", root, "--path-prefix", "/repo", "--json")
	if !strings.Contains(receipt, `"ok":true`) || !strings.Contains(receipt, `"path":"src/a.py"`) || !strings.Contains(receipt, `"path":"src/b.py"`) {
		t.Errorf("receipt does not name the files relative:\n%s", receipt)
	}
	undo := runEdapply(t, "", "undo", "-C", root, "--json")
	if !strings.Contains(undo, `"path":"src/a.py"`) || strings.Contains(undo, root) {
		t.Errorf("undo receipt does not name the files relative:\n%s", undo)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src", "a.py")); string(b) != "x = 1\n" {
		t.Errorf("after undo src/a.py = %q", b)
	}
}
