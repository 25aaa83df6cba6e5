package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// The server reads each tool's arguments itself rather than letting the
// SDK check them against the schema first: the SDK answers a call that
// breaks the schema with its validator's own text, no receipt and no
// code, and a model trained on another tool sends that tool's names for
// the same arguments. Here every name a tool answers to is read, and
// anything else is a USAGE receipt that names the arguments the tool
// takes.

// An argName is one argument of a tool: the name its schema gives it,
// then the names other tools give the same argument, which their models
// send.
type argName []string

var (
	argPath       = argName{"path", "file_path", "filePath"}
	argOffset     = argName{"offset"}
	argLimit      = argName{"limit"}
	argColumn     = argName{"column"}
	argEdits      = argName{"edits"}
	argOld        = argName{"old_string", "old_str", "oldText", "oldString"}
	argNew        = argName{"new_string", "new_str", "newText", "newString"}
	argReplaceAll = argName{"replace_all", "replaceAll"}
	argBaseHash   = argName{"base_hash"}
	argDryRun     = argName{"dry_run", "dryRun"}
	argReply      = argName{"reply"}
	argBase       = argName{"base"}
	argList       = argName{"list"}
)

// The arguments each tool takes, as a USAGE hint names them.
const (
	readUsage  = `read_file takes {"path": FILE, "offset"?: FIRST_LINE, "column"?: FIRST_BYTE, "limit"?: LINES}.`
	editUsage  = `edit_file takes {"path": FILE, "edits": [{"old_string": TEXT, "new_string": TEXT, "replace_all"?: BOOL}], "base_hash"?: SHA256, "dry_run"?: BOOL}.`
	applyUsage = `apply_edits takes {"reply": TEXT, "path"?: FILE, "dry_run"?: BOOL, "base"?: {FILE: SHA256}}.`
	undoUsage  = `undo takes {"dry_run"?: BOOL, "list"?: BOOL}.`
)

// A usageError is an argument a call got wrong: a USAGE error whose hint
// is the tool's usage.
type usageError struct{ msg string }

func usagef(format string, args ...any) *usageError {
	return &usageError{fmt.Sprintf(format, args...)}
}

// toError is e as the receipt reports it, hinted with usage.
func (e *usageError) toError(usage string) *edit.Error {
	return &edit.Error{Code: edit.CodeUsage, Edit: -1, Msg: e.msg, Hint: usage}
}

// An object is a JSON object of arguments, each member under the name its
// tool's schema gives it, whichever of its names the client sent.
type object struct {
	where   string // "" for the call's arguments, "edits[1]" for a member's
	members map[string]json.RawMessage
	sent    map[string]string // the name each member was sent under
}

// readObject reads data, a JSON object, whose members must each be one
// of names. A member sent as null counts as absent. where names the
// object in messages ("" for the arguments themselves).
func readObject(data json.RawMessage, where string, names ...argName) (*object, *usageError) {
	o := &object{where: where, members: map[string]json.RawMessage{}, sent: map[string]string{}}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return o, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		if where == "" {
			return nil, usagef("the arguments are not a JSON object")
		}
		return nil, usagef("%s is not an object", where)
	}
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		name := ""
		for _, n := range names {
			if slices.Contains(n, key) {
				name = n[0]
				break
			}
		}
		if name == "" {
			return nil, usagef("unknown argument %q%s", key, o.in())
		}
		if string(bytes.TrimSpace(raw[key])) == "null" {
			continue
		}
		if prev, ok := o.sent[name]; ok {
			return nil, usagef("%q and %q%s are two names of one argument: send one", prev, key, o.in())
		}
		o.members[name], o.sent[name] = raw[key], key
	}
	return o, nil
}

// in is where the object stands, for a message about one of its members.
func (o *object) in() string {
	if o.where == "" {
		return ""
	}
	return " in " + o.where
}

func (o *object) has(name string) bool { _, ok := o.members[name]; return ok }

