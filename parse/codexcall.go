package parse

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// Codex-style agents send an envelope as a tool call rather than as text:
//
//	{"command": ["apply_patch", "*** Begin Patch\n…*** End Patch\n"]}
//	{"command": ["*** Begin Patch\n…*** End Patch\n"]}
//	{"command": ["bash", "-lc", "apply_patch <<'EOF'\n*** Begin Patch\n…EOF\n"]}
//	{"command": ["bash", "-lc", "cd web && apply_patch <<'EOF'\n*** Begin Patch\n…EOF\n"]}
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
// past leading white space, opens with a "*** Begin Patch" line, or is a
// shell command that runs apply_patch and nothing else (shellcall.go),
// `apply_patch <<'EOF'` or `cd DIR && apply_patch <<'EOF'`, whose heredoc
// opens with that line (a patch tool's own text may also wrap the envelope
// in `cat <<'EOF'` or a bare `<<EOF`, which OpenCode strips). The patch's
// paths then name files under DIR, and under the directory the call says
// it runs in ("workdir"), as Codex joins them. An object with an edit
// tool's fields (new_string, …) is an edit whatever its text mentions, and
// a string that quotes the markers after other text is prose. A call that
// runs apply_patch on an envelope in any other way is a PARSE_ERROR that
// says why: its patch is never half read, nor dropped while the rest of
// the reply applies. So is a call that hands apply_patch (its argv, or the
// input of a call named apply_patch) anything but an envelope, which the
// tool itself would refuse.

// How patchText reads a heredoc around the envelope.
type heredocUse int

const (
	noHeredoc    heredocUse = iota
	shellHeredoc            // a shell command: only apply_patch's heredoc applies the patch (shellcall.go)
	toolHeredoc             // the patch tool's own text: any heredoc is a wrapper (OpenCode strips `cat <<'EOF'` and `<<EOF`)
)

