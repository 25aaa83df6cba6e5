package parse

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// The JSON reader takes tool calls that models print instead of (or as well
// as) making them: str_replace-style objects, one per line (JSONL), pretty
// printed across lines, gathered in an array, inside ```json fences, or
// wrapped the way harnesses wrap them ({"name": …, "input": {…}},
// OpenAI's {"function": {"arguments": "<JSON text>"}}, tool_calls arrays).
//
// A region is found by decoding, not by pattern: it starts at a line whose
// trimmed text begins with '{' or '[' (or at a fence opening such a line)
// from which encoding/json decodes a value holding at least one edit-shaped
// object (and whose first jsonPeek bytes name a field of one, a cheap filter
// that keeps large non-edit JSON from costing quadratic time). Anything else
// is prose and left to the other readers, so a brace in an explanation costs
// nothing. The exception is a value that fails to
// decode but plainly began as an edit ({"path": …, {"old_string": …): that
// is a truncated or broken call, and a PARSE_ERROR, because applying the
// rest of the response without it would silently drop a change.
//
// Text is decoded exactly once, by encoding/json: "\n" in a JSON string is a
// newline in the edit, and a backslash the model escaped stays one backslash.
// A string-encoded "arguments" is a second JSON document, not a second
// escaping layer, so it is decoded as JSON once more and nothing else.
//
// Hand-written calls are not always JSON: when strict decoding fails on a
// value that plainly began as an edit, a lenient reading is tried before it
// is a PARSE_ERROR. A raw control character inside a string (a tab, a line
// break) is kept as that character, and an escape JSON does not know ("\d"
// in a regular expression) is kept as its two characters; every valid
// escape is still decoded exactly once. A relative path written with
// Windows separators ("Lib\\a.py", decoded Lib\a.py) has them mapped to
// "/"; absolute, drive and UNC forms stay as written, for the applier to
// refuse.
//
// Lowering, per edit-shaped object, with each tool's own semantics:
//   - command "create" (the text-editor tools' "create a new file"):
//     edit.Create, which the applier refuses (FILE_EXISTS) on a file with
//     other content and reports already_applied on one that holds exactly
//     that text;
//   - whole-file writes, which overwrite: command "write" (Goose's
//     text_editor) and a "content" or "file_text" field with no old field
//     and no command (write_to_file, write_file): edit.Rewrite, which
//     creates the file when it is absent;
//   - old text absent or "" with new text and no command: edit.Create;
//     both absent or empty is no edit, and a PARSE_ERROR;
//   - command "str_replace" needs its old text; with none and a "diff"
//     argument (Goose's text_editor) the diff is read as the unified diff
//     it is (readCarriedDiff): its hunks, in format udiff, with the span of
//     the string that holds it;
//   - command "insert" with insert_line N: a Replace with Old "" and Hint
//     N+1, because the tool inserts after line N and the applier inserts
//     before line Hint; the text gets a final newline if it lacks one, as
//     the tool inserts whole lines;
//   - otherwise edit.Replace with Count 1, 0 for replace_all, or N for
//     expected_replacements;
//   - "edits": [{old_string, new_string}, …] under one path (MultiEdit):
//     one Replace per element, in order.
//
// A call whose command or input is a Codex envelope yields that envelope's
// edits, read by the Codex reader (codexcall.go).
//
// A call is read whole or refused: an edit-shaped call that also carries
// edit content in a field edapply does not read with the fields it does
// ("diff" beside "old_str", "insert_line" without command insert, Cursor's
// "code_edit", a second path), or a command the text-editor tools do not
// have, is a PARSE_ERROR naming the field or the command, never a create
// or a no-op that drops the content.
//
// Each edit's Line and span are those of its own object when it has one in
// the output (array elements, MultiEdit elements); edits decoded from a
// string-encoded "arguments" take the span of that string.

// A jsonReader reads JSON tool calls. It keeps what its starts found at
// line at for its read (the region's items and the line after them), the
// bytes the lenient decoder scanned, and the text-editor view calls,
// errors when the response holds nothing else.
type jsonReader struct {
	p           *parser
	at          int
	items       []jsonItem
	next        int
	lenientUsed int
	views       []edit.Error
	scanner     syntax.JSONScanner // every value's decoding, remembered across lines
}

func (r *jsonReader) format() edit.Format { return edit.FormatJSON }

func (r *jsonReader) starts(i int) bool {
	items, next := r.p.jsonRegionAt(i)
	r.at, r.items, r.next = i, items, next
	return len(items) > 0
}

