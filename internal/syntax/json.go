package syntax

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	JSONOldKeys  = []string{"old_string", "old_str", "oldString", "old_text", "oldText", "search"}
	JSONNewKeys  = []string{"new_string", "new_str", "newString", "new_text", "newText", "replace", "content", "file_text"}
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

// DecodeLenient decodes the value at src[start] that strict decoding
// refused, as hand-written tool calls are: a raw control character inside
// a string (a tab, a line break) is kept as that character, and an escape
// JSON does not know ("\d", "\s" in a regular expression) is kept as its
// two characters. Every other escape is decoded once, as usual. It
// returns the repaired value, the offset in src of each of its bytes (and
// of its end), and the end of the value in src; when ok is false, end is
// where the reading stopped.
func DecodeLenient(src string, start int) (raw json.RawMessage, orig []int, end int, ok bool) {
	if start >= len(src) || (src[start] != '{' && src[start] != '[') {
		return nil, nil, start, false
	}
	var b []byte
	emit := func(k int, s ...byte) {
		for range s {
			orig = append(orig, k)
		}
		b = append(b, s...)
	}
	depth, inString := 0, false
	k := start
	for ; k < len(src); k++ {
		c := src[k]
		if inString {
			switch {
			case c == '"':
				inString = false
				emit(k, c)
			case c == '\\' && k+1 < len(src):
				n := src[k+1]
				switch {
				case strings.IndexByte(`"\\/bfnrt`, n) >= 0:
					emit(k, c, n)
					k++
				case n == 'u' && k+5 < len(src) && isHex4(src[k+2:k+6]):
					emit(k, c)
				default:
					emit(k, '\\', '\\') // kept as the two characters
				}
			case c == '\t':
				emit(k, '\\', 't')
			case c == '\n':
				emit(k, '\\', 'n')
			case c == '\r':
				emit(k, '\\', 'r')
			case c < 0x20:
				emit(k, []byte(fmt.Sprintf(`\u%04x`, c))...)
			default:
				emit(k, c)
			}
			continue
		}
		emit(k, c)
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				orig = append(orig, k+1)
				k++
				var v json.RawMessage
				if err := json.Unmarshal(b, &v); err != nil {
					return nil, nil, k, false
				}
				return b, orig, k, true
			}
		}
	}
	return nil, nil, k, false
}

func isHex4(b string) bool {
	for _, c := range []byte(b) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
