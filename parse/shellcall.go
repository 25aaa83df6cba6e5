package parse

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A shell script a Codex call runs is read, never run. Two forms are a
// patch, as Codex's own apply-patch reader takes them, and only when they
// are the whole script:
//
//	apply_patch <<'EOF'            (or applypatch; EOF quoted either way or bare)
//	cd DIR && apply_patch <<'EOF'  (one directory: a word, 'quoted' or "quoted")
//
// followed by the heredoc's lines and its delimiter, with nothing after it.
// The paths of a patch after `cd DIR &&` name files under DIR. Anything
// else the shell would do (a pipe, ';', a second command, '&&' after the
// heredoc, a variable, a redirection, options or a second cd) changes what
// running the script would mean, so such a script is not read at all: when
// it plainly carries a patch, it is a PARSE_ERROR naming what the shell
// does beyond apply_patch.

// A shellTok is one token of a shell script: an operator, or a word with
// its quotes removed.
type shellTok struct {
	op      string // "&&", "|", ";", "<<", "NL" (a line break), "EOF", …; "" for a word
	word    string // a word's text without its quotes
	raw     string // the token as written
	expands bool   // the word holds what the shell would expand or unescape: $, `, \, a glob, a leading ~
}

// shellLexer splits a script into tokens, up to the line a heredoc starts.
type shellLexer struct {
	s   string
	pos int
}

