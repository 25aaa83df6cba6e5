package mcpcmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/growth"
)

// serverRootEnv, set, makes TestServerProcess the server, serving that
// root on the process's stdio.
const serverRootEnv = "EDAPPLY_MCPCMD_TEST_ROOT"

// TestServerProcess is edapply-mcp when the test binary is run again by
// TestPipedSessionIsAnswered; otherwise it does nothing.
func TestServerProcess(t *testing.T) {
	root := os.Getenv(serverRootEnv)
	if root == "" {
		return
	}
	os.Args = []string{"edapply-mcp", "-C", root}
	os.Exit(Main())
}

// A script that pipes a session into edapply-mcp and closes its stdin
// gets every answer, initialize's first, and the status 0 after them, and
// the apply_edits among the calls has changed its file once. The runs
// give the server's goroutines their chances to meet the end of input
// before the answers are written.
func TestPipedSessionIsAnswered(t *testing.T) {
	session := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"apply_edits","arguments":{"reply":"a.txt\n<<<<<<< SEARCH\na\n=======\na\nb\n>>>>>>> REPLACE\n"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}, "\n") + "\n"
	n := 30
	if testing.Short() || growth.Race { // each process is slow to start under the race detector
		n = 3
	}
	for i := 0; i < n && !t.Failed(); i++ {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestServerProcess$")
		cmd.Env = append(os.Environ(), serverRootEnv+"="+root, "XDG_STATE_HOME="+t.TempDir())
		cmd.Stdin = strings.NewReader(session)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %d: edapply-mcp after its stdin closed: %v\n%s", i, err, stderr.Bytes())
		}
		var ids []int
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var a struct {
				ID     int `json:"id"`
				Result struct {
					IsError           bool `json:"isError"`
					StructuredContent *struct {
						OK bool `json:"ok"`
					} `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
				t.Fatalf("run %d: output line %q: %v", i, sc.Bytes(), err)
			}
			ids = append(ids, a.ID)
			if a.ID == 2 && (a.Result.IsError || a.Result.StructuredContent == nil || !a.Result.StructuredContent.OK) {
				t.Errorf("run %d: apply_edits answered %s, want its receipt with ok", i, sc.Bytes())
			}
		}
		if len(ids) != 3 || ids[0] != 1 || !(ids[1] == 2 && ids[2] == 3 || ids[1] == 3 && ids[2] == 2) {
			t.Errorf("run %d: answers to ids %v, want 1 then 2 and 3 each once; output:\n%s", i, ids, out)
		}
		if b, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil || string(b) != "a\nb\n" {
			t.Errorf("run %d: a.txt holds %q (%v), want %q: the edit made once", i, b, err, "a\nb\n")
		}
	}
}
