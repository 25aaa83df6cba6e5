package parse

import (
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
	"github.com/edapply/edapply/internal/walk"
)

// A wholeReader reads whole-file fences: a path line, then a fence holding the
// file's full new content (or a fence whose info string names the path,
// "```go path/x.go"). It is tried last, because a bare fence is the least
// distinctive marker there is: a fence that holds another format's markers,
// a shell command or no path at all is not a whole file.
//
// The reader keeps prose, the fence it saw open and did not read, so that
// a file name on the last line of a command's output ("$ ls" then
// "main.go" then the closing fence) is not taken for a path before an
// opening fence. starts is called once per line no other reader claimed,
// in order, which is what keeps that state right. It keeps the block its
// starts found at line at, for its read to take rather than scan the same
// lines again.
type wholeReader struct {
	p     *parser
	prose proseFence
	at    int
	block wholeBlock
	// dead holds the states of wholeBlock's scan known to end in no
	// block, and path those the scan under way has passed (see
	// scanState); scanned counts the lines the scans and stopAfter
	// looked at.
	dead    map[scanState]bool
	path    []scanState
	scanned int
	// fences are the reply's fences, clearTo what stopAfter found of its
	// lines: clearTo[j] > 0 says no line in [j, clearTo[j]) ends fences.
	fences  []fenceLine
	clearTo []int32
	seen    []int // stopAfter's, kept from call to call
}

// A scanState is where wholeBlock's scan of a fence's content stands as it
// enters a line: what comes next depends on the line and on this alone,
// so two scans in one state end alike. A run of path lines and fences
// before one foreign block would otherwise be scanned once per fence, to
// the block each time; each scan now stops where an earlier one's state
// was found to end in nothing. A state changes only at a fence line, so
// the states entered after fences are the only places scans meet.
type scanState struct {
	line         int
	nested       bool // inside a fence of the file's own
	bare         bool // a bare fence that may close the file was passed (firstBare)
	doc          bool
	fChar, nChar byte
	fN, nestedN  int
}

func (r *wholeReader) format() edit.Format { return edit.FormatWhole }

// proseFence is the fence a response opened outside any edit region.
type proseFence struct {
	open bool
	f    syntax.Fence
}

// isNeverWhole reports whether lang is a language whose fences hold
// commands or patches, not a file's content.
func isNeverWhole(lang string) bool {
	switch lang {
	case "diff", "patch", "udiff", "console", "terminal", "shell-session",
		"shellsession", "sh-session":
		return true
	}
	return false
}

// isShellLang reports whether lang is a shell's, whose fences hold a
// file's content only when the file is a script.
func isShellLang(lang string) bool {
	switch lang {
	case "bash", "sh", "shell", "zsh", "ksh", "fish", "powershell", "ps1",
		"pwsh", "bat", "cmd":
		return true
	}
	return false
}

// isScriptExt reports whether ext is a shell script's extension.
func isScriptExt(ext string) bool {
	switch ext {
	case "sh", "bash", "zsh", "ksh", "fish", "ps1", "bat", "cmd", "bats",
		"envrc", "bashrc", "zshrc", "profile":
		return true
	}
	return false
}

// isDocExt reports whether ext is a document's, whose text may hold path
// lines and fences of its own.
func isDocExt(ext string) bool {
	switch ext {
	case "md", "markdown", "mdx", "rst", "txt", "adoc", "asciidoc", "org",
		"html", "htm", "ipynb":
		return true
	}
	return false
}

func fileExt(pth string) string {
	base := pth[strings.LastIndexByte(pth, '/')+1:]
	if k := strings.LastIndexByte(base, '.'); k >= 0 {
		return strings.ToLower(base[k+1:])
	}
	return ""
}

// A wholeBlock is the outcome of looking for a whole-file fence at a line.
type wholeBlock struct {
	ok    bool   // a whole-file block (or a truncated one) starts here
	path  string // the file
	open  int    // index of the opening fence
	close int    // index of the closing fence; -1 when the block is left open
	next  int    // first line after the region
	f     syntax.Fence
}