// next returns the next token. An unclosed quote is an error.
func (l *shellLexer) next() (shellTok, error) {
	s := l.s
	for l.pos < len(s) {
		switch {
		case s[l.pos] == ' ' || s[l.pos] == '\t' || s[l.pos] == '\r' && !strings.HasPrefix(s[l.pos:], "\r\n"):
			l.pos++
		case strings.HasPrefix(s[l.pos:], "\\\n"):
			l.pos += 2 // a continued line
		case s[l.pos] == '#':
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
		default:
			goto token
		}
	}
	return shellTok{op: "EOF"}, nil
token:
	start := l.pos
	if s[l.pos] == '\r' && l.pos+1 < len(s) && s[l.pos+1] == '\n' {
		l.pos += 2
		return shellTok{op: "NL", raw: "\n"}, nil
	}
	if s[l.pos] == '\n' {
		l.pos++
		return shellTok{op: "NL", raw: "\n"}, nil
	}
	for _, op := range []string{"<<<", "<<-", "&&", "||", ";;", "<<", ">>", ">&", "<&", ">|", "<>", "&", "|", ";", "<", ">", "(", ")"} {
		if strings.HasPrefix(s[l.pos:], op) {
			l.pos += len(op)
			return shellTok{op: op, raw: op}, nil
		}
	}
	var b strings.Builder
	t := shellTok{}
	for l.pos < len(s) {
		c := s[l.pos]
		switch c {
		case '<', '>':
			if raw := s[start:l.pos]; raw != "" && strings.Trim(raw, "0123456789") == "" {
				// "2>&1": a redirection of a numbered descriptor.
				op, err := l.next()
				op.op, op.raw = raw+op.op, raw+op.raw
				return op, err
			}
			t.raw = s[start:l.pos]
			t.word = b.String()
			return t, nil
		case ' ', '\t', '\r', '\n', '&', '|', ';', '(', ')':
			t.raw = s[start:l.pos]
			t.word = b.String()
			return t, nil
		case '\'':
			end := strings.IndexByte(s[l.pos+1:], '\'')
			if end < 0 {
				return shellTok{}, fmt.Errorf("an unclosed quote")
			}
			b.WriteString(s[l.pos+1 : l.pos+1+end])
			l.pos += end + 2
		case '"':
			k := l.pos + 1
			for k < len(s) && s[k] != '"' {
				if s[k] == '\\' || s[k] == '$' || s[k] == '`' {
					t.expands = true
					if s[k] == '\\' {
						k++
					}
				}
				k++
			}
			if k >= len(s) {
				return shellTok{}, fmt.Errorf("an unclosed quote")
			}
			b.WriteString(s[l.pos+1 : k])
			l.pos = k + 1
		case '\\', '$', '`', '*', '?', '[', '{', '}':
			t.expands = true
			b.WriteByte(c)
			l.pos++
		case '~':
			if l.pos == start {
				t.expands = true
			}
			b.WriteByte(c)
			l.pos++
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
	t.raw = s[start:]
	t.word = b.String()
	return t, nil
}

// describe names what token t makes the shell do, for a refusal.
func (t shellTok) describe(afterHeredoc bool) string {
	switch t.op {
	case "":
		if t.expands {
			return fmt.Sprintf("a shell expansion (%s)", clip(t.raw))
		}
		if afterHeredoc {
			return fmt.Sprintf("an argument to apply_patch (%s)", clip(t.raw))
		}
		return fmt.Sprintf("a command other than apply_patch (%s)", clip(t.raw))
	case "&&":
		if afterHeredoc {
			return "a command after apply_patch (&&)"
		}
		return "a command before apply_patch other than one cd (&&)"
	case "|":
		return "a pipe (|)"
	case "||":
		return "a second command (||)"
	case ";", ";;":
		return "several commands (;)"
	case "&":
		return "a command in the background (&)"
	case "NL":
		return "several commands (a line break)"
	case "(", ")":
		return "a subshell ( )"
	case "EOF":
		return "no apply_patch heredoc"
	case "<<<":
		return "a here-string (<<<)"
	case "<<", "<<-":
		return fmt.Sprintf("a second heredoc (%s)", t.op)
	}
	return fmt.Sprintf("a redirection (%s)", t.op)
}

// clip shortens a word for a message: its first line, at most 40 bytes,
// cut between characters.
func clip(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) <= 40 {
		return s
	}
	n := 37
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// shellAfter returns the first line of rest that the shell would run,
// past blank lines and comments; "" when there is none.
func shellAfter(rest string) string {
	for rest != "" {
		ln, after, _ := strings.Cut(rest, "\n")
		if t := strings.TrimSpace(ln); t != "" && !strings.HasPrefix(t, "#") {
			return t
		}
		rest = after
	}
	return ""
}

// shellPatch reads script as an apply_patch call. It returns the envelope
// the heredoc holds and the directory of a leading `cd DIR &&` ("" when
// none). When script is not one of the two forms, refusal names the first
// thing it does beyond them ("" when it is an apply_patch call whose
// heredoc holds no envelope).
func shellPatch(script string) (env, dir, refusal string) {
	l := &shellLexer{s: strings.TrimLeft(script, " \t\r\n")}
	tok := func() (shellTok, string) {
		t, err := l.next()
		if err != nil {
			return t, err.Error()
		}
		return t, ""
	}
	t, why := tok()
	if why != "" {
		return "", "", why
	}
	if t.op == "" && t.word == "cd" && !t.expands {
		d, why := tok()
		switch {
		case why != "":
			return "", "", why
		case d.op != "" && d.op != "&&":
			return "", "", d.describe(false)
		case d.op == "&&" || d.word == "":
			return "", "", "cd without a directory"
		case d.expands:
			return "", "", fmt.Sprintf("a shell expansion in cd's directory (%s)", clip(d.raw))
		case strings.HasPrefix(d.word, "-"):
			return "", "", fmt.Sprintf("an option to cd (%s)", clip(d.raw))
		}
		dir = d.word
		and, why := tok()
		switch {
		case why != "":
			return "", "", why
		case and.op == "":
			return "", "", fmt.Sprintf("cd with more than one argument (%s)", clip(and.raw))
		case and.op != "&&":
			return "", "", and.describe(false)
		}
		for t, why = tok(); t.op == "NL" && why == ""; t, why = tok() {
		}
		if why != "" {
			return "", "", why
		}
		if t.op == "" && t.word == "cd" {
			return "", "", "more than one cd"
		}
	}
	if t.op != "" || t.expands || (t.word != "apply_patch" && t.word != "applypatch") {
		why := t.describe(false)
		if t.op == "" {
			// "cat p | apply_patch": the operator that joins them says more.
			for n, err := l.next(); err == nil && n.op != "NL" && n.op != "EOF"; n, err = l.next() {
				if n.op == "|" || n.op == "||" || n.op == ";" || n.op == "&&" || n.op == "&" {
					why += ", then " + n.describe(false)
					break
				}
			}
		}
		return "", "", why
	}
	h, why := tok()
	switch {
	case why != "":
		return "", "", why
	case h.op == "EOF" || h.op == "NL":
		return "", "", "apply_patch without a heredoc"
	case h.op != "<<" && h.op != "<<-":
		return "", "", h.describe(true)
	}
	stripTabs := h.op == "<<-"
	d, why := tok()
	switch {
	case why != "":
		return "", "", why
	case d.op != "":
		return "", "", "a heredoc without a delimiter"
	case d.expands || d.word == "":
		return "", "", fmt.Sprintf("a heredoc delimiter the shell would expand (%s)", clip(d.raw))
	}
	end, why := tok()
	switch {
	case why != "":
		return "", "", why
	case end.op == "EOF":
		return "", "", "a heredoc with no lines"
	case end.op != "NL":
		return "", "", end.describe(true)
	}
	body, rest, closed := heredocBody(l.s[l.pos:], d.word, stripTabs)
	if more := shellAfter(rest); closed && more != "" {
		return "", "", fmt.Sprintf("a command after the heredoc (%s)", clip(more))
	}
	if !closed && textAfterEnd(body) {
		return "", "", fmt.Sprintf("a heredoc never closed by %s, with text after *** End Patch", d.word)
	}
	env = strings.TrimLeft(body, " \t\r\n")
	if !opensEnvelope(env) {
		if carriesPatch(body) {
			return "", "", "text before *** Begin Patch in the heredoc"
		}
		return "", "", ""
	}
	return env, dir, ""
}

// heredocBody returns the lines of s up to the one that is delim (with
// leading tabs removed from every line when stripTabs, as `<<-` does), the
// text after that line, and whether it was found. A heredoc never closed
// runs to the end of the script, as the shell reads it. A line that is
// delim followed by more shell ("EOF && echo done") is taken as the
// delimiter with that shell after it: the shell would read it as a line of
// the heredoc, but the model meant it as the end, and neither reading is a
// patch alone.
func heredocBody(s, delim string, stripTabs bool) (body, rest string, closed bool) {
	var b strings.Builder
	for s != "" {
		ln, after, _ := strings.Cut(s, "\n")
		if stripTabs {
			ln = strings.TrimLeft(ln, "\t")
		}
		if t := strings.TrimRight(ln, " \t\r"); t == delim {
			return b.String(), after, true
		} else if strings.HasPrefix(t, delim) && strings.ContainsRune(" \t;&|>", rune(t[len(delim)])) {
			return b.String(), t[len(delim):] + "\n" + after, true
		}
		b.WriteString(ln)
		b.WriteString("\n")
		s = after
	}
	return b.String(), "", false
}

// textAfterEnd reports whether a line that is not blank follows the last
// "*** End Patch" line of body.
func textAfterEnd(body string) bool {
	lines := strings.Split(strings.TrimRight(body, " \t\r\n"), "\n")
	for k := len(lines) - 1; k >= 0; k-- {
		if strings.TrimSpace(lines[k]) == "*** End Patch" {
			return k < len(lines)-1
		}
	}
	return false
}

// carriesPatch reports whether s plainly holds a Codex envelope: a line
// that is "*** Begin Patch".
func carriesPatch(s string) bool {
	for s != "" {
		ln, rest, _ := strings.Cut(s, "\n")
		if strings.TrimSpace(ln) == "*** Begin Patch" {
			return true
		}
		s = rest
	}
	return false
}

// runsApplyPatch reports whether a script or argument names apply_patch.
func runsApplyPatch(s string) bool {
	return strings.Contains(s, "apply_patch") || strings.Contains(s, "applypatch")
}
