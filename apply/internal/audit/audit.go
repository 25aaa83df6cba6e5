// Package audit checks a planned transaction before anything is written.
//
// Package apply plans a reply's edits with the tolerance ladder (package
// locate) and hands the plan here: the bytes each file had when read, what
// commit is about to leave at each path, every edit (the IR) and the
// outcome the receipt will report for it, with the splices it made. Check
// replays the splices on the bytes read and holds the plan to the
// contract's promises without the ladder's code:
//
//   - replay: the content to be written is the content read with the
//     edits' splices applied, so every byte outside the spans the edits
//     located is unchanged; each splice replaced the file's own bytes;
//   - lines: inside a span, the file's lines stand for the old text's and
//     the written lines for the new text's, one for one, as loosely as the
//     loosest rung compares (see loose); an elision placeholder may stand
//     for a run of lines, and those lines are kept byte for byte;
//   - kept-lines: a line the edit keeps keeps the file's bytes, its line
//     ending and trailing blanks included (see kept.go);
//   - applied: an edit reported applied changed the file, at the lines the
//     receipt names; already-applied: an edit reported already applied
//     changed nothing, its new text stands at the lines named, and it
//     still stands in the content as the whole reply leaves it, so the
//     outcome never depends on the order of the blocks;
//   - path: an edit acts on the path it names: one of content on the file
//     its symlinks lead to, a delete or rename on the entry named, so a
//     symlink is removed or moved as a link, never its target;
//   - mode: the mode written is the one an edit asks (a diff's new mode,
//     with or without a rename), else the file's own;
//   - claims, written: no file is reported created, modified, deleted or
//     renamed that is not written so, and none is written that is not;
//   - superseded: an edit reported matched in a plan that is written is a
//     draft's: it made or changed content this reply created, and a later
//     create of the file, which it names, wrote the file whole as its new
//     version; every edit of the draft is so, and only a draft's content
//     is ever created over;
//   - final-newline: a diff that changes the file's final newline alone
//     changes it; encoding: a file that is not UTF-8 receives no UTF-8 text
//     it does not already hold; create-twice: a file the reply creates is
//     not appended to by a later create of it; append-restates: an append
//     never begins with the whole file it appends to;
//   - reading: a rung that read the edit otherwise (a rescue, an edge rung)
//     read it as that rung may.
//
// Where a rung makes a rule inexact it is said at the rule: elision keeps
// the lines a placeholder stands for but is not held line for line; a
// pairing too large for the ladder's line diff is held at its head and
// tail only, as the ladder pairs it; a whole-file rewrite's lines are the
// model's and keep none; an already-applied text that a later edit
// disturbed is looked for anywhere in the final content, loosely, and one
// with placeholders is not looked for.
//
// The package imports only the standard library and package edit, so that
// the ladder cannot lend it a mistake; its cost is linear in the bytes of
// the files and the reply, times a logarithm (see rope).
package audit

import (
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
)

// A Content is what one path holds: nothing, bytes with a mode, or a
// symlink.
type Content struct {
	Exists bool
	Text   []string // the bytes, in pieces in order; a symlink's target
	Mode   fs.FileMode
	// Exact says Mode is set as is; false is a new file's default mode,
	// which commit creates under the user's umask.
	Exact bool
	// Link says the path is a symlink, read as one (a delete or a rename
	// acts on it): Text is its target as written, and it has no mode.
	Link bool
}

// An Entry is a path on disk (root-relative, every symlink of its
// directories followed) and what it holds.
type Entry struct {
	Path string
	Content
}

// A Tx is a planned transaction.
type Tx struct {
	Read   []Entry // every path planning read, as it was
	Writes []Entry // what commit will leave at each path it changes
	Files  []File  // the receipt's files, in its order
	// TrimTrailingWS is the option that strips the trailing blanks of the
	// lines an edit adds.
	TrimTrailingWS bool
}

// A File is one file of the receipt: what it claims, and the steps the
// plan took on its content.
type File struct {
	Path, NewPath string // as the receipt names them
	Op            string // the receipt's: "create", "modify", "delete" or "rename"
	// Origin is the path the content was read from; "" for a file the
	// reply creates.
	Origin string
	Steps  []Step
}