func (r *jsonReader) read(i int) int {
	p := r.p
	items, next := r.items, r.next
	if r.at != i || items == nil {
		items, next = p.jsonRegionAt(i)
	}
	r.items = nil
	for _, it := range items {
		from, to := p.lineAt(it.start), p.lineAt(it.end-1)+1
		if it.patch != "" {
			p.readCarriedPatch(it)
			continue
		}
		if it.diff != "" {
			p.readCarriedDiff(it)
			continue
		}
		if it.onlyRead {
			r.views = append(r.views, edit.Error{Code: edit.CodeParse, Edit: -1, Line: lineNum(from), Msg: it.msg, Hint: it.hint})
			continue
		}
		if it.msg != "" {
			hint := it.hint
			if hint == "" {
				hint = "Resend the tool call as one complete JSON object with a path, the old text and the new text."
			}
			p.errorHint(lineNum(from), hint, "%s", it.msg)
			continue
		}
		p.add(it.e, edit.FormatJSON, from, to)
	}
	return next
}

// A jsonItem is one edit, or one problem, found in a JSON region, with the
// byte span [start, end) of the object it came from.
type jsonItem struct {
	e          edit.Edit
	msg        string // non-empty: a PARSE_ERROR instead of an edit
	hint       string // the error's hint, when not the reader's usual one
	onlyRead   bool   // msg reports a view call, an error only when nothing else parses
	patch      string // a Codex envelope the call carries, decoded (codexcall.go)
	diff       string // a unified diff the call carries (Goose's str_replace "diff"), decoded
	diffPath   string // the path the call that carries diff names
	dir        string // the directory a shell changed to before apply_patch: patch's paths are under it
	codexCall  bool   // a call carrying a Codex patch, or refused for how it runs apply_patch
	start, end int
}

// jsonRegionAt returns what the JSON region starting at line i holds and the
// index of the first line after it. No items means no region starts there.
// jsonReader's starts keeps the answer for its read.
func (p *parser) jsonRegionAt(i int) ([]jsonItem, int) {
	items, next := p.jsonRegionItems(i)
	if p.format == edit.FormatCodex {
		// Codex alone was asked for: of the calls, only the envelopes
		// they carry (and the refusals of those edapply does not read).
		var patches []jsonItem
		for _, it := range items {
			if it.codexCall {
				patches = append(patches, it)
			}
		}
		return patches, next
	}
	return items, next
}

func (p *parser) jsonRegionItems(i int) ([]jsonItem, int) {
	// A response saved by an editor may open with a byte order mark.
	t := strings.TrimPrefix(strings.TrimSpace(p.lines[i].Text), "\ufeff")
	if fence, ok := jsonFenceOpen(t); ok {
		return p.jsonFence(i, fence)
	}
	if t == "" || (t[0] != '{' && t[0] != '[') || !jsonMayHoldEdit(p.text[p.lines[i].Start:min(len(p.text), p.lines[i].Start+jsonPeek)]) {
		return nil, i + 1
	}
	items, next, _ := p.jsonValues(i)
	return items, next
}

// jsonPeek is how far into a value jsonMayHoldEdit looks for a field name.
const jsonPeek = 1024

// jsonKeyHeads open, quoted, every field name an edit or a wrapper has
// (`"old` also matches `\"old_string\"` inside string-encoded arguments).
var jsonKeyHeads = []string{
	`"path`, `"patch`, `"file`, `"old`, `"new`, `"search`,
	`"replace`, `"content`, `"edits`, `"command`, `"input`, `"arguments`,
	`"param`, `"args`, `"function`, `"tool`, `"name`, `"type`,
}