// toolHeredocRE matches the first line of a heredoc wrapping a patch
// tool's text, the delimiter quoted either way or bare. Compiled on first
// use: most calls of the program never meet one.
var toolHeredocRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:apply_patch|applypatch|cat|)[ \t]*<<[ \t]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)[ \t]*$`)
})

// A patchCall is what a call's command or input carries: the envelope and
// the directory its paths are relative to, or why the call is refused.
type patchCall struct {
	env, dir string
	refusal  string // non-empty: the call is a PARSE_ERROR with this message
}

// refusedCallHint tells the model how to send a patch edapply reads.
const refusedCallHint = "Send the patch alone: {\"command\": [\"apply_patch\", PATCH]}, or a shell running " +
	"`apply_patch <<'EOF'` (after at most `cd DIR &&`) with the envelope and nothing after it; " +
	"run any other command in a call of its own."

// item is the jsonItem c makes with the span of m.
func (c patchCall) item(m syntax.JSONMember) jsonItem {
	if c.refusal != "" {
		return jsonItem{msg: c.refusal, hint: refusedCallHint, codexCall: true, start: m.Start, end: m.End}
	}
	return jsonItem{patch: c.env, dir: c.dir, codexCall: true, start: m.Start, end: m.End}
}

// callWorkdir returns the directory a call says its command runs in
// (Codex's "workdir", OpenAI's local shell "working_directory"), "" when
// it names none or the root.
func callWorkdir(obj map[string]syntax.JSONMember) string {
	for _, k := range []string{"workdir", "working_directory"} {
		if s, ok := syntax.JSONString(obj[k]); ok {
			if s = strings.TrimSpace(s); s != "" && s != "." && s != "./" {
				return s
			}
		}
	}
	return ""
}

// in returns c run in the directory wd: a cd's directory is under wd, as
// Codex joins them, and a patch's paths are under both.
func (c patchCall) in(wd string) patchCall {
	switch {
	case wd == "" || c.env == "":
	case c.dir == "":
		c.dir = wd
	default:
		c.dir = underDir(wd, c.dir)
	}
	return c
}

// carriedPatch records the envelope obj carries as its command, input,
// non-JSON arguments or patchText, or the refusal of a command that runs
// apply_patch in a way edapply does not read, and reports whether it found
// either.
func (w *jsonWalker) carriedPatch(obj map[string]syntax.JSONMember) bool {
	if hasStrong(obj) {
		return false
	}
	// OpenCode's apply_patch names its envelope patchText.
	for _, k := range []string{"command", "cmd", "input", "arguments", "patchText", "patch"} {
		m, ok := obj[k]
		if !ok || len(m.Raw) == 0 {
			continue
		}
		if m.Raw[0] == '[' && (k == "command" || k == "cmd") {
			if c, at, ok := patchArgv(m); ok {
				w.items = append(w.items, c.in(callWorkdir(obj)).item(at))
				return true
			}
			continue
		}
		s, isStr := syntax.JSONString(m)
		if !isStr {
			continue
		}
		use := toolHeredoc
		if k == "command" || k == "cmd" {
			use = shellHeredoc
		}
		if c, ok := patchText(s, use); ok {
			w.items = append(w.items, c.in(callWorkdir(obj)).item(m))
			return true
		}
		if name, _ := syntax.JSONString(obj["name"]); k != "command" && k != "cmd" && (name == "apply_patch" || name == "applypatch") {
			if t := strings.TrimSpace(s); t != "" && t[0] != '{' && t[0] != '[' {
				// The tool's own input, not an envelope (a JSON
				// document is its arguments, read as a wrapper).
				w.items = append(w.items, patchCall{refusal: notEnvelope(name)}.item(m))
				return true
			}
		}
	}
	return false
}

// notEnvelope is the refusal of an apply_patch call whose patch is not a
// Codex envelope.
func notEnvelope(tool string) string {
	return fmt.Sprintf("the patch of this %s call does not open with *** Begin Patch: %s reads only Codex envelopes", clip(tool), clip(tool))
}

// patchArgv returns what an argv carries: ["apply_patch", PATCH], the
// envelope alone [PATCH] (Codex's implicit invocation), or a shell's script as Codex runs one: [bash, -c or -lc, SCRIPT] (sh, zsh
// too), [powershell or pwsh, (-NoProfile,) -Command, SCRIPT], [cmd, /c,
// SCRIPT]. Another argv that runs apply_patch on an envelope is refused.
func patchArgv(m syntax.JSONMember) (patchCall, syntax.JSONMember, bool) {
	elems := syntax.JSONElems(m.Raw, m.Start)
	args := make([]string, len(elems))
	for k, e := range elems {
		s, ok := syntax.JSONString(e)
		if !ok {
			return patchCall{}, syntax.JSONMember{}, false
		}
		args[k] = s
	}
	if len(args) == 1 {
		// Nothing but the envelope: apply_patch is implied, as a shell's
		// script that is only the envelope implies it.
		if c, ok := patchText(args[0], noHeredoc); ok {
			return c, elems[0], true
		}
	}
	if len(args) == 2 && (args[0] == "apply_patch" || args[0] == "applypatch") {
		if c, ok := patchText(args[1], noHeredoc); ok {
			return c, elems[1], true
		}
		// apply_patch reads nothing but an envelope: another patch
		// (a unified diff) would fail in the tool, and must not pass
		// for no edit here.
		return patchCall{refusal: notEnvelope(args[0])}, elems[1], true
	}
	if k := shellScriptArg(args); k > 0 {
		if c, ok := patchText(args[k], shellHeredoc); ok {
			return c, elems[k], true
		}
		return patchCall{}, syntax.JSONMember{}, false
	}
	named, carried := false, false
	for _, a := range args {
		named = named || runsApplyPatch(a)
		carried = carried || carriesPatch(a)
	}
	if named && carried {
		return patchCall{refusal: fmt.Sprintf("this tool call runs %s with arguments edapply does not read as a patch; "+
			"it reads [\"apply_patch\", PATCH] or a shell's one -c script", clip(args[0]))}, m, true
	}
	return patchCall{}, syntax.JSONMember{}, false
}

// shellScriptArg returns the index of the script in a shell's argv, or 0
// when args is not a shell running one script.
func shellScriptArg(args []string) int {
	if len(args) < 3 {
		return 0
	}
	name := strings.ToLower(args[0])
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.TrimSuffix(name, ".exe")
	flag := strings.ToLower(args[1])
	switch {
	case len(args) == 3 && (name == "bash" || name == "sh" || name == "zsh") && (args[1] == "-c" || args[1] == "-lc"):
		return 2
	case len(args) == 3 && name == "cmd" && flag == "/c":
		return 2
	case name == "pwsh" || name == "powershell":
		if len(args) == 4 && flag == "-noprofile" {
			flag = strings.ToLower(args[2])
		}
		if flag == "-command" && len(args) <= 4 {
			return len(args) - 1
		}
	}
	return 0
}

// patchText returns the patch s carries: s itself when it opens with a
// "*** Begin Patch" line, or the body of a heredoc that does, as use
// allows: the envelope of a shell's apply_patch script (shellcall.go), or
// in a patch tool's own text also `cat <<'EOF'` and a bare `<<EOF` (and
// an apply_patch script, a model having written one there). A script that
// runs apply_patch on an envelope but does more than that is a refusal.
func patchText(s string, use heredocUse) (patchCall, bool) {
	t := strings.TrimLeft(s, " \t\r\n")
	if opensEnvelope(t) {
		return patchCall{env: t}, true
	}
	if use == noHeredoc {
		return patchCall{}, false
	}
	if use == toolHeredoc {
		if c, ok := toolPatch(t); ok {
			return c, true
		}
		// Else a tool's text that is a shell command is read as one.
	}
	env, dir, why := shellPatch(t)
	switch {
	case env != "":
		return patchCall{env: env, dir: dir}, true
	case why != "" && runsApplyPatch(t) && carriesPatch(t):
		return patchCall{refusal: "this tool call's shell does more than run apply_patch: " + why + "; edapply runs no shell"}, true
	}
	return patchCall{}, false
}

// toolPatch returns the envelope a patch tool's text t wraps in a heredoc
// with nothing after its delimiter.
func toolPatch(t string) (patchCall, bool) {
	first, body, _ := strings.Cut(t, "\n")
	mm := toolHeredocRE().FindStringSubmatch(strings.TrimRight(first, "\r"))
	if mm == nil || mm[1] != mm[3] {
		return patchCall{}, false
	}
	inner, rest, closed := heredocBody(body, mm[2], false)
	if closed && strings.TrimSpace(rest) != "" {
		return patchCall{}, false // more text after the patch: not a patch alone
	}
	env := strings.TrimLeft(inner, " \t\r\n")
	if !opensEnvelope(env) {
		return patchCall{}, false
	}
	return patchCall{env: env}, true
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
	num := lineNum(p.lineAt(it.start))
	sub, ok := p.readCarried(num, "patch", newParser(it.patch, edit.FormatCodex), func(sub *parser) { sub.inPatch = true })
	if !ok {
		return // half a patch is worse than none
	}
	for _, e := range sub.edits {
		e.Start, e.End, e.Line = it.start, it.end, num
		if it.dir != "" {
			e.Path = underDir(it.dir, e.Path)
			if e.Op == edit.Rename {
				e.New = underDir(it.dir, e.New)
			}
		}
		p.lastWhole = false
		p.push(e)
	}
}

// readCarried runs sub, a parser of the text a tool call on line num
// carries (its "diff" or "patch", what names it), over p's tree once set
// up, and reports sub's errors as p's, each naming its line in the text.
// It reports whether sub read the text without error.
func (p *parser) readCarried(num int, what string, sub *parser, setup func(*parser)) (*parser, bool) {
	sub.tree = p.tree
	if p.bases == nil {
		p.bases = &treeBases{}
	}
	sub.bases = p.bases
	setup(sub)
	sub.run()
	sub.summarizeErrors()
	for _, e := range sub.errs {
		ce := *e
		ce.Msg = fmt.Sprintf("the %s in this tool call, at its line %d: %s", what, e.Line, e.Msg)
		ce.Line = num
		p.addError(&ce)
	}
	return sub, len(sub.errs) == 0
}

// underDir returns the path p names once a shell has changed to dir: p
// itself when absolute, else dir/p, for the applier to resolve as it
// resolves any path (and refuse when dir leaves the root).
func underDir(dir, p string) string {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || len(p) >= 2 && p[1] == ':' {
		return p
	}
	return syntax.TidyPath(strings.TrimRight(dir, "/") + "/" + p)
}
