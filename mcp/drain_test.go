package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pipedSession is what a script piping a session into the server sends:
// the handshake, then calls with ids 2 to 4, the apply_edits among them
// adding the line "b" after "a" in a.txt, then the end of input.
var pipedSession = strings.Join([]string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"apply_edits","arguments":{"reply":"a.txt\n<<<<<<< SEARCH\na\n=======\na\nb\n>>>>>>> REPLACE\n"}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
}, "\n") + "\n"

// pipedRoot returns a tree holding a.txt as the piped session expects it.
func pipedRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// rpcAnswer is a JSON-RPC response as the tests read it.
type rpcAnswer struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// answers decodes the server's output, one response a line, in order.
func answers(t *testing.T, out []byte) []rpcAnswer {
	t.Helper()
	var as []rpcAnswer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a rpcAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("output line %q: %v", sc.Bytes(), err)
		}
		as = append(as, a)
	}
	return as
}

// checkApplied checks that the output answers ids 1 to last, each once,
// initialize first, with results and no errors; that the apply_edits
// (id applyID) says it applied; and that a.txt holds its edit made once.
func checkApplied(t *testing.T, out []byte, last, applyID int, root string) {
	t.Helper()
	as := answers(t, out)
	seen := map[int]int{}
	for _, a := range as {
		seen[a.ID]++
		if a.Result == nil || a.Error != nil {
			t.Errorf("id %d answered with error %s", a.ID, a.Error)
		}
	}
	for id := 1; id <= last; id++ {
		if seen[id] != 1 {
			t.Errorf("id %d answered %d times, want once; output:\n%s", id, seen[id], out)
		}
	}
	if len(as) != last {
		t.Errorf("%d answers, want %d; output:\n%s", len(as), last, out)
	}
	if len(as) > 0 && as[0].ID != 1 {
		t.Errorf("first answer is id %d, want initialize's", as[0].ID)
	}
	for _, a := range as {
		if a.ID != applyID {
			continue
		}
		var res struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				OK bool `json:"ok"`
			} `json:"structuredContent"`
		}
		if err := json.Unmarshal(a.Result, &res); err != nil || res.IsError || !res.StructuredContent.OK {
			t.Errorf("apply_edits answered %s, want its receipt with ok", a.Result)
		}
	}
	if got := readFile(t, root, "a.txt"); got != "a\nb\n" {
		t.Errorf("a.txt holds %q, want %q: the edit made once", got, "a\nb\n")
	}
}

// A client that sends its calls and closes its end at once hears every
// answer, initialize's first, and Serve returns nil after them: the end of
// input waits for the calls read before it. The SDK alone answers none of
// them at the end of input, or some, as its goroutines happen to run; the
// iterations give those orders their chance.
func TestServeAnswersEveryCallBeforeEndOfInput(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	for i := 0; i < n && !t.Failed(); i++ {
		root := pipedRoot(t)
		var out bytes.Buffer
		err := Serve(context.Background(), Options{Root: root, StateDir: t.TempDir()}, strings.NewReader(pipedSession), &out)
		if err != nil {
			t.Fatalf("iteration %d: Serve at the end of input: %v", i, err)
		}
		checkApplied(t, out.Bytes(), 4, 3, root)
	}
}
