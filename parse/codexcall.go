package parse

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Codex-style agents send an envelope as a tool call rather than as text:
//
//	{"command": ["apply_patch", "*** Begin Patch\n…*** End Patch\n"]}
//	{"command": ["bash", "-lc", "apply_patch <<'EOF'\n*** Begin Patch\n…EOF\n"]}
//	{"type": "custom_tool_call", "name": "apply_patch", "input": "*** Begin Patch\n…"}
//	{"name": "apply_patch", "arguments": "{\"input\": \"*** Begin Patch\n…\"}"}
//	{"patchText": "*** Begin Patch\n…"}
//
// The JSON reader decodes the string once, as it decodes every string, and
// the Codex reader reads the decoded envelope: the edits are those the raw
// envelope gives, in format "codex", with the span of the JSON string that
// holds it (Normalize leaves such an edit as written: a chunk cannot be
// rendered inside a JSON string).
//
// Only a call whose command or input IS the patch counts: the string,
// past leading white space, opens with a "*** Begin Patch" line, or is one
// apply_patch heredoc whose body does and after whose closing delimiter
// nothing follows. An object with an edit tool's fields (new_string, …) is
// an edit whatever its text mentions, and a string that quotes the markers
// after other text is prose.

// applyPatchHeredocRE matches the first line of `apply_patch <<'EOF'`, with
// the delimiter quoted either way or bare. Compiled on first use: most
// calls of the program never meet a shell heredoc.
var applyPatchHeredocRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(apply_patch|applypatch|cat|)[ \t]*<<[ \t]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)[ \t]*$`)
})

// How patchText reads a heredoc around the envelope.
type heredocUse int

const (
	noHeredoc    heredocUse = iota
	shellHeredoc            // a shell command: only apply_patch's heredoc applies the patch
	toolHeredoc             // the patch tool's own text: any heredoc is a wrapper (OpenCode strips `cat <<'EOF'` and `<<EOF`)
)

// carriedPatch records the envelope obj carries as its command, input,
// non-JSON arguments or patchText, and reports whether it found one.
func (w *jsonWalker) carriedPatch(obj map[string]jsonMember) bool {
	if hasStrong(obj) {
		return false
	}
	// OpenCode's apply_patch names its envelope patchText.
	for _, k := range []string{"command", "cmd", "input", "arguments", "patchText", "patch"} {
		m, ok := obj[k]
		if !ok || len(m.raw) == 0 {
			continue
		}
		if m.raw[0] == '[' && (k == "command" || k == "cmd") {
			if text, at, ok := patchArgv(m); ok {
				w.items = append(w.items, jsonItem{patch: text, start: at.start, end: at.end})
				return true
			}
			continue
		}
		s, isStr := jsonString(m)
		if !isStr {
			continue
		}
		use := toolHeredoc
		if k == "command" || k == "cmd" {
			use = shellHeredoc
		}
		if text, ok := patchText(s, use); ok {
			w.items = append(w.items, jsonItem{patch: text, start: m.start, end: m.end})
			return true
		}
	}
	return false
}

// patchArgv returns the envelope an argv carries: ["apply_patch", PATCH],
// or a shell's ["bash", "-lc", HEREDOC].
func patchArgv(m jsonMember) (string, jsonMember, bool) {
	elems := jsonElems(m.raw, m.start)
	args := make([]string, len(elems))
	for k, e := range elems {
		s, ok := jsonString(e)
		if !ok {
			return "", jsonMember{}, false
		}
		args[k] = s
	}
	switch {
	case len(args) == 2 && (args[0] == "apply_patch" || args[0] == "applypatch"):
		if text, ok := patchText(args[1], noHeredoc); ok {
			return text, elems[1], true
		}
	case len(args) == 3 && isShell(args[0]) && (args[1] == "-c" || args[1] == "-lc"):
		if text, ok := patchText(args[2], shellHeredoc); ok {
			return text, elems[2], true
		}
	}
	return "", jsonMember{}, false
}

func isShell(s string) bool {
	switch path.Base(s) {
	case "bash", "sh", "zsh":
		return true
	}
	return false
}

// patchText returns the envelope s is: s itself when it opens with a
// "*** Begin Patch" line, or the body of a heredoc that does, as use
// allows: a shell's `apply_patch <<'EOF'`, or in a patch tool's own text
// also `cat <<'EOF'` and a bare `<<EOF`.
func patchText(s string, use heredocUse) (string, bool) {
	t := strings.TrimLeft(s, " \t\r\n")
	if opensEnvelope(t) {
		return t, true
	}
	if use == noHeredoc {
		return "", false
	}
	first, body, _ := strings.Cut(t, "\n")
	mm := applyPatchHeredocRE().FindStringSubmatch(strings.TrimRight(first, "\r"))
	if mm == nil || mm[2] != mm[4] || use == shellHeredoc && mm[1] != "apply_patch" && mm[1] != "applypatch" {
		return "", false
	}
	delim := mm[3]
	var b strings.Builder
	rest := body
	closed := false
	for rest != "" {
		ln, after, _ := strings.Cut(rest, "\n")
		if strings.TrimRight(ln, " \t\r") == delim {
			closed = true
			rest = after
			break
		}
		b.WriteString(ln)
		b.WriteString("\n")
		rest = after
	}
	if closed && strings.TrimSpace(rest) != "" {
		return "", false // more shell after the patch: not a patch alone
	}
	env := strings.TrimLeft(b.String(), " \t\r\n")
	if !opensEnvelope(env) {
		return "", false
	}
	return env, true
}

// opensEnvelope reports whether t's first line is "*** Begin Patch".
func opensEnvelope(t string) bool {
	first, _, _ := strings.Cut(t, "\n")
	return strings.TrimSpace(first) == "*** Begin Patch"
}

// readCarriedPatch reads the envelope a tool call carries with the Codex
// reader. Its edits and errors take the line and span of the JSON string;
// an error names the envelope's own line, which the output does not show.
func (p *parser) readCarriedPatch(it jsonItem) {
	num := p.lines[p.lineAt(it.start)].num
	sub := newParser(it.patch, FormatCodex)
	sub.tree, sub.inPatch = p.tree, true
	sub.run()
	for _, e := range sub.errs {
		ce := *e
		ce.Msg = fmt.Sprintf("the patch in this tool call, at its line %d: %s", e.Line, e.Msg)
		ce.Line = num
		p.errs.Add(&ce)
	}
	if len(sub.errs) > 0 {
		return // half a patch is worse than none
	}
	for _, e := range sub.edits {
		e.Start, e.End, e.Line = it.start, it.end, num
		p.lastWhole = false
		p.edits = append(p.edits, e)
	}
}