// str reads the string member name; "" when it is absent.
func (o *object) str(name string) (string, *usageError) {
	raw, ok := o.members[name]
	if !ok {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", usagef("%q%s must be a string", o.sent[name], o.in())
	}
	return s, nil
}

// boolean reads the boolean member name; false when it is absent.
func (o *object) boolean(name string) (bool, *usageError) {
	raw, ok := o.members[name]
	if !ok {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return b, nil
	}
	switch unquote(raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, usagef("%q%s must be true or false", o.sent[name], o.in())
}

// integer reads the integer member name (a number with no fraction); 0
// when it is absent.
func (o *object) integer(name string) (int, *usageError) {
	raw, ok := o.members[name]
	if !ok {
		return 0, nil
	}
	var f float64
	err := json.Unmarshal(raw, &f)
	if err != nil {
		f, err = strconv.ParseFloat(unquote(raw), 64)
	}
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, usagef("%q%s must be a whole number", o.sent[name], o.in())
	}
	return int(f), nil
}

// array reads the member name, an array, as its raw elements.
func (o *object) array(name string) ([]json.RawMessage, *usageError) {
	var a []json.RawMessage
	if err := json.Unmarshal(o.members[name], &a); err == nil {
		return a, nil
	}
	if err := json.Unmarshal([]byte(unquote(o.members[name])), &a); err == nil {
		return a, nil
	}
	return nil, usagef("%q%s must be an array", o.sent[name], o.in())
}

// hashes reads the member name, an object of strings.
func (o *object) hashes(name string) (map[string]string, *usageError) {
	raw, ok := o.members[name]
	if !ok {
		return nil, nil
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, usagef("%q%s must be an object mapping each path to its sha256", o.sent[name], o.in())
	}
	return m, nil
}