// jsonMayHoldEdit reports whether s, the first jsonPeek bytes from a line
// opening with a brace, names a field of an edit or of a wrapper. It keeps
// starts from decoding every line of a large JSON document, or of a run of
// brackets that never closes, to its end: without it such input costs time
// quadratic in its length. A call whose first field name lies beyond
// jsonPeek bytes is not a call any harness writes.
func jsonMayHoldEdit(s string) bool {
	for _, h := range jsonKeyHeads {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

// jsonFenceOpen reports whether t opens a fence that may hold JSON: a bare
// fence or one whose info string names JSON (json, jsonl, jsonc, …).
func jsonFenceOpen(t string) (string, bool) {
	n := 0
	for n < len(t) && t[n] == '`' {
		n++
	}
	if n < 3 {
		return "", false
	}
	info := strings.ToLower(strings.TrimSpace(t[n:]))
	if info != "" && !strings.HasPrefix(info, "json") && info != "ndjson" {
		return "", false
	}
	return t[:n], true
}

// jsonFence reads a fence opened at line i. It is a region only when it
// holds nothing but JSON values and blank lines and those hold an edit: a
// bare "```" may be the closing fence of some other block, and a fence with
// prose in it is not a tool call. A ```json fence never closed is a
// PARSE_ERROR (a truncated response), unless a truncated value inside was
// reported already.
func (p *parser) jsonFence(i int, fence string) ([]jsonItem, int) {
	var items []jsonItem
	j := i + 1
	for j < len(p.lines) {
		t := strings.TrimSpace(p.lines[j].Text)
		if strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
			break
		}
		if t == "" {
			j++
			continue
		}
		if t[0] != '{' && t[0] != '[' {
			return nil, i + 1
		}
		its, next, ok := p.jsonValues(j)
		if !ok {
			return nil, i + 1
		}
		items = append(items, its...)
		j = next
	}
	if len(items) == 0 {
		return nil, i + 1
	}
	if j < len(p.lines) {
		return items, j + 1
	}
	if fence := strings.TrimSpace(p.lines[i].Text); strings.Trim(fence, "`") == "" {
		return nil, i + 1 // a bare fence left open: likely not an opener at all
	}
	for _, it := range items {
		if it.msg != "" {
			return items, j
		}
	}
	items = append(items, jsonItem{msg: "```json fence is never closed", start: p.lines[i].Start, end: p.lineEnd(i)})
	return items, j
}

// jsonValues decodes the JSON values starting at line i (several when they
// share a line, as in `{…}, {…}`) and returns their items and the first line
// after the last of them. A value that fails to decode yields an error item
// when it plainly began as an edit; ok is false when the line held nothing
// but a value that is not JSON (prose with a brace).
func (p *parser) jsonValues(i int) (items []jsonItem, next int, ok bool) {
	off := p.lines[i].Start
	next = i + 1
	for {
		raw, start, end, err := p.json.scanner.DecodeAt(p.text, off)
		var fixed []int // with the lenient decoder: offsets in src of raw's bytes
		bad := err != nil && looksLikeEditJSON(p.text[start:min(len(p.text), start+512)])
		// The lenient decoder repairs what a string holds, never the
		// grammar around the strings.
		if bad && !p.json.scanner.Broken {
			if r, m, e, ok := p.decodeLenient(start); ok {
				raw, fixed, end, err = r, m, e, nil
			}
		}
		if err != nil {
			if bad {
				items = append(items, jsonItem{msg: "JSON tool call is truncated or not valid JSON: " + jsonErrText(err),
					start: start, end: p.lineEnd(p.lineAt(start))})
			}
			// Resume at the line holding the error, so a closing fence or
			// the next JSONL line there is still seen; always move on.
			if end >= len(p.text) {
				next = len(p.lines)
			} else if l := p.lineAt(end); l >= next {
				next = l
			}
			return items, next, bad || len(items) > 0
		}
		w := jsonWalker{file: p.file, noFile: p.noFileHint(noPathHint)}
		if fixed != nil {
			// Walk the repaired text, then map its spans back to the output.
			w.value(raw, 0, len(raw), 0)
			for k := range w.items {
				w.items[k].start, w.items[k].end = fixed[w.items[k].start], fixed[w.items[k].end]
			}
		} else {
			w.value(raw, start, end, 0)
		}
		items = append(items, w.items...)
		last := p.lineAt(end - 1)
		next = last + 1
		// Another value on the same line, after spaces or a comma?
		rest := p.text[end:p.lineEnd(last)]
		k := 0
		for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t' || rest[k] == ',') {
			k++
		}
		if k == len(rest) || (rest[k] != '{' && rest[k] != '[') {
			return items, next, true
		}
		off = end + k
	}
}

// winSlashes turns a relative Windows path ("Lib\\a.py") into the
// slash-separated name the applier wants. Absolute, drive ("C:\\x") and UNC
// ("\\\\host\\x") forms stay as written, for the applier to refuse.
func winSlashes(s string) string {
	if !strings.Contains(s, `\`) || strings.Contains(s, "/") || strings.HasPrefix(s, `\`) ||
		len(s) >= 2 && s[1] == ':' {
		return s
	}
	return strings.ReplaceAll(s, `\`, "/")
}

// lenientBudget bounds, as a multiple of the output's length, the bytes the
// lenient decoder may scan in one Parse, which keeps the reader linear when
// many broken values run on to the end of the output.
const lenientBudget = 2

// decodeLenient is syntax.DecodeLenient of the value at start, within
// lenientBudget.
func (p *parser) decodeLenient(start int) (raw json.RawMessage, orig []int, end int, ok bool) {
	if start >= len(p.text) || p.json.lenientUsed > lenientBudget*len(p.text)+1<<20 {
		return nil, nil, 0, false
	}
	raw, orig, end, ok = syntax.DecodeLenient(p.text, start)
	p.json.lenientUsed += end - start
	if !ok {
		return nil, nil, 0, false
	}
	return raw, orig, end, true
}

func jsonErrText(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "the response ends inside it"
	}
	return err.Error()
}

// editKeyRE matches the opening of a JSON value whose first key names an
// edit field, or any quoted field name that only edit tools use.
var editKeyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[\[\s]*\{\s*"(path|file_path|filePath|filename|file|edits)"\s*:|\\?"(old_string|old_str|oldString|old_text|oldText|new_string|new_str|newString|new_text|file_text|replace_all|replaceAll|allow_multiple|expected_replacements|insert_line)\\?"\s*:`)
})

