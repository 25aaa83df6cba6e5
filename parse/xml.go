package parse

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// An xmlReader reads the XML tool call Cline and Roo Code models write to
// send a whole file:
//
//	<write_to_file>
//	<path>src/app.ts</path>
//	<content>
//	…the file…
//	</content>
//	<line_count>12</line_count>
//	</write_to_file>
//
// It is an explicit whole-file write, the edit a JSON write_to_file or
// Goose's "command": "write" makes: a Rewrite that creates a missing file
// and replaces an existing one, which the applier refuses (ELISION) when the content leaves
// code out with a placeholder. Each parameter stands on lines of its own
// (a one-line parameter may share the opening line); the content may be
// wrapped in CDATA, and its first line may follow <content> and its last
// precede </content> on the same line. The content's end is the first
// </content> line followed by another parameter or the closing tag, so a
// file that holds such a line itself still reads; a call that would read
// two ways (a second closing tag before the next call) is refused.
//
// A call cut off before its closing tags is a PARSE_ERROR, never a short
// file, and so is one whose <line_count> (Roo Code's) counts more lines than
// the content holds: the content was cut short.
//
// Roo Code's insert_content (lines before a line number, or appended) and
// search_and_replace (text that must occur once) are read the same way;
// see lowerInsertContent and lowerSearchAndReplace.
//
// A call of any other tool that names a file in <path> and carries an
// edit's text in a parameter of its own (<content>, <diff>, <new_str>, …)
// is refused with a PARSE_ERROR naming the tool, unless another reader
// reads what it holds (replace_in_file's and apply_diff's SEARCH/REPLACE
// blocks): passed over as prose, its edit would be dropped while the rest
// of the reply applies.
type xmlReader struct {
	p *parser
	// What starts found at line at: the line after an XML call of a tool
	// edapply does not read.
	at, end int
	judged  int  // the line after the last XML call unreadXMLCall judged
	inCall  bool // reading the text of such a call: its calls are not judged again
	index   *xmlIndex
}

func (r *xmlReader) format() edit.Format { return edit.FormatWhole }

func (r *xmlReader) starts(i int) bool {
	p := r.p
	if _, _, ok := syntax.XMLToolOpen(p.lines[i].Text); ok {
		return true
	}
	end, ok := p.unreadXMLCall(i)
	if ok {
		r.at, r.end = i, end
	}
	return ok
}

func (r *xmlReader) read(i int) int {
	p := r.p
	if _, _, ok := syntax.XMLToolOpen(p.lines[i].Text); ok {
		return r.readCall(i)
	}
	end := r.end
	if r.at != i {
		end, _ = p.unreadXMLCall(i)
	}
	name, _, _ := syntax.XMLOpenTag(strings.TrimSpace(p.lines[i].Text))
	p.errorHint(lineNum(i), "Send the edit as a write_to_file, insert_content or search_and_replace call, SEARCH/REPLACE blocks or a unified diff.",
		"the <%s> call is not one edapply reads: its edit is not written", name)
	return max(end, i+1)
}

// xmlEditParams are the parameters that carry an edit's text in the XML
// calls of edit tools.
var xmlEditParams = []string{
	"content", "diff", "new_str", "old_str", "new_string", "old_string", "file_text", "code_edit",
	"code", "text", "patch", "new_content", "search", "replace", "edits", "changes", "insert_text",
	"old_text", "new_text", "operations",
}

// fenceHoldsOnly reports whether the prose fence open at line i holds the
// lines [i, end) and nothing else, as a call a model fenced is, and is a
// bare or an xml one.
func (p *parser) fenceHoldsOnly(i, end int) bool {
	f := p.whole.prose.f
	if f.Info != "" && f.Lang() != "xml" {
		return false
	}
	j := p.prevNonBlank(i)
	if j < 0 {
		return false
	}
	if g, ok := syntax.ParseFence(p.lines[j].Text); !ok || g != f {
		return false
	}
	for k := end; k < len(p.lines); k++ {
		if t := p.lines[k].Text; strings.TrimSpace(t) != "" {
			g, ok := syntax.ParseFence(t)
			return ok && g.Closes(f)
		}
	}
	return false
}

