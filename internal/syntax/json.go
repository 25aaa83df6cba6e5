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
// where the value began and end where decoding stopped. It remembers
// nothing between calls; a reader that tries many offsets of one src uses
// a [JSONScanner].
func DecodeJSONAt(src string, off int) (raw json.RawMessage, start, end int, err error) {
	var s JSONScanner
	return s.DecodeAt(src, off)
}

// A JSONScanner decodes values from one src at many offsets, as a reader
// that tries every line opening with a brace does.
//
// A quick scan runs before the decoder: it follows JSON's grammar and
// stops at the first byte that breaks it, or at the value's end, so the
// decoder never reads past where it would fail. Each scan also notes,
// for every object or array it met at the start of a line, where that
// inner value closes or breaks: a later call at that line is answered
// from the note rather than by scanning again. A run of lines that each
// open a value that never closes costs time linear in src rather than
// quadratic. The scan is several times faster than the decoder and never
// stops valid JSON early; the decoder decides.
type JSONScanner struct {
	src   string
	stops map[int]scanStop // a value's start → its scan's answer
	// Scanned counts the bytes the scans read, for a test of the bound.
	Scanned int
	// Broken says the last DecodeAt failed at a byte outside any string
	// that JSON's grammar does not allow there: no repair of the strings'
	// contents (see DecodeLenient) makes such a value JSON.
	Broken bool
}

// A scanStop is a scan's answer: the offset past which the value cannot
// be read (-1: open at the end), and whether a byte outside any string
// broke the grammar there.
type scanStop struct {
	at     int
	broken bool
}

// DecodeAt is [DecodeJSONAt] of src, which must be the same string on
// every call of s.
func (s *JSONScanner) DecodeAt(src string, off int) (raw json.RawMessage, start, end int, err error) {
	if s.src != src {
		s.src, s.stops = src, nil
	}
	start = off
	if strings.HasPrefix(src[start:], "\ufeff") {
		start += len("\ufeff")
	}
	for start < len(src) && isJSONSpace(src[start]) {
		start++
	}
	st := s.scan(start)
	s.Broken = st.broken
	if st.at < 0 {
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

// scan returns the offset in src past which the value at start cannot be
// read as JSON (past its close, or at the byte that breaks it; -1 when
// the value is still open at the end of src), and whether a byte outside
// any string broke it.
func (s *JSONScanner) scan(start int) scanStop {
	if st, ok := s.stops[start]; ok {
		return st
	}
	src := s.src
	if start >= len(src) || (src[start] != '{' && src[start] != '[') {
		return scanStop{at: start} // not a container: the decoder decides at once
	}
	// A frame is an open object or array: where it began and what may
	// come next in it.
	type frame struct {
		at   int
		want byte
		obj  bool
	}
	const (
		valueOrClose = 'v' // after '['
		aValue       = 'V' // after an array's ','
		keyOrClose   = 'k' // after '{'
		aKey         = 'K' // after an object's ','
		colon        = ':' // after a key
		member       = 'm' // after a key's ':'
		commaOrClose = ',' // after a value
	)
	var stack []frame
	note := func(at int, st scanStop) {
		if !lineOpening(src, at) {
			return
		}
		if s.stops == nil {
			s.stops = map[int]scanStop{}
		}
		s.stops[at] = st
	}
	end := func(st scanStop) scanStop {
		for _, f := range stack {
			note(f.at, st)
		}
		if st.at < 0 {
			s.Scanned += len(src) - start
		} else {
			s.Scanned += st.at - start
		}
		return st
	}
	stop := func(k int) scanStop { return end(scanStop{at: k}) }
	broke := func(k int) scanStop { return end(scanStop{at: k, broken: true}) }
	// value reports whether a value may begin at the top of the stack,
	// and records that one did.
	value := func() bool {
		if len(stack) == 0 {
			return true
		}
		f := &stack[len(stack)-1]
		if f.want != valueOrClose && f.want != aValue && f.want != member {
			return false
		}
		f.want = commaOrClose
		return true
	}
	for k := start; k < len(src); k++ {
		c := src[k]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			if !value() {
				return broke(k)
			}
			if c == '{' {
				stack = append(stack, frame{at: k, want: keyOrClose, obj: true})
			} else {
				stack = append(stack, frame{at: k, want: valueOrClose})
			}
		case '}', ']':
			f := stack[len(stack)-1]
			if f.obj != (c == '}') || (f.want != commaOrClose && f.want != keyOrClose && f.want != valueOrClose) {
				return broke(k)
			}
			stack = stack[:len(stack)-1]
			note(f.at, scanStop{at: k + 1})
			if len(stack) == 0 {
				return stop(k + 1)
			}
		case '"':
			top := &stack[len(stack)-1]
			isKey := top.obj && (top.want == keyOrClose || top.want == aKey)
			if !isKey && !value() {
				return broke(k)
			}
			// The string runs to its unescaped quote; a line break
			// inside it is not JSON.
			k++
			for ; k < len(src) && src[k] != '"'; k++ {
				switch src[k] {
				case '\\':
					k++
				case '\n':
					return stop(k)
				}
			}
			if k >= len(src) {
				return stop(-1)
			}
			if isKey {
				top.want = colon
			}
		case ':':
			top := &stack[len(stack)-1]
			if top.want != colon {
				return broke(k)
			}
			top.want = member
		case ',':
			top := &stack[len(stack)-1]
			if top.want != commaOrClose {
				return broke(k)
			}
			if top.obj {
				top.want = aKey
			} else {
				top.want = aValue
			}
		default:
			if !strings.ContainsRune("-0123456789tfn", rune(c)) || !value() {
				return broke(k)
			}
			// A number or a literal runs to the next delimiter; its
			// spelling is the decoder's to judge.
			for k+1 < len(src) && strings.IndexByte("+-.0123456789eEtruefalsn", src[k+1]) >= 0 {
				k++
			}
		}
	}
	return stop(-1)
}

// lineOpening reports whether src[at] is the first byte of its line
// after spaces: the only offsets a line-by-line reader asks about again.
func lineOpening(src string, at int) bool {
	for at > 0 && (src[at-1] == ' ' || src[at-1] == '\t') {
		at--
	}
	return at == 0 || src[at-1] == '\n'
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