// looksLikeEditJSON reports whether s, the start of a value that failed to
// decode, was plainly meant as an edit rather than prose with braces.
func looksLikeEditJSON(s string) bool { return editKeyRE().MatchString(s) }

// isJSONStrongKey reports whether k is a field name only edit tools use.
func isJSONStrongKey(k string) bool {
	switch k {
	case "old_string", "old_str", "oldString", "old_text",
		"new_string", "new_str", "newString", "new_text", "file_text":
		return true
	}
	return false
}

// A jsonWalker collects the items of one top-level value. file is the
// file of a call that names none (Options.File), and noFile the hint of
// such a call when file is "".
type jsonWalker struct {
	items  []jsonItem
	file   string
	noFile string
}

// noPathHint is the hint of a tool call that names no file.
const noPathHint = "Resend the tool call as one complete JSON object with a path, the old text and the new text."

func (w *jsonWalker) fail(start, end int, format string, args ...any) {
	w.failHint(start, end, "", format, args...)
}

// failHint is fail with a hint of its own ("" for the reader's usual one).
func (w *jsonWalker) failHint(start, end int, hint, format string, args ...any) {
	w.items = append(w.items, jsonItem{msg: fmt.Sprintf(format, args...), hint: hint, start: start, end: end})
}

// value looks for edits in raw, which spans [start, end) of the output.
func (w *jsonWalker) value(raw json.RawMessage, start, end, depth int) {
	if depth > syntax.JSONMaxDepth || len(raw) == 0 {
		return
	}
	switch raw[0] {
	case '[':
		for _, m := range syntax.JSONElems(raw, start) {
			w.value(m.Raw, m.Start, m.End, depth+1)
		}
	case '{':
		w.object(syntax.JSONObject(raw, start), start, end, depth)
	}
}

// object lowers an edit-shaped object, or looks inside a wrapper.
func (w *jsonWalker) object(obj map[string]syntax.JSONMember, start, end, depth int) {
	if w.carriedPatch(obj) {
		return
	}
	cmd, _ := syntax.JSONString(obj["command"])
	switch cmd {
	case "str_replace", "create", "insert", "write":
		if hasAny(obj, syntax.JSONPathKeys) || hasAny(obj, syntax.JSONOldKeys) || hasAny(obj, syntax.JSONNewKeys) || syntax.HasField(obj, "insert_text") || syntax.HasField(obj, "diff") {
			w.call(obj, cmd, "", start, end)
			return
		}
	case "view", "undo_edit":
		// The text-editor tool's other commands: undo_edit asks for a
		// change edapply cannot make, so passing over it would claim a
		// state the model did not get; view only reads, and is an error
		// only in a response that holds nothing else (see parse).
		if hasAny(obj, syntax.JSONPathKeys) {
			p, _ := firstString(obj, syntax.JSONPathKeys)
			hint := "Read files another way; send edapply only the edits, each as a str_replace, create or insert call."
			if cmd == "undo_edit" {
				hint = "Send the text to restore as a str_replace call; edapply's undo reverts a whole earlier apply."
			}
			w.items = append(w.items, jsonItem{start: start, end: end, onlyRead: cmd == "view", hint: hint,
				msg: fmt.Sprintf("command %q on %s is not an edit: only str_replace, create and insert change a file", cmd, p)})
		}
		return
	case "":
	default:
		if hasAny(obj, syntax.JSONPathKeys) && unreadContent(obj, nil) != "" {
			// A file and the text of an edit: an editor's command
			// edapply does not know, which must not pass for a shell's.
			p, _ := firstString(obj, syntax.JSONPathKeys)
			w.items = append(w.items, jsonItem{start: start, end: end,
				hint: "Send the edit as a str_replace, create, insert or write call, or in another format.",
				msg:  fmt.Sprintf("command %q on %s is not one edapply reads: the text-editor tools' are str_replace, create, insert and write", clip(cmd), p)})
		}
		return // a shell command: not an edit
	}
	edits, isMulti := obj["edits"]
	isMulti = isMulti && edits.Raw[0] == '[' && (hasAny(obj, syntax.JSONPathKeys) || w.strongElems(edits))
	isCall := hasStrong(obj) || (hasAny(obj, syntax.JSONPathKeys) && (hasAny(obj, syntax.JSONOldKeys) || hasAny(obj, syntax.JSONNewKeys) || syntax.HasField(obj, "diff")))
	isPatchFile := !isCall && isPatchFileCall(obj)
	if (isMulti || isCall || isPatchFile) && dryRunAsked(obj) {
		// The call asks to be shown its change, not to make it.
		p, _ := firstString(obj, syntax.JSONPathKeys)
		w.failHint(start, end, "Send the call without dryRun to make the change; a dry run of the edit tool itself shows it without writing.",
			"the call for %s asks for a dry run: it would write nothing", p)
		return
	}
	switch {
	case isMulti:
		w.multi(obj, edits, start, end)
		return
	case isCall:
		w.call(obj, "", "", start, end)
		return
	case isPatchFile:
		w.call(obj, patchFile, "", start, end)
		return
	}
	if k := unreadCall(obj); k != "" {
		// A file and edit text in a field of a tool edapply does not
		// read (Cursor's code_edit): a call, refused, not prose.
		p, _ := firstString(obj, append([]string{"target_file"}, syntax.JSONPathKeys...))
		w.failHint(start, end, "Send the edit as a str_replace call (path, old_str, new_str), a unified diff, or SEARCH/REPLACE blocks.",
			"the call's %q for %s is not an edit edapply reads", k, p)
		return
	}
	for _, k := range syntax.JSONWrapperKeys {
		m, ok := obj[k]
		if !ok {
			continue
		}
		if s, ok := syntax.JSONString(m); ok && k == "arguments" {
			w.arguments(s, m, depth)
			continue
		}
		w.value(m.Raw, m.Start, m.End, depth+1)
	}
}