// A Step is one edit's outcome on a file's content, in the order planned.
type Step struct {
	Index              int // the edit's index in the receipt
	Edit               *edit.Edit
	Status             string // "applied", "already_applied", or "matched" (see Replaced)
	Strategy           string
	LineStart, LineEnd int
	// Occurrences are the lines the receipt names for each place of an
	// edit that replaced several; nil for one.
	Occurrences [][2]int
	// At is the path the plan has the content at when the edit is done:
	// for a Delete, the path it removes.
	At string
	// Located says the edit was located in the content by the ladder (a
	// Replace, an append): Splices are everything it changed, in the
	// offsets of the content as it saw it, ascending.
	Located bool
	Splices []Splice
	// Whole, for an edit that writes the whole content (a create, a
	// rewrite), is the content it leaves.
	Whole string
	// Read is the old and new text a rescue or an edge rung located in
	// the edit's place; nil when they are the edit's own.
	Read *Reading
	// Named is what the edit's path names on disk; To, what a Rename's
	// destination names.
	Named, To Name
	// Replaced, for an edit reported matched, is the outcome it had
	// ("applied" or "already_applied") until the edit ReplacedBy (an
	// index in the receipt), a later create of the file, wrote the file
	// whole as the new version of the draft the edit made or changed.
	Replaced   string
	ReplacedBy int
}

// A Splice is Old, at byte At of a content, replaced by New.
type Splice struct {
	At       int
	Old, New string
}

// A Reading is an edit's old and new text as a rung read them.
type Reading struct{ Old, New string }

// A Name is what a path an edit names is on disk.
type Name struct {
	// Target is the path with every symlink followed: the file an edit of
	// its content reads and writes.
	Target string
	// Entry is the path with its directories' symlinks followed but not
	// its last name's: what a delete or a rename acts on.
	Entry string
	Link  bool // Entry is a symlink
}

// The rules, as an INTERNAL error names them.
const (
	RuleReplay         = "replay"
	RuleLines          = "lines"
	RuleKeptLines      = "kept-lines"
	RuleApplied        = "applied"
	RuleAlreadyApplied = "already-applied"
	RulePath           = "path"
	RuleMode           = "mode"
	RuleClaims         = "claims"
	RuleSuperseded     = "superseded"
	RuleWritten        = "written"
	RuleFinalNewline   = "final-newline"
	RuleEncoding       = "encoding"
	RuleCreateTwice    = "create-twice"
	RuleAppendRestates = "append-restates"
	RuleReading        = "reading"
)

// Hint is every INTERNAL error's hint.
const Hint = "This is a defect of edapply, not of the edits: edapply's own check of the transaction refused it, and nothing was written. Please report it, with the reply and the files it edits."

// maxErrors bounds the errors one check reports: past the first few, more
// of the same defect tell nothing new.
const maxErrors = 8

// Check holds tx to the rules above and returns an INTERNAL error for each
// that fails (a few at most), naming the rule, the path and the edit; nil
// when the transaction may be written.
func Check(tx *Tx) edit.ErrorList {
	c := &checker{tx: tx, read: make(map[string]*Content, len(tx.Read)), ends: map[string]*end{}, broken: map[string]bool{}}
	for i := range tx.Read {
		c.read[tx.Read[i].Path] = &tx.Read[i].Content
	}
	for i := range tx.Files {
		c.file(&tx.Files[i])
		if len(c.errs) >= maxErrors {
			return c.errs
		}
	}
	c.writes()
	return c.errs
}

type checker struct {
	tx   *Tx
	read map[string]*Content
	errs edit.ErrorList
	// ends holds each file's content as the reply leaves it, by the path
	// it ends at; left, the paths files were read from and left.
	ends map[string]*end
	left []string
	// broken holds the paths of files whose replay failed.
	broken map[string]bool
	room   lineRoom
}

// An end is where and how a file's content ends up.
type end struct {
	f     *File
	r     *rope
	mode  fs.FileMode
	exact bool
	link  bool
}

func (c *checker) fail(rule, path string, index int, format string, args ...any) {
	if len(c.errs) >= maxErrors {
		return
	}
	c.errs.Add(&edit.Error{Code: edit.CodeInternal, Path: path, Edit: index,
		Msg:  "internal check failed (" + rule + "): " + fmt.Sprintf(format, args...),
		Hint: Hint})
}