// wholeStart reports the path and opening fence of a block starting at
// line i, without reading its content; a fence with no path in its info
// string gives ok with an empty path.
func (p *parser) wholeStart(i int) (pth string, open int, f syntax.Fence, ok bool) {
	// The fence is found first: most lines have none after them, and
	// judging a line as a path costs more.
	if open, f, ok = syntax.FenceNear(p.lines, i); !ok {
		return "", 0, syntax.Fence{}, false
	}
	if pth, ok = p.fencePath(i, open, f); !ok {
		return "", 0, syntax.Fence{}, false
	}
	return pth, open, f, true
}

// fencePath is syntax.FencePath, the path that names the block starting
// at line i whose opening fence f is at line open, and, when the caller
// asked for whole files, the one file a line of prose before the fence
// names.
func (p *parser) fencePath(i, open int, f syntax.Fence) (string, bool) {
	if pth, ok := syntax.FencePath(p.lines, i, open, f, p.inTree); ok || open == i {
		return pth, ok
	}
	if p.format == edit.FormatWhole {
		// The caller asked for whole files: prose that names one file
		// introduces its content ("Then, update `App.js` as follows:").
		// Under --format auto such a fence stays a quote.
		return p.proseFile(p.lines[i].Text)
	}
	return "", false
}

// proseFile returns the one file a line of prose names, when the line
// introduces what follows (it ends in a colon, or in the file's name): a
// path, or a base name that is a file at the root or the one file of that
// name in the tree. Words that are no file names ("`handleImageChange`")
// do not count; two files named name none.
func (p *parser) proseFile(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > 300 {
		return "", false
	}
	var found, last string
	for _, w := range strings.Fields(t) {
		c, ok := syntax.FilePath(strings.Trim(w, "`*_\"'()[],;:!?"))
		if !ok {
			last = ""
			continue
		}
		c = strings.TrimSuffix(c, ".")
		if found != "" && found != c {
			return "", false
		}
		found, last = c, c
	}
	if found == "" || !(strings.HasSuffix(strings.TrimRight(t, "*_ \t"), ":") || last == found) {
		return "", false
	}
	if strings.Contains(found, "/") || p.tree == nil || p.treeStat(found).exists {
		return found, true
	}
	return p.uniqueBase(found)
}

// uniqueBase returns the one regular file of the tree whose name is base.
// The tree is walked once per Parse, within a budget of work proportional
// to the reply (see package walk), and its files indexed by base name, so
// that many fences cost one walk; none, several, or a walk cut short
// before it listed the whole tree (another file of that name may exist)
// name nothing.
func (p *parser) uniqueBase(base string) (string, bool) {
	if p.bases == nil {
		p.bases = &treeBases{}
	}
	b := p.bases
	if b.byName == nil {
		b.index(p.tree, len(p.text))
	}
	k := b.byName[base]
	if b.cut || k <= 0 {
		return "", false
	}
	return b.files[k-1], true
}

// treeBases is the tree's regular files by base name, walked on the first
// question of a Parse and shared by the parsers it runs.
type treeBases struct {
	files []string
	// byName holds 1 + the index in files of each base name's one file,
	// or -1 for a name several files have.
	byName map[string]int
	cut    bool // the walk did not list the whole tree
	walks  int  // walks made, for the tests that bound them
}

// baseWalkBudget is the budget of the walk for a reply of input bytes;
// tests lower it.
var baseWalkBudget = walk.Budget

// index walks tree, for a reply of input bytes, into b.
func (b *treeBases) index(tree Tree, input int) {
	b.walks++
	var l *walk.Listing
	switch t := tree.(type) {
	case *os.Root:
		l = walk.Root(t, baseWalkBudget(input), nil)
	case interface{ FS() fs.FS }:
		l = walk.FS(t.FS(), baseWalkBudget(input), nil)
	case fs.FS:
		l = walk.FS(t, baseWalkBudget(input), nil)
	default:
		l = &walk.Listing{Cut: true}
	}
	b.files, b.cut = l.Files, l.Cut
	b.byName = make(map[string]int, len(l.Files))
	for i, f := range l.Files {
		name := path.Base(f)
		if b.byName[name] != 0 {
			b.byName[name] = -1
		} else {
			b.byName[name] = i + 1
		}
	}
}