// unreadXMLCall reports whether line i opens the XML call of a tool
// edapply does not read: a tag alone on its line, a <path>…</path> among
// the next three lines, a parameter of xmlEditParams before the call's
// closing tag (or the end of the reply), and nothing in it that another
// reader reads. It returns the line after the call. The lines of a call
// whose text it parsed are not judged again as calls of their own, so
// that nested or unclosed calls cost one parse of each line.
func (p *parser) unreadXMLCall(i int) (int, bool) {
	if i < p.xml.judged {
		return 0, false
	}
	t := strings.TrimSpace(p.lines[i].Text)
	name, rest, ok := syntax.XMLOpenTag(t)
	if !ok || rest != "" || syntax.IsXMLTool(name) || p.xml.inCall {
		return 0, false
	}
	pathAt := -1
	for j, seen := i+1, 0; j < len(p.lines) && seen < 3; j++ {
		u := strings.TrimSpace(p.lines[j].Text)
		if u == "" {
			continue
		}
		seen++
		if strings.HasPrefix(u, "<path>") && strings.HasSuffix(u, "</path>") {
			pathAt = j
			break
		}
	}
	if pathAt < 0 {
		return 0, false
	}
	x := p.xmlLines()
	end := len(p.lines)
	closes := x.closes["</"+name+">"]
	if k, _ := slices.BinarySearch(closes, i+1); k < len(closes) {
		end = closes[k] + 1
	}
	if x.params[end] == x.params[i+1] {
		return 0, false // no parameter carries an edit
	}
	if p.whole.prose.open && !p.fenceHoldsOnly(i, end) {
		return 0, false // an example in the reply's prose, not a call
	}
	// What another reader reads in the call (a SEARCH/REPLACE block under
	// its <path>, a diff) is read as it is today.
	p.xml.judged = end
	stop := len(p.text)
	if end < len(p.lines) {
		stop = p.lines[end].Start
	}
	sub := newParser(p.text[p.lines[i+1].Start:stop], p.format)
	sub.tree, sub.xml.inCall = p.tree, true
	sub.run()
	if len(sub.edits) > 0 || len(sub.errs) > 0 {
		return 0, false
	}
	return end, true
}

// xmlIndex is what unreadXMLCall asks of every line, read once: the lines
// that are each closing tag, in order, and how many lines before each
// line open a parameter of xmlEditParams.
type xmlIndex struct {
	closes map[string][]int
	params []int // params[k]: such lines among lines [0, k)
}

func (p *parser) xmlLines() *xmlIndex {
	if p.xml.index != nil {
		return p.xml.index
	}
	x := &xmlIndex{closes: map[string][]int{}, params: make([]int, len(p.lines)+1)}
	for k, l := range p.lines {
		x.params[k+1] = x.params[k]
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "</") && strings.HasSuffix(t, ">") && !strings.ContainsAny(t[2:len(t)-1], "<> ") {
			x.closes[t] = append(x.closes[t], k)
		}
		if tag, _, ok := syntax.XMLOpenTag(t); ok && slices.Contains(xmlEditParams, tag) {
			x.params[k+1]++
		}
	}
	p.xml.index = x
	return x
}

// xmlToolParam reports whether tag is a parameter the tool name may
// carry. Cline adds task_progress to every call, a checklist for its UI.
func xmlToolParam(name, tag string) bool {
	switch name {
	case "write_to_file":
		switch tag {
		case "path", "content", "line_count", "task_progress":
			return true
		}
	case "insert_content":
		switch tag {
		case "path", "line", "content", "task_progress":
			return true
		}
	case "search_and_replace":
		switch tag {
		case "path", "search", "replace", "operations", "use_regex", "ignore_case",
			"start_line", "end_line", "task_progress":
			return true
		}
	}
	return false
}

// An xmlParam is one parameter of a call: its text and its first line.
type xmlParam struct {
	text    string
	line    int
	oneLine bool // written on one line with its tags: the text has no line ending
}

