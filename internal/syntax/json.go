package syntax

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// JSON tool calls: the lenient walk of a value that Parse and normalize
// both make, and the field names edit tools use.

// DecodeJSONAt decodes one JSON value from src at off (after any white
// space). It returns the value's raw bytes and span; on failure, start is
// where the value began and end where decoding stopped.
//
// A quick scan runs first and spares the decoder a value that is still open
// at the end of the output: starts tries every line that opens with a brace,
// and decoding each such value to the end made a long run of them cost
// quadratic time in the decoder. The scan is several times faster and
// stops at the first line break inside a string.
func DecodeJSONAt(src string, off int) (raw json.RawMessage, start, end int, err error) {
	start = off
	if strings.HasPrefix(src[start:], "\ufeff") {
		start += len("\ufeff")
	}
	for start < len(src) && isJSONSpace(src[start]) {
		start++
	}
	if jsonScan(src[start:]) < 0 {
		return nil, start, len(src), io.ErrUnexpectedEOF
	}
	dec := json.NewDecoder(strings.NewReader(src[start:]))
	if err = dec.Decode(&raw); err != nil {
		end = len(src)
		var se *json.SyntaxError
		if errors.As(err, &se) && start+int(se.Offset) < len(src) {
			end = start + int(se.Offset)
		}
		return nil, start, max(end, start), err
	}
	return raw, start, start + int(dec.InputOffset()), nil
}

// jsonScan returns how far b, which opens with '{' or '[', can be read as
// one JSON value before it closes or turns out not to be JSON (a character
// JSON never has outside a string, or a line break inside one); -1 when the
// value is still open at the end of b. Valid JSON never stops it early, so
// it only bounds the decoder's work; the decoder decides.
func jsonScan(b string) int {
	depth, inString, escaped := 0, false, false
	for k := range len(b) {
		c := b[k]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			case c == '\n':
				return k
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				return k + 1
			}
		case ' ', '\t', '\n', '\r', ',', ':', '-', '+', '.',
			'0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
			't', 'r', 'u', 'e', 'f', 'a', 'l', 's', 'n', 'E':
		default:
			return k
		}
	}
	return -1
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Field names, in the order they are preferred when a call holds several.
var (
	JSONPathKeys = []string{"path", "file_path", "filePath", "filename", "file"}
	JSONOldKeys  = []string{"old_string", "old_str", "oldString", "old_text", "search"}
	JSONNewKeys  = []string{"new_string", "new_str", "newString", "new_text", "replace", "content", "file_text"}
	// JSONWrapperKeys hold the arguments of a call: Anthropic's "input",
	// OpenAI's "function" and its "arguments", a local shell call's "action",
	// and the common variants.
	JSONWrapperKeys = []string{"input", "arguments", "parameters", "args", "params", "tool_input", "function", "tool_calls", "content", "action"}
	// JSONInsertKeys are the new-text names of an "insert" command.
	JSONInsertKeys = append([]string{"insert_text"}, JSONNewKeys...)
)

// JSONMaxDepth bounds how deep wrappers and arrays are followed.
const JSONMaxDepth = 8

// A JSONMember is one value inside a decoded object or array, with its span
// in the output.
type JSONMember struct {
	Raw        json.RawMessage
	Start, End int
}

// HasField reports whether obj holds the field k, null counting as
// absent.
func HasField(obj map[string]JSONMember, k string) bool {
	m, ok := obj[k]
	return ok && string(m.Raw) != "null"
}

// FirstField returns the first of keys present (null counts as absent) as a
// string; err is set when that field is not a string.
func FirstField(obj map[string]JSONMember, keys []string) (key, val string, ok bool, err error) {
	for _, k := range keys {
		if !HasField(obj, k) {
			continue
		}
		s, isStr := JSONString(obj[k])
		if !isStr {
			return k, "", false, errors.New("not a string")
		}
		return k, s, true, nil
	}
	return "", "", false, nil
}

// JSONString decodes m if it is a JSON string: the one and only unescaping.
func JSONString(m JSONMember) (string, bool) {
	if len(m.Raw) == 0 || m.Raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(m.Raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// JSONObject splits a valid JSON object, which starts at byte base of the
// output, into its members; a repeated key keeps its last value, as
// encoding/json does.
func JSONObject(raw json.RawMessage, base int) map[string]JSONMember {
	obj := map[string]JSONMember{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // '{'
		return obj
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return obj
		}
		k, _ := tok.(string)
		m, ok := jsonNext(dec, raw, base, ':')
		if !ok {
			return obj
		}
		obj[k] = m
	}
	return obj
}

// JSONElems splits a valid JSON array, which starts at byte base of the
// output, into its elements.
func JSONElems(raw json.RawMessage, base int) []JSONMember {
	var elems []JSONMember
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // '['
		return nil
	}
	for dec.More() {
		m, ok := jsonNext(dec, raw, base, ',')
		if !ok {
			return elems
		}
		elems = append(elems, m)
	}
	return elems
}

// jsonNext decodes the next value from dec and locates it in raw: it starts
// after white space and the separator sep that the decoder has not yet
// consumed.
func jsonNext(dec *json.Decoder, raw json.RawMessage, base int, sep byte) (JSONMember, bool) {
	at := int(dec.InputOffset())
	for at < len(raw) && (isJSONSpace(raw[at]) || raw[at] == sep) {
		at++
	}
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil || len(v) == 0 {
		return JSONMember{}, false
	}
	return JSONMember{Raw: v, Start: base + at, End: base + at + len(v)}, true
}