// starts reports whether a whole-file block starts at line i, and keeps
// track of the prose fences it passes.
func (r *wholeReader) starts(i int) bool {
	p := r.p
	if g, ok := syntax.ParseFence(p.lines[i].Text); ok && p.whole.prose.open && g.Closes(p.whole.prose.f) {
		p.whole.prose.open = false
		return false
	}
	b := p.wholeBlock(i)
	if b.ok {
		// No longer in prose; the block is the same read without it (a
		// bare fence in prose was no block).
		p.whole.prose.open = false
		p.whole.at, p.whole.block = i, b
		return true
	}
	if g, ok := syntax.ParseFence(p.lines[i].Text); ok && !p.whole.prose.open {
		p.whole.prose = proseFence{open: true, f: g}
		p.unnamedScript(i)
	}
	return false
}

// isProseWord reports whether w is one of the lowercase words a response
// puts alone above a fence.
func isProseWord(w string) bool {
	switch w {
	case "example", "output", "usage", "script", "code", "result", "here",
		"run", "bash", "sh", "shell", "python", "before", "after", "or", "and",
		"then", "e.g", "i.e":
		return true
	}
	return false
}

// unnamedScript reports a PARSE_ERROR for the fence at line i when it
// looks like a whole script for a file whose name the reader cannot tell
// from a word: a bare name ("lesspipe") alone on the line before, and a
// "#!" line first in the fence. Read as prose, the block would be dropped
// while the rest of the response applied.
func (p *parser) unnamedScript(i int) {
	if i == 0 || i+1 >= len(p.lines) || !strings.HasPrefix(p.lines[i+1].Text, "#!") {
		return
	}
	t := strings.Trim(strings.TrimSpace(p.lines[i-1].Text), "`*")
	if t == "" || !syntax.NameChars(t) || strings.HasSuffix(t, ".") || strings.ToLower(t) != t || isProseWord(t) {
		return // a capitalized word is a heading ("Example"), not a script's name
	}
	p.errorHint(lineNum(i-1), "Put the file's path with its directory (\"./"+t+"\") alone on the line before the fence.",
		"cannot tell whether %q names a file: the script under it is not applied", t)
}

// read reads the block starting at line i: a Rewrite, or a PARSE_ERROR
// when its fence is never closed.
func (r *wholeReader) read(i int) int {
	p := r.p
	b := p.whole.block
	if p.whole.at != i || !b.ok {
		b = p.wholeBlock(i)
	}
	p.whole.block = wholeBlock{}
	if !b.ok {
		return i + 1
	}
	if b.close < 0 {
		const hint = "Resend the whole file, with the fence closed after its last line."
		if b.next < len(p.lines) {
			p.errorHint(lineNum(b.open), hint, "the fence holding %s is not closed before the next file's block", b.path)
		} else {
			p.errorHint(lineNum(b.open), hint, "the fence holding %s is not closed: the response looks truncated", b.path)
		}
		return b.next
	}
	p.lastPath = b.path
	p.add(edit.Edit{Op: edit.Rewrite, Path: b.path, New: p.fenceBody(b.open+1, b.close, b.f.Indent), Tentative: p.format == edit.FormatAuto}, edit.FormatWhole, i, b.close+1)
	return b.close + 1
}

// fenceBody is the text of lines from to before to, each without up to
// indent leading spaces (a fence indented inside a list item indents its
// content too). When no line loses a space, that is a piece of the reply
// itself, which the edit shares: a whole file of hundreds of megabytes is
// not copied.
func (p *parser) fenceBody(from, to, indent int) string {
	line := func(j int) string {
		s := p.text[p.lines[j].Start:p.lineEnd(j)]
		for k := 0; k < indent && strings.HasPrefix(s, " "); k++ {
			s = s[1:]
		}
		return s
	}
	if from >= to {
		return ""
	}
	stripped, size := false, 0
	for j := from; j < to; j++ {
		s := line(j)
		stripped = stripped || len(s) != p.lineEnd(j)-p.lines[j].Start
		size += len(s)
	}
	if !stripped {
		return p.text[p.lines[from].Start:p.lineEnd(to-1)]
	}
	var sb strings.Builder
	sb.Grow(size)
	for j := from; j < to; j++ {
		sb.WriteString(line(j))
	}
	return sb.String()
}

