package parse

import (
	"bytes"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unsafe"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// Options say how Parse reads a reply.
type Options struct {
	// Format is the one format to read, or edit.FormatAuto (the zero
	// value) to detect each region by its own markers, so that one reply
	// may mix formats.
	Format edit.Format
	// Tree, if not nil, is the working tree, for the few questions the
	// reply alone cannot settle: which of several dividers splits a
	// SEARCH/REPLACE block (the only split whose SEARCH occurs exactly
	// once in the file), whether a bare name such as "gradlew" on a line
	// of its own names a file, and whether a whole-file fence is the file
	// or a snippet quoted from it. Parse only ever stats and reads regular
	// files of at most 64 MiB, by clean relative names, and lists the
	// tree's directories (an *os.Root's, or an fs.FS's) at most once, in
	// a walk bounded by the reply's size (see package walk).
	Tree Tree
	// Strip, if not nil, is how many leading components to strip from
	// the names a diff's headers give, as patch -pN and git apply -pN
	// do. When nil, git's "a/" and "b/" prefixes and its mnemonic ones
	// ("i/", "w/", "c/", "o/") are stripped, and of a plain diff's two
	// names the one the tree has is the file.
	Strip *int
	// Skipped, if not nil and Format is not edit.FormatAuto, is told of
	// each edit that edit.FormatAuto would read from a region Format
	// leaves unread, in the reply's order, once Parse has read the
	// reply: the regions are read as FormatAuto reads them, in the same
	// pass, and only those.
	Skipped func(edit.Edit)
	// Complete says src is known to be whole, as text a program rendered
	// is (package normalize reads its renderings back so): a diff in it
	// is then never taken for one a reply cut off, by its hunks' counts,
	// a missing last newline or a diff fence never closed.
	Complete bool
	// File is the file of the edits that name none (a SEARCH/REPLACE
	// block or a hunk with no path before it, a tool call without a
	// path, Zed's <old_text>/<new_text> pairs), as patch FILE takes it:
	// slash-separated, relative to the root, as a reply writes a path.
	// Edits that name a file keep it. "" leaves such edits refused.
	File string
	// FileArg names, for the hint of an edit that names no file while
	// File is "", how the caller takes File ("--file PATH"); "" names
	// nothing.
	FileArg string
}

// Parse reads every edit in src. It returns the edits that parsed and a
// list of PARSE_ERRORs for the regions that did not; a truncated block,
// envelope or fence is an error, never a silent no-op. The edits' texts
// share src: Parse reads it in place and holds no copy of it.
func Parse(src string, opts Options) ([]edit.Edit, edit.ErrorList) {
	p := newParser(src, opts.Format)
	p.tree, p.complete = opts.Tree, opts.Complete
	if opts.Strip != nil {
		p.strip = max(*opts.Strip, 0)
	}
	p.setFile(opts.File, opts.FileArg)
	if opts.Format != edit.FormatAuto && opts.Skipped != nil {
		p.files = map[string]*treeFile{}
		p.skipped = newParser(src, edit.FormatAuto)
		p.skipped.lines, p.skipped.tree, p.skipped.files, p.skipped.strip = p.lines, p.tree, p.files, p.strip
		p.bases = &treeBases{}
		p.skipped.bases = p.bases
		p.skipped.setFile(opts.File, opts.FileArg)
	}
	edits, errs := p.parse()
	if p.skipped != nil {
		p.skipped.joinEdits()
		p.skipped.dropQuotes(edits)
		for _, e := range p.skipped.edits {
			if e.Format != opts.Format {
				opts.Skipped(e)
			}
		}
	}
	return edits, errs
}

// A Tree is the read-only view of the working tree that Parse may
// consult; an *os.Root satisfies it (and refuses names that leave the
// root), as do fstest.MapFS and any fs.StatFS that is an fs.ReadFileFS.
// As fs.ReadFileFS's, ReadFile returns a buffer of the caller's own, which
// the implementation neither keeps nor writes.
type Tree interface {
	Stat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
}

// maxTreeFile bounds the size of a file Parse reads from its Tree.
const maxTreeFile = 64 << 20

// maxTreeWork bounds the bytes of tree files one Parse call searches,
// so that a response of many blocks against a large file stays cheap;
// past it, the questions are settled as without a tree.
const maxTreeWork = 256 << 20

// spend counts n bytes of searching in tree files and reports whether the
// budget allows them.
func (p *parser) spend(n int) bool {
	p.treeWork += n
	return p.treeWork <= maxTreeWork
}

// parse reads the whole text: run, then the whole-file fences that turn
// out to be quotes dropped.
func (p *parser) parse() ([]edit.Edit, edit.ErrorList) {
	p.run()
	p.dropQuotes(nil)
	if len(p.edits) == 0 && len(p.errs) == 0 {
		for k := range p.json.views {
			p.addError(&p.json.views[k])
		}
	}
	p.summarizeErrors()
	for i := range p.edits {
		p.edits[i].Block = i
	}
	return p.edits, p.errs
}

// lineNum is the 1-based number of the parser's line i in the output.
func lineNum(i int) int { return i + 1 }

// lineEnd is the byte offset just past line i's line ending.
func (p *parser) lineEnd(i int) int { return syntax.LineEnd(p.lines, len(p.text), i) }

// lineAt returns the index of the line holding byte offset off.
func (p *parser) lineAt(off int) int { return syntax.LineAt(p.lines, len(p.text), off) }

// A reader reads the regions of one format. starts reports whether a
// region of the format begins at line i; read consumes it and returns the
// index of the first line after it, which must be greater than i. A
// reader keeps what it learns of the reply from one call to the next;
// what the readers share (the previous block's file, the edits) the
// parser holds.
type reader interface {
	format() edit.Format
	starts(i int) bool
	read(i int) (next int)
}

// A parser holds the state of one Parse call. Its readers append to
// edits and errs, and may read and set lastPath (SEARCH/REPLACE blocks
// inherit the previous block's file).
type parser struct {
	text     string // the response, which the lines' and the edits' texts share
	lines    []syntax.Line
	format   edit.Format
	edits    []edit.Edit // every edit once run returns; while it runs, the latest chunk (see push)
	errs     edit.ErrorList
	lastPath string
	// lastWhole says lastPath was set by a whole-file fence; leanOnWhole
	// holds the edits (by index) that inherited their path from one.
	lastWhole   bool
	treeWork    int // bytes of tree files searched, against maxTreeWork
	leanOnWhole map[int]bool
	// toolWrites holds the whole-file edits (by index) of XML tool calls
	// (xml.go): explicit writes, never quotes (see dropQuotes).
	toolWrites map[int]bool
	tree       Tree
	strip      int  // Options.Strip, -1 for none
	inPatch    bool // reading the envelope a JSON tool call carries (codexcall.go)
	// The readers, and in readers the order auto-detection tries them in:
	// the most distinctive markers first, whole-file fences (a bare
	// fence) last.
	codex    codexReader
	sr       srReader
	diff     udiffReader
	json     jsonReader
	nearMiss nearMissReader
	zed      zedReader
	xml      xmlReader
	whole    wholeReader
	readers  [8]reader
	// complete says the text is known to be whole (a decoded JSON
	// string, a rendering of normalize's own): where it ends is no sign
	// of a reply cut off.
	complete bool
	files    map[string]*treeFile // what tree said about each name asked
	bases    *treeBases           // the tree's files by base name, once asked
	// skipped, when Options.Skipped asks, reads as FormatAuto the regions
	// of other formats that run passes over: it shares the lines, the
	// tree and what the tree said. Its skippedNext is the line it looks
	// at next.
	skipped     *parser
	skippedNext int
	// fullEdits are the chunks of edits before the latest, fullCount
	// edits in all, while run runs (see push).
	fullEdits [][]edit.Edit
	fullCount int
	// file is Options.File, tidied: the file of edits that name none,
	// which the first SEARCH/REPLACE block without a path inherits as
	// if a block before it had named it. fileArg is Options.FileArg.
	file, fileArg string

	// errKinds counts the errors of each kind, otherErrors those past
	// maxErrors (see addError).
	errKinds    map[string]*errorKind
	otherErrors errorKind
}

// setFile sets the file of the edits that name none, and how the
// caller takes it, for hints.
func (p *parser) setFile(file, arg string) {
	if file != "" {
		file = syntax.TidyPath(file)
	}
	p.file, p.fileArg, p.lastPath = file, arg, file
}

// noFileHint is hint, for an edit that names no file, extended to name
// the caller's way of giving one (FileArg).
func (p *parser) noFileHint(hint string) string {
	if p.fileArg == "" {
		return hint
	}
	return strings.TrimSuffix(hint, ".") + ", or name the file with " + p.fileArg + "."
}

// A treeFile is what the tree holds under one name.
type treeFile struct {
	name    string // the name the tree has it under
	exists  bool   // a regular file
	entry   bool   // a regular file, or a symlink wherever it points
	taken   bool   // the name holds something: an entry, a directory, a FIFO
	read    bool   // text holds the content
	text    string // CRLF read as LF
	tooBig  bool
	size    int64
	readErr bool
}

// treeStat reports what the tree holds at the relative path pth: only a
// regular file counts. It stats, and never opens, so a FIFO or device
// cannot block it. A "\" in pth is a separator unless the tree has the
// name as written, as the applier reads it.
func (p *parser) treeStat(pth string) *treeFile {
	if strings.Contains(pth, `\`) {
		if tf := p.treeStatAs(pth); tf.taken {
			return tf
		}
		pth = strings.ReplaceAll(pth, `\`, "/")
	}
	return p.treeStatAs(pth)
}

// treeStatAs is treeStat of pth, with "\" taken as part of a name.
func (p *parser) treeStatAs(pth string) *treeFile {
	if p.tree == nil || !fs.ValidPath(pth) || pth == "." {
		return &treeFile{}
	}
	if tf, ok := p.files[pth]; ok {
		return tf
	}
	if p.files == nil {
		p.files = map[string]*treeFile{}
	}
	tf := &treeFile{name: pth}
	p.files[pth] = tf
	fi, err := p.tree.Stat(pth)
	tf.taken = err == nil
	if err != nil || !fi.Mode().IsRegular() {
		// A symlink, even one leaving the root or dangling, still names
		// the file the response means: the applier judges where it goes.
		if l, ok := p.tree.(interface {
			Lstat(name string) (fs.FileInfo, error)
		}); ok && (err != nil || fi.Mode()&fs.ModeSymlink != 0) {
			if li, lerr := l.Lstat(pth); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
				tf.entry, tf.taken = true, true
			}
		}
		return tf
	}
	tf.exists, tf.entry = true, true
	tf.tooBig, tf.size = fi.Size() > maxTreeFile, fi.Size()
	return tf
}

// treeText returns the content of the regular file pth, with CRLF read
// as LF, or false when there is no tree or no such readable file.
func (p *parser) treeText(pth string) (string, bool) {
	tf := p.treeStat(pth)
	if !tf.exists || tf.tooBig || tf.readErr {
		return "", false
	}
	if tf.read {
		return tf.text, true
	}
	if !p.spend(int(tf.size)) {
		return "", false
	}
	data, err := p.tree.ReadFile(tf.name)
	if err != nil || len(data) > maxTreeFile {
		tf.readErr = true
		return "", false
	}
	if bytes.Contains(data, []byte("\r\n")) {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	// The buffer is the parser's own (a Tree's ReadFile, like
	// fs.ReadFileFS's, hands it to the caller) and nothing writes it: the
	// text shares it rather than copying the file again.
	tf.read, tf.text = true, unsafe.String(unsafe.SliceData(data), len(data))
	return tf.text, true
}

func newParser(text string, f edit.Format) *parser {
	p := &parser{text: text, lines: syntax.SplitLines(text), format: f, strip: -1, leanOnWhole: map[int]bool{}, toolWrites: map[int]bool{}}
	p.codex.p, p.sr.p, p.nearMiss.p, p.json.p, p.zed.p, p.xml.p, p.whole.p = p, p, p, p, p, p, p
	p.diff = udiffReader{p: p, fenceClose: -1, openFence: -1}
	p.readers = [...]reader{&p.codex, &p.sr, &p.diff, &p.json, &p.nearMiss, &p.zed, &p.xml, &p.whole}
	return p
}

// run walks the lines; each line either starts a region of an accepted
// format, which its reader consumes, or is prose and skipped.
func (p *parser) run() {
	for i := 0; i < len(p.lines); {
		next, read := i+1, false
		for _, r := range p.readers {
			if f := r.format(); p.format != edit.FormatAuto && p.format != f && !(p.format == edit.FormatCodex && f == edit.FormatJSON && !p.inPatch) {
				continue // a JSON tool call may carry a Codex envelope (codexcall.go)
			}
			if r.starts(i) {
				if n := r.read(i); n > i {
					next = n
				}
				read = true
				break
			}
		}
		if p.skipped != nil {
			p.skipTo(i, read, next)
		}
		i = next
	}
	if p.skipped != nil {
		p.skipTo(len(p.lines), false, 0)
	}
	p.joinEdits()
}

// skipTo walks p.skipped up to line i, which run has just passed (read
// says it read a region there, up to line next), as FormatAuto walks the
// lines: where a region of another format starts, p.skipped reads it;
// where run's region starts, it takes run's reading. A line inside a
// region run read is looked at as FormatAuto would, since FormatAuto may
// not read that region.
func (p *parser) skipTo(i int, read bool, next int) {
	sk := p.skipped
	for j := sk.skippedNext; j <= i && j < len(p.lines); j = sk.skippedNext {
		sk.skippedNext = j + 1
		for _, r := range sk.readers {
			if !r.starts(j) {
				continue
			}
			if r.format() != p.format {
				sk.skippedNext = max(r.read(j), j+1)
			} else if j == i && read {
				// The file a block without a path inherits.
				sk.skippedNext, sk.lastPath, sk.lastWhole = next, p.lastPath, p.lastWhole
			}
			break
		}
	}
}

// editChunk is the most edits the parser puts in one array before it
// starts the next, unless a reader reserves room for more at once (a diff
// section for its hunks). An array grown by append to a reply's thousands
// of edits allocates about five times their bytes on the way, each copy
// live beside the one it replaces; chunks that are never copied, joined
// once at the end, allocate twice their bytes.
const editChunk = 512

// reserve makes room for n more edits in the latest chunk. A new chunk
// holds as many edits as the chunks before it, from 4 to editChunk, or n
// if more: a reply of a few edits allocates a few edits' room.
func (p *parser) reserve(n int) {
	if cap(p.edits)-len(p.edits) >= n {
		return
	}
	if len(p.edits) > 0 {
		p.fullEdits = append(p.fullEdits, p.edits)
		p.fullCount += len(p.edits)
	}
	p.edits = make([]edit.Edit, 0, max(n, min(p.fullCount, editChunk), 4))
}

// push records e after the edits read so far.
func (p *parser) push(e edit.Edit) {
	p.reserve(1)
	p.edits = append(p.edits, e)
}

// dropEdits forgets the edits recorded from index mark on.
func (p *parser) dropEdits(mark int) {
	for mark < p.fullCount {
		last := p.fullEdits[len(p.fullEdits)-1]
		p.fullEdits = p.fullEdits[:len(p.fullEdits)-1]
		p.fullCount -= len(last)
		p.edits = last
	}
	p.edits = p.edits[:mark-p.fullCount]
}

// editCount is how many edits push has recorded: the index of the next.
func (p *parser) editCount() int {
	return p.fullCount + len(p.edits)
}

// joinEdits puts every edit push recorded in p.edits, in order.
func (p *parser) joinEdits() {
	if len(p.fullEdits) == 0 {
		return
	}
	all := make([]edit.Edit, 0, p.editCount())
	for _, c := range p.fullEdits {
		all = append(all, c...)
	}
	p.edits, p.fullEdits, p.fullCount = append(all, p.edits...), nil, 0
}

// errorf records a PARSE_ERROR at the 1-based output line num.
func (p *parser) errorf(num int, format string, args ...any) {
	p.errorHint(num, "Resend the edit complete, with every marker line in place.", format, args...)
}

// errorHint records a PARSE_ERROR with a hint of the reader's own.
func (p *parser) errorHint(num int, hint, format string, args ...any) {
	p.addError(&edit.Error{Code: edit.CodeParse, Edit: -1, Line: num, Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// maxSameErrors is how many errors of one kind a reply gets in full; the
// last of them counts the rest. A reply of a million marker lines gets a
// few errors and a count, not a receipt of a million. maxErrors bounds
// the errors of every kind together, for a million unlike ones.
const (
	maxSameErrors = 5
	maxErrors     = 100
)

// An errorKind counts the errors of one kind: the ones kept, the last
// kept and the ones left out after it, the last of them at lastLine.
type errorKind struct {
	kept     int
	last     *edit.Error
	more     int
	lastLine int
}

// addError records e, unless maxSameErrors errors of its kind or
// maxErrors in all are recorded already: then it is only counted, on the
// last error recorded of its kind (or of all). Errors are of one kind
// when their code, hint and message agree but for numbers (lines, counts).
func (p *parser) addError(e *edit.Error) {
	if p.errKinds == nil {
		p.errKinds = map[string]*errorKind{}
	}
	key := string(e.Code) + "\x00" + e.Hint + "\x00" + withoutDigits(e.Msg)
	k := p.errKinds[key]
	if k == nil {
		k = &errorKind{}
		p.errKinds[key] = k
	}
	switch {
	case k.kept >= maxSameErrors:
	case len(p.errs) >= maxErrors:
		k = &p.otherErrors
	default:
		k.kept++
		k.last = e
		p.errs.Add(e)
		return
	}
	k.more++
	k.lastLine = e.Line
}

// withoutDigits is s with each run of digits as one '#'.
func withoutDigits(s string) string {
	if !strings.ContainsAny(s, "0123456789") {
		return s
	}
	var b strings.Builder
	digit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if '0' <= c && c <= '9' {
			if !digit {
				b.WriteByte('#')
			}
			digit = true
			continue
		}
		digit = false
		b.WriteByte(c)
	}
	return b.String()
}

// summarizeErrors tells, on the last error kept of each kind, how many
// more of that kind were left out.
func (p *parser) summarizeErrors() {
	for _, k := range p.errKinds {
		if k.more > 0 {
			k.last.Msg += fmt.Sprintf(" (and %s more like it, the last on line %d)", groupDigits(k.more), k.lastLine)
			k.more = 0
		}
	}
	if k := &p.otherErrors; k.more > 0 {
		last := p.errs[len(p.errs)-1]
		last.Msg += fmt.Sprintf(" (and %s more errors, the last on line %d)", groupDigits(k.more), k.lastLine)
		k.more = 0
	}
}

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// add records an edit whose region spans lines [from, to) of the output.
func (p *parser) add(e edit.Edit, format edit.Format, from, to int) {
	e.Format = format
	p.lastWhole = format == edit.FormatWhole
	if from < len(p.lines) {
		e.Start = p.lines[from].Start
		if e.Line == 0 {
			e.Line = lineNum(from)
		}
	}
	e.End = len(p.text)
	if to < len(p.lines) {
		e.End = p.lines[to].Start
	}
	p.push(e)
}