// readCall reads the tool call opening at line i.
func (r *xmlReader) readCall(i int) int {
	p := r.p
	name, rest, _ := syntax.XMLToolOpen(p.lines[i].Text)
	closing := "</" + name + ">"
	params := map[string]xmlParam{}
	resend := "Resend the call complete"
	if name == "write_to_file" {
		resend = "Resend the file whole"
	}
	bad := func(num int, format string, args ...any) {
		p.errorHint(num, "Resend the <"+name+"> call complete: each parameter in its tags on lines of its own, then "+closing+".", format, args...)
	}
	if rest != "" {
		if rest == closing {
			bad(lineNum(i), "the <%s> call holds nothing", name)
			return i + 1
		}
		tag, val, ok := xmlOneLine(rest)
		if !ok || !xmlToolParam(name, tag) {
			bad(lineNum(i), "cannot read %q after <%s>", rest, name)
			return p.xmlSkip(i, name)
		}
		params[tag] = xmlParam{text: val, line: lineNum(i), oneLine: true}
	}
	closeAt := -1
	for j := i + 1; j < len(p.lines) && closeAt < 0; {
		t := strings.TrimSpace(p.lines[j].Text)
		if t == "" {
			j++
			continue
		}
		if t == closing {
			closeAt = j
			break
		}
		if _, _, ok := syntax.XMLToolOpen(t); ok {
			p.errorHint(lineNum(i), "Resend the call complete, closed by "+closing+".",
				"the <%s> call is not closed before the next call: nothing of it is written", name)
			return j
		}
		tag, after, ok := syntax.XMLOpenTag(t)
		if !ok || !xmlToolParam(name, tag) {
			if len(t) > 60 {
				t = t[:57] + "..."
			}
			bad(lineNum(j), "%q in the <%s> call is neither one of its parameters nor %s", t, name, closing)
			return p.xmlSkip(i, name)
		}
		if _, dup := params[tag]; dup {
			bad(lineNum(j), "the <%s> call gives <%s> twice", name, tag)
			return p.xmlSkip(i, name)
		}
		if _, val, ok := xmlOneLine(t); ok {
			params[tag] = xmlParam{text: val, line: lineNum(j), oneLine: true}
			j++
			continue
		}
		// The text after the tag as written: trimming the line took the
		// trailing blanks off the content's first line.
		after = strings.TrimLeft(p.lines[j].Text, " \t")[len(t)-len(after):]
		end, val, ok := p.xmlParamEnd(name, tag, j, after)
		if !ok && end > j {
			p.errorHint(lineNum(i), resend+", with its </"+tag+"> and "+closing+" in place.",
				"the <%s> call is not closed before the next call: nothing of it is written", name)
			return end
		}
		if !ok {
			p.errorHint(lineNum(i), resend+", with its </"+tag+"> and "+closing+" in place.",
				"the <%s> call is cut off inside <%s>: the response looks truncated, and nothing of it is written", name, tag)
			return len(p.lines)
		}
		params[tag] = xmlParam{text: val, line: lineNum(j)}
		j = end + 1
	}
	if closeAt < 0 {
		p.errorHint(lineNum(i), "Resend the call complete, closed by "+closing+".",
			"the <%s> call is not closed: the response looks truncated, and nothing of it is written", name)
		return len(p.lines)
	}
	if k := p.xmlSecondClose(closeAt, name); k >= 0 {
		bad(lineNum(k), "the <%s> call reads two ways: %s stands on line %d and again on line %d", name, closing, lineNum(closeAt), lineNum(k))
		return k + 1
	}
	switch name {
	case "write_to_file":
		p.lowerWriteToFile(i, closeAt, params)
	case "insert_content":
		p.lowerInsertContent(i, closeAt, params)
	case "search_and_replace":
		p.lowerSearchAndReplace(i, closeAt, params)
	}
	return closeAt + 1
}

// xmlOneLine reads a parameter written on one line, "<path>a.go</path>".
func xmlOneLine(t string) (tag, val string, ok bool) {
	tag, after, ok := syntax.XMLOpenTag(t)
	if !ok {
		return "", "", false
	}
	val, ok = strings.CutSuffix(after, "</"+tag+">")
	if inner, cdata := strings.CutPrefix(val, "<![CDATA["); cdata {
		val, ok = strings.CutSuffix(inner, "]]>")
	}
	return tag, val, ok
}

// xmlSkip returns the line after the call opened at line i is closed, or
// the line after i when it never is, for the lines after a refused call.
func (p *parser) xmlSkip(i int, name string) int {
	for j := i + 1; j < len(p.lines); j++ {
		t := strings.TrimSpace(p.lines[j].Text)
		if t == "</"+name+">" {
			return j + 1
		}
		if _, _, ok := syntax.XMLToolOpen(t); ok {
			return j
		}
	}
	return i + 1
}