// wholeBlock decides whether a whole-file block starts at line i and where
// it ends. Inside the content a fence with an info string opens a nested
// block (a Markdown file's own examples), which the next bare fence closes;
// a bare fence outside a nested block closes the file, unless what follows
// it does not read as prose (see balancedClose).
func (p *parser) wholeBlock(i int) wholeBlock {
	// A fence whose first line starts another format (a SEARCH/REPLACE
	// block in its fence) holds no file, whatever names it: settled here
	// before the name is judged, which costs more (see the scan below).
	open, f, ok := syntax.FenceNear(p.lines, i)
	if !ok {
		return wholeBlock{}
	}
	if open+1 < len(p.lines) {
		if _, fenced := syntax.ParseFence(p.lines[open+1].Text); !fenced && p.foreign(open+1) {
			return wholeBlock{}
		}
	}
	pth, ok := p.fencePath(i, open, f)
	if !ok || pth == "" {
		return wholeBlock{}
	}
	if p.whole.prose.open && f.Info == "" {
		return wholeBlock{} // the fence closes a command's output, not opens a file
	}
	lang := f.Lang()
	if isNeverWhole(lang) {
		return wholeBlock{}
	}
	if isShellLang(lang) && !isScriptExt(fileExt(pth)) && !(open+1 < len(p.lines) && strings.HasPrefix(p.lines[open+1].Text, "#!")) {
		return wholeBlock{} // a command to run, beside a file the prose names
	}
	doc := isDocExt(fileExt(pth))
	b := wholeBlock{ok: true, path: pth, open: open, close: -1, next: len(p.lines), f: f}
	depth, firstBare := 0, -1
	var nested syntax.Fence
	r := &p.whole
	r.path = r.path[:0]
	// enter records the state entering line j, and reports whether it is
	// one known to end in no block.
	enter := func(j int) bool {
		s := scanState{line: j, nested: depth != 0, bare: firstBare >= 0, doc: doc, fChar: f.Char, fN: f.N}
		if depth != 0 {
			s.nChar, s.nestedN = nested.Char, nested.N
		}
		r.path = append(r.path, s)
		return r.dead[s]
	}
	// none marks the states the scan passed as ending in no block.
	none := func() wholeBlock {
		if r.dead == nil {
			r.dead = map[scanState]bool{}
		}
		for _, s := range r.path {
			r.dead[s] = true
		}
		return wholeBlock{}
	}
	if enter(open + 1) {
		return none()
	}
scan:
	for j := open + 1; j < len(p.lines); j++ {
		r.scanned++
		if g, ok := syntax.ParseFence(p.lines[j].Text); ok {
			switch {
			case depth == 1 && g.Closes(nested):
				depth = 0
				if firstBare < 0 && g.Closes(f) {
					firstBare = j
				}
			case g.Closes(f):
				b.close = j
				break scan
			case depth == 0:
				depth, nested = 1, g
			}
			if enter(j + 1) {
				return none()
			}
			continue
		}
		if depth != 0 {
			if srLike(p.lines[j].Text) {
				// Marker lines are never a file's text, even inside a
				// nested fence: the block wrapped in a second fence.
				return none()
			}
			continue
		}
		if p.foreign(j) {
			if firstBare >= 0 {
				break // the file ended at firstBare; another format follows
			}
			return none()
		}
		if !doc {
			// In code, a path line before a fence that could close this one
			// is the next block: this one was never closed.
			if _, o, g, ok := p.wholeStart(j); ok && o > j && g.Info != "" && g.Char == f.Char && g.N >= f.N && p.nextFileAt(j) {
				b.next = j
				break
			}
		}
	}
	if b.close < 0 {
		if firstBare < 0 {
			return b
		}
		b.close = firstBare
	}
	b.close = p.balancedClose(open, b.close, f)
	b.next = b.close + 1
	if p.commandFence(pth, open, b.close) {
		return wholeBlock{}
	}
	return b
}

