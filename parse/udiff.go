package parse

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// Unified diffs, git or loose.
//
// One tolerant reader handles every diff: models miscount hunks, drop the
// numbers from "@@" headers, drop "diff --git" and put prose between files,
// and git's own parser (go-gitdiff) rejects or silently skips such input. A
// hunk therefore ends where its lines stop looking like hunk lines, never
// where its counts say; the counts only decide whether trailing blank lines
// belong to it, and whether a line of dashes right after the counted lines
// (a format-patch signature, a rule) is prose (pastCount). Context diffs
// (contextdiff.go) are read into the same hunks. go-gitdiff reads what it is good at: the extended header
// block after "diff --git" (new/deleted file, rename, copy, modes, quoted
// names). Diffs are parsed only, never applied with gitdiff.Apply: the
// applier locates each hunk's text itself.
//
// A hunk ends at the next "@@", "diff --git" or "--- "/"+++ " pair naming
// files (decided: even inside an over-counted hunk), or at the first line
// that cannot be a hunk line: a closing fence, prose, EOF. Inside a hunk,
// lines models damage are read for what they were: an empty line is a
// context line that lost its space, a tab-indented line likewise, and a bare
// "..." followed by more hunk lines is context the applier's elision level
// understands. At its end, empty lines go unless the counts need them, and
// a markdown rule ("---" after an empty line) ends the diff. A file header
// followed straight by hunk lines is a hunk whose "@@" was dropped.
//
// Lowering (the applier relies on it):
//   - a hunk is a Replace: Old = context and '-' lines, New = context and '+'
//     lines, Marks = each line's ' ', '-' or '+' in the order written (an
//     empty line that lost its space is ' ', or '+' in a hunk that only
//     adds), counting Old's and New's lines exactly, Count 1, Hint = the
//     new-side start line (hunks apply in order against the edited
//     content, where that is where the old text sits), LeadContext and
//     TrailContext = the context lines before its first change and after
//     its last;
//   - "\ No newline at end of file" takes the line ending off the line
//     before it, on each side that line belongs to: New without a final
//     newline where Old has one removes it. The marker may only follow the
//     last line of a side (and of a new or deleted file's last hunk);
//   - a diff the reply ends inside (in a hunk short of its header's
//     counts, in the middle of a hunk's line, or in a diff fence never
//     closed) is a PARSE_ERROR "the diff looks truncated", never applied;
//   - "--- /dev/null" or "new file mode" is a Create of the '+' lines, as
//     is a section svn or bzr marks new, and one whose only hunk is "@@
//     -0,0 +1,N @@" for a file the tree lacks (createsMissing);
//     "+++ /dev/null" is a Delete whose Old is the '-' lines;
//   - a git rename is a Rename followed by Replaces on the new path;
//   - a mode change sets Mode on the file's first edit; a mode-only change
//     with no hunks is a PARSE_ERROR (the IR has no chmod, and no section
//     is dropped in silence);
//   - binary patches, copies, symlinks and submodules are PARSE_ERRORs.
//
// Cursor invariant: every reader below takes a line index and returns the
// index of the first line it did not consume, which is never smaller than
// the one it was given; read returns more than it was given.

// A udiffReader reads unified diffs. It keeps what the diff being read
// says of the lines after it: the fence that closes it, a diff fence that
// none closes, the file it edits and that file's lines, and the records of
// the section being read, reused by the next: a section's edits are
// lowered, their texts built anew, before the next is read, so a reply
// holds one section's records at a time, not every hunk's.
type udiffReader struct {
	p *parser
	// fenceClose is the line of the fence that closes the diff being
	// read, when a fence of its own opens it; -1 otherwise.
	fenceClose int
	// openFence is the line of a diff's own fence (```diff) that no
	// fence after it closes, -1 when none: the reply ends inside it, and
	// every diff section after it is cut off.
	openFence     int
	openFenceSaid bool                       // the truncation of openFence has been reported
	target        string                     // the file of the diff section being read
	targetLines   map[string]map[string]bool // each such file's lines, as diffFileHas asks
	hunks         []hunk
	lines         []hunkLine
}

func (r *udiffReader) format() edit.Format { return edit.FormatUDiff }

// starts reports whether a diff begins at line i: a "diff --git" line,
// a "--- "/"+++ " pair naming files, or a hunk header.
func (r *udiffReader) starts(i int) bool {
	p := r.p
	t := p.lines[i].Text
	if strings.HasPrefix(t, "diff --git ") || syntax.IsHunkHeader(t) {
		return true
	}
	if strings.HasPrefix(t, "*** ") {
		return p.contextStarts(i)
	}
	_, _, ok := p.fileHeaderAt(i, false)
	return ok
}

// hunkStart reports whether t, followed by next, reads as a diff hunk's
// header: numbered ("@@ -1,3 +1,4 @@", "@@ -1"), or bare ("@@", "@@ @@",
// "@@ ... @@") with a hunk line after it. Other lines that open with "@@"
// are text a file may hold (a Perl heredoc's "@@ WARNING @@" banner).
func hunkStart(t, next string) bool {
	rest, ok := strings.CutPrefix(t, "@@")
	if !ok || rest != "" && rest[0] != ' ' {
		return false
	}
	switch rest = strings.TrimSpace(rest); {
	case rest == "", rest == "@@", strings.TrimSpace(strings.TrimSuffix(rest, "@@")) == "...":
		return next != "" && strings.IndexByte("+- ", next[0]) >= 0
	}
	return len(rest) > 1 && rest[0] == '-' && '0' <= rest[1] && rest[1] <= '9'
}

// textAt is line j's text, "" past the end.
func (p *parser) textAt(j int) string {
	if j < len(p.lines) {
		return p.lines[j].Text
	}
	return ""
}

// hunkNums are the numbers of a "@@ -a,b +c,d @@" header.
type hunkNums struct {
	oldStart, oldLines, newStart, newLines int
}