// xmlSecondClose returns the line of another closing tag of the call
// closed at line closeAt, before the next call opens or the response ends: a
// sign that the content holds a closing tag of its own and the call may end
// at either; -1 when there is none.
func (p *parser) xmlSecondClose(closeAt int, name string) int {
	for j := closeAt + 1; j < len(p.lines); j++ {
		t := strings.TrimSpace(p.lines[j].Text)
		if t == "</"+name+">" {
			return j
		}
		if _, _, ok := syntax.XMLToolOpen(t); ok {
			return -1
		}
	}
	return -1
}

// xmlParamEnd finds the end of the parameter tag of the call name, opened
// at line j with after following the tag there: the first line ending in
// "</tag>" (in CDATA, "]]></tag>" or "</tag>" after a "]]>" line) that a
// parameter or the call's closing tag follows. It returns that line and
// the parameter's text, every line with its ending; false when there is
// none before the next call, whose line it returns, or the end of the
// response (0).
func (p *parser) xmlParamEnd(name, tag string, j int, after string) (int, string, bool) {
	closeTag := "</" + tag + ">"
	first := j + 1 // the first line of text after the opening line
	head := after
	cdata := false
	if h, ok := strings.CutPrefix(strings.TrimLeft(head, " \t"), "<![CDATA["); ok {
		head, cdata = h, true
	} else if strings.TrimSpace(head) == "" && first < len(p.lines) && strings.TrimSpace(p.lines[first].Text) == "<![CDATA[" {
		head, cdata, first = "", true, first+1
	}
	for k := first; k < len(p.lines); k++ {
		text := p.lines[k].Text
		if _, _, ok := syntax.XMLToolOpen(text); ok {
			return k, "", false
		}
		tr := strings.TrimRight(text, " \t")
		tail, ok := strings.CutSuffix(tr, closeTag)
		if !ok || !p.xmlParamFollows(k+1, name) {
			continue
		}
		last := k
		if cdata {
			switch {
			case strings.HasSuffix(strings.TrimRight(tail, " \t"), "]]>"):
				tail = strings.TrimSuffix(strings.TrimRight(tail, " \t"), "]]>")
			case strings.TrimSpace(tail) == "" && k > first && strings.TrimSpace(p.lines[k-1].Text) == "]]>":
				last = k - 1
			default:
				continue
			}
		}
		headText, tailText := strings.TrimSpace(head) != "", last == k && strings.TrimSpace(tail) != ""
		if !headText && !tailText {
			// The tags stand on lines of their own: the text is the
			// response's own lines, shared rather than copied.
			if last == first {
				return k, "", true
			}
			return k, p.text[p.lines[first].Start:p.lineEnd(last-1)], true
		}
		var b strings.Builder
		if headText {
			b.WriteString(head)
			b.WriteString(p.lineEnding(j))
		}
		if last > first {
			b.WriteString(p.text[p.lines[first].Start:p.lineEnd(last-1)])
		}
		if tailText {
			b.WriteString(tail)
			b.WriteString(p.lineEnding(k))
		}
		return k, b.String(), true
	}
	return 0, "", false
}

// lineEnding returns line j's own line ending, or "\n" for a last line
// without one.
func (p *parser) lineEnding(j int) string {
	l := p.lines[j]
	if eol := p.text[l.Start+len(l.Text) : p.lineEnd(j)]; eol != "" {
		return eol
	}
	return "\n"
}

// xmlParamFollows reports whether line j, or the first non-blank line from
// it, opens a parameter of the call name or closes the call.
func (p *parser) xmlParamFollows(j int, name string) bool {
	for ; j < len(p.lines); j++ {
		t := strings.TrimSpace(p.lines[j].Text)
		if t == "" {
			continue
		}
		if t == "</"+name+">" {
			return true
		}
		tag, _, ok := syntax.XMLOpenTag(t)
		return ok && xmlToolParam(name, tag)
	}
	return false
}

