package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/report"
)

const calc = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n\ndef mul(a, b):\n    return a * b\n"

// TestEditFileArgumentNames: edit_file takes the names other edit tools'
// models send for its arguments, and the shape of the reference
// filesystem server's edit_file, and does with each what it does with its
// own names.
func TestEditFileArgumentNames(t *testing.T) {
	subFixed := strings.Replace(calc, "a - b", "b - a", 1)
	for _, c := range []struct {
		name string
		args map[string]any
		want string // the file after the call
	}{
		{"its own", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "    return b - a\n"}}}, subFixed},
		{"text editor's", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_str": "    return a - b\n", "new_str": "    return b - a\n"}}}, subFixed},
		{"filesystem server's", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"oldText": "    return a - b\n", "newText": "    return b - a\n"}}}, subFixed},
		{"filesystem server's dry run", map[string]any{"path": "calc.py", "dryRun": true, "edits": []any{map[string]any{"oldText": "    return a - b\n", "newText": "    return b - a\n"}}}, calc},
		{"OpenCode's", map[string]any{"filePath": "calc.py", "edits": []any{map[string]any{"oldString": "    return a - b\n", "newString": "    return b - a\n"}}}, subFixed},
		{"a lone edit, as Claude Code's Edit", map[string]any{"file_path": "calc.py", "old_string": "    return a - b\n", "new_string": "    return b - a\n"}, subFixed},
		{"a lone replaceAll", map[string]any{"path": "calc.py", "old_string": "(a, b)", "new_string": "(x, y)", "replaceAll": true}, strings.ReplaceAll(calc, "(a, b)", "(x, y)")},
		{"dry_run", map[string]any{"path": "calc.py", "dry_run": true, "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "    return b - a\n"}}}, calc},
		// As a client that converts its command line by the schema sends
		// what the schema does not name, and as some models send arrays.
		{"texts for a boolean and an array", map[string]any{"path": "calc.py", "dryRun": "true", "edits": `[{"oldText": "    return a - b\n", "newText": "    return b - a\n"}]`}, calc},
		{"a null optional", map[string]any{"path": "calc.py", "base_hash": nil, "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "    return b - a\n", "replace_all": nil}}}, subFixed},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs, root := connect(t, map[string]string{"calc.py": calc})
			var r report.Receipt
			res := call(t, cs, "edit_file", c.args, &r)
			if res.IsError || !r.OK {
				t.Fatalf("edit_file(%v) failed:\n%s", c.args, resultText(res))
			}
			if got := readFile(t, root, "calc.py"); got != c.want {
				t.Errorf("calc.py is\n%s\nwant\n%s", got, c.want)
			}
			if dry := c.want == calc; r.DryRun != dry {
				t.Errorf("dry_run = %v, want %v", r.DryRun, dry)
			}
		})
	}
}

