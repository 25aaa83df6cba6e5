package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/report"
)

// connect serves a tree holding files over an in-memory transport and
// returns a client session on it, with the tree's root.
func connect(t *testing.T, files map[string]string) (*sdk.ClientSession, string) {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(Options{Root: root, StateDir: t.TempDir(), Version: "test"}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, root
}

// call calls a tool, which must answer with a result (not a protocol
// error), and decodes its structured content into out.
func call(t *testing.T, cs *sdk.ClientSession, name string, args, out any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	// Decoded afresh: a field the result leaves out is not the last one's.
	reflect.ValueOf(out).Elem().SetZero()
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	return res
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func readFile(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestListTools(t *testing.T) {
	cs, _ := connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schema, _ := tool.InputSchema.(map[string]any)
		if schema["type"] != "object" {
			t.Errorf("%s: input schema %v, want an object", tool.Name, tool.InputSchema)
		}
		if tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s: no output schema or no description", tool.Name)
		}
		// A type list (["null", "array"]) is refused by some clients.
		if b, _ := json.Marshal(tool.InputSchema); strings.Contains(string(b), `"type":[`) {
			t.Errorf("%s: input schema has a type list: %s", tool.Name, b)
		}
	}
	slices.Sort(names)
	if want := []string{"apply_edits", "edit_file", "read_file", "undo"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

func TestReadFile(t *testing.T) {
	text := "package a\n\nfunc A() {}\n"
	cs, _ := connect(t, map[string]string{"a.go": text})
	var out report.ReadOutput
	res := call(t, cs, "read_file", map[string]any{"path": "a.go", "offset": 2, "limit": 1}, &out)
	if res.IsError || !out.OK {
		t.Fatalf("read_file failed: %s", resultText(res))
	}
	hash := apply.HashBytes([]byte(text))
	if out.SHA256 != hash || out.StartLine != 2 || out.EndLine != 2 || out.TotalLines != 3 || out.NextOffset != 3 || out.Content != "     2\t\n" {
		t.Errorf("read_file = %+v, want line 2 of 3 and the file's hash", out)
	}
	if got := resultText(res); !strings.Contains(got, hash) || !strings.Contains(got, "read on at offset 3") {
		t.Errorf("read_file's text does not name the hash and the offset that reads on:\n%s", got)
	}

	res = call(t, cs, "read_file", map[string]any{"path": "../etc/passwd"}, &out)
	if !res.IsError || out.OK || len(out.Errors) != 1 || out.Errors[0].Code != "OUT_OF_ROOT" {
		t.Errorf("read_file outside the root = %+v (isError %v), want OUT_OF_ROOT", out, res.IsError)
	}
}

func TestEditFileStaleHash(t *testing.T) {
	text := "a\nb\nc\n"
	cs, root := connect(t, map[string]string{"f.txt": text})
	stale := apply.HashBytes([]byte("a\nb\n"))[:12]
	var r report.Receipt
	res := call(t, cs, "edit_file", map[string]any{"path": "f.txt", "base_hash": stale,
		"edits": []map[string]any{{"old_string": "b\n", "new_string": "B\n"}}}, &r)
	if !res.IsError || r.OK || len(r.Errors) != 1 || r.Errors[0].Code != "OUT_OF_DATE" {
		t.Errorf("edit_file with a stale base_hash = %+v, want OUT_OF_DATE", r)
	}
	if got := readFile(t, root, "f.txt"); got != text {
		t.Errorf("a refused edit wrote %q", got)
	}

	// The hash read_file gives is the one that lets the edit through, and
	// the receipt gives the next one.
	var rd report.ReadOutput
	call(t, cs, "read_file", map[string]any{"path": "f.txt"}, &rd)
	res = call(t, cs, "edit_file", map[string]any{"path": "f.txt", "base_hash": rd.SHA256[:8],
		"edits": []map[string]any{{"old_string": "b\n", "new_string": "B\n"}}}, &r)
	want := "a\nB\nc\n"
	if res.IsError || !r.OK || readFile(t, root, "f.txt") != want {
		t.Fatalf("edit_file with the read hash failed: %s", resultText(res))
	}
	if h := apply.HashBytes([]byte(want)); r.Files[0].AfterHash != h || !strings.Contains(resultText(res), h) {
		t.Errorf("the receipt does not give the file's new hash %s:\n%s", h, resultText(res))
	}
}

func TestEditFileAmbiguous(t *testing.T) {
	text := "x := 1\nuse(x)\nx := 1\n"
	cs, root := connect(t, map[string]string{"f.go": text})
	var r report.Receipt
	res := call(t, cs, "edit_file", map[string]any{"path": "f.go",
		"edits": []map[string]any{{"old_string": "x := 1\n", "new_string": "x := 2\n"}}}, &r)
	if !res.IsError || r.OK || len(r.Errors) != 1 || r.Errors[0].Code != "MULTIPLE_MATCHES" || len(r.Errors[0].Candidates) != 2 {
		t.Fatalf("an ambiguous edit = %+v, want MULTIPLE_MATCHES naming both places", r)
	}
	if got := resultText(res); !strings.Contains(got, "MULTIPLE_MATCHES") {
		t.Errorf("the text does not name the error:\n%s", got)
	}
	if h := r.Errors[0].Hint; !strings.Contains(h, `set "replace_all": true`) {
		t.Errorf("the hint does not name edit_file's replace_all: %q", h)
	}
	if got := readFile(t, root, "f.go"); got != text {
		t.Errorf("an ambiguous edit wrote %q", got)
	}

	// A dry run of replace_all shows the diff and writes nothing.
	args := map[string]any{"path": "f.go", "dry_run": true,
		"edits": []map[string]any{{"old_string": "x := 1\n", "new_string": "x := 2\n", "replace_all": true}}}
	res = call(t, cs, "edit_file", args, &r)
	if res.IsError || !r.OK || !r.DryRun || !strings.Contains(resultText(res), "+x := 2") || readFile(t, root, "f.go") != text {
		t.Errorf("a dry run of replace_all: %+v\n%s", r, resultText(res))
	}
	args["dry_run"] = false
	if res = call(t, cs, "edit_file", args, &r); res.IsError || readFile(t, root, "f.go") != "x := 2\nuse(x)\nx := 2\n" {
		t.Errorf("replace_all did not replace both: %s", resultText(res))
	}
}

func TestApplyEditsAndUndo(t *testing.T) {
	files := map[string]string{"a.txt": "alpha\n", "sub/b.txt": "beta\n"}
	cs, root := connect(t, files)
	reply := "a.txt\n```\n<<<<<<< SEARCH\nalpha\n=======\nALPHA\n>>>>>>> REPLACE\n```\n\n" +
		"sub/b.txt\n```\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n```\n"
	var r report.Receipt
	res := call(t, cs, "apply_edits", map[string]any{"reply": reply}, &r)
	if res.IsError || !r.OK || len(r.Files) != 2 {
		t.Fatalf("a two-file reply: %+v\n%s", r, resultText(res))
	}
	if readFile(t, root, "a.txt") != "ALPHA\n" || readFile(t, root, "sub/b.txt") != "BETA\n" {
		t.Fatal("a two-file reply did not write both files")
	}

	res = call(t, cs, "undo", map[string]any{}, &r)
	if res.IsError || !r.OK {
		t.Fatalf("undo: %s", resultText(res))
	}
	for name, data := range files {
		if got := readFile(t, root, name); got != data {
			t.Errorf("after undo %s = %q, want %q", name, got, data)
		}
	}
	// Nothing is left to undo: a result with the error, not a protocol error.
	if res = call(t, cs, "undo", map[string]any{}, &r); !res.IsError || r.OK || len(r.Errors) == 0 {
		t.Errorf("a second undo = %+v, want an error result", r)
	}
}

func TestApplyEditsRefusesWhole(t *testing.T) {
	cs, root := connect(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	// The second edit cannot be placed: the first is not written either.
	reply := "a.txt\n```\n<<<<<<< SEARCH\nalpha\n=======\nALPHA\n>>>>>>> REPLACE\n```\n\n" +
		"b.txt\n```\n<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE\n```\n"
	var r report.Receipt
	res := call(t, cs, "apply_edits", map[string]any{"reply": reply, "base": map[string]string{"a.txt": apply.HashBytes([]byte("alpha\n"))}}, &r)
	if !res.IsError || r.OK || len(r.Errors) != 1 || r.Errors[0].Code != "NO_MATCH" {
		t.Errorf("a reply with an edit that cannot be placed = %+v, want NO_MATCH", r)
	}
	if readFile(t, root, "a.txt") != "alpha\n" {
		t.Error("a refused reply wrote a.txt")
	}
	// A stale base for one file refuses the whole reply.
	fixed := strings.Replace(reply, "gamma", "beta", 1)
	res = call(t, cs, "apply_edits", map[string]any{"reply": fixed, "base": map[string]string{"b.txt": apply.HashBytes([]byte("old\n"))[:8]}}, &r)
	if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "OUT_OF_DATE" || readFile(t, root, "a.txt") != "alpha\n" {
		t.Errorf("a reply with a stale base = %+v, want OUT_OF_DATE and nothing written", r)
	}
	if res = call(t, cs, "apply_edits", map[string]any{"reply": "no edits here"}, &r); !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "PARSE_ERROR" {
		t.Errorf("a reply without edits = %+v, want PARSE_ERROR", r)
	}
}

// Arguments that break the schema or the rules are a result marked
// isError that says why, never a protocol error.
func TestBadArguments(t *testing.T) {
	cs, _ := connect(t, map[string]string{"a.txt": "a\n"})
	for name, args := range map[string]map[string]any{
		"no path":      {"edits": []map[string]any{{"old_string": "a", "new_string": "b"}}},
		"no edits":     {"path": "a.txt", "edits": []map[string]any{}},
		"unknown key":  {"path": "a.txt", "file_path": "a.txt", "edits": []map[string]any{{"old_string": "a", "new_string": "b"}}},
		"bad hash":     {"path": "a.txt", "base_hash": "xyz", "edits": []map[string]any{{"old_string": "a", "new_string": "b"}}},
		"out of root":  {"path": "../a.txt", "edits": []map[string]any{{"old_string": "a", "new_string": "b"}}},
		"create exist": {"path": "a.txt", "edits": []map[string]any{{"old_string": "", "new_string": "b"}}},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "edit_file", Arguments: args})
		if err != nil {
			t.Errorf("%s: protocol error %v", name, err)
			continue
		}
		if !res.IsError || resultText(res) == "" {
			t.Errorf("%s: isError %v, text %q; want an error that says why", name, res.IsError, resultText(res))
		}
	}
}

// Concurrent calls each see the others' writes: none is lost.
func TestConcurrentEdits(t *testing.T) {
	const n = 8
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	text := strings.Join(lines, "\n") + "\n"
	cs, root := connect(t, map[string]string{"f.txt": text})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "edit_file", Arguments: map[string]any{
				"path": "f.txt", "edits": []map[string]any{{"old_string": fmt.Sprintf("line %d\n", i), "new_string": fmt.Sprintf("LINE %d\n", i)}}}})
			if err != nil || res.IsError {
				t.Errorf("edit %d: %v %s", i, err, resultText(res))
			}
		})
	}
	wg.Wait()
	if got, want := readFile(t, root, "f.txt"), strings.ReplaceAll(text, "line", "LINE"); got != want {
		t.Errorf("after %d concurrent edits the file is\n%s\nwant\n%s", n, got, want)
	}
}