// arguments decodes a string-encoded "arguments" (OpenAI function calling)
// as the JSON document it is. Its edits take the string's span: offsets
// inside the decoded text are not offsets in the output.
func (w *jsonWalker) arguments(s string, m syntax.JSONMember, depth int) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return
	}
	var raw json.RawMessage
	if err := json.Unmarshal([]byte(t), &raw); err != nil {
		if looksLikeEditJSON(t) {
			w.fail(m.Start, m.End, "string-encoded arguments are truncated or not valid JSON: %v", jsonErrText(err))
		}
		return
	}
	inner := jsonWalker{file: w.file, noFile: w.noFile}
	inner.value(raw, 0, len(t), depth+1)
	for _, it := range inner.items {
		it.start, it.end = m.Start, m.End
		w.items = append(w.items, it)
	}
}

// strongElems reports whether an "edits" array holds an object with a field
// name only edit tools use.
func (w *jsonWalker) strongElems(es syntax.JSONMember) bool {
	for _, m := range syntax.JSONElems(es.Raw, es.Start) {
		if len(m.Raw) > 0 && m.Raw[0] == '{' && hasStrong(syntax.JSONObject(m.Raw, m.Start)) {
			return true
		}
	}
	return false
}

// multi lowers a MultiEdit: one path, several {old_string, new_string}.
func (w *jsonWalker) multi(obj map[string]syntax.JSONMember, es syntax.JSONMember, start, end int) {
	p, _ := firstString(obj, syntax.JSONPathKeys)
	n := 0
	for _, m := range syntax.JSONElems(es.Raw, es.Start) {
		if len(m.Raw) == 0 || m.Raw[0] != '{' {
			w.fail(m.Start, m.End, "an element of \"edits\" is not an object")
			continue
		}
		w.call(syntax.JSONObject(m.Raw, m.Start), "", p, m.Start, m.End)
		n++
	}
	if n == 0 {
		w.fail(start, end, "\"edits\" holds no edit")
	}
}