// isCommandWord reports whether w starts one of the shell commands models
// show under a path line ("Then run it:", the path, a fence holding "sh
// scripts/check.sh").
func isCommandWord(w string) bool {
	switch w {
	case "sh", "bash", "zsh", "python", "python3", "node", "deno", "bun",
		"ruby", "perl", "php", "go", "cargo", "make", "npm", "npx", "yarn",
		"pnpm", "pip", "pip3", "pytest", "java", "javac", "gcc", "clang",
		"rustc", "chmod", "source", "uv", "poetry", "dotnet", "mvn", "gradle",
		"./gradlew", "docker", "kubectl", "git", "$", "tsc", "swift", "cmake":
		return true
	}
	return false
}

// commandFence reports whether the fence between lines open and close,
// under the path pth, holds a command rather than the file: at most three
// lines, one of which runs pth ("sh scripts/check.sh", "python a.py",
// "./x.sh"), or, for a file that is not a script, each of which starts
// with a command word ("go test ./...", "npm install x").
func (p *parser) commandFence(pth string, open, close int) bool {
	if close-open-1 < 1 || close-open-1 > 3 {
		return false
	}
	script := isScriptExt(fileExt(pth)) || !strings.Contains(pth[strings.LastIndexByte(pth, '/')+1:], ".")
	allCommands, n := true, 0
	for j := open + 1; j < close; j++ {
		fs := strings.Fields(p.lines[j].Text)
		if len(fs) == 0 {
			continue
		}
		n++
		if fs[0] == "$" && len(fs) > 1 {
			fs = fs[1:]
		}
		for k, w := range fs {
			w = strings.Trim(w, `"'`)
			if w == pth || w == "./"+pth || (k > 0 && strings.TrimPrefix(w, "./") == pth) {
				if len(fs) > 1 || strings.HasPrefix(w, "./") {
					return true
				}
			}
		}
		if !isCommandWord(fs[0]) || len(fs) < 2 {
			allCommands = false
		}
	}
	return n > 0 && allCommands && !script
}

// balancedClose returns the fence that closes the file opened at line
// open: c, the first bare fence that can by the reading above, or a later
// bare fence when c was really an inner fence of the file (a Markdown
// file's unlabeled example, a backquoted string).
//
// Each candidate close splits the fences up to the next edit region into
// the file's own, which must pair up, and the prose's after it, which must
// too. Pairing alone cannot tell a reading from one shifted by a fence, so
// each fence's role is also checked against the lines around it: an
// opening fence follows a blank line or a colon and precedes content, a
// closing one follows content and precedes a blank line. The candidate
// with the fewest contradictions wins, the earliest on a tie.
func (p *parser) balancedClose(open, c int, f syntax.Fence) int {
	// Past this many fences the input is pathological; CommonMark's
	// reading stands.
	const maxFences = 512
	all := p.fenceLines()
	lo := sort.Search(len(all), func(k int) bool { return all[k].line > open })
	// The fences read run from the file's open up to the first line after
	// c where an edit region starts (stopAfter), and are at most
	// maxFences; the next fence past them is limit.
	limit := len(p.lines) - 1
	if lo+maxFences < len(all) {
		if limit = all[lo+maxFences].line; limit <= c {
			return c
		}
	}
	stop := p.stopAfter(c+1, limit)
	if stop > limit {
		if lo+maxFences < len(all) {
			return c
		}
		stop = len(p.lines)
	}
	hi := sort.Search(len(all), func(k int) bool { return all[k].line >= stop })
	fences := all[lo:hi]
	// A reading of the fences before a candidate close, and one of those
	// after it, each starting outside any fence, count their
	// contradictions: pre[k] of fences[:k], suf[k] of fences[k:].
	pre := make([]int, len(fences)+1)
	n, isOpen := 0, false
	var of syntax.Fence
	for k, g := range fences {
		pre[k] = n + 3*b2i(isOpen)
		switch {
		case !isOpen:
			isOpen, of = true, g.f
			n += b2i(p.looksClosing(g.line, g.f))
		case g.f.Closes(of):
			isOpen = false
			n += b2i(p.looksOpening(g.line, g.f))
		}
	}
	pre[len(fences)] = n + 3*b2i(isOpen)
	suf := make([]int, len(fences)+1)
	closer := nextClosers(fences)
	for k := len(fences) - 1; k >= 0; k-- {
		suf[k] = b2i(p.looksClosing(fences[k].line, fences[k].f))
		if m := closer[k]; m < 0 {
			suf[k] += 3
		} else {
			suf[k] += b2i(p.looksOpening(fences[m].line, fences[m].f)) + suf[m+1]
		}
	}
	best, bestScore := c, -1
	for k, g := range fences {
		if g.line < c || !g.f.Closes(f) {
			continue
		}
		score := pre[k] + suf[k+1] + b2i(p.looksOpening(g.line, g.f))
		if bestScore < 0 || score < bestScore {
			best, bestScore = g.line, score
		}
	}
	return best
}