// Serve speaks newline-delimited JSON-RPC on the streams it is given, as
// `edapply mcp` does on stdin and stdout, and returns when input ends.
func TestServe(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), Options{Root: root, StateDir: t.TempDir()}, serverIn, serverOut)
		serverOut.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out report.ReadOutput
	if res := call(t, cs, "read_file", map[string]any{"path": "a.txt"}, &out); res.IsError || out.Content != "     1\ta\n" {
		t.Errorf("read_file over Serve = %+v", out)
	}
	cs.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve after the client closed: %v", err)
	}
}

// A model that copies read_file's numbered lines into old_string, numbers
// and all, still edits the lines it read: the numbering is the one the
// ladder knows to strip.
func TestEditWithReadNumbers(t *testing.T) {
	text := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n"
	cs, root := connect(t, map[string]string{"f.go": text})
	var rd report.ReadOutput
	call(t, cs, "read_file", map[string]any{"path": "f.go", "offset": 5, "limit": 2}, &rd)
	var r report.Receipt
	res := call(t, cs, "edit_file", map[string]any{"path": "f.go", "base_hash": rd.SHA256,
		"edits": []map[string]any{{"old_string": rd.Content, "new_string": "func b() {\n\treturn 3\n"}}}, &r)
	if res.IsError || !r.OK {
		t.Fatalf("an edit quoting read_file's numbered lines failed: %s", resultText(res))
	}
	if got, want := readFile(t, root, "f.go"), strings.Replace(text, "return 2", "return 3", 1); got != want {
		t.Errorf("after the edit f.go is %q, want %q", got, want)
	}
}