// wireUsage is a receipt's error as a client reads it.
type wireUsage struct {
	Code    string `json:"code"`
	Path    string `json:"path"`
	Edit    *int   `json:"edit"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
}

// usageOf calls tool with args and returns its result, which must be a
// receipt holding one USAGE error, and that error.
func usageOf(t *testing.T, cs *sdk.ClientSession, tool string, args any) (*sdk.CallToolResult, wireUsage) {
	t.Helper()
	var r struct {
		OK     bool        `json:"ok"`
		Errors []wireUsage `json:"errors"`
	}
	res := call(t, cs, tool, args, &r)
	if !res.IsError || r.OK || len(r.Errors) != 1 || r.Errors[0].Code != "USAGE" {
		t.Fatalf("%s(%v) = %+v\n%s\nwant one USAGE error", tool, args, r, resultText(res))
	}
	return res, r.Errors[0]
}

// TestArgumentErrors: arguments a tool does not take, or of the wrong
// type, are a receipt with a USAGE error that says which and names the
// arguments the tool takes, never the SDK's validation text, and
// nothing is written.
func TestArgumentErrors(t *testing.T) {
	cs, root := connect(t, map[string]string{"calc.py": calc})
	edits := []any{map[string]any{"old_string": "    return a - b\n", "new_string": "    return b - a\n"}}
	for _, c := range []struct {
		tool string
		args any
		says string // the message names what is wrong
	}{
		{"edit_file", map[string]any{"path": "calc.py", "edits": edits, "file": "calc.py"}, `unknown argument "file"`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": edits, "expected_replacements": 2}, `"expected_replacements"`},
		{"edit_file", map[string]any{"path": "calc.py", "file_path": "calc.py", "edits": edits}, `"file_path" and "path"`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "a", "oldText": "a", "new_string": "b"}}}, `"oldText" and "old_string" in edits[0]`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": "    return a - b\n"}, `"edits" must be an array`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": []any{"x"}}, "edits[0] is not an object"},
		{"edit_file", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "a", "new_string": 1}}}, `"new_string" in edits[0] must be a string`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "a"}}}, `no "new_string" in edits[0]`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "a", "new_string": "b", "replace_all": "yes"}}}, `"replace_all" in edits[0] must be true or false`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": []any{}}, `"edits" is empty`},
		{"edit_file", map[string]any{"path": "calc.py"}, `no "edits"`},
		{"edit_file", map[string]any{"edits": edits}, `no "path"`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": edits, "old_string": "a", "new_string": "b"}, `"edits" and a replacement outside it`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": edits, "dryRun": "yes"}, `"dryRun" must be true or false`},
		{"edit_file", map[string]any{"path": "calc.py", "edits": edits, "base_hash": "xyz"}, `"base_hash" "xyz" is not a sha256`},
		{"edit_file", json.RawMessage(`["calc.py"]`), "not a JSON object"},
		{"read_file", map[string]any{"path": "calc.py", "line": 3}, `unknown argument "line"`},
		{"read_file", map[string]any{"path": "calc.py", "offset": 1.5}, `"offset" must be a whole number`},
		{"read_file", map[string]any{"path": "calc.py", "offset": "two"}, `"offset" must be a whole number`},
		{"read_file", map[string]any{"path": "calc.py", "limit": -1}, `"limit" must be positive`},
		{"read_file", map[string]any{}, `no "path"`},
		{"apply_edits", map[string]any{"reply": "x", "content": "y"}, `unknown argument "content"`},
		{"apply_edits", map[string]any{"dry_run": true}, `no "reply"`},
		{"apply_edits", map[string]any{"reply": "x", "base": map[string]any{"calc.py": "nothex!!"}}, `"base" of "calc.py"`},
		{"apply_edits", map[string]any{"reply": "x", "base": []any{"calc.py"}}, `"base" must be an object`},
		{"undo", map[string]any{"steps": 2}, `unknown argument "steps"`},
		{"undo", map[string]any{"list": 1}, `"list" must be true or false`},
	} {
		res, e := usageOf(t, cs, c.tool, c.args)
		if !strings.Contains(e.Message, c.says) {
			t.Errorf("%s(%v): message %q does not say %q", c.tool, c.args, e.Message, c.says)
		}
		// The hint names the tool and every argument of its schema.
		if !strings.HasPrefix(e.Hint, c.tool+" takes {") {
			t.Errorf("%s(%v): hint %q does not name the tool's arguments", c.tool, c.args, e.Hint)
		}
		for _, name := range schemaArgs(t, cs, c.tool) {
			if !strings.Contains(e.Hint, `"`+name+`"`) {
				t.Errorf("%s: hint %q does not name %q", c.tool, e.Hint, name)
			}
		}
		if text := resultText(res); strings.Contains(text, "validating") || !strings.Contains(text, "USAGE") || !strings.Contains(text, e.Hint) {
			t.Errorf("%s(%v): text\n%s\nwant the USAGE error and its hint", c.tool, c.args, text)
		}
	}
	if got := readFile(t, root, "calc.py"); got != calc {
		t.Errorf("an argument error wrote calc.py:\n%s", got)
	}
}

// schemaArgs lists the names of tool's arguments in its input schema, the
// members of its edits included.
func schemaArgs(t *testing.T, cs *sdk.ClientSession, tool string) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name != tool {
			continue
		}
		b, _ := json.Marshal(tl.InputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		var names []string
		for name, p := range s.Properties {
			names = append(names, name)
			if p.Items != nil {
				for item := range p.Items.Properties {
					names = append(names, item)
				}
			}
		}
		slices.Sort(names)
		return names
	}
	t.Fatalf("no tool %s", tool)
	return nil
}

// TestHintsNameOwnArguments: a hint of edit_file names only arguments
// edit_file takes, for every error an edit of one file can meet; read_file's
// hint names none of an edit's.
func TestHintsNameOwnArguments(t *testing.T) {
	cs, _ := connect(t, map[string]string{"calc.py": calc, "src/util.py": "x = 1\nx = 1\n"})
	own := append(schemaArgs(t, cs, "edit_file"), "replaceAll")
	quotedName := regexp.MustCompile("\"([A-Za-z_]+)\"|\\b([a-z]+_[a-z_]+|[a-z]+[A-Z][A-Za-z]+)\\b")
	asksRead := regexp.MustCompile(`read_file \{[^}]*\}`)
	foreign := []string{"SEARCH", "REPLACE", `"content"`, "file_text", "str_replace", "command", "whole-file", "hunk", "--", "edapply "}
	for _, c := range []struct {
		code string
		args map[string]any
	}{
		{"FILE_EXISTS", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "", "new_string": "x\n"}}}},
		{"FILE_NOT_FOUND", map[string]any{"path": "nowhere/none.py", "edits": []any{map[string]any{"old_string": "zzz\n", "new_string": "x\n"}}}},
		{"FILE_NOT_FOUND", map[string]any{"path": "util.py", "edits": []any{map[string]any{"old_string": "x = 1\n", "new_string": "x = 2\n"}}}},
		{"NO_MATCH", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "def sub(a, b):\n    return a - bb\n", "new_string": "x\n"}}}},
		{"NO_MATCH", map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "nothing like it\n", "new_string": "x\n"}}}},
		{"MULTIPLE_MATCHES", map[string]any{"path": "src/util.py", "edits": []any{map[string]any{"old_string": "x = 1\n", "new_string": "x = 2\n"}}}},
		{"MULTIPLE_MATCHES", map[string]any{"path": "src/util.py", "old_string": "x = 1\n", "new_string": "x = 2\n", "replaceAll": false}},
		{"OUT_OF_DATE", map[string]any{"path": "calc.py", "base_hash": "0123456789abcdef", "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "x\n"}}}},
		{"OUT_OF_ROOT", map[string]any{"path": "../calc.py", "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "x\n"}}}},
	} {
		var r report.Receipt
		res := call(t, cs, "edit_file", c.args, &r)
		if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != c.code {
			t.Errorf("edit_file(%v) = %+v, want %s", c.args, r.Errors, c.code)
			continue
		}
		h := r.Errors[0].Hint
		if h == "" {
			t.Errorf("%s: no hint", c.code)
		}
		for _, w := range foreign {
			if strings.Contains(h, w) {
				t.Errorf("%s: hint %q names %q, which edit_file does not take", c.code, h, w)
			}
		}
		// A read_file the hint asks for names read_file's arguments.
		for _, m := range quotedName.FindAllStringSubmatch(asksRead.ReplaceAllString(h, "read_file"), -1) {
			name := m[1] + m[2]
			if !slices.Contains(own, name) && name != "read_file" && !strings.Contains(calc+"util.py", name) {
				t.Errorf("%s: hint %q names %q, not an argument of edit_file", c.code, h, name)
			}
		}
	}
	var out report.ReadOutput
	res := call(t, cs, "read_file", map[string]any{"path": "nowhere/none.py"}, &out)
	if !res.IsError || len(out.Errors) != 1 || out.Errors[0].Code != "FILE_NOT_FOUND" {
		t.Fatalf("read_file of a missing file = %+v", out)
	}
	for _, w := range append(foreign, "old_string", "create") {
		if strings.Contains(out.Errors[0].Hint, w) {
			t.Errorf("read_file's hint %q names %q", out.Errors[0].Hint, w)
		}
	}
}

// TestReadFileNotFoundCandidates: read_file of a path that is not there
// names the files it probably means, as edit_file does for the same path,
// in the receipt and in the text the model reads.
func TestReadFileNotFoundCandidates(t *testing.T) {
	cs, _ := connect(t, map[string]string{"src/calc.py": calc})
	for _, p := range []string{"calc.py", "lib/calc.py", "/workspace/src/calc.py"} {
		var out report.ReadOutput
		res := call(t, cs, "read_file", map[string]any{"path": p}, &out)
		var r report.Receipt
		call(t, cs, "edit_file", map[string]any{"path": p, "edits": []any{map[string]any{"old_string": "nothing\n", "new_string": "x\n"}}}, &r)
		if !res.IsError || len(out.Errors) != 1 || len(r.Errors) != 1 {
			t.Fatalf("%s: read_file %+v, edit_file %+v; want one error each", p, out.Errors, r.Errors)
		}
		got, want := out.Errors[0], r.Errors[0]
		if got.Code != want.Code || len(got.Candidates) != 1 || !slices.Equal(got.Candidates, want.Candidates) || got.Candidates[0].Path != "src/calc.py" {
			t.Errorf("%s: read_file's error %+v, edit_file's %+v; want the same code and the candidate src/calc.py", p, got, want)
		}
		if text := resultText(res); !strings.Contains(text, "candidate file src/calc.py") {
			t.Errorf("%s: read_file's text does not name the candidate:\n%s", p, text)
		}
		// A read creates nothing: its hint does not say how to.
		if got.Code == "FILE_NOT_FOUND" && (strings.Contains(got.Hint, "create") || !strings.Contains(got.Hint, "read it by that path")) {
			t.Errorf("%s: read_file's hint %q, want the path to read and nothing of creating", p, got.Hint)
		}
	}
}

// TestToolsListing: each tool has a title, read_file is marked read-only
// and idempotent and undo neither, and an input schema lets a client that
// checks a call against it pass on the other names of its arguments.
func TestToolsListing(t *testing.T) {
	cs, _ := connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]string{}
	for _, tl := range res.Tools {
		titles[tl.Name] = tl.Title
		a := tl.Annotations
		if tl.Title == "" || a == nil || a.Title != tl.Title {
			t.Errorf("%s: title %q, annotations %+v; want a title in both", tl.Name, tl.Title, a)
			continue
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: not marked closed-world", tl.Name)
		}
		switch tl.Name {
		case "read_file":
			if !a.ReadOnlyHint || !a.IdempotentHint {
				t.Errorf("read_file: annotations %+v, want read-only and idempotent", a)
			}
		case "undo":
			if a.ReadOnlyHint || a.IdempotentHint {
				t.Errorf("undo: annotations %+v: each call takes back one more write", a)
			}
		default:
			if a.ReadOnlyHint {
				t.Errorf("%s: marked read-only", tl.Name)
			}
		}
		if b, _ := json.Marshal(tl.InputSchema); strings.Contains(string(b), `"additionalProperties":false`) {
			t.Errorf("%s: input schema refuses other argument names: %s", tl.Name, b)
		}
	}
	if len(titles) != 4 {
		t.Errorf("tools %v, want 4", titles)
	}
}

// TestResultsMatchOutputSchema: every result's structured content, usage
// errors and undo's history included, is valid under the output schema
// the tool lists, as a client that checks it (the TypeScript SDK's) wants.
func TestResultsMatchOutputSchema(t *testing.T) {
	cs, _ := connect(t, map[string]string{"calc.py": calc})
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tl := range lt.Tools {
		b, _ := json.Marshal(tl.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if schemas[tl.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s: output schema: %v", tl.Name, err)
		}
	}
	edit := map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "    return b - a\n"}}}
	for _, c := range []struct {
		tool string
		args any
	}{
		{"read_file", map[string]any{"path": "calc.py"}},
		{"read_file", map[string]any{"path": "none.py"}},
		{"read_file", map[string]any{"file": "x"}},
		{"edit_file", map[string]any{"edits": "x"}},
		{"edit_file", edit},
		{"edit_file", edit},
		{"apply_edits", map[string]any{"reply": "nothing"}},
		{"undo", map[string]any{"list": true}},
		{"undo", map[string]any{"dry_run": true}},
		{"undo", map[string]any{}},
		{"undo", map[string]any{}},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if err := schemas[c.tool].Validate(v); err != nil {
			t.Errorf("%s(%v): %s\nbreaks the output schema: %v", c.tool, c.args, b, err)
		}
	}
}

// TestReadFileNumbersAsText: read_file takes its numbers as JSON numbers
// or as the text of one, and reads the same window either way.
func TestReadFileNumbersAsText(t *testing.T) {
	cs, _ := connect(t, map[string]string{"calc.py": calc})
	var a, b report.ReadOutput
	call(t, cs, "read_file", map[string]any{"path": "calc.py", "offset": 4, "limit": 2}, &a)
	call(t, cs, "read_file", map[string]any{"file_path": "calc.py", "offset": "4", "limit": "2"}, &b)
	if !a.OK || a.StartLine != 4 || a.EndLine != 5 || !reflect.DeepEqual(a, b) {
		t.Errorf("read_file with numbers %+v, with their text %+v; want lines 4-5 both", a, b)
	}
}