// lowerWriteToFile turns the parameters of the write_to_file call on lines
// [open, closeAt] into its Rewrite.
func (p *parser) lowerWriteToFile(open, closeAt int, params map[string]xmlParam) {
	num := lineNum(open)
	fail := func(hint, format string, args ...any) { p.errorHint(num, hint, format, args...) }
	pth, ok := p.xmlPath(num, "write_to_file", params)
	if !ok {
		return
	}
	content, ok := params["content"]
	if !ok {
		fail("Send the file's whole new content in <content> … </content>.", "the <write_to_file> call for %s has no <content>", pth)
		return
	}
	text := content.text
	if content.oneLine && text != "" {
		text += "\n"
	}
	written := syntax.CountLines(text) // as sent: the count may take in a fence around it
	if !isDocExt(fileExt(pth)) {
		text = unfenced(text)
	}
	if lc, ok := params["line_count"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(lc.text))
		if err != nil || n < 0 {
			fail("Give <line_count> as the number of lines in the content, or leave it out.", "<line_count> %q of %s is not a number of lines", lc.text, pth)
			return
		}
		// The content's lines, and one more for a count that takes the
		// text after its last line ending for a line, as splitting on
		// line ends does.
		if n > written+1 {
			lines := "lines"
			if written == 1 {
				lines = "line"
			}
			fail("Resend the file whole: every line written out in <content>, and <line_count> the number of lines it holds.",
				"the <content> for %s holds %d %s where <line_count> says %d: it looks cut short, and is not written", pth, written, lines, n)
			return
		}
	}
	if numberedRead(text) {
		fail("Send the file's own lines in <content>, without the line numbers a read of the file puts before them.",
			"every line of the <content> for %s starts with a line number counting up from 1, as a read of the file shows it: the numbers would be written into the file", pth)
		return
	}
	p.lastPath = pth
	p.toolWrites[p.editCount()] = true
	p.add(edit.Edit{Op: edit.Rewrite, Path: pth, New: text}, edit.FormatWhole, open, closeAt+1)
}

// unfenced returns text without a Markdown fence around all of it, which
// weaker models put inside a tool call's content ("```ts" first, "```"
// last): the file is what the fence holds.
func unfenced(text string) string {
	ls := syntax.SplitAfter(text)
	if len(ls) < 2 {
		return text
	}
	f, ok := syntax.ParseFence(strings.TrimRight(ls[0], "\r\n"))
	if !ok {
		return text
	}
	g, ok := syntax.ParseFence(strings.TrimRight(ls[len(ls)-1], "\r\n"))
	if !ok || !g.Closes(f) {
		return text
	}
	return strings.Join(ls[1:len(ls)-1], "")
}

// xmlPath returns the call's <path>, or reports its absence or a value
// that is no path as a PARSE_ERROR at line num.
func (p *parser) xmlPath(num int, name string, params map[string]xmlParam) (string, bool) {
	raw, ok := params["path"]
	if !ok && p.file != "" {
		return p.file, true // the file the caller names for edits that name none
	}
	if !ok {
		p.errorHint(num, p.noFileHint("Name the file in <path>PATH</path>."), "the <%s> call names no file (want <path>)", name)
		return "", false
	}
	pth, ok := syntax.CleanDelimitedPath(raw.text)
	if !ok {
		p.errorHint(num, "Name the file in <path>PATH</path>, the path alone.", "%q is not a file path", raw.text)
		return "", false
	}
	return syntax.TidyPath(pth), true
}

// lowerInsertContent turns Roo Code's insert_content call on lines [open,
// closeAt] into an insertion: its content goes before <line> N (from 1),
// or at the end of the file for 0, as Roo's tool puts it; the tool inserts
// whole lines.
func (p *parser) lowerInsertContent(open, closeAt int, params map[string]xmlParam) {
	num := lineNum(open)
	pth, ok := p.xmlPath(num, "insert_content", params)
	if !ok {
		return
	}
	line, ok := params["line"]
	n, err := strconv.Atoi(strings.TrimSpace(line.text))
	if !ok || err != nil || n < 0 {
		p.errorHint(num, "Give <line> as the line to insert before, from 1, or 0 to append at the end.",
			"insert_content into %s needs a <line>, a number from 0", pth)
		return
	}
	content, ok := params["content"]
	text := content.text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if !ok || strings.TrimSpace(text) == "" {
		p.errorHint(num, "Put the lines to insert in <content>.", "insert_content into %s has no <content>", pth)
		return
	}
	e := edit.Edit{Op: edit.Replace, Path: pth, New: text, Count: 1, Hint: n}
	if n == 0 {
		e.AtEOF = true // the end of the file, whatever its length
	}
	p.lastPath = pth
	p.add(e, edit.FormatWhole, open, closeAt+1)
}