// A fenceLine is a fence and its line.
type fenceLine struct {
	line int
	f    syntax.Fence
}

// fenceLines lists the reply's fences, read once.
func (p *parser) fenceLines() []fenceLine {
	r := &p.whole
	if r.fences == nil {
		r.fences = []fenceLine{}
		for j := range p.lines {
			if g, ok := syntax.ParseFence(p.lines[j].Text); ok {
				r.fences = append(r.fences, fenceLine{j, g})
			}
		}
	}
	return r.fences
}

// nextClosers returns, for each fence, the index of the first fence after
// it that can close it, or -1: read right to left, keeping for each fence
// character and length the nearest bare fence.
func nextClosers(fences []fenceLine) []int {
	out := make([]int, len(fences))
	type kind struct {
		char byte
		n    int
	}
	nearest := map[kind]int{}
	for k := len(fences) - 1; k >= 0; k-- {
		g := fences[k].f
		out[k] = -1
		for kd, m := range nearest {
			if kd.char == g.Char && kd.n >= g.N && (out[k] < 0 || m < out[k]) {
				out[k] = m
			}
		}
		if g.Info == "" {
			nearest[kind{g.Char, g.N}] = k
		}
	}
	return out
}

// stopAfter returns the first line from from on, up to limit, where an
// edit region starts and a file's fences end (a fence naming a file, a
// foreign marker, another file's path line), or a line past limit when
// there is none. Which lines are no such start is kept: a line is judged
// once per reply, however many files' fences run past it.
func (p *parser) stopAfter(from, limit int) int {
	r := &p.whole
	if r.clearTo == nil {
		r.clearTo = make([]int32, len(p.lines)+1)
	}
	j := from
	seen := r.seen[:0]
	for j <= limit && j < len(p.lines) {
		if t := r.clearTo[j]; t > 0 {
			// Every line passed on the way learns where this scan ends,
			// so that no later scan follows the same jumps again.
			seen = append(seen, j)
			j = int(t)
			continue
		}
		if p.endsFences(j) {
			break
		}
		seen = append(seen, j)
		j++
	}
	if j >= len(p.lines) {
		j = len(p.lines)
	}
	for _, x := range seen {
		r.clearTo[x] = int32(j)
	}
	r.seen = seen
	if j == len(p.lines) {
		return limit + 1
	}
	return j
}

// endsFences reports whether line j, after a file's closing fence, starts
// what balancedClose reads no further than: a fence that names a file,
// another format's marker, or another file's path line.
func (p *parser) endsFences(j int) bool {
	p.whole.scanned++
	if _, ok := syntax.ParseFence(p.lines[j].Text); ok {
		pth, _, _, ok := p.wholeStart(j)
		return ok && pth != ""
	}
	return p.foreign(j) || p.nextFileAt(j)
}

// nextFileAt reports whether the path line j begins another file's block.
// A path right after a fence is the first line of that fence's content
// ("./run" in an example), not a block of its own.
func (p *parser) nextFileAt(j int) bool {
	if pth, o, _, ok := p.wholeStart(j); !ok || pth == "" || o == j {
		return false
	}
	if j == 0 {
		return true
	}
	_, afterFence := syntax.ParseFence(p.lines[j-1].Text)
	return !afterFence
}