// TestApplyEditsPath: apply_edits' path is the file of the edits that
// name none (Zed's pairs, a bare block); edits that name a file keep it.
// Without it such an edit is refused, the hint naming the argument.
func TestApplyEditsPath(t *testing.T) {
	cs, root := connect(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	reply := "<edits>\n<old_text>\nalpha\n</old_text>\n<new_text>\nALPHA\n</new_text>\n</edits>\n\n" +
		"b.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n"
	var r report.Receipt
	res := call(t, cs, "apply_edits", map[string]any{"reply": reply}, &r)
	if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "PARSE_ERROR" || !strings.Contains(r.Errors[0].Hint, `apply_edits' "path"`) {
		t.Fatalf("pairs without path = %+v, want a PARSE_ERROR whose hint names path", r)
	}
	if readFile(t, root, "b.txt") != "beta\n" {
		t.Fatal("a reply with a pair that names no file wrote b.txt")
	}
	res = call(t, cs, "apply_edits", map[string]any{"reply": reply, "path": "a.txt"}, &r)
	if res.IsError || !r.OK || len(r.Files) != 2 {
		t.Fatalf("pairs with path: %+v\n%s", r, resultText(res))
	}
	if readFile(t, root, "a.txt") != "ALPHA\n" || readFile(t, root, "b.txt") != "BETA\n" {
		t.Error("path did not apply the pair to a.txt and the block to b.txt")
	}
	if res = call(t, cs, "apply_edits", map[string]any{"reply": reply, "path": 3}, &r); !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "USAGE" {
		t.Errorf("a path that is no string = %+v, want USAGE", r)
	}
}