// lowerSearchAndReplace turns Roo Code's search_and_replace call on lines
// [open, closeAt] into replacements, each of text that must occur once:
// Roo's older tool replaced every occurrence and its newer one wants one,
// so one occurrence is what both mean, and more is MULTIPLE_MATCHES. Like
// Roo, it trims <search> and <replace> (and the newer tool's "operations",
// a JSON array of {"search", "replace"}, is taken as written). A regular
// expression, ignore_case or a line range is refused: the text alone would
// not say which occurrences the tool would have changed.
func (p *parser) lowerSearchAndReplace(open, closeAt int, params map[string]xmlParam) {
	num := lineNum(open)
	pth, ok := p.xmlPath(num, "search_and_replace", params)
	if !ok {
		return
	}
	for _, k := range []string{"use_regex", "ignore_case"} {
		if v, ok := params[k]; ok && !strings.EqualFold(strings.TrimSpace(v.text), "false") && strings.TrimSpace(v.text) != "" {
			p.errorHint(num, "Send the literal text to find, as it stands in the file, without <"+k+">.",
				"search_and_replace in %s: <%s> is not applied", pth, k)
			return
		}
	}
	for _, k := range []string{"start_line", "end_line"} {
		if v, ok := params[k]; ok && strings.TrimSpace(v.text) != "" {
			p.errorHint(num, "Send search text that occurs once in the file, without a line range.",
				"search_and_replace in %s: a line range (<%s>) is not applied", pth, k)
			return
		}
	}
	type op struct {
		Search  *string `json:"search"`
		Replace *string `json:"replace"`
	}
	var ops []op
	if raw, ok := params["operations"]; ok {
		if _, dup := params["search"]; dup {
			p.errorHint(num, "Send either <operations> or one <search> and <replace>.", "search_and_replace in %s gives both <operations> and <search>", pth)
			return
		}
		if err := json.Unmarshal([]byte(raw.text), &ops); err != nil || len(ops) == 0 {
			p.errorHint(num, "Give <operations> as a JSON array of {\"search\": ..., \"replace\": ...} objects.",
				"search_and_replace in %s: <operations> is not a JSON array of operations", pth)
			return
		}
	} else {
		s, hasS := params["search"]
		r, hasR := params["replace"]
		if !hasS || !hasR {
			p.errorHint(num, "Give the text to find in <search> and its replacement in <replace>.",
				"search_and_replace in %s needs <search> and <replace>", pth)
			return
		}
		st, rt := strings.TrimSpace(s.text), strings.TrimSpace(r.text)
		ops = []op{{Search: &st, Replace: &rt}}
	}
	var es []edit.Edit
	for k, o := range ops {
		if o.Search == nil || *o.Search == "" || o.Replace == nil {
			p.errorHint(num, "Give every operation a non-empty \"search\" and a \"replace\".",
				"search_and_replace in %s: operation %d has no search text or no replacement", pth, k+1)
			return
		}
		es = append(es, edit.Edit{Op: edit.Replace, Path: pth, Old: *o.Search, New: *o.Replace, Count: 1})
	}
	p.lastPath = pth
	for _, e := range es {
		p.add(e, edit.FormatWhole, open, closeAt+1)
	}
}

// numberedRead reports whether every line of text, two at least, starts
// with the line-number prefix a read of a file shows ("1 | ", Roo Code's;
// "     1\t", cat -n's; "1→"), the numbers counting up from 1: text copied
// from a read, not a file's own lines.
func numberedRead(text string) bool {
	ls := syntax.SplitAfter(text)
	if len(ls) < 2 {
		return false
	}
	kind := ""
	for i, l := range ls {
		t := strings.TrimLeft(l, " ")
		pad := len(l) - len(t)
		d := 0
		for d < len(t) && d < 9 && '0' <= t[d] && t[d] <= '9' {
			d++
		}
		if d == 0 {
			return false
		}
		if n, _ := strconv.Atoi(t[:d]); n != i+1 {
			return false
		}
		rest := strings.TrimLeft(t[d:], " ")
		var k string
		switch {
		case strings.HasPrefix(rest, "|"):
			k = "|"
		case strings.HasPrefix(rest, "→"):
			k = "→"
		case strings.HasPrefix(t[d:], "\t") && pad > 0:
			k = "\t" // cat -n pads its numbers; a data file's tab-separated counter is not
		default:
			return false
		}
		if kind != "" && k != kind {
			return false
		}
		kind = k
	}
	return true
}