// looksOpening reports whether the fence g at line j reads as one that
// opens a block: it has an info string, or it follows a blank line or a
// line ending in a colon and precedes content.
func (p *parser) looksOpening(j int, g syntax.Fence) bool {
	if g.Info != "" {
		return true
	}
	if p.blankOrFence(j + 1) {
		return false
	}
	if j == 0 || strings.TrimSpace(p.lines[j-1].Text) == "" {
		return true
	}
	return strings.HasSuffix(strings.TrimSpace(p.lines[j-1].Text), ":")
}

// looksClosing reports whether the bare fence g at line j reads as one
// that closes a block: it follows content and precedes a blank line, a
// fence or the end.
func (p *parser) looksClosing(j int, g syntax.Fence) bool {
	return g.Info == "" && j > 0 && strings.TrimSpace(p.lines[j-1].Text) != "" && p.blankOrFence(j+1)
}

func (p *parser) blankOrFence(j int) bool {
	if j >= len(p.lines) || strings.TrimSpace(p.lines[j].Text) == "" {
		return true
	}
	_, ok := syntax.ParseFence(p.lines[j].Text)
	return ok
}

// envelopeAt reports whether the "*** Begin Patch" line j opens an
// envelope: a file directive follows it. A script's heredoc or a document
// that quotes the marker alone is the file's own text.
func (p *parser) envelopeAt(j int) bool {
	for k := j + 1; k < len(p.lines) && k <= j+3; k++ {
		t := strings.TrimSpace(p.lines[k].Text)
		if t == "" {
			continue
		}
		name, _, ok := codexDirective(t)
		return ok && (name == "Add File" || name == "Update File" || name == "Delete File" || name == "End Patch")
	}
	return false
}

// foreign reports whether line j holds another format's marker: a
// SEARCH/REPLACE marker, a unified diff header or hunk, a codex envelope,
// or a str_replace tool call. A fence holding one is not a whole file.
func (p *parser) foreign(j int) bool {
	t := p.lines[j].Text
	if srLike(t) {
		return true
	}
	if _, ok := zedOpenAt(t); ok {
		return true
	}
	if _, _, ok := syntax.XMLToolOpen(t); ok {
		return true
	}
	switch {
	case strings.HasPrefix(t, "diff --git "),
		hunkStart(t, p.textAt(j+1)),
		strings.HasPrefix(t, "*** Begin Patch") && p.envelopeAt(j), strings.HasPrefix(t, "*** Update File:"),
		strings.HasPrefix(t, "*** Add File:"), strings.HasPrefix(t, "*** Delete File:"):
		return true
	case strings.HasPrefix(t, "--- ") && j+1 < len(p.lines) && strings.HasPrefix(p.lines[j+1].Text, "+++ "),
		strings.HasPrefix(t, "*** ") && p.contextStarts(j):
		return true
	}
	tt := strings.TrimSpace(t)
	return (strings.HasPrefix(tt, "{") || strings.HasPrefix(tt, `"`)) &&
		(strings.Contains(tt, `"old_str`) || strings.Contains(tt, `"new_str`))
}