// call lowers one edit-shaped object. cmd is the str_replace_based_edit_tool
// command, if any; defPath is the path of an enclosing MultiEdit.
func (w *jsonWalker) call(obj map[string]syntax.JSONMember, cmd, defPath string, start, end int) {
	pathKey, rawPath, ok, err := syntax.FirstField(obj, syntax.JSONPathKeys)
	if err != nil {
		w.fail(start, end, "%q must be a string", pathKey)
		return
	}
	if !ok {
		if defPath == "" {
			defPath = w.file
		}
		if defPath == "" {
			w.failHint(start, end, w.noFile, "edit has no path (want \"path\" or \"file_path\")")
			return
		}
		rawPath = defPath
	}
	p, ok := syntax.CleanDelimitedPath(rawPath)
	p = winSlashes(p)
	if !ok {
		w.fail(start, end, "%q is not a file path", rawPath)
		return
	}
	if !strings.Contains(p, "..") {
		p = path.Clean(p) // "a/./b" names a/b; ".." is left for the applier to judge
	}
	oldKeys, newKeys := syntax.JSONOldKeys, syntax.JSONNewKeys
	switch cmd {
	case "insert":
		newKeys = syntax.JSONInsertKeys
	case patchFile:
		oldKeys, newKeys = []string{"before"}, []string{"after"}
	}
	oldKey, old, hasOld, err := syntax.FirstField(obj, oldKeys)
	if err != nil {
		w.fail(start, end, "%q must be a string", oldKey)
		return
	}
	newKey, nw, hasNew, err := syntax.FirstField(obj, newKeys)
	if err != nil {
		w.fail(start, end, "%q must be a string", newKey)
		return
	}
	// The fields the call's command reads: an old text only for a
	// replacement, a line only for an insert.
	read := []string{pathKey, newKey}
	switch cmd {
	case "", "str_replace", patchFile:
		read = append(read, oldKey)
	case "insert":
		read = append(read, "insert_line")
	}
	if d, ok := obj["diff"]; ok && !hasOld && !hasNew && (cmd == "str_replace" || cmd == "") {
		// Goose's text_editor: str_replace with its edit as a unified diff.
		text, isStr := syntax.JSONString(d)
		if !isStr || strings.TrimSpace(text) == "" {
			w.fail(start, end, "the \"diff\" of the call for %s is not a unified diff", p)
			return
		}
		if k := unreadContent(obj, append(read, "diff")); k != "" {
			w.fail(start, end, "the call for %s carries both \"diff\" and %q: edapply reads one edit per call", p, k)
			return
		}
		w.items = append(w.items, jsonItem{diff: text, diffPath: p, start: d.Start, end: d.End})
		return
	}
	if k := unreadContent(obj, read); k != "" {
		msg := fmt.Sprintf("the call for %s carries %q, which edapply does not read", p, k)
		if names := readNames(read); names != "" {
			msg += " with " + names
		}
		w.items = append(w.items, jsonItem{msg: msg, start: start, end: end,
			hint: "Resend the call with the fields of one edit only: path, old_string and new_string, or a text-editor command and its own fields."})
		return
	}
	if !hasNew {
		if cmd != "str_replace" {
			w.fail(start, end, "edit of %s has no new text (want \"new_string\")", p)
			return
		}
		nw = "" // str_replace's new_str is optional: absent deletes the old text
	}
	if cmd == "str_replace" && !hasOld {
		w.failHint(start, end, "Send the text to replace as old_str; to create a new file, use command \"create\" with file_text.",
			"str_replace on %s has no old text (want \"old_str\"): nothing of it is written", p)
		return
	}
	e := edit.Edit{Path: p, New: nw}
	switch {
	case cmd == "insert":
		m, ok := obj["insert_line"]
		n, isInt := jsonInt(m)
		if !ok || !isInt || n < 0 {
			w.fail(start, end, "insert into %s needs a non-negative integer \"insert_line\"", p)
			return
		}
		// An empty text inserts an empty line, as the tool splits it
		// into lines and inserts each.
		if !strings.HasSuffix(nw, "\n") {
			e.New += "\n"
		}
		e.Op, e.Count, e.Hint = edit.Replace, 1, n+1
	case cmd == patchFile && old == "":
		w.failHint(start, end, "Send in \"before\" the text to replace, as it stands once in the file.",
			"patch_file on %s has an empty \"before\": it names no place", p)
		return
	case cmd == "create":
		e.Op = edit.Create
	case cmd == "write" || cmd == "" && !hasOld && (newKey == "content" || newKey == "file_text"):
		e.Op = edit.Rewrite
	case old == "" && nw == "":
		w.failHint(start, end, "Send the text to replace and its replacement; to create an empty file, use command \"create\" with an empty file_text.",
			"edit of %s has neither old nor new text", p)
		return
	case old == "":
		e.Op = edit.Create
		if hasOld && oldKey != "old_string" {
			e.Names = textNamesOf(oldKey, newKey) // "an empty old_str" creates
		}
	default:
		e.Op, e.Old = edit.Replace, old
		c, msg := jsonCount(obj)
		if msg != "" {
			w.fail(start, end, "edit of %s: %s", p, msg)
			return
		}
		e.Count = c
		e.EveryKey = everyKey(obj, cmd, oldKey)
		if oldKey != "old_string" || hasNew && newKey != "new_string" {
			e.Names = textNamesOf(oldKey, newKey)
		}
	}
	w.items = append(w.items, jsonItem{e: e, start: start, end: end})
}

// textNames are the names of the pairs of keys calls send, shared by
// their edits rather than held twice by each; made on first use (a
// program that reads no call pays nothing), read only.
var textNames = sync.OnceValue(func() map[edit.TextNames]*edit.TextNames {
	m := map[edit.TextNames]*edit.TextNames{}
	add := func(o, n string) { m[edit.TextNames{Old: o, New: n}] = &edit.TextNames{Old: o, New: n} }
	for _, o := range syntax.JSONOldKeys {
		for _, n := range syntax.JSONNewKeys {
			add(o, n)
		}
		add(o, "")
	}
	add("before", "after")
	return m
})

// textNamesOf is the shared names of a call's old and new keys.
func textNamesOf(oldKey, newKey string) *edit.TextNames {
	if n, ok := textNames()[edit.TextNames{Old: oldKey, New: newKey}]; ok {
		return n
	}
	return &edit.TextNames{Old: oldKey, New: newKey}
}

// patchFile stands for the command of Goose's older patch_file, which has
// none: "before", which must occur once, becomes "after".
const patchFile = "patch_file"

// isPatchFileCall reports whether obj is a call of Goose's older
// patch_file: a path, a text "before" and a text "after" ("" deletes).
// An empty "before" is the call's too, refused rather than passed over.
func isPatchFileCall(obj map[string]syntax.JSONMember) bool {
	_, okb := syntax.JSONString(obj["before"])
	_, oka := syntax.JSONString(obj["after"])
	return okb && oka && hasAny(obj, syntax.JSONPathKeys)
}