// unquote is the JSON string raw holds, "" for any other value. A client
// that converts its command line's text to each argument's type by the
// schema leaves an argument under another name a string ("true", "5"),
// and models sometimes send a number, a boolean or an array as one.
func unquote(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

// readCall is read_file's arguments, read.
type readCall struct {
	path                  string
	offset, column, limit int
}

func readReadArgs(data json.RawMessage) (c readCall, err *usageError) {
	o, err := readObject(data, "", argPath, argOffset, argColumn, argLimit)
	if err != nil {
		return c, err
	}
	if c.path, err = o.str(argPath[0]); err != nil {
		return c, err
	}
	if c.offset, err = o.integer(argOffset[0]); err != nil {
		return c, err
	}
	if c.limit, err = o.integer(argLimit[0]); err != nil {
		return c, err
	}
	if c.column, err = o.integer(argColumn[0]); err != nil {
		return c, err
	}
	switch {
	case c.column < 0:
		return c, usagef(`"column" must be positive`)
	case c.path == "":
		return c, usagef(`no "path": name the file to read, relative to the root`)
	case c.limit < 0:
		return c, usagef(`"limit" must be positive`)
	}
	return c, nil
}

// editCall is edit_file's arguments, read.
type editCall struct {
	path     string
	edits    []replacement
	baseHash string
	dryRun   bool
}

// A replacement is one str_replace edit of edit_file.
type replacement struct {
	old, new   string
	replaceAll bool
	everyKey   string // the name replace_all was sent under, or its own
}

func readEditArgs(data json.RawMessage) (c editCall, err *usageError) {
	// A lone replacement may come as the arguments themselves, as models
	// trained on single-edit tools send it.
	o, err := readObject(data, "", argPath, argEdits, argBaseHash, argDryRun, argOld, argNew, argReplaceAll)
	if err != nil {
		return c, err
	}
	if c.path, err = o.str(argPath[0]); err != nil {
		return c, err
	}
	if c.baseHash, err = o.str(argBaseHash[0]); err != nil {
		return c, err
	}
	if c.dryRun, err = o.boolean(argDryRun[0]); err != nil {
		return c, err
	}
	flat := o.has(argOld[0]) || o.has(argNew[0]) || o.has(argReplaceAll[0])
	switch {
	case c.path == "":
		return c, usagef(`no "path": name the file to edit, relative to the root`)
	case flat && o.has(argEdits[0]):
		return c, usagef(`"edits" and a replacement outside it: put every replacement in "edits"`)
	case flat:
		r, err := readReplacement(o)
		if err != nil {
			return c, err
		}
		c.edits = []replacement{r}
	case !o.has(argEdits[0]):
		return c, usagef(`no "edits": give at least one {"old_string", "new_string"}`)
	default:
		elems, err := o.array(argEdits[0])
		if err != nil {
			return c, err
		}
		if len(elems) == 0 {
			return c, usagef(`"edits" is empty: give at least one {"old_string", "new_string"}`)
		}
		for i, el := range elems {
			eo, err := readObject(el, fmt.Sprintf("edits[%d]", i), argOld, argNew, argReplaceAll)
			if err != nil {
				return c, err
			}
			r, err := readReplacement(eo)
			if err != nil {
				return c, err
			}
			c.edits = append(c.edits, r)
		}
	}
	if c.baseHash != "" && !apply.ValidBase(c.baseHash) {
		return c, usagef(`"base_hash" %q is not a sha256: pass the one read_file returned, or its first 8 or more hex digits`, c.baseHash)
	}
	return c, nil
}

// readReplacement reads one replacement's members of o.
func readReplacement(o *object) (r replacement, err *usageError) {
	for _, n := range []string{argOld[0], argNew[0]} {
		if !o.has(n) {
			return r, usagef(`no %q%s (an empty one to create the file)`, n, o.in())
		}
	}
	if r.old, err = o.str(argOld[0]); err != nil {
		return r, err
	}
	if r.new, err = o.str(argNew[0]); err != nil {
		return r, err
	}
	if r.replaceAll, err = o.boolean(argReplaceAll[0]); err != nil {
		return r, err
	}
	r.everyKey = argReplaceAll[0]
	if k, ok := o.sent[argReplaceAll[0]]; ok {
		r.everyKey = k
	}
	return r, nil
}

// applyCall is apply_edits' arguments, read.
type applyCall struct {
	reply  string
	path   string // the file of edits that name none
	dryRun bool
	base   map[string]string
}

func readApplyArgs(data json.RawMessage) (c applyCall, err *usageError) {
	o, err := readObject(data, "", argReply, argPath, argDryRun, argBase)
	if err != nil {
		return c, err
	}
	if !o.has(argReply[0]) {
		return c, usagef(`no "reply": give the text holding the edits`)
	}
	if c.reply, err = o.str(argReply[0]); err != nil {
		return c, err
	}
	if c.path, err = o.str(argPath[0]); err != nil {
		return c, err
	}
	if c.dryRun, err = o.boolean(argDryRun[0]); err != nil {
		return c, err
	}
	if c.base, err = o.hashes(argBase[0]); err != nil {
		return c, err
	}
	for _, p := range slices.Sorted(maps.Keys(c.base)) {
		if !apply.ValidBase(c.base[p]) {
			return c, usagef(`"base" of %q, %q, is not a sha256: pass the one read_file returned, or its first 8 or more hex digits`, p, c.base[p])
		}
	}
	return c, nil
}

// undoCall is undo's arguments, read.
type undoCall struct{ dryRun, list bool }

func readUndoArgs(data json.RawMessage) (c undoCall, err *usageError) {
	o, err := readObject(data, "", argDryRun, argList)
	if err != nil {
		return c, err
	}
	if c.dryRun, err = o.boolean(argDryRun[0]); err != nil {
		return c, err
	}
	if c.list, err = o.boolean(argList[0]); err != nil {
		return c, err
	}
	return c, nil
}