// parseHunkHeader reads the numbers of a hunk header; ok is false when the
// header has none or they do not parse, in which case the hunk is located by
// its text alone.
func parseHunkHeader(t string) (h hunkNums, ok bool) {
	s, found := strings.CutPrefix(t, "@@ -")
	if !found {
		return h, false
	}
	oldPart, rest, found := strings.Cut(s, " +")
	if !found {
		return h, false
	}
	newPart, _, found := strings.Cut(rest, " @@")
	if !found {
		return h, false
	}
	var err1, err2 error
	h.oldStart, h.oldLines, err1 = parseRange(oldPart)
	h.newStart, h.newLines, err2 = parseRange(newPart)
	return h, err1 == nil && err2 == nil
}

// parseRange reads "start[,count]"; a missing count is 1, as in diff(1).
func parseRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 {
		return 0, 0, strconv.ErrSyntax
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, strconv.ErrSyntax
		}
	}
	return start, count, nil
}

// fileHeaderAt reports whether lines i and i+1 are a "--- old"/"+++ new"
// pair naming files (syntax.ReadFileHeader), and returns the line after
// them.
func (p *parser) fileHeaderAt(i int, inGit bool) (h syntax.FileHeader, next int, ok bool) {
	if i+1 >= len(p.lines) {
		return h, i, false
	}
	read := syntax.ReadFileHeader
	if p.strip >= 0 {
		read = syntax.ReadFileHeaderAsWritten
	}
	if h, ok = read(p.lines[i].Text, p.lines[i+1].Text, inGit, p.inTree); !ok {
		return h, i, false
	}
	return h, i + 2, true
}

// A hunkLine is one line of a hunk body.
type hunkLine struct {
	kind  byte   // ' ' context, '-' removed, '+' added
	text  string // the line without its prefix, with its line ending
	blank bool   // an empty line standing for a context line that lost its space
	noEOL bool   // followed by "\ No newline at end of file"
}

// hunkChunk is how many hunk line records the parser allocates at a time:
// a chunk holds a few hundred hunks' lines and serves section after
// section (of a diff, of a Codex envelope), so a reply of many files
// allocates one or two, and one of many hunks in a file allocates its
// records once, not again at every growth of one array.
const hunkChunk = 1024

// appendHunkLine appends l to buf, whose records from index from on are
// one hunk's. A full chunk stays with the hunks that point into it: the
// hunk's records so far move to a new one, and from with them.
func appendHunkLine(buf []hunkLine, from int, l hunkLine) ([]hunkLine, int) {
	if len(buf) == cap(buf) {
		buf = append(make([]hunkLine, 0, max(hunkChunk, 2*(len(buf)-from))), buf[from:]...)
		from = 0
	}
	return append(buf, l), from
}

// A hunk is one "@@" section of a diff.
type hunk struct {
	from, to int // line indexes [from, to) of the header (or first body line) and body
	nums     hunkNums
	numbered bool
	lines    []hunkLine
}

// side joins the context lines and those of kind ('-' for the old text,
// '+' for the new), dropping the line ending of a line that a "\ No
// newline" marker follows.
func (h *hunk) side(kind byte) string {
	var b strings.Builder
	n := 0
	for _, l := range h.lines {
		if l.kind == ' ' || l.kind == kind {
			n += len(l.text)
		}
	}
	b.Grow(n)
	for _, l := range h.lines {
		if l.kind == ' ' || l.kind == kind {
			b.WriteString(l.sideText())
		}
	}
	return b.String()
}

// sideEmpty reports whether side(kind) is "", without building it.
func (h *hunk) sideEmpty(kind byte) bool {
	for _, l := range h.lines {
		if (l.kind == ' ' || l.kind == kind) && l.sideText() != "" {
			return false
		}
	}
	return true
}

// sideText is the line as its side of the hunk has it.
func (l hunkLine) sideText() string {
	if l.noEOL {
		return strings.TrimSuffix(strings.TrimSuffix(l.text, "\n"), "\r")
	}
	return l.text
}

// blanksAdded turns the empty lines of a hunk that only adds lines into
// added blank lines: with no context around them they cannot be context,
// so they are blank lines whose '+' the model dropped.
func (h *hunk) blanksAdded() {
	for _, l := range h.lines {
		if l.kind == '-' || l.kind == ' ' && !l.blank {
			return
		}
	}
	for i := range h.lines {
		h.lines[i].kind = '+'
	}
}

// edgeContext counts the context lines before the hunk's first change and
// after its last; none for a hunk without a change.
func (h *hunk) edgeContext() (lead, trail int) {
	n := len(h.lines)
	for lead < n && h.lines[lead].kind == ' ' {
		lead++
	}
	if lead == n {
		return 0, 0
	}
	for h.lines[n-1-trail].kind == ' ' {
		trail++
	}
	return lead, trail
}

// marks is the hunk's edit.Edit Marks: each line's kind, in order. Every
// line stands for one line of each text it belongs to (a "\ No newline"
// marker only takes the ending off the last line of a side, see
// noEOLMisplaced), so the marks count Old's and New's lines exactly.
func (h *hunk) marks() string {
	b := make([]byte, len(h.lines))
	for k, l := range h.lines {
		b[k] = l.kind
	}
	return string(b)
}

// noEOLMisplaced reports whether a "\ No newline at end of file" marker
// follows a line that is not the last of each text it belongs to, or one
// with nothing before its line ending: the marker says the file ends
// there, and taking the newline off such a line would join it to the
// next or make it vanish, not end the file.
func (h *hunk) noEOLMisplaced() bool {
	for k, l := range h.lines {
		if !l.noEOL {
			continue
		}
		if l.sideText() == "" {
			return true
		}
		for _, m := range h.lines[k+1:] {
			if l.kind == ' ' || m.kind == ' ' || m.kind == l.kind {
				return true
			}
		}
	}
	return false
}

// counts returns how many lines of the old and the new text the hunk's
// lines are, as its header would count them; the empty lines of a hunk
// that only adds are added lines (see blanksAdded).
func (h *hunk) counts() (nOld, nNew int) {
	adds := !h.has('-', true) && !h.has(' ', false)
	for _, l := range h.lines {
		kind := l.kind
		if adds {
			kind = '+'
		}
		if kind != '+' {
			nOld++
		}
		if kind != '-' {
			nNew++
		}
	}
	return nOld, nNew
}