// A lineage is a file's content as the check replays its steps.
type lineage struct {
	f     *File
	r     *rope // nil when the content does not exist
	path  string
	mode  fs.FileMode
	exact bool
	link  bool   // the content is a symlink, read as one
	utf8  bool   // the content read was valid UTF-8 (or there was none)
	orig  string // the content read, when it was not UTF-8
	made  bool   // a create of this reply made the content
	// draft is the place in f.Steps of the create that made the content
	// the reply's own (it created the file, filled it empty, or wrote it
	// whole as a draft's new version); -1 when the content is not.
	// replaced holds the places of the steps reported matched whose new
	// version is still to come; replacing says the step being replayed
	// is one, whose text claims nothing in the final content.
	draft     int
	replaced  []int
	replacing bool
	k         int // the place in f.Steps of the step being replayed
	stands    []standing
}

// A standing is an already-applied edit's text, to be found again in the
// content as the reply leaves it.
// Its marks in the content are 2k at its start and 2k+1 at its end, k
// its place in lineage.stands.
type standing struct {
	s    *Step
	text string // the content's bytes it covered
	want string // the new text that stands there
	gaps bool   // the text has placeholders (the elision rung)
	line bool   // the text is whole lines, not a substring of a line
}

func (c *checker) file(f *File) {
	l := &lineage{f: f, utf8: true, draft: -1}
	if f.Origin != "" {
		rc := c.read[f.Origin]
		if rc == nil || !rc.Exists {
			c.fail(RuleClaims, f.Path, -1, "%s is said to be read from %s, which planning did not read as a file", f.Path, f.Origin)
			return
		}
		l.r, l.path, l.mode, l.exact, l.link = newRope(rc.Text, splicesOf(f.Steps)), f.Origin, rc.Mode, !rc.Link, rc.Link
		for _, t := range rc.Text {
			l.utf8 = l.utf8 && utf8.ValidString(t)
		}
		if !l.utf8 {
			l.orig = strings.Join(rc.Text, "")
		}
	}
	for k := range f.Steps {
		l.k = k
		if !c.step(l, &f.Steps[k]) {
			// Nothing left to compare: what is written at its paths is
			// not judged again.
			c.broken[f.Origin] = true
			for _, s := range f.Steps {
				c.broken[s.At] = true
			}
			return
		}
	}
	c.unreplaced(l)
	c.settle(l)
	c.claims(l)
	if l.r != nil {
		if o := c.ends[l.path]; o != nil {
			c.fail(RuleClaims, f.Path, -1, "%s and %s both end at %s", o.f.Path, f.Path, l.path)
			return
		}
		c.ends[l.path] = &end{f: f, r: l.r, mode: l.mode, exact: l.exact, link: l.link}
	}
	if f.Origin != "" && (l.r == nil || l.path != f.Origin) {
		c.left = append(c.left, f.Origin)
	}
}