// dryRunAsked reports whether obj asks for a dry run (the filesystem
// server's edit_file "dryRun": true), a preview and no write.
func dryRunAsked(obj map[string]syntax.JSONMember) bool {
	for _, k := range []string{"dryRun", "dry_run"} {
		m, ok := obj[k]
		if !ok {
			continue
		}
		if s, isStr := syntax.JSONString(m); string(m.Raw) == "true" || isStr && s == "true" {
			return true
		}
	}
	return false
}

// jsonUnreadKeys name fields that carry an edit's text in tools edapply
// does not read (Cursor's edit_file, ...): beside a path, they make an object a call, which is
// refused rather than passed over (see unreadCall).
var jsonUnreadKeys = []string{
	"diff", "patch", "code_edit", "new_content", "newContent", "old_content", "oldContent",
	"file_content", "fileContent",
}

// unreadCall returns the field that makes obj a call of a tool edapply
// does not read: beside a path ("target_file" too, Cursor's), one of
// jsonUnreadKeys holding text; "" for anything else, prose's JSON
// included.
func unreadCall(obj map[string]syntax.JSONMember) string {
	if !hasAny(obj, syntax.JSONPathKeys) && !syntax.HasField(obj, "target_file") {
		return ""
	}
	text := func(k string) bool {
		s, ok := syntax.JSONString(obj[k])
		return ok && s != ""
	}
	for _, k := range jsonUnreadKeys {
		if text(k) {
			return k
		}
	}
	return ""
}

// jsonContentKeys name every field that may carry an edit's text, read or
// not (syntax.JSONOldKeys, syntax.JSONInsertKeys, jsonUnreadKeys and more): a call that
// holds one besides those read holds more than its edit. Built on first
// use: most runs of the program read no tool call.
var jsonContentKeys = sync.OnceValue(func() []string {
	return slices.Concat(syntax.JSONOldKeys, syntax.JSONInsertKeys, jsonUnreadKeys,
		[]string{"before", "after", "contents", "insert_line", "text", "code", "lines", "old", "new", "replacement"})
})

// unreadContent returns the first field of obj, in jsonContentKeys' order,
// that carries text (a string that is not empty, or an array or object)
// and is not one of read, nor a second field of read's roles with the
// same text as the one read; "" when there is none. A second path that
// names another file counts too.
func unreadContent(obj map[string]syntax.JSONMember, read []string) string {
	same := func(k string, roles ...[]string) bool {
		for _, r := range roles {
			if !slices.Contains(r, k) {
				continue
			}
			for _, k2 := range read {
				if k2 != "" && slices.Contains(r, k2) && string(obj[k2].Raw) == string(obj[k].Raw) {
					return true
				}
			}
		}
		return false
	}
	for _, k := range jsonContentKeys() {
		m, ok := obj[k]
		if !ok || slices.Contains(read, k) || len(m.Raw) == 0 || same(k, syntax.JSONOldKeys, syntax.JSONInsertKeys) {
			continue
		}
		switch m.Raw[0] {
		case '"':
			if s, _ := syntax.JSONString(m); s == "" {
				continue
			}
		case '[', '{':
		default:
			if k != "insert_line" || string(m.Raw) == "null" {
				continue // a number or a flag: no text
			}
		}
		return k
	}
	if read != nil {
		for _, k := range syntax.JSONPathKeys {
			if m, ok := obj[k]; ok && !slices.Contains(read, k) && string(m.Raw) != "null" && !same(k, syntax.JSONPathKeys) {
				return k
			}
		}
	}
	return ""
}

// readNames lists the fields read, for a message.
func readNames(read []string) string {
	var ks []string
	for _, k := range read {
		if k != "" {
			ks = append(ks, strconv.Quote(k))
		}
	}
	return strings.Join(ks, " and ")
}

// everyKey names the argument that asks obj's tool for every occurrence:
// the one the call sent, else the one its dialect's spelling of the old
// text implies (OpenCode's camelCase oldString, replaceAll), else none for
// the text-editor tool's str_replace, which has no such switch, else
// replace_all.
func everyKey(obj map[string]syntax.JSONMember, cmd, oldKey string) string {
	for _, k := range []string{"expected_replacements", "replace_all", "replaceAll", "allow_multiple"} {
		if _, ok := obj[k]; ok {
			return k
		}
	}
	switch {
	case cmd == "str_replace" || cmd == patchFile || oldKey == "old_str" || oldKey == "oldText":
		return ""
	case oldKey == "oldString":
		return "replaceAll"
	}
	return "replace_all"
}