func (h *hunk) has(kind byte, blankToo bool) bool {
	for _, l := range h.lines {
		if l.kind == kind && (blankToo || !l.blank) {
			return true
		}
	}
	return false
}

// rawLine returns line i's bytes without its first skip bytes, ending in a
// newline even when it is the output's unterminated last line. It shares
// the output's bytes: the callers join lines into new strings.
func (p *parser) rawLine(i, skip int) string {
	s := p.text[p.lines[i].Start+skip : p.lineEnd(i)]
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// isElisionLine reports whether t is a bare "..." that a model wrote inside
// a hunk to skip lines; kept as context, it is the applier's elision level.
func isElisionLine(t string) bool {
	t = strings.TrimSpace(t)
	return t == "..." || t == "…"
}

// bodyLineAt reports whether line k can continue a hunk body.
func (p *parser) bodyLineAt(k int) bool {
	if k >= len(p.lines) {
		return false
	}
	t := p.lines[k].Text
	if t == "" {
		return true
	}
	switch t[0] {
	case ' ', '+', '\t':
		return true
	case '\\':
		return strings.HasPrefix(t, `\ `)
	case '-':
		if _, _, ok := p.fileHeaderAt(k, false); ok {
			return false
		}
		// A markdown rule after a blank line ends the diff, not a hunk line "--".
		if t == "---" && k > 0 && p.lines[k-1].Text == "" {
			return false
		}
		return true
	}
	if k < p.diff.fenceClose && !syntax.IsHunkHeader(t) && !strings.HasPrefix(t, "diff --git ") {
		if _, ok := syntax.ParseFence(t); !ok {
			// Inside the diff's own fence every line is the diff's: one
			// that lost its leading space is context. Read as the hunk's
			// end, it would drop the changes after it.
			return true
		}
	}
	if k+1 >= len(p.lines) {
		return false
	}
	n := p.lines[k+1].Text
	if n == "" || (n[0] != ' ' && n[0] != '-' && n[0] != '+') {
		return false
	}
	// A hunk's or a file's header ends the body, as it does inside the
	// diff's fence, without asking the tree: asking reads the whole file
	// and indexes its lines, which on a large file costs more than
	// parsing the diff.
	if hunkStart(t, n) || strings.HasPrefix(t, "diff --git ") {
		return false
	}
	// Hunk lines follow: an elision, or a line of the file that lost its
	// leading space (the tree says so); read as the hunk's end, it would
	// drop the changes after it.
	return isElisionLine(t) || p.diffFileHas(t)
}

// diffFileHas reports whether the file the diff being read names holds a
// line that is t; false without a tree.
func (p *parser) diffFileHas(t string) bool {
	if p.diff.target == "" || strings.TrimSpace(t) == "" {
		return false
	}
	set, ok := p.diff.targetLines[p.diff.target]
	if !ok {
		text, _ := p.treeText(p.diff.target)
		set = map[string]bool{}
		for _, l := range strings.Split(text, "\n") {
			set[strings.TrimRight(l, " \t")] = true
		}
		if p.diff.targetLines == nil {
			p.diff.targetLines = map[string]map[string]bool{}
		}
		p.diff.targetLines[p.diff.target] = set
	}
	return set[strings.TrimRight(t, " \t")]
}

// fenceDiff records where the fence around the diff starting at line i
// closes, when a fence opens on the nearest non-blank line before it, so
// that bodyLineAt knows which lines are the diff's. A diff that starts
// inside the last one's fence keeps it.
func (p *parser) fenceDiff(i int) {
	if i < p.diff.fenceClose {
		return
	}
	p.diff.fenceClose = -1
	j := p.prevNonBlank(i)
	if j < 0 {
		return
	}
	f, ok := syntax.ParseFence(p.lines[j].Text)
	if !ok || f.Info != "" && !isNeverWhole(f.Lang()) {
		return // a fence of code, not of a patch: its lines are not all the diff's
	}
	for k := i; k < len(p.lines); k++ {
		if g, ok := syntax.ParseFence(p.lines[k].Text); ok {
			if g.Closes(f) {
				p.diff.fenceClose = k
			}
			return
		}
	}
	// A fence that says it holds a diff and is never closed: the reply
	// was cut off inside it. A bare fence may be the close of some other
	// block, so it says nothing.
	if lang := f.Lang(); (lang == "diff" || lang == "patch" || lang == "udiff") && p.diff.openFence < 0 && !p.complete {
		p.diff.openFence = j
	}
}

// readHunk reads the hunk whose header (or, when header is false, whose
// first body line) is line i.
func (p *parser) readHunk(i int, header bool) (h hunk, next int) {
	h.from = i
	k := i
	if header {
		h.nums, h.numbered = parseHunkHeader(p.lines[i].Text)
		k++
	}
	// The body's records go on the end of the section's chunk of them
	// (see udiffReader); the hunk's view of them is capped at its own, so
	// that joining hunks copies rather than writes over the next one's.
	buf := p.diff.lines
	from := len(buf)
	nOld, nNew := 0, 0
	for ; p.bodyLineAt(k); k++ {
		t := p.lines[k].Text
		if h.numbered && nOld == h.nums.oldLines && nNew == h.nums.newLines && p.pastCount(t) {
			break
		}
		if t != "" && t[0] != '\\' {
			nOld, nNew = nOld+b2i(t[0] != '+'), nNew+b2i(t[0] != '-')
		} else if t == "" {
			nOld, nNew = nOld+1, nNew+1
		}
		switch {
		case t == "":
			buf, from = appendHunkLine(buf, from, hunkLine{kind: ' ', text: p.rawLine(k, 0), blank: true})
		case t[0] == '\\':
			if n := len(buf); n > from {
				buf[n-1].noEOL = true
			}
		case t[0] == ' ' || t[0] == '-' || t[0] == '+':
			buf, from = appendHunkLine(buf, from, hunkLine{kind: t[0], text: p.rawLine(k, 1)})
		default:
			// A tab-indented line whose leading space the model dropped,
			// or an elision line: context, written whole.
			buf, from = appendHunkLine(buf, from, hunkLine{kind: ' ', text: p.rawLine(k, 0)})
		}
	}
	p.diff.lines = buf
	h.lines = buf[from:len(buf):len(buf)]
	h.to = k
	h.trimTrailingBlanks()
	return h, h.to
}

// pastCount reports whether t, a line right after all the lines a hunk's
// header counts, is not the hunk's although it reads as a removed line:
// a line of dashes ("-- ", git format-patch's signature; "---", a
// Markdown rule) that the file does not hold without its '-'. Any other
// line goes on as today: models miscount, and a line the counts leave
// out is more often the hunk's than not.
func (p *parser) pastCount(t string) bool {
	if !strings.HasPrefix(t, "--") || strings.Trim(t, "- ") != "" {
		return false
	}
	return !p.diffFileHas(t[1:])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// trimTrailingBlanks drops the empty lines at the end of a hunk unless its
// counts need them: after a diff, a blank line is more often the paragraph
// break before prose than a context line that lost its space, and dropping
// a real context line only costs context.
func (h *hunk) trimTrailingBlanks() {
	n := len(h.lines)
	k := 0
	for k < n && h.lines[n-1-k].blank && !h.lines[n-1-k].noEOL {
		k++
	}
	if k == 0 {
		return
	}
	keep := 0
	if h.numbered {
		var nOld, nNew int
		for _, l := range h.lines {
			if l.kind != '+' {
				nOld++
			}
			if l.kind != '-' {
				nNew++
			}
		}
		for j := k; j >= 0; j-- {
			if nOld-(k-j) == h.nums.oldLines && nNew-(k-j) == h.nums.newLines {
				keep = j
				break
			}
		}
	}
	// The dropped lines are the last lines of the body (a marker after a
	// blank line stops the count), so they leave the span too.
	h.lines = h.lines[:n-k+keep]
	h.to -= k - keep
}

// A diffFile is one file's section of a diff, before lowering.
type diffFile struct {
	from, to      int // line indexes [from, to) of the whole section
	hdr           syntax.FileHeader
	hasHdr        bool
	git           *gitdiff.File // the extended header as go-gitdiff read it; nil if none or unreadable
	gitLine       string        // the "diff --git" line, if any
	hunks         []hunk
	binary        bool
	similar       bool // a "similarity index" line: differing names are a rename
	firstHunkLine int  // line index of the first hunk, or to
	// svnNew says the header marks a file that did not exist without
	// naming /dev/null: svn's "(revision 0)", bzr's "=== added file".
	svnNew bool
	// short is a name that Options.Strip would strip entirely.
	short string
	// broken says why a context diff's hunk cannot be read.
	broken string
}

// stripName strips p.strip leading components from pth, a name of f's
// header, as patch -pN does; a name with no more than that many is
// recorded in f.short and left as written.
func (p *parser) stripName(f *diffFile, pth string) string {
	if p.strip <= 0 || pth == syntax.DevNull {
		return pth
	}
	rest, ok := stripComponents(pth, p.strip)
	if !ok {
		if f.short == "" {
			f.short = pth
		}
		return pth
	}
	return rest
}

// stripComponents removes n leading components from pth.
func stripComponents(pth string, n int) (string, bool) {
	for ; n > 0; n-- {
		k := strings.IndexByte(pth, '/')
		if k < 0 {
			return "", false
		}
		pth = strings.TrimLeft(pth[k+1:], "/")
	}
	return pth, pth != ""
}

func isBinaryMarker(t string) bool {
	return t == "GIT binary patch" || strings.HasPrefix(t, "Binary files ") && strings.HasSuffix(t, " differ")
}

// read reads one file's section of a diff, or a hunk with no file
// header, which is an error.
func (r *udiffReader) read(i int) int {
	p := r.p
	p.fenceDiff(i)
	if syntax.IsHunkHeader(p.lines[i].Text) {
		// No file header: a path named just before the hunk (a path
		// line, a fence's info string, a path line before its fence)
		// stands for one.
		pth, _, ok := p.pathBefore(i, true)
		if !ok && p.file != "" {
			pth, ok = p.file, true // the file the caller names for edits that name none
		}
		if ok {
			// Line i is a header: readHunksInto reads at least its hunk.
			f := &diffFile{from: i, hdr: syntax.FileHeader{OldPath: pth, NewPath: pth}, hasHdr: true}
			p.readHunksInto(f, i)
			p.lowerDiffFile(f)
			return max(f.to, i+1)
		}
		h, next := p.readHunk(i, true)
		p.errorHint(lineNum(i), p.noFileHint("Resend the edit complete, with every marker line in place."),
			"hunk has no file header: put \"--- a/PATH\" and \"+++ b/PATH\" lines before it")
		return max(next, h.to, i+1)
	}
	var f *diffFile
	if strings.HasPrefix(p.lines[i].Text, "*** ") {
		f = p.readContextFile(i)
	} else {
		f = p.readDiffFile(i)
	}
	p.lowerDiffFile(f)
	return max(f.to, i+1)
}

func (p *parser) readDiffFile(i int) *diffFile {
	f := &diffFile{from: i}
	k := i
	if t := p.lines[k].Text; strings.HasPrefix(t, "diff --git ") {
		f.gitLine = t
		var hdr strings.Builder
		hdr.WriteString(t + "\n")
		for k++; k < len(p.lines) && syntax.IsGitHeaderLine(p.lines[k].Text); k++ {
			hdr.WriteString(p.lines[k].Text + "\n")
			f.similar = f.similar || strings.HasPrefix(p.lines[k].Text, "similarity index ")
		}
		// go-gitdiff reads the extended header only: it would drop a
		// component from "--- " names that lack the "a/" prefix, so the
		// names on those lines are read here.
		if files, _, err := gitdiff.Parse(&lineReader{hdr.String()}); err == nil && len(files) == 1 {
			f.git = files[0]
		}
	}
	if h, next, ok := p.fileHeaderAt(k, f.gitLine != ""); ok {
		f.hdr, f.hasHdr = h, true
		f.svnNew = syntax.IsSvnNewFile(p.lines[k].Text)
		f.hdr.OldPath, f.hdr.NewPath = p.stripName(f, f.hdr.OldPath), p.stripName(f, f.hdr.NewPath)
		k = next
	}
	// bzr heads a new file's section with "=== added file 'x'".
	if j := p.prevNonBlank(i); j >= 0 && strings.HasPrefix(p.lines[j].Text, "=== added file ") {
		f.svnNew = true
	}
	if k < len(p.lines) && isBinaryMarker(p.lines[k].Text) {
		f.binary = true
		k = p.skipBinary(k)
	}
	if !f.binary {
		p.readHunksInto(f, k)
		return f
	}
	f.firstHunkLine = k
	f.to = max(k, i+1)
	return f
}

// readHunksInto reads the hunks of f from line k on.
func (p *parser) readHunksInto(f *diffFile, k int) {
	f.firstHunkLine = k
	p.diff.target = ""
	if f.hasHdr {
		p.diff.target = f.hdr.NewPath
		if p.diff.target == syntax.DevNull {
			p.diff.target = f.hdr.OldPath
		}
	}
	defer func() { p.diff.target = "" }()
	p.diff.lines = p.diff.lines[:0]
	f.hunks = p.diff.hunks[:0]
	sepEnd := -1
	for k < len(p.lines) {
		t := p.lines[k].Text
		header := syntax.IsHunkHeader(t)
		// A header followed straight by hunk lines: the "@@" was dropped.
		if !header && !(len(f.hunks) == 0 && f.hasHdr && t != "" && (t[0] == ' ' || t[0] == '-' || t[0] == '+') && p.bodyLineAt(k)) {
			break
		}
		if len(f.hunks) == cap(f.hunks) {
			// Doubling: the array is the reader's for the next section too.
			f.hunks = slices.Grow(f.hunks, max(len(f.hunks), 16))
		}
		h, next := p.readHunk(k, header)
		if header && len(h.lines) == 0 && p.endsSection(k, h.to) {
			sepEnd, k = h.to, next
			continue
		}
		f.hunks = append(f.hunks, h)
		k = next
	}
	p.diff.hunks = f.hunks[:0]
	if len(f.hunks) > 0 {
		k = f.hunks[len(f.hunks)-1].to
	}
	f.to = max(k, sepEnd, f.from+1)
}

// endsSection reports whether the hunk header at line k, whose body is
// empty up to line to, is a separator that ends a file's section: a bare
// "@@", "@@ @@" or "@@ ... @@" that the diff's closing fence or the next
// file's header follows. A numbered header, or one the reply ends after,
// is an empty hunk.
func (p *parser) endsSection(k, to int) bool {
	rest := strings.TrimSpace(strings.TrimPrefix(p.lines[k].Text, "@@"))
	if rest != "" && rest != "@@" && strings.TrimSpace(strings.TrimSuffix(rest, "@@")) != "..." {
		return false
	}
	j := to
	for j < len(p.lines) && strings.TrimSpace(p.lines[j].Text) == "" {
		j++
	}
	if j >= len(p.lines) {
		return false
	}
	_, _, header := p.fileHeaderAt(j, false)
	return j == p.diff.fenceClose || header || strings.HasPrefix(p.lines[j].Text, "diff --git ")
}

// A lineReader reads a string by lines. go-gitdiff reads its input
// through ReadString when the reader has it, and otherwise through a new
// 4 KB bufio.Reader: one per file of a diff.
type lineReader struct{ s string }

// ReadString returns the text up to and including the next delim, as
// bufio.Reader's does: with io.EOF when the text ends without one.
func (r *lineReader) ReadString(delim byte) (string, error) {
	if r.s == "" {
		return "", io.EOF
	}
	line := r.s
	if i := strings.IndexByte(r.s, delim); i >= 0 {
		line = r.s[:i+1]
	}
	r.s = r.s[len(line):]
	if r.s == "" && line[len(line)-1] != delim {
		return line, io.EOF
	}
	return line, nil
}

func (r *lineReader) Read(b []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := copy(b, r.s)
	r.s = r.s[n:]
	return n, nil
}

// skipBinary consumes a binary marker and the base85 data after it.
func (p *parser) skipBinary(k int) int {
	if p.lines[k].Text != "GIT binary patch" {
		return k + 1
	}
	for k++; k < len(p.lines); k++ {
		t := p.lines[k].Text
		if t == "" || strings.HasPrefix(t, "literal ") || strings.HasPrefix(t, "delta ") {
			continue
		}
		if c := t[0]; (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') && !strings.ContainsAny(t, " \t") {
			continue // base85 data: a length letter, then no spaces
		}
		break
	}
	return k
}

// gitNamePath cleans a name go-gitdiff read; such names are delimited by
// git's own syntax, so spaces are fine.
func gitNamePath(s string) (string, bool) {
	if s == "" || s == syntax.DevNull {
		return "", false
	}
	return syntax.DiffPath(s, true)
}

// rawGitNames returns the two names of a "diff --git" line that names
// one file, name, as written: each with the first component go-gitdiff
// took off it ("a/" and "b/", or what the diff's writer put there). False
// when the line is not "diff --git C1/name C2/name" with C1 and C2 plain
// components.
func rawGitNames(line, name string) (string, string, bool) {
	rest, ok := strings.CutPrefix(line, "diff --git ")
	if !ok || name == "" {
		return "", "", false
	}
	c1, after, ok := strings.Cut(rest, "/")
	if !ok || c1 == "" || strings.ContainsAny(c1, " \"\t") {
		return "", "", false
	}
	after, ok = strings.CutPrefix(after, name+" ")
	if !ok {
		return "", "", false
	}
	c2, tail, ok := strings.Cut(after, "/")
	if !ok || c2 == "" || tail != name || strings.ContainsAny(c2, " \"\t") {
		return "", "", false
	}
	return c1 + "/" + name, c2 + "/" + name, true
}

// diffTargets is what a file's section says about its file: the names on
// each side, what happens to the file, and which name the edits act on.
type diffTargets struct {
	oldPath, newPath string
	isNew, isDelete  bool
	isRename         bool
	mode             uint32 // the new mode a git header gives, 0 for none
	git              bool   // the section has a "diff --git" header
	target           string
	line             int // 1-based output line of the section, for errors
}

// truncatedHint is the hint of a diff the reply ends inside.
const truncatedHint = "Resend the diff complete: every line its hunk headers count, each ending in a newline, and its fence closed."

// cutOff reports whether the reply ends inside f, which must then not be
// applied: inside a diff fence that is never closed (line is the
// fence's, and quiet is set once that was reported for an earlier
// section), in a hunk shorter than its header's counts, or in the middle
// of a hunk's line. The counts alone say nothing where more follows the
// hunk (models miscount), nor where the hunk elides lines; the missing
// newline says nothing where the hunk's lines are exactly those its header
// counts (a diff file whose last newline was dropped).
func (p *parser) cutOff(f *diffFile) (why string, line int, quiet bool) {
	if p.complete {
		return "", 0, false
	}
	if p.diff.openFence >= 0 && f.from > p.diff.openFence {
		quiet, p.diff.openFenceSaid = p.diff.openFenceSaid, true
		return fmt.Sprintf("its fence on line %d is never closed", lineNum(p.diff.openFence)), lineNum(p.diff.openFence), quiet
	}
	if len(f.hunks) == 0 {
		return "", 0, false
	}
	h := &f.hunks[len(f.hunks)-1]
	for k := h.to; k < len(p.lines); k++ {
		if strings.TrimSpace(p.lines[k].Text) != "" {
			return "", 0, false
		}
	}
	nOld, nNew := h.counts()
	if h.numbered && (nOld < h.nums.oldLines || nNew < h.nums.newLines) && !h.elides() {
		return fmt.Sprintf("the reply ends inside the hunk on line %d, which holds %d old and %d new lines where its header counts %d and %d",
			lineNum(h.from), nOld, nNew, h.nums.oldLines, h.nums.newLines), lineNum(h.from), false
	}
	last := len(p.lines) - 1
	exact := h.numbered && nOld == h.nums.oldLines && nNew == h.nums.newLines
	if h.to == len(p.lines) && !strings.HasSuffix(p.text, "\n") && !strings.HasPrefix(p.lines[last].Text, `\`) && !exact {
		return fmt.Sprintf("the reply ends in the middle of line %d, a line of the hunk on line %d", lineNum(last), lineNum(h.from)), lineNum(h.from), false
	}
	return "", 0, false
}

// elides reports whether a line of h is an elision ("..."), which stands
// for lines its header counts.
func (h *hunk) elides() bool {
	for _, l := range h.lines {
		if l.kind == ' ' && isElisionLine(l.text) {
			return true
		}
	}
	return false
}

// lowerDiffFile turns a file's section into edits, or reports why it
// cannot: it settles the names, then lowers a creation, a deletion or the
// hunks of an edit.
func (p *parser) lowerDiffFile(f *diffFile) {
	d := diffTargets{line: lineNum(f.from)}
	if f.broken != "" {
		h := &f.hunks[len(f.hunks)-1]
		p.errorHint(lineNum(h.from), "Resend the context diff as diff -c writes it, or as a unified diff.",
			"cannot read the context diff's hunk: %s", f.broken)
		return
	}
	if why, line, quiet := p.cutOff(f); why != "" {
		if !quiet {
			p.errorHint(line, truncatedHint, "the diff looks truncated: %s", why)
		}
		return
	}
	if f.binary {
		p.errorf(d.line, "binary diffs are not supported: send the file's new content another way")
		return
	}
	if f.git == nil && f.gitLine != "" && !f.hasHdr {
		p.errorf(d.line, "cannot read the file names in %q", f.gitLine)
		return
	}
	if f.hasHdr {
		d.oldPath, d.newPath = f.hdr.OldPath, f.hdr.NewPath
		d.isNew, d.isDelete = d.oldPath == syntax.DevNull || f.svnNew, d.newPath == syntax.DevNull
	}
	if f.git != nil && !p.readGitHeader(f.git, f.gitLine, &d) {
		return
	}
	if f.short != "" {
		p.errorHint(d.line, fmt.Sprintf("Apply it with a smaller -p, or none: %q has fewer components.", f.short),
			"-p %d strips every component of %q, the name this diff gives", p.strip, f.short)
		return
	}
	// "diff --git a/x b/y" with a similarity index but no rename lines
	// (go-gitdiff cannot name such a file): the "--- "/"+++ " names say it.
	if f.similar && !d.isRename && !d.isNew && !d.isDelete && d.oldPath != "" && d.newPath != "" && d.oldPath != d.newPath {
		d.isRename = true
	}
	if d.isNew && d.isDelete {
		p.errorf(d.line, "diff both creates and deletes the file: name a real file on one side")
		return
	}
	if d.isNew && !(f.git != nil && f.git.IsNew) && hunksRemove(f.hunks) {
		// "--- /dev/null" over hunks that remove lines: only an existing
		// file has lines to remove, and they must match it as any edit's do.
		d.isNew = false
	}
	d.git = f.git != nil
	if !p.pickTarget(&d) {
		return
	}
	if !d.isNew && !d.isDelete && !d.isRename && p.createsMissing(f, d.target) {
		d.isNew = true
	}
	switch {
	case d.isNew:
		p.lowerNewFile(f, &d)
	case d.isDelete:
		p.lowerDeletedFile(f, &d)
	default:
		p.lowerHunks(f, &d)
	}
}

// readGitHeader takes what git's extended header says (renames, new and
// deleted files, modes) into d, or reports why the section cannot be
// applied.
func (p *parser) readGitHeader(g *gitdiff.File, gitLine string, d *diffTargets) bool {
	if g.IsCopy {
		p.errorf(d.line, "file copies are not supported: create the copy as a new file")
		return false
	}
	d.isNew = d.isNew || g.IsNew
	d.isDelete = d.isDelete || g.IsDelete
	// go-gitdiff strips one component from the "diff --git" names, which
	// rename lines do not have: git apply -pN strips N-1 from both.
	gitName := func(s string) (string, bool) {
		pth, ok := gitNamePath(s)
		if ok && p.strip > 1 {
			return stripComponents(pth, p.strip-1)
		}
		return pth, ok
	}
	// Rename lines are exact paths; the "--- "/"+++ " names agree or
	// are stale prefixed variants of them.
	if g.IsRename {
		if o, ok := gitName(g.OldName); ok {
			d.oldPath = o
		}
		if n, ok := gitName(g.NewName); ok {
			d.newPath = n
		}
		d.isRename = d.oldPath != "" && d.newPath != "" && d.oldPath != d.newPath && !d.isNew && !d.isDelete
	}
	// The "diff --git" names name the file where no other line does; -p0
	// keeps the component go-gitdiff took off them, as git apply -p0 does.
	oldName, newName := g.OldName, g.NewName
	needOld := d.oldPath == "" || d.oldPath == syntax.DevNull && !d.isNew
	needNew := d.newPath == "" || d.newPath == syntax.DevNull && !d.isDelete
	if p.strip == 0 && !g.IsRename && (needOld && oldName != "" || needNew && newName != "") {
		o, n, ok := rawGitNames(gitLine, cmp.Or(oldName, newName))
		if !ok {
			p.errorHint(d.line, `Apply it without -p 0, or give the section "--- " and "+++ " lines.`,
				"cannot read the names of %q as written, for -p 0", gitLine)
			return false
		}
		if oldName != "" {
			oldName = o
		}
		if newName != "" {
			newName = n
		}
	}
	if needOld {
		if o, ok := gitName(oldName); ok {
			d.oldPath = o
		}
	}
	if needNew {
		if n, ok := gitName(newName); ok {
			d.newPath = n
		}
	}
	// go-gitdiff keeps git's raw octal mode, whose type bits are git's
	// (0o100000 regular file, 0o120000 symlink, 0o160000 submodule).
	for _, m := range []uint32{uint32(g.OldMode), uint32(g.NewMode)} {
		if m != 0 && m&0o170000 != 0o100000 {
			p.errorf(d.line, "symlink and submodule diffs are not supported")
			return false
		}
	}
	switch {
	case g.IsNew && g.NewMode != 0:
		d.mode = uint32(g.NewMode) & 0o777
	case g.OldMode != 0 && g.NewMode != 0 && g.OldMode != g.NewMode:
		d.mode = uint32(g.NewMode) & 0o777
	}
	return true
}

// pickTarget sets the name the edits act on: the new one, except for a
// deletion; a diff with differing names that is no rename edits the one
// plainTarget picks.
func (p *parser) pickTarget(d *diffTargets) bool {
	d.target = d.newPath
	switch {
	case d.isDelete:
		d.target = d.oldPath
	case !d.isRename && d.oldPath != "" && d.newPath != "" && d.oldPath != d.newPath && d.oldPath != syntax.DevNull && d.newPath != syntax.DevNull:
		d.target = p.plainTarget(d.oldPath, d.newPath, !d.git)
	}
	if d.target == "" || d.target == syntax.DevNull {
		p.errorf(d.line, "diff names no file: put \"--- a/PATH\" and \"+++ b/PATH\" lines before its hunks")
		return false
	}
	return true
}

// plainTarget picks which of a diff's two names, oldPath and newPath, is
// the file, as patch does. Names that differ only in one component
// ("old/x.go", "new/x.go": diff -r of two directories, plain says so)
// name what follows it, as patch -p1 reads them, unless -p was given.
// Of the candidates, the one the tree has is the file; when the tree has
// both names, the shorter ("calc.py" over "calc.py.orig"), the old one
// on a tie. Without a
// tree, or when it has neither: the rest of a diff -r name, else the
// name the other extends ("x.go" of "x.go", "x.go.new"), else the new.
func (p *parser) plainTarget(oldPath, newPath string, plain bool) string {
	rest := ""
	if plain && p.strip < 0 {
		rest, _ = sameBelowTop(oldPath, newPath)
	}
	if p.tree != nil {
		if rest != "" && p.inTree(rest) {
			return rest
		}
		switch o, n := p.inTree(oldPath), p.inTree(newPath); {
		case o && n:
			if len(newPath) < len(oldPath) {
				return newPath
			}
			return oldPath
		case o:
			return oldPath
		case n:
			return newPath
		}
	}
	switch {
	case rest != "":
		return rest
	case strings.HasPrefix(newPath, oldPath):
		return oldPath
	}
	return newPath
}

// sameBelowTop returns what follows the one component in which two names
// differ, when they agree on every other ("old/src/x.go", "new/src/x.go":
// "src/x.go"; "v1/old/x.go", "v1/new/x.go": "x.go").
func sameBelowTop(a, b string) (string, bool) {
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i <= 0 || j <= 0 {
			return "", false
		}
		if a[:i] != b[:j] {
			if a[i+1:] != b[j+1:] || a[i+1:] == "" {
				return "", false
			}
			return a[i+1:], true
		}
		a, b = a[i+1:], b[j+1:]
	}
}

// createsMissing reports whether f, a section that is neither a creation
// nor a deletion by its header, creates target: the tree lacks it and
// the section's one hunk adds every line of a file that was empty, "@@
// -0,0 +1,N @@" (diff -N, a model that dropped /dev/null).
func (p *parser) createsMissing(f *diffFile, target string) bool {
	if p.tree == nil || len(f.hunks) != 1 || !fs.ValidPath(target) || p.treeStat(target).taken {
		return false
	}
	h := &f.hunks[0]
	return h.numbered && h.nums.oldStart == 0 && h.nums.oldLines == 0 && h.nums.newLines > 0 &&
		!h.has(' ', false) && !h.has('-', true)
}

// hunksRemove reports whether any hunk has a removed line. Context alone
// does not count: a new file's lines that lost their '+' look like context.
func hunksRemove(hs []hunk) bool {
	for i := range hs {
		if hs[i].has('-', true) {
			return true
		}
	}
	return false
}

// firstHunkNum is the output line of f's first hunk, or of the section.
func (p *parser) firstHunkNum(f *diffFile, d *diffTargets) int {
	if len(f.hunks) > 0 {
		return lineNum(f.hunks[0].from)
	}
	return d.line
}

// lowerNewFile lowers a creation: the '+' lines of every hunk.
func (p *parser) lowerNewFile(f *diffFile, d *diffTargets) {
	var b strings.Builder
	for k, h := range f.hunks {
		if h.has(' ', false) || h.has('-', true) {
			p.errorf(lineNum(h.from), "hunk of new file %s has context or removed lines", d.target)
			return
		}
		if p.noEOLMisplaced(&h, k < len(f.hunks)-1, d.target) {
			return
		}
		// An empty line in a new file is an added blank line whose '+' was dropped.
		b.WriteString(h.side('+'))
	}
	if len(f.hunks) == 0 && (f.git == nil || !f.git.IsNew) {
		p.errorf(d.line, "new file %s has no hunk", d.target)
		return
	}
	p.add(edit.Edit{Op: edit.Create, Path: d.target, New: b.String(), Mode: d.mode, Line: p.firstHunkNum(f, d)}, edit.FormatUDiff, f.from, f.to)
}

// lowerDeletedFile lowers a deletion, whose '-' lines are the content the
// file must have.
func (p *parser) lowerDeletedFile(f *diffFile, d *diffTargets) {
	var b strings.Builder
	for k, h := range f.hunks {
		if h.has('+', true) {
			p.errorf(lineNum(h.from), "hunk of deleted file %s adds lines", d.target)
			return
		}
		if p.noEOLMisplaced(&h, k < len(f.hunks)-1, d.target) {
			return
		}
		b.WriteString(h.side('-'))
	}
	if len(f.hunks) == 0 && (f.git == nil || !f.git.IsDelete) {
		p.errorf(d.line, "deleted file %s has no hunk", d.target)
		return
	}
	p.add(edit.Edit{Op: edit.Delete, Path: d.target, Old: b.String(), Line: p.firstHunkNum(f, d)}, edit.FormatUDiff, f.from, f.to)
}

// lowerHunks lowers an edit of an existing file: a rename if the names
// differ, then one Replace per hunk. Every hunk is checked before any is
// emitted, so a bad hunk does not leave half a file's edits behind.
func (p *parser) lowerHunks(f *diffFile, d *diffTargets) {
	f.hunks = joinSplitHunks(f.hunks)
	for i := range f.hunks {
		h := &f.hunks[i]
		h.blanksAdded()
		if len(h.lines) == 0 {
			p.errorf(lineNum(h.from), "empty hunk in %s", d.target)
			return
		}
		// A file's one hunk of only added lines, without a line number,
		// appends them (Aider's reading: an empty before-text).
		appends := !h.numbered && len(f.hunks) == 1
		if h.sideEmpty('-') && !appends && (!h.numbered || h.nums.newStart == 0) {
			p.errorf(lineNum(h.from), "hunk in %s only adds lines and has no line number: add context lines or \"@@ -N,0 +M,K @@\"", d.target)
			return
		}
		if p.noEOLMisplaced(h, false, d.target) {
			return
		}
	}
	mode := d.mode
	if d.isRename {
		p.add(edit.Edit{Op: edit.Rename, Path: d.oldPath, New: d.newPath, Mode: mode}, edit.FormatUDiff, f.from, f.firstHunkLine)
		mode = 0
	}
	if len(f.hunks) == 0 {
		switch {
		case !d.isRename && mode == 0:
			p.errorf(d.line, "diff for %s has no hunks", d.target)
		case !d.isRename:
			// A mode-only change: the IR has no chmod, and a section of the
			// reply is never dropped in silence.
			p.errorHint(d.line, fmt.Sprintf("Set the mode with chmod %o %s, or send it in a diff that also changes the file's lines.", mode, d.target),
				"the diff for %s changes only its mode, to %04o, which edapply does not apply alone", d.target, mode)
		}
		return
	}
	p.reserve(len(f.hunks))
	for _, h := range f.hunks {
		e := edit.Edit{Op: edit.Replace, Path: d.target, Old: h.side('-'), New: h.side('+'), Count: 1, Mode: mode, Marks: h.marks()}
		e.LeadContext, e.TrailContext = h.edgeContext()
		if h.numbered {
			e.Hint = h.nums.newStart
		}
		mode = 0
		p.add(e, edit.FormatUDiff, h.from, h.to)
	}
}

// noEOLMisplaced reports, as a PARSE_ERROR, a "\ No newline at end of
// file" marker in h that cannot end the file (see hunk.noEOLMisplaced),
// or, when more hunks of the same text follow (notLast), any such marker.
func (p *parser) noEOLMisplaced(h *hunk, notLast bool, pth string) bool {
	bad := h.noEOLMisplaced()
	for _, l := range h.lines {
		bad = bad || notLast && l.noEOL
	}
	if bad {
		p.errorHint(lineNum(h.from), "Put \"\\ No newline at end of file\" only right after the last line of the file, old or new, that lacks a newline.",
			"a \"\\ No newline at end of file\" line in the hunk of %s follows a line that does not end the file", pth)
	}
	return bad
}

// joinSplitHunks joins a hunk that ends in removed lines with the next when
// that one is unnumbered and only adds lines: one change that the model
// split with an "@@" between its '-' and '+' lines. Alone, the '+' hunk
// would say nowhere to put its lines.
//
// It joins them in place: out is written only at indexes already read.
func joinSplitHunks(hs []hunk) []hunk {
	out := hs[:0]
	for i := 0; i < len(hs); i++ {
		h := hs[i]
		for i+1 < len(hs) && len(h.lines) > 0 && h.lines[len(h.lines)-1].kind == '-' && addsOnly(&hs[i+1]) {
			n := hs[i+1]
			h.lines = append(h.lines[:len(h.lines):len(h.lines)], n.lines...)
			h.to = n.to
			i++
		}
		out = append(out, h)
	}
	return out
}

// addsOnly reports whether h is an unnumbered hunk of '+' lines only.
func addsOnly(h *hunk) bool {
	if h.numbered || len(h.lines) == 0 {
		return false
	}
	for _, l := range h.lines {
		if l.kind != '+' {
			return false
		}
	}
	return true
}