// step replays s on l and checks it; false stops the file's replay (a
// failure that leaves nothing to compare).
func (c *checker) step(l *lineage, s *Step) bool {
	e := s.Edit
	fail := func(rule, format string, args ...any) { c.fail(rule, l.f.Path, s.Index, format, args...) }
	l.replacing = false
	if s.Status == "matched" && (s.Replaced == "applied" || s.Replaced == "already_applied") {
		// A draft's edit: replayed as what it did to the draft, and held
		// to its new version when that comes (see replace).
		l.replaced = append(l.replaced, l.k)
		l.replacing = true
		t := *s
		t.Status = s.Replaced
		s = &t
	}
	applied := s.Status == "applied"
	if !applied && s.Status != "already_applied" {
		fail(RuleApplied, "edit %d is reported %q in a plan that planned every edit", s.Index, s.Status)
		return false
	}
	if !c.pathOf(l, s) {
		return false
	}
	switch {
	case s.Located:
		if l.r == nil {
			fail(RuleReplay, "edit %d was located in %s, which holds nothing then", s.Index, s.At)
			return false
		}
		if !c.located(l, s) {
			return false
		}
	case e.Op == edit.Delete:
		if l.r == nil || !applied {
			fail(RuleApplied, "the deletion of %s is reported %s, but there is no content to delete", s.Named.Entry, s.Status)
			return false
		}
		if e.Old != "" && !sameFile(l.r.String(), e.Old) && !c.quotesLinked(l, s) {
			fail(RuleApplied, "%s was deleted, but its content is not the one the deletion quotes", s.At)
		}
		c.unreplaced(l)
		l.r, l.path, l.made, l.draft, l.link = nil, "", false, -1, false
	case e.Op == edit.Rename:
		if l.r == nil {
			fail(RuleApplied, "the rename of %s is reported %s, but there is no content to move", s.Named.Entry, s.Status)
			return false
		}
		if applied == (s.At == l.path) {
			fail(RuleApplied, "the rename of %s to %s is reported %s, but the content is at %s before and %s after", s.Named.Entry, s.To.Entry, s.Status, l.path, s.At)
		}
		l.path = s.At
	default:
		c.whole(l, s)
	}
	if e.Mode != 0 {
		if l.link {
			fail(RuleMode, "edit %d asks for mode %04o, but %s is a symlink, which has none", s.Index, e.Mode, l.path)
			return false
		}
		l.mode, l.exact = fs.FileMode(e.Mode)&fs.ModePerm, true
	}
	return true
}

// quotesLinked reports whether the deletion s of l, a symlink, quotes the
// file the link leads to, as the model read it through the link.
func (c *checker) quotesLinked(l *lineage, s *Step) bool {
	if !l.link || s.Named.Target == s.Named.Entry {
		return false
	}
	t := c.read[s.Named.Target]
	return t != nil && t.Exists && !t.Link && sameFile(strings.Join(t.Text, ""), s.Edit.Old)
}

// replace checks s, an applied create that writes the whole file over
// content it did not find empty: only a draft the reply made is created
// over, as its new version, and every edit of the draft since it was
// made is reported matched, replaced by s.
func (c *checker) replace(l *lineage, s *Step) {
	fail := func(format string, args ...any) { c.fail(RuleSuperseded, l.f.Path, s.Index, format, args...) }
	if l.draft < 0 {
		fail("edit %d creates %s over content this reply did not create", s.Index, l.path)
		return
	}
	for k := l.draft; k < l.k; k++ {
		if p := &l.f.Steps[k]; p.Status != "matched" || p.ReplacedBy != s.Index {
			fail("edit %d writes the new version of %s's draft, but edit %d of the draft is reported %s, not replaced by it", s.Index, l.path, p.Index, p.Status)
			return
		}
	}
	for _, k := range l.replaced {
		if k < l.draft {
			fail("edit %d is reported replaced by edit %d, but it came before the draft that edit replaces", l.f.Steps[k].Index, s.Index)
			return
		}
	}
	l.replaced = nil
}

// unreplaced checks that no edit of l is left reported matched with no
// new version written over its draft.
func (c *checker) unreplaced(l *lineage) {
	for _, k := range l.replaced {
		p := &l.f.Steps[k]
		c.fail(RuleSuperseded, l.f.Path, p.Index, "edit %d is reported matched, replaced by edit %d, but no later create writes %s's new version", p.Index, p.ReplacedBy, l.f.Path)
		break
	}
	l.replaced = nil
}

// pathOf checks that s acts on the path its edit names and moves l to
// where it leaves the content.
func (c *checker) pathOf(l *lineage, s *Step) bool {
	e := s.Edit
	fail := func(format string, args ...any) { c.fail(RulePath, l.f.Path, s.Index, format, args...) }
	switch e.Op {
	case edit.Delete, edit.Rename:
		// The entry itself: a symlink is removed or moved as a link.
		if l.path != s.Named.Entry || s.Named.Link != l.link {
			what := "a file"
			if s.Named.Link {
				what = "a symlink"
			}
			fail("%s names %s, %s, but the plan %ss %s, %s", e.Path, s.Named.Entry, what, e.Op, l.path, linkOr(l.link))
			return false
		}
		if e.Op == edit.Delete && s.At != l.path {
			fail("the deletion of %s removes %s", s.Named.Entry, s.At)
			return false
		}
		if e.Op == edit.Rename && s.Status == "applied" && s.At != s.To.Entry {
			what := "a path"
			if s.To.Link {
				what = "a symlink"
			}
			fail("the rename's destination %s is %s, %s, but the plan moves the content to %s", e.New, s.To.Entry, what, s.At)
			return false
		}
	default:
		if s.At != s.Named.Target || l.path != "" && l.path != s.At {
			fail("%s names %s, but the plan edits the content at %s (it was at %q)", e.Path, s.Named.Target, s.At, l.path)
			return false
		}
		l.path = s.At
	}
	return true
}

