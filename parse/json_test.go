package parse

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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
			src:      `{"command": "insert", "path": "a.go", "insert_line": 1, "new_str": ""}` + "\n",
			errLines: []int{1},
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
			edits, errs := checkParse(t, []byte(tt.src), FormatJSON)
			var got []string
			for _, e := range edits {
				got = append(got, jsonBrief(e))
				if e.Format != FormatJSON {
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
		p := newParser(src+"\n", FormatJSON)
		if got := jsonRegion.starts(p, 0); got != want {
			t.Errorf("starts(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestJSONSpans checks that each edit's span is its own object's lines.
func TestJSONSpans(t *testing.T) {
	src := "Intro\n[\n  {\"path\": \"a\", \"old_string\": \"1\", \"new_string\": \"2\"},\n  {\"path\": \"b\", \"old_string\": \"3\", \"new_string\": \"4\"}\n]\nOutro\n"
	edits, errs := checkParse(t, []byte(src), FormatAuto)
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
		p := newParser(tt.src, FormatJSON)
		if !jsonRegion.starts(p, 0) {
			t.Errorf("%s: starts(%q, 0) = false", name, tt.src)
			continue
		}
		if got := jsonRegion.read(p, 0); got != tt.next {
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
			je, jerrs := Parse(fl.Data, FormatJSON)
			ae, aerrs := Parse(fl.Data, FormatAuto)
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
		edits, errs := Parse([]byte(c.call), FormatJSON)
		if len(errs) != 0 || len(edits) != 1 {
			t.Errorf("%s: %d edits, errors %v", c.call, len(edits), errs)
			continue
		}
		if got := edits[0].EveryKey; got != c.want {
			t.Errorf("%s: EveryKey %q, want %q", c.call, got, c.want)
		}
	}
}