// dropQuotes removes the whole-file rewrites that are quotes or drafts,
// not files, once every region is read:
//   - a whole-file fence that a later one for the same path replaces,
//     with no other edit of the path between them;
//   - a whole-file fence for a path that the same response also edits in
//     another format (SEARCH/REPLACE, diff, envelope, tool call) naming
//     the path itself: the model showed the code it is about to change
//     ("Currently:" and a fence). A block that inherits its path from the
//     fence treats the fence as the file, and keeps it;
//   - with a tree, a fence whose content is a verbatim run of the existing
//     file's lines, at most a third of them and no more than 200:
//     a snippet quoted from it, which as a rewrite would truncate the file.
//
// And with a tree, a fence of at most three lines that shares no line with
// an existing file of 30 lines or more is neither kept nor dropped but a
// PARSE_ERROR: as a rewrite it would replace the file with what is most
// likely a snippet to insert somewhere. So is a fence for a file the tree
// does not have, beside edits in another format: those formats create a
// file their own way, and a model that writes them and then a path over a
// fence is most often quoting a file it believes exists.
func (p *parser) dropQuotes(also []edit.Edit) {
	other := map[string]bool{}
	for _, e := range also {
		if e.Format != edit.FormatWhole {
			other[slashed(e.Path)] = true
			if e.Op == edit.Rename {
				other[slashed(e.New)] = true
			}
		}
	}
	for k, e := range p.edits {
		if e.Format != edit.FormatWhole && !p.leanOnWhole[k] {
			other[slashed(e.Path)] = true
			if e.Op == edit.Rename {
				other[slashed(e.New)] = true
			}
		}
	}
	// A whole-file fence that a later one for the same path follows, with
	// no other edit of the path between them, is a draft: the last is
	// the file.
	drafts := map[int]bool{}
	lastWhole := map[string]int{}
	for k, e := range p.edits {
		if j, ok := lastWhole[slashed(e.Path)]; ok && e.Format == edit.FormatWhole && e.Op == edit.Rewrite {
			drafts[j] = true
		}
		delete(lastWhole, slashed(e.Path))
		if e.Format == edit.FormatWhole && e.Op == edit.Rewrite {
			lastWhole[slashed(e.Path)] = k
		}
	}
	kept := p.edits[:0]
	for k, e := range p.edits {
		if e.Format == edit.FormatWhole && e.Op == edit.Rewrite && !p.toolWrites[k] {
			if other[slashed(e.Path)] || drafts[k] {
				continue
			}
			if len(other) > 0 && p.tree != nil && fs.ValidPath(slashed(e.Path)) && !p.treeStat(e.Path).taken {
				p.errorHint(e.Line, "Create a new file in the format of the other edits (a SEARCH/REPLACE block with an empty SEARCH section, a diff from /dev/null), or send whole files only.",
					"the fence under %s names a file the tree does not have, beside edits in another format: a quote or a new file", e.Path)
				continue
			}
			if text, ok := p.treeText(e.Path); ok && p.spend(2*len(text)) {
				q, f := contentLines(e.New), contentLines(text)
				if quotedSlice(q, f) {
					continue
				}
				if snippetOf(q, f) {
					p.errorHint(e.Line, "Send a SEARCH/REPLACE block that shows where the lines go, or the whole file.",
						"the fence under %s holds a few lines that share none of the file's: a snippet, not the whole file", e.Path)
					continue
				}
			}
		}
		kept = append(kept, e)
	}
	p.edits = kept
}

// slashed is pth with "\" read as a separator, to tell whether two of a
// response's paths name one file.
func slashed(pth string) string { return strings.ReplaceAll(pth, `\`, "/") }

// contentLines splits text into lines without their endings.
func contentLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// quotedSlice reports whether q, the fence content's lines, is a verbatim
// run of f, the file's lines, at most a third of them.
func quotedSlice(q, f []string) bool {
	if len(q) == 0 || len(q) > 200 || 3*len(q) > len(f) {
		return false
	}
	nonBlank := 0
	for _, l := range q {
		if strings.TrimSpace(l) != "" {
			nonBlank++
		}
	}
	if nonBlank == 0 {
		return false
	}
	// q is short (at most 200 lines), so the search is linear in the file.
	for s := 0; s+len(q) <= len(f); s++ {
		if f[s] != q[0] {
			continue
		}
		k := 1
		for k < len(q) && f[s+k] == q[k] {
			k++
		}
		if k == len(q) {
			return true
		}
	}
	return false
}

// snippetOf reports whether q, the fence content's lines, at most three,
// shares no non-blank line (blanks trimmed) with f, a file's lines, 30 or
// more.
func snippetOf(q, f []string) bool {
	if len(q) == 0 || len(q) > 3 || len(f) < 30 {
		return false
	}
	have := make(map[string]bool, len(f))
	for _, l := range f {
		have[strings.TrimSpace(l)] = true
	}
	for _, l := range q {
		if t := strings.TrimSpace(l); t != "" && have[t] {
			return false
		}
	}
	return true
}