// whole checks a step that writes the whole content: a create, or a
// rewrite.
func (c *checker) whole(l *lineage, s *Step) {
	e := s.Edit
	fail := func(rule, format string, args ...any) { c.fail(rule, l.f.Path, s.Index, format, args...) }
	before := ""
	if l.r != nil {
		before = l.r.String()
	}
	if s.Status != "applied" {
		if l.r == nil || s.Whole != before {
			fail(RuleAlreadyApplied, "edit %d is reported already applied, but it changes the content", s.Index)
			return
		}
		c.already(l, s, true, "")
		return
	}
	if l.r != nil && s.Whole == before {
		fail(RuleApplied, "edit %d is reported applied, but the content it leaves is the content it found", s.Index)
	}
	w := s.Whole
	rewrite := e.Op == edit.Rewrite && l.r != nil
	switch {
	case !rewrite && before != "":
		c.replace(l, s)
		l.draft = l.k
	case !rewrite:
		l.draft = l.k // created, or an empty file filled
	}
	switch {
	case rewrite:
		// The file's conventions win: its line endings, its final newline
		// and its byte order mark, which the rewrite keeps.
		if strings.HasPrefix(before, bom) && !strings.HasPrefix(w, bom) {
			fail(RuleLines, "the rewrite of %s drops the file's byte order mark", s.At)
		}
		if !standsLoose(blankTail(textLines(strings.TrimPrefix(lf(e.New), bom))), blankTail(textLines(strings.TrimPrefix(w, bom))), false) {
			fail(RuleLines, "the rewrite of %s writes lines its text does not hold", s.At)
		}
	default:
		want := e.New
		if c.tx.TrimTrailingWS {
			want = trimEachLine(want)
		}
		if w != want {
			fail(RuleLines, "the file %s is created with other bytes than its edit's text", s.At)
		}
	}
	if w != "" && s.LineStart != 1 {
		fail(RuleApplied, "edit %d writes the whole file, but the receipt puts it at line %d", s.Index, s.LineStart)
	}
	if !l.utf8 {
		c.encoding(l, s, before, []string{w})
	}
	l.made = l.r == nil
	l.r = newRope([]string{w}, splicesOf(l.f.Steps))
	if l.path == "" || l.made {
		l.mode, l.exact = 0o644, false
	}
	l.path = s.At
}

