package parse

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/edapply/edapply/edit"
)

// jsonBrief is the part of an edit the JSON table tests state.
func jsonBrief(e edit.Edit) string {
	return fmt.Sprintf("%v %s old=%q new=%q count=%d hint=%d line=%d", e.Op, e.Path, e.Old, e.New, e.Count, e.Hint, e.Line)
}

func TestParseJSON(t *testing.T) {
	tests := map[string]struct {
		src       string
		want      []string // jsonBrief of each edit
		errLines  []int    // lines of the PARSE_ERRORs, in order
		errSubstr string   // the first error's message contains this
	}{
		"eofInsideString": {
			src:       "ok\n{\"path\": \"a.go\", \"old_string\": \"x\", \"new_string\": \"y",
			errLines:  []int{2},
			errSubstr: "ends inside it",
		},
		"eofPretty": {
			src:      "{\n  \"path\": \"a.go\",\n  \"edits\": [\n    {\"old_string\": \"a\", \"new_string\": \"b\"},\n",
			errLines: []int{1},
		},
		"firstKeyPathBroken": {
			src:      "{\"path\": \"a.go\" \"old\": 1}\n",
			errLines: []int{1},
		},
		"brokenNonEdit": {
			src: "{\"name\": \"demo\", \"version\": 1\n{\"a\" 1}\n",
		},
		"brokenStringArguments": {
			src:       `{"name": "edit", "arguments": "{\"path\": \"a.go\", \"old_string\": \"x"}` + "\n",
			errLines:  []int{1},
			errSubstr: "string-encoded arguments",
		},
		"stringArgumentsNotEdit": {
			src: `{"name": "search", "arguments": "{\"query\": \"x\"}"}` + "\n",
		},
		"insertText": {
			src:  `{"command": "insert", "path": "a.go", "insert_line": 7, "insert_text": "x\n"}` + "\n",
			want: []string{`replace a.go old="" new="x\n" count=1 hint=8 line=1`},
		},
		"insertNegative": {
			src:      `{"command": "insert", "path": "a.go", "insert_line": -1, "new_str": "x"}` + "\n",
			errLines: []int{1},
		},
		"insertEmpty": {
			// An empty line, as the tool inserts one.
			src:  `{"command": "insert", "path": "a.go", "insert_line": 1, "new_str": ""}` + "\n",
			want: []string{`replace a.go old="" new="\n" count=1 hint=2 line=1`},
		},
		"createCommandNoText": {
			src:      `{"command": "create", "path": "a.go"}` + "\n",
			errLines: []int{1},
		},
		"dotDirCleaned": {
			src:  `{"path": "a/./b.go", "old_string": "x", "new_string": "y"}` + "\n",
			want: []string{`replace a/b.go old="x" new="y" count=1 hint=0 line=1`},
		},
		"escapeKept": {
			src:  `{"path": "../etc/x", "old_string": "x", "new_string": "y"}` + "\n",
			want: []string{`replace ../etc/x old="x" new="y" count=1 hint=0 line=1`},
		},
		"pathNotString": {
			src:      `{"path": ["a.go"], "old_string": "x", "new_string": "y"}` + "\n",
			errLines: []int{1},
		},
		"duplicateKeyLastWins": {
			src:  `{"path": "a.go", "old_string": "x", "old_string": "z", "new_string": "y"}` + "\n",
			want: []string{`replace a.go old="z" new="y" count=1 hint=0 line=1`},
		},
		"quotedCount": {
			src:  `{"path": "a.go", "old_string": "x", "new_string": "y", "expected_replacements": "2"}` + "\n",
			want: []string{`replace a.go old="x" new="y" count=2 hint=0 line=1`},
		},
		"fractionalCount": {
			src:      `{"path": "a.go", "old_string": "x", "new_string": "y", "expected_replacements": 1.5}` + "\n",
			errLines: []int{1},
		},
		"nullReplaceAll": {
			src:  `{"path": "a.go", "old_string": "x", "new_string": "y", "replace_all": null}` + "\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=1`},
		},
		"geminiAllowMultiple": {
			src:  `{"file_path": "a.go", "instruction": "rename", "old_string": "x", "new_string": "y", "allow_multiple": true}` + "\n",
			want: []string{`replace a.go old="x" new="y" count=0 hint=0 line=1`},
		},
		"geminiAllowMultipleFalse": {
			src:  `{"file_path": "a.go", "old_string": "x", "new_string": "y", "allow_multiple": false}` + "\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=1`},
		},
		"geminiAllowMultipleNotBool": {
			src:      `{"file_path": "a.go", "old_string": "x", "new_string": "y", "allow_multiple": 3}` + "\n",
			errLines: []int{1},
		},
		"multiEditElementError": {
			src:      "{\"file_path\": \"a.go\", \"edits\": [\n {\"old_string\": \"a\", \"new_string\": \"b\"},\n {\"old_string\": \"c\"},\n 5\n]}\n",
			want:     []string{`replace a.go old="a" new="b" count=1 hint=0 line=2`},
			errLines: []int{3, 4},
		},
		"multiEditEmpty": {
			src:      `{"file_path": "a.go", "edits": []}` + "\n",
			errLines: []int{1},
		},
		"multiEditOwnPath": {
			src:  `{"edits": [{"path": "b.go", "old_string": "a", "new_string": "b"}]}` + "\n",
			want: []string{`replace b.go old="a" new="b" count=1 hint=0 line=1`},
		},
		"indentedFence": {
			src:  "  ```json\n  {\"path\": \"a.go\", \"old_string\": \"x\", \"new_string\": \"y\"}\n  ```\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=2`},
		},
		"bareFenceAfterOtherBlock": {
			// The bare ``` closes the bash block; the call after it is not
			// fenced, and nothing is left open.
			src:  "```bash\nls\n```\n{\"path\": \"a.go\", \"old_string\": \"x\", \"new_string\": \"y\"}\ndone\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=4`},
		},
		"fenceWithProse": {
			src:  "```json\n// the edit\n{\"path\": \"a.go\", \"old_string\": \"x\", \"new_string\": \"y\"}\n```\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=3`},
		},
		"nestedArrays": {
			src:  `[[{"path": "a.go", "old_string": "x", "new_string": "y"}]]` + "\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=1`},
		},
		"tooDeep": {
			src: strings.Repeat("[", 20) + `{"path": "a.go", "old_string": "x", "new_string": "y"}` + strings.Repeat("]", 20) + "\n",
		},
		"anthropicMessage": {
			src:  `{"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "name": "str_replace_based_edit_tool", "input": {"command": "str_replace", "path": "a.go", "old_str": "x", "new_str": "y"}}]}` + "\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=1`},
		},
		"weakKeysWithoutPath": {
			src: `{"search": "foo", "replace": "bar"}` + "\n",
		},
		"weakKeysWithPath": {
			src:  `{"file": "a.go", "search": "foo", "replace": "bar"}` + "\n",
			want: []string{`replace a.go old="foo" new="bar" count=1 hint=0 line=1`},
		},
		"byteOrderMark": {
			src:  "\ufeff" + `{"path": "a.go", "old_string": "x", "new_string": "y"}` + "\n",
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=1`},
		},
		"noFinalNewline": {
			src:  `{"path": "a.go", "old_string": "x", "new_string": "y"}`,
			want: []string{`replace a.go old="x" new="y" count=1 hint=0 line=1`},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := checkParse(t, []byte(tt.src), edit.FormatJSON)
			var got []string
			for _, e := range edits {
				got = append(got, jsonBrief(e))
				if e.Format != edit.FormatJSON {
					t.Errorf("edit format %q, want json", e.Format)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Parse(%q) edits:\n%s\nwant:\n%s", tt.src, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			var lines []int
			for _, e := range errs {
				lines = append(lines, e.Line)
			}
			if fmt.Sprint(lines) != fmt.Sprint(tt.errLines) {
				t.Errorf("Parse(%q) error lines = %v, want %v (%v)", tt.src, lines, tt.errLines, errs)
			}
			if tt.errSubstr != "" && (len(errs) == 0 || !strings.Contains(errs[0].Msg, tt.errSubstr)) {
				t.Errorf("Parse(%q) errors = %v, want one containing %q", tt.src, errs, tt.errSubstr)
			}
		})
	}
}

// TestJSONStartsOnlyOnEdits checks that lines which are not edit calls are
// left to the other readers and to prose handling.
func TestJSONStartsOnlyOnEdits(t *testing.T) {
	tests := map[string]bool{
		`{"path": "a.go", "old_string": "x", "new_string": "y"}`: true,
		`{"path": "a.go", "old_string": "x`:                      true, // truncated: reported
		"```json":                                                false,
		"```":                                                    false,
		`{"debug": true}`:                                        false,
		`[link](x)`:                                              false,
		`{x}`:                                                    false,
		`{"command": "view", "path": "a.go"}`:                    true, // reported when nothing else parses
		`  {"path": "a.go", "content": ""}`:                      true,
	}
	for src, want := range tests {
		p := newParser(src+"\n", edit.FormatJSON)
		if got := p.json.starts(0); got != want {
			t.Errorf("starts(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestJSONSpans checks that each edit's span is its own object's lines.
func TestJSONSpans(t *testing.T) {
	src := "Intro\n[\n  {\"path\": \"a\", \"old_string\": \"1\", \"new_string\": \"2\"},\n  {\"path\": \"b\", \"old_string\": \"3\", \"new_string\": \"4\"}\n]\nOutro\n"
	edits, errs := checkParse(t, []byte(src), edit.FormatAuto)
	if len(errs) != 0 || len(edits) != 2 {
		t.Fatalf("Parse = %v, %v; want 2 edits", edits, errs)
	}
	for i, want := range []string{"a", "b"} {
		span := src[edits[i].Start:edits[i].End]
		if !strings.HasPrefix(strings.TrimSpace(span), `{"path": "`+want+`"`) || strings.Count(span, "\n") != 1 {
			t.Errorf("edit %d span = %q, want its own line", i, span)
		}
	}
}

// TestJSONReadAdvances checks the reader's cursor invariant: read returns
// the first line after its region, past a closing fence, and never i itself.
func TestJSONReadAdvances(t *testing.T) {
	call := `{"path": "a.go", "old_string": "x", "new_string": "y"}`
	tests := map[string]struct {
		src  string
		next int
	}{
		"line":           {call + "\nprose\n", 1},
		"fence":          {"```json\n" + call + "\n```\n```\n", 3},
		"pretty":         {"{\n\"path\": \"a.go\",\n\"new_string\": \"y\"\n}\n{x}\n", 4},
		"sameLine":       {call + ", " + call + "\n" + call + "\n", 1},
		"truncated":      {`{"path": "a.go", "old_string": "x` + "\n" + call + "\n", 1},
		"truncatedAtEOF": {"{\"path\": \"a.go\",\n\"old_string\": [\n", 2},
	}
	for name, tt := range tests {
		p := newParser(tt.src, edit.FormatJSON)
		if !p.json.starts(0) {
			t.Errorf("%s: starts(%q, 0) = false", name, tt.src)
			continue
		}
		if got := p.json.read(0); got != tt.next {
			t.Errorf("%s: read(%q, 0) = %d, want %d", name, tt.src, got, tt.next)
		}
	}
}

// TestJSONAutoAgrees checks that auto-detection reads every JSON golden as
// the JSON reader alone does: no other reader claims a line of a tool call.
func TestJSONAutoAgrees(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "json", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no JSON goldens: %v", err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range ar.Files {
			if fl.Name != "response" {
				continue
			}
			je, jerrs := Parse(string(fl.Data), Options{Format: edit.FormatJSON})
			ae, aerrs := Parse(string(fl.Data), Options{})
			if !reflect.DeepEqual(je, ae) || !reflect.DeepEqual(jerrs, aerrs) {
				t.Errorf("%s: auto read %v, %v; json read %v, %v", file, ae, aerrs, je, jerrs)
			}
		}
	}
}

// TestJSONEveryKey: a tool call's edit records the argument its own tool
// takes for every occurrence, so that a hint names that one: the one the
// call sent, OpenCode's replaceAll for a camelCase call, none for the
// text-editor tool's str_replace, which has no such argument.
func TestJSONEveryKey(t *testing.T) {
	for _, c := range []struct{ call, want string }{
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y"}`, "replace_all"},
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y", "allow_multiple": false}`, "allow_multiple"},
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y", "expected_replacements": 1}`, "expected_replacements"},
		{`{"filePath": "a.go", "oldString": "x", "newString": "y"}`, "replaceAll"},
		{`{"filePath": "a.go", "oldString": "x", "newString": "y", "replace_all": false}`, "replace_all"},
		{`{"command": "str_replace", "path": "a.go", "old_str": "x", "new_str": "y"}`, ""},
		{`{"filePath": "a.go", "edits": [{"oldString": "x", "newString": "y"}]}`, "replaceAll"},
	} {
		edits, errs := Parse(c.call, Options{Format: edit.FormatJSON})
		if len(errs) != 0 || len(edits) != 1 {
			t.Errorf("%s: %d edits, errors %v", c.call, len(edits), errs)
			continue
		}
		if got := edits[0].EveryKey; got != c.want {
			t.Errorf("%s: EveryKey %q, want %q", c.call, got, c.want)
		}
	}
}

// TestJSONToolSemantics: each tool's command means what the tool does,
// and a call is read whole or refused. A text-editor create is a Create
// (which refuses a file with other content), an explicit whole-file write
// a Rewrite (which overwrites); a field with edit text that the call's
// command does not read, or a command no text-editor tool has, is a
// PARSE_ERROR naming it, never an empty create.
func TestJSONToolSemantics(t *testing.T) {
	tests := map[string]struct {
		src     string
		want    []string // jsonBrief of each edit
		errWith string   // the one error's message contains this
	}{
		"createIsCreate": {
			src:  `{"command": "create", "path": "a.py", "file_text": "other = 2\n"}`,
			want: []string{`create a.py old="" new="other = 2\n" count=0 hint=0 line=1`},
		},
		"createEmptyFile": {
			src:  `{"command": "create", "path": "pkg/__init__.py", "file_text": ""}`,
			want: []string{`create pkg/__init__.py old="" new="" count=0 hint=0 line=1`},
		},
		"gooseWriteOverwrites": {
			src:  `{"name": "developer__text_editor", "arguments": {"command": "write", "path": "a.py", "file_text": "x = 2\n"}}`,
			want: []string{`rewrite a.py old="" new="x = 2\n" count=0 hint=0 line=1`},
		},
		"writeToFileOverwrites": {
			src:  `{"name": "write_to_file", "arguments": {"path": "a.py", "content": "x = 2\n"}}`,
			want: []string{`rewrite a.py old="" new="x = 2\n" count=0 hint=0 line=1`},
		},
		"fileTextWithoutCommandOverwrites": {
			src:  `{"path": "a.py", "file_text": "x = 2\n"}`,
			want: []string{`rewrite a.py old="" new="x = 2\n" count=0 hint=0 line=1`},
		},
		"strReplaceWithoutOld": {
			src:     `{"name": "text_editor", "arguments": {"command": "str_replace", "path": "new.txt", "new_str": "x\n"}}`,
			errWith: `no old text (want "old_str")`,
		},
		"strReplaceNothing": {
			src:     `{"command": "str_replace", "path": "new.txt"}`,
			errWith: `no old text`,
		},
		"strReplaceDiffAndOld": {
			src:     `{"command": "str_replace", "path": "a.py", "old_str": "x", "new_str": "y", "diff": "@@ -1 +1 @@\n-x\n+y\n"}`,
			errWith: `carries "diff"`,
		},
		"unknownCommand": {
			src:     `{"name": "text_editor", "arguments": {"command": "append", "path": "a.py", "file_text": "y\n"}}`,
			errWith: `command "append" on a.py is not one edapply reads`,
		},
		"shellCommandIsNoEdit": {
			src: `{"command": "ls -la", "workdir": "/tmp"}`,
		},
		"insertLineWithoutInsert": {
			src:     `{"path": "a.py", "insert_line": 3, "new_str": "y\n"}`,
			errWith: `carries "insert_line"`,
		},
		"contentBesideNewString": {
			src:     `{"path": "a.py", "new_string": "", "content": "whole\n"}`,
			errWith: `carries "content"`,
		},
		"sameTextTwiceIsOne": {
			src:  `{"path": "a.py", "old_str": "x", "old_string": "x", "new_string": "y"}`,
			want: []string{`replace a.py old="x" new="y" count=1 hint=0 line=1`},
		},
		"oldOnCreate": {
			src:     `{"command": "create", "path": "a.py", "old_str": "x", "file_text": "y\n"}`,
			errWith: `carries "old_str"`,
		},
		"twoPaths": {
			src:     `{"path": "a.py", "file_path": "b.py", "old_string": "x", "new_string": "y"}`,
			errWith: `carries "file_path"`,
		},
		"neitherText": {
			src:     `{"path": "a.py", "old_string": "", "new_string": ""}`,
			errWith: "neither old nor new text",
		},
		"cursorCodeEdit": {
			src:     `{"name": "edit_file", "arguments": {"target_file": "a.py", "instructions": "set x", "code_edit": "x = 2\n"}}`,
			errWith: `"code_edit"`,
		},
		// Goose's older patch_file: "before", exactly once, becomes "after".
		"goosePatchFile": {
			src:  `{"name": "patch_file", "arguments": {"path": "a.py", "before": "x = 1", "after": "x = 2"}}`,
			want: []string{`replace a.py old="x = 1" new="x = 2" count=1 hint=0 line=1`},
		},
		"goosePatchFileDeletes": {
			src:  `{"name": "patch_file", "arguments": {"path": "a.py", "before": "x = 1\n", "after": ""}}`,
			want: []string{`replace a.py old="x = 1\n" new="" count=1 hint=0 line=1`},
		},
		"goosePatchFileEmptyBefore": {
			src:     `{"name": "patch_file", "arguments": {"path": "a.py", "before": "", "after": "x"}}`,
			errWith: `empty "before"`,
		},
		"goosePatchFileAndNewString": {
			src:     `{"path": "a.py", "before": "x", "after": "y", "new_string": "z"}`,
			errWith: `carries "before"`,
		},
		"gooseWriteFile": {
			src:  `{"name": "write_file", "arguments": {"path": "a.py", "content": "x = 1\n"}}`,
			want: []string{`rewrite a.py old="" new="x = 1\n" count=0 hint=0 line=1`},
		},
		// The filesystem server's edit_file: its edits in order, each once.
		"filesystemEditFile": {
			src: `{"name": "edit_file", "arguments": {"path": "a.py", "edits": [{"oldText": "x = 1", "newText": "x = 2"}, {"oldText": "y", "newText": "z"}]}}`,
			want: []string{`replace a.py old="x = 1" new="x = 2" count=1 hint=0 line=1`,
				`replace a.py old="y" new="z" count=1 hint=0 line=1`},
		},
		"filesystemDryRun": {
			src:     `{"name": "edit_file", "arguments": {"path": "a.py", "edits": [{"oldText": "x = 1", "newText": "x = 2"}], "dryRun": true}}`,
			errWith: `asks for a dry run`,
		},
		"filesystemDryRunFalse": {
			src:  `{"name": "edit_file", "arguments": {"path": "a.py", "edits": [{"oldText": "x", "newText": "y"}], "dryRun": false}}`,
			want: []string{`replace a.py old="x" new="y" count=1 hint=0 line=1`},
		},
		// Anthropic's and Goose's insert of an empty text inserts an
		// empty line.
		"insertEmptyLine": {
			src:  `{"name": "developer__text_editor", "arguments": {"command": "insert", "path": "a.py", "insert_line": 2, "new_str": ""}}`,
			want: []string{`replace a.py old="" new="\n" count=1 hint=3 line=1`},
		},
		"insertNoText": {
			src:     `{"name": "text_editor", "arguments": {"command": "insert", "path": "a.py", "insert_line": 2}}`,
			errWith: `no new text`,
		},
		"gooseWrite": {
			src:  `{"name": "developer__text_editor", "arguments": {"command": "write", "path": "a.py", "file_text": "x\n"}}`,
			want: []string{`rewrite a.py old="" new="x\n" count=0 hint=0 line=1`},
		},
		"gooseUndoEdit": {
			src:     `{"name": "developer__text_editor", "arguments": {"command": "undo_edit", "path": "a.py"}}`,
			errWith: `command "undo_edit" on a.py is not an edit`,
		},
		"proseJSONWithPath": {
			src: `{"path": "/api/users", "contents": ["id", "name"], "before": "2024-01-01"}`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := checkParse(t, []byte(tt.src+"\n"), edit.FormatJSON)
			var got []string
			for _, e := range edits {
				got = append(got, jsonBrief(e))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Parse(%s) edits:\n%s\nwant:\n%s", tt.src, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			switch {
			case tt.errWith == "" && len(errs) > 0 && len(tt.want) > 0:
				t.Errorf("Parse(%s) errors = %v, want none", tt.src, errs)
			case tt.errWith != "" && (len(errs) != 1 || !strings.Contains(errs[0].Msg, tt.errWith)):
				t.Errorf("Parse(%s) errors = %v, want one containing %q", tt.src, errs, tt.errWith)
			}
		})
	}
}

// TestJSONCarriedDiff: Goose's text_editor str_replace with a "diff"
// argument applies that diff. Its hunks are the diff reader's (format
// udiff, marks included) under the call's file; a diff that names another
// file, or holds no hunk, is refused.
func TestJSONCarriedDiff(t *testing.T) {
	call := func(pth, diff string) string {
		return fmt.Sprintf(`{"name": "developer__text_editor", "arguments": {"command": "str_replace", "path": %q, "diff": %q}}`, pth, diff)
	}
	tests := map[string]struct {
		src     string
		want    []string
		marks   []string
		errWith string
	}{
		"withHeaders": {
			src:   call("new.txt", "--- a/new.txt\n+++ b/new.txt\n@@ -1,2 +1,2 @@\n keep\n-a\n+b\n"),
			want:  []string{`replace new.txt old="keep\na\n" new="keep\nb\n" count=1 hint=1 line=1`},
			marks: []string{" -+"},
		},
		"headerless": {
			// No file header: the hunks are the call's file's. A JSON
			// string is whole, so a last line without a newline is no cut.
			src:   call("src/a.py", "@@ -1 +1 @@\n-x = 1\n+x = 2"),
			want:  []string{`replace src/a.py old="x = 1\n" new="x = 2\n" count=1 hint=1 line=1`},
			marks: []string{"-+"},
		},
		"nameFromFileDir": {
			// Goose joins the diff's names to the directory of the file.
			src:   call("src/a.py", "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"),
			want:  []string{`replace src/a.py old="x\n" new="y\n" count=1 hint=1 line=1`},
			marks: []string{"-+"},
		},
		"newFile": {
			src:  call("n.txt", "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"),
			want: []string{`create n.txt old="" new="one\ntwo\n" count=0 hint=0 line=1`},
		},
		"otherFile": {
			src:     call("a.py", "--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-x\n+y\n"),
			errWith: "edits b.py, another file",
		},
		"noHunk": {
			src:     call("a.py", "replace x by y"),
			errWith: "holds no unified diff hunk",
		},
		"badHunk": {
			src:     call("a.py", "--- a/a.py\n+++ /dev/null\n@@ -1 +1 @@\n-x\n+y\n"),
			errWith: "the diff in this tool call, at its line 3",
		},
		"withoutCommand": {
			src:   `{"path": "a.py", "diff": "@@ -1 +1 @@\n-x\n+y\n"}`,
			want:  []string{`replace a.py old="x\n" new="y\n" count=1 hint=1 line=1`},
			marks: []string{"-+"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			src := []byte("Here:\n" + tt.src + "\n")
			edits, errs := checkParse(t, src, edit.FormatJSON)
			var got, marks []string
			for _, e := range edits {
				e.Line--
				got = append(got, jsonBrief(e))
				if e.Marks != "" {
					marks = append(marks, e.Marks)
				}
				if e.Format != edit.FormatUDiff || src[e.Start] != '"' {
					t.Errorf("edit %+v: format %q, span %q; want udiff and the diff's string", e, e.Format, src[e.Start:e.End])
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") || strings.Join(marks, ",") != strings.Join(tt.marks, ",") {
				t.Errorf("Parse(%s) edits:\n%s %q\nwant:\n%s %q", tt.src, strings.Join(got, "\n"), marks, strings.Join(tt.want, "\n"), tt.marks)
			}
			if tt.errWith == "" && len(errs) > 0 || tt.errWith != "" && (len(errs) != 1 || !strings.Contains(errs[0].Msg, tt.errWith)) {
				t.Errorf("Parse(%s) errors = %v, want %q", tt.src, errs, tt.errWith)
			}
			if ae, aerrs := Parse(string(src), Options{}); !reflect.DeepEqual(ae, edits) || !reflect.DeepEqual(aerrs, errs) {
				t.Errorf("auto read %v, %v; json read %v, %v", ae, aerrs, edits, errs)
			}
		})
	}
}

// TestJSONCarriedDiffInDirectory: a diff sent with a directory for its
// path (Goose's multi-file diff) edits files under it, each name read
// from it unless it already starts with it.
func TestJSONCarriedDiffInDirectory(t *testing.T) {
	tree := fstest.MapFS{"src/a.py": {Data: []byte("x\n")}, "src/b.py": {Data: []byte("p\n")}}
	diff := "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n--- a/src/b.py\n+++ b/src/b.py\n@@ -1 +1 @@\n-p\n+q\n"
	src := fmt.Sprintf(`{"command": "str_replace", "path": "src", "diff": %q}`, diff)
	edits, errs := Parse(src, Options{Format: edit.FormatJSON, Tree: tree})
	var got []string
	for _, e := range edits {
		got = append(got, jsonBrief(e))
	}
	want := []string{`replace src/a.py old="x\n" new="y\n" count=1 hint=1 line=1`, `replace src/b.py old="p\n" new="q\n" count=1 hint=1 line=1`}
	if len(errs) != 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Parse(%s) = %q, %v; want %q", src, got, errs, want)
	}
	if _, errs := Parse(src, Options{Format: edit.FormatJSON}); len(errs) != 1 {
		t.Errorf("Parse without a tree: errors %v, want one (src is no file the diff names)", errs)
	}
}

// TestJSONScanLinear bounds the bytes the JSON reader scans in a reply of
// lines that each open a tool call that never closes, alone, in a fence
// and before a block: each line is tried as a call, and each try reads on
// only to where the call breaks (the next line) or is answered by what an
// earlier try saw. Without that, every try read to the end of the reply,
// and the lenient decoder after it as far as its allowance let it.
func TestJSONScanLinear(t *testing.T) {
	const call = `{"old_str": "x",` + "\n"
	sr := "a.go\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
	for name, reply := range map[string]func(n int) string{
		"run":        func(n int) string { return strings.Repeat(call, n) },
		"fenced":     func(n int) string { return "```json\n" + strings.Repeat(call, n) + "```\n" },
		"bareFence":  func(n int) string { return "```\n" + strings.Repeat(call, n) + "```\n" },
		"beforeSR":   func(n int) string { return strings.Repeat(call, n) + sr },
		"nestedOpen": func(n int) string { return strings.Repeat(`{"old_str": "x", "a":`+"\n", n) },
		// Not a call: every line is tried again, and each inner value
		// was seen open to the fence by the first line's try.
		"nestedNotCall": func(n int) string { return "```\n" + strings.Repeat(`{"name": "x", "a":`+"\n", n) + "```\n" },
	} {
		for _, n := range []int{1000, 4000} {
			src := reply(n)
			p := newParser(src, edit.FormatAuto)
			p.run()
			if got := p.json.scanner.Scanned; got > 4*len(src) {
				t.Errorf("%s of %d lines: scanned %d bytes of a %d-byte reply, want at most 4×", name, n, got, len(src))
			}
			// A call whose grammar breaks outside its strings is no work
			// for the lenient decoder, which repairs only strings.
			if got := p.json.lenientUsed; got > len(src) {
				t.Errorf("%s of %d lines: the lenient decoder read %d bytes of a %d-byte reply, want at most the reply", name, n, got, len(src))
			}
		}
	}
}

// TestTextNames: an edit records what its reply called its texts where
// the format has more than one name for them (a tool call's arguments,
// Zed's tags), so that a hint names them so; the usual names record none.
func TestTextNames(t *testing.T) {
	for _, c := range []struct {
		reply       string
		format      edit.Format
		old, newKey string
	}{
		{`{"file_path": "a.go", "old_string": "x", "new_string": "y"}`, edit.FormatJSON, "", ""},
		{`{"command": "str_replace", "path": "a.go", "old_str": "x", "new_str": "y"}`, edit.FormatJSON, "old_str", "new_str"},
		{`{"filePath": "a.go", "oldString": "x", "newString": "y"}`, edit.FormatJSON, "oldString", "newString"},
		{`{"path": "a.go", "old_text": "x", "new_text": "y"}`, edit.FormatJSON, "old_text", "new_text"},
		{`{"path": "a.go", "old_string": "x", "new_str": "y"}`, edit.FormatJSON, "old_string", "new_str"},
		{`{"path": "a.go", "old_str": "", "new_str": "y"}`, edit.FormatJSON, "old_str", "new_str"}, // a create
		{"a.py\n<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n", edit.FormatAuto, "<old_text>", "<new_text>"},
		{"a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", edit.FormatAuto, "", ""},
	} {
		edits, errs := Parse(c.reply, Options{Format: c.format})
		if len(errs) != 0 || len(edits) != 1 {
			t.Errorf("%s: %d edits, errors %v", c.reply, len(edits), errs)
			continue
		}
		var got edit.TextNames
		if n := edits[0].Names; n != nil {
			got = *n
		}
		if want := (edit.TextNames{Old: c.old, New: c.newKey}); got != want {
			t.Errorf("%s: names %+v, want %+v", c.reply, got, want)
		}
	}
}
