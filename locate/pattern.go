package locate

// An edit's old or new text as the rungs read it.

import "strings"

// A pattern is an edit's old or new text, split for matching: line endings
// normalized to "\n", then cut into lines without terminators.
type pattern struct {
	text    string   // the text with "\r\n" turned into "\n"
	lines   []string // text's lines; none for ""
	finalNL bool     // text ends with "\n"
	gap     []bool   // lines[i] may stand for skipped lines: a placeholder, or a bare "..."
	gaps    int      // how many gap lines
	ph      []bool   // lines[i] is a placeholder for sure (a bare "..." that is a block's body is not)
	phs     int      // how many placeholders
	blank   bool     // every line is blank (or a placeholder): nothing to anchor a tolerant match

	// insertion(p, insNew) is ins, remembered: the batch planner asks
	// before the matcher does.
	insNew *pattern
	ins    bool
}

func newPattern(s string) *pattern {
	p := splitPattern(s)
	p.classify(true)
	return p
}

// classify judges p's lines: its placeholders, gap lines and whether it is
// blank, with a flag per line when flags is set, else only the counts (for
// a pattern that is judged and dropped).
func (p *pattern) classify(flags bool) {
	p.blank = true
	if p.text == "" {
		return
	}
	n := len(p.lines)
	if flags {
		f := make([]bool, 2*n)
		p.gap, p.ph = f[:n:n], f[n:]
	}
	for i, l := range p.lines {
		ph := IsPlaceholder(p.lines, i)
		if ph {
			p.phs++
		} else if !isBlank(l) {
			p.blank = false
		}
		// A bare "..." after "key:" is YAML's elision as often as it is
		// Python's Ellipsis; in an old text the elision rung, tried only
		// after every literal rung failed, may take it as a gap.
		gap := ph || mayBePlaceholder(l) && onlyDots(strings.TrimSpace(l))
		if gap {
			p.gaps++
		}
		if flags {
			p.ph[i], p.gap[i] = ph, gap
		}
	}
}

// splitPattern is s's pattern with its text, lines and finalNL only: no
// line is judged a placeholder, a gap or blank. For a text whose lines the
// caller only counts and compares (the batch's old text).
func splitPattern(s string) *pattern {
	p := &pattern{}
	if body, ok := p.setText(s); ok {
		p.lines = strings.Split(body, "\n")
	}
	return p
}

// setText sets p's text (s with "\r\n" turned into "\n") and finalNL, and
// returns the text without its final "\n", to be cut into p's lines; false
// when the text is empty and has none.
func (p *pattern) setText(s string) (body string, ok bool) {
	p.text = s
	if strings.IndexByte(s, '\r') >= 0 {
		p.text = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if p.text == "" {
		return "", false
	}
	body = p.text
	if strings.HasSuffix(body, "\n") {
		p.finalNL = true
		body = body[:len(body)-1]
	}
	return body, true
}

// splitInto returns body's lines, as strings.Split(body, "\n") cuts them,
// in dst's room.
func splitInto(dst []string, body string) []string {
	dst = dst[:0]
	for {
		i := strings.IndexByte(body, '\n')
		if i < 0 {
			return append(dst, body)
		}
		dst = append(dst, body[:i])
		body = body[i+1:]
	}
}

// lastLine is the last line a match of p's lines that starts on line
// first covers.
func (p *pattern) lastLine(first int) int { return first + max(len(p.lines), 1) - 1 }