// blankTail is ls without its trailing blank lines: a rewrite takes the
// file's final-newline state, which may take up a blank last line.
func blankTail(ls []string) []string {
	for len(ls) > 0 && isBlank(ls[len(ls)-1]) {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// splicesOf counts the splices and marks of steps, for a rope's room.
func splicesOf(steps []Step) int {
	n := 0
	for k := range steps {
		n += len(steps[k].Splices)
		if steps[k].Status != "applied" {
			n += 2 // its marks
		}
	}
	return n
}

// trimEachLine strips the trailing blanks of each line of s, its line
// endings kept.
func trimEachLine(s string) string {
	var b strings.Builder
	for _, ln := range splitLines(s) {
		b.WriteString(strings.TrimRight(ln.text, " \t"))
		b.WriteString(ln.eol)
	}
	return b.String()
}

// sameFile reports whether content is the file text quotes, as a
// deletion's quote must be: up to line endings, trailing blanks and
// trailing blank lines.
func sameFile(content, text string) bool {
	a, b := textLines(content), textLines(text)
	for len(a) > 0 && isBlank(a[len(a)-1]) {
		a = a[:len(a)-1]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if trimRight(a[i]) != trimRight(b[i]) {
			return false
		}
	}
	return true
}

const bom = "\uFEFF"

// claims checks what the receipt says of the file against where its
// content ends up.
func (c *checker) claims(l *lineage) {
	f := l.f
	from, to := f.Origin != "", l.r != nil
	var op string
	switch {
	case !from && !to:
		return // nothing read, nothing written: the receipt names only the intent
	case !from:
		op = "create"
	case !to:
		op = "delete"
	case l.path != f.Origin:
		op = "rename"
	default:
		op = "modify"
	}
	if f.Op != op && !(op == "modify" && f.Op == "rename") {
		c.fail(RuleClaims, f.Path, -1, "the receipt says %s of %s, but the plan %s", f.Op, f.Path, map[string]string{
			"create": "creates it", "delete": "deletes it", "rename": "moves it to " + l.path, "modify": "leaves it at " + f.Origin}[op])
	}
	// A new path is where the content went: a file renamed, or one the
	// reply creates and moves; a file deleted is at none.
	first := f.Origin
	if first == "" && len(f.Steps) > 0 {
		first = f.Steps[0].At // a new file's first step is its create
	}
	moved := l.r != nil && l.path != first
	if op != "modify" && moved != (f.NewPath != "") {
		c.fail(RuleClaims, f.Path, -1, "the receipt names %q as %s's new path, but the plan leaves it at %s", f.NewPath, f.Path, l.path)
	}
}

// writes checks that commit writes exactly what the files' contents leave,
// at the paths they leave it, and nothing else.
func (c *checker) writes() {
	expect := map[string]bool{}
	for p := range c.ends {
		expect[p] = true
	}
	for _, p := range c.left {
		expect[p] = true
	}
	written := map[string]*Entry{}
	for i := range c.tx.Writes {
		w := &c.tx.Writes[i]
		if written[w.Path] != nil {
			c.fail(RuleWritten, w.Path, -1, "%s is written twice", w.Path)
		}
		written[w.Path] = w
		if !expect[w.Path] && !c.broken[w.Path] {
			c.fail(RuleWritten, w.Path, -1, "%s would be written, but no edit the receipt reports leaves anything new there", w.Path)
		}
	}
	for p := range expect {
		orig := c.read[p]
		if orig == nil {
			c.fail(RuleWritten, p, -1, "%s would change, but planning never read it", p)
			continue
		}
		e := c.ends[p]
		w := written[p]
		if !changes(orig, e) {
			if w != nil {
				c.fail(RuleWritten, p, -1, "%s would be written, but its edits leave it as it was", p)
			}
			continue
		}
		if w == nil {
			c.fail(RuleWritten, p, -1, "the receipt reports a change of %s, but nothing would be written there", p)
			continue
		}
		switch {
		case e == nil && w.Exists:
			c.fail(RuleWritten, p, -1, "%s would be written, but the edits leave nothing there", p)
		case e != nil && !w.Exists:
			c.fail(RuleWritten, p, -1, "%s would be removed, but the edits leave content there", p)
		case e != nil && e.link != w.Link:
			c.fail(RuleWritten, p, -1, "%s would be written as %s, but its content is %s", p, linkOr(w.Link), linkOr(e.link))
		case e != nil:
			if same, at := e.r.equalTo(w.Text); !same {
				c.fail(RuleReplay, e.f.Path, -1, "the bytes to be written to %s are not the file as read with the edits' splices applied: they differ at line %d (byte %d)",
					p, e.r.nlBefore(min(at, e.r.size()))+1, at)
			}
			if e.link {
				break // a symlink has no mode
			}
			if e.exact && (!w.Exact || w.Mode != e.mode) || !e.exact && w.Mode != e.mode {
				c.fail(RuleMode, e.f.Path, -1, "%s would be written with mode %04o, where its edits ask for %04o", p, w.Mode, e.mode)
			}
		}
	}
}

func linkOr(link bool) string {
	if link {
		return "a symlink"
	}
	return "a file"
}

// changes reports whether the content e leaves at a path (nil: none)
// differs from orig, what the path held when read.
func changes(orig *Content, e *end) bool {
	if e == nil || !orig.Exists {
		return orig.Exists != (e != nil)
	}
	if e.link != orig.Link || e.exact && e.mode != orig.Mode {
		return true
	}
	same, _ := e.r.equalTo(orig.Text)
	return !same
}