// jsonCount returns how many times the old text must occur: N for
// expected_replacements, else 0 for replace_all (or allow_multiple), else 1.
func jsonCount(obj map[string]syntax.JSONMember) (int, string) {
	if m, ok := obj["expected_replacements"]; ok && string(m.Raw) != "null" {
		n, ok := jsonInt(m)
		if !ok || n < 1 {
			return 0, "\"expected_replacements\" must be an integer of at least 1"
		}
		return n, ""
	}
	// Gemini CLI's replace tool names the same switch allow_multiple.
	for _, k := range []string{"replace_all", "replaceAll", "allow_multiple"} {
		m, ok := obj[k]
		if !ok || string(m.Raw) == "null" {
			continue
		}
		var b bool
		if err := json.Unmarshal(m.Raw, &b); err != nil {
			// Models sometimes quote booleans; accept the two words only.
			s, _ := syntax.JSONString(m)
			switch s {
			case "true":
				b = true
			case "false":
			default:
				return 0, fmt.Sprintf("%q must be true or false", k)
			}
		}
		if b {
			return 0, ""
		}
		return 1, ""
	}
	return 1, ""
}

// jsonInt decodes an integer, also when quoted ("3").
func jsonInt(m syntax.JSONMember) (int, bool) {
	if len(m.Raw) == 0 {
		return 0, false
	}
	s := string(m.Raw)
	if q, ok := syntax.JSONString(m); ok {
		s = q
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || n != math.Trunc(n) || math.Abs(n) > 1<<31 {
		return 0, false
	}
	return int(n), true
}

func hasAny(obj map[string]syntax.JSONMember, keys []string) bool {
	for _, k := range keys {
		if syntax.HasField(obj, k) {
			return true
		}
	}
	return false
}

func hasStrong(obj map[string]syntax.JSONMember) bool {
	for k := range obj {
		if isJSONStrongKey(k) && syntax.HasField(obj, k) {
			return true
		}
	}
	return false
}

func firstString(obj map[string]syntax.JSONMember, keys []string) (string, bool) {
	_, s, ok, err := syntax.FirstField(obj, keys)
	return s, ok && err == nil
}

// readCarriedDiff reads the unified diff a tool call carries (Goose's
// text_editor str_replace "diff") with the diff reader, as a whole text:
// the JSON string closed, so where it ends is no sign of truncation. A
// diff that names no file is the call's file's. Each file the diff names
// must be the call's (or name it from the call's directory, as Goose joins
// them), or lie under the call's path when that is a directory. Its edits
// keep format udiff (its hunks match whole lines) and take the line and
// span of the string; an error names the diff's own line.
func (p *parser) readCarriedDiff(it jsonItem) {
	num := lineNum(p.lineAt(it.start))
	text := it.diff
	if first := strings.TrimLeft(text, " \t\r\n"); syntax.IsHunkHeader(first) {
		text = "--- " + it.diffPath + "\t\n+++ " + it.diffPath + "\t\n" + first
	}
	sub, ok := p.readCarried(num, "diff", newParser(text, edit.FormatUDiff), func(sub *parser) { sub.complete = true })
	if !ok {
		return
	}
	if len(sub.edits) == 0 {
		p.errorHint(num, "Put the change in \"diff\" as a unified diff: \"--- a/PATH\", \"+++ b/PATH\", then its hunks.",
			"the \"diff\" of the call for %s holds no unified diff hunk", it.diffPath)
		return
	}
	dir := strings.HasSuffix(it.diffPath, "/") || it.diffPath == "." || p.treeStat(it.diffPath).taken && !p.treeStat(it.diffPath).entry
	edits := make([]edit.Edit, 0, len(sub.edits))
	for _, e := range sub.edits {
		pth, ok := callDiffPath(it.diffPath, e.Path, dir)
		if !ok {
			p.errorHint(num, "Name the call's file in the diff's \"---\" and \"+++\" lines, or send each file's edit in a call of its own.",
				"the diff in the call for %s edits %s, another file", it.diffPath, e.Path)
			return
		}
		e.Path = pth
		if e.Op == edit.Rename {
			dst, ok := callDiffPath(it.diffPath, e.New, dir)
			if !ok {
				p.errorHint(num, "Send the rename in a call of its own.", "the diff in the call for %s renames a file to %s, outside it", it.diffPath, e.New)
				return
			}
			e.New = dst
		}
		e.Start, e.End, e.Line = it.start, it.end, num
		edits = append(edits, e)
	}
	for _, e := range edits {
		p.lastWhole = false
		p.push(e)
	}
}

// callDiffPath returns the file a diff's name d means in a call for the
// path call: call itself when d names it, from the root or from the call's
// directory (Goose joins a diff's names to the file's directory); for a
// call on a directory, d under it unless d already starts with it.
func callDiffPath(call, d string, dir bool) (string, bool) {
	c := strings.TrimSuffix(call, "/")
	switch {
	case d == c || strings.HasSuffix(c, "/"+d):
		return c, true
	case !dir:
		return "", false
	case c == "." || c == "" || strings.HasPrefix(d, c+"/"):
		return d, true
	}
	return underDir(c, d), true
}
