package apply

import (
	"io/fs"
	"maps"
	"path"
	"slices"

	"github.com/edapply/edapply/apply/internal/audit"
	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/txn"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testhook"
	"github.com/edapply/edapply/locate"
)

// The check before commit: planning records what each edit did (an
// auditStep, as its result is recorded), and check hands that, the bytes
// each file had when read and what commit is about to leave at each path
// to package audit, which holds them to the contract without the ladder's
// code (see apply/internal/audit).

// An auditLog is what planning records for the check.
type auditLog struct {
	edits []edit.Edit // the edits planned, by position
	steps []auditStep // in the order their results were recorded
	// replaced holds the results supersede reported matched: what each
	// was, and the edit that replaced it.
	replaced map[resultKey]replacement
	// linked holds what the files symlinks lead to held when a deletion
	// of the link compared its quote with them (see linkedContent).
	linked map[string]fsio.State
}

// A resultKey names f.fr.Edits[k].
type resultKey struct {
	f *file
	k int
}

// A replacement is a draft's result that supersede replaced: its status
// until then, and the receipt's index of the edit that replaced it.
type replacement struct {
	was edit.Status
	by  int
}

// An auditStep is one edit's recorded outcome.
type auditStep struct {
	f  *file
	k  int    // its result is f.fr.Edits[k]
	i  int    // its position in the edits planned
	at string // where the file's content is once the edit is done (a Delete: the path it removes)
	// whole is the content then, for an edit the ladder did not locate
	// (a create, a rewrite); located ones carry their splices instead.
	whole   []byte
	located bool
	changes []locate.Splice
	read    *edit.Edit
}

// logStep records, for the check, the outcome of edit i just added to f's
// result.
func (p *planner) logStep(f *file, i int) {
	st := auditStep{f: f, k: len(f.fr.Edits) - 1, i: i}
	if f.at != nil {
		st.at = f.at.path
		if f.at.cur.Exists {
			st.whole = f.at.cur.Data
		}
	}
	p.audit.steps = append(p.audit.steps, st)
}

// logLocated adds to the last step recorded the splices the ladder made.
func (p *planner) logLocated(r locate.Result) {
	st := &p.audit.steps[len(p.audit.steps)-1]
	st.located, st.changes, st.read, st.whole = true, r.Splices, r.Read, nil
}

// check holds the plan, whose commit would make the changes cs, to
// package audit's rules; it runs before a dry run returns too, so that a
// dry run predicts the real one. testhook.Plan, in tests, changes cs
// first: the defect a test plants is then what commit would write.
func (p *planner) check(cs []txn.Change) edit.ErrorList {
	if testhook.Plan != nil {
		for k := range cs {
			if c := &cs[k]; c.Final.Exists {
				var b []byte
				for _, x := range c.Final.Chunks() {
					b = append(b, x...)
				}
				c.Final.Data, c.Final.Mode = testhook.Plan(c.Path, b, c.Final.Mode)
				c.Final.Pieces = nil
			}
		}
	}
	tx := &audit.Tx{TrimTrailingWS: p.mopts.TrimTrailingWS,
		Read: make([]audit.Entry, 0, len(p.order)), Writes: make([]audit.Entry, 0, len(cs)), Files: make([]audit.File, len(p.files))}
	for _, s := range p.order {
		orig, _ := s.texts()
		tx.Read = append(tx.Read, audit.Entry{Path: s.path, Content: auditContent(orig)})
	}
	for _, name := range slices.Sorted(maps.Keys(p.audit.linked)) {
		if p.slots[name] == nil {
			tx.Read = append(tx.Read, audit.Entry{Path: name, Content: auditContent(p.audit.linked[name])})
		}
	}
	for _, c := range cs {
		final, err := p.auditText(c.Path, c.Final)
		if err != nil {
			return edit.ErrorList{err}
		}
		tx.Writes = append(tx.Writes, audit.Entry{Path: c.Path, Content: auditContent(final)})
	}
	at := make(map[*file]*audit.File, len(p.files))
	for k, f := range p.files {
		af := &tx.Files[k]
		af.Path, af.NewPath, af.Op = f.fr.Path, f.fr.NewPath, f.fr.Op
		if f.origin != nil && f.origin.orig.Exists {
			af.Origin = f.origin.path
		}
		at[f] = af
	}
	names := map[string]audit.Name{}
	nameOf := func(p *planner, name string) audit.Name {
		n, ok := names[name]
		if !ok {
			n = p.nameOf(name)
			names[name] = n
		}
		return n
	}
	// Each file's steps in room made once: a step is large, and a reply
	// may make thousands.
	steps := map[*audit.File]int{}
	for _, st := range p.audit.steps {
		if af := at[st.f]; af != nil {
			steps[af]++
		}
	}
	for af, n := range steps {
		af.Steps = make([]audit.Step, 0, n)
	}
	for _, st := range p.audit.steps {
		af := at[st.f]
		if af == nil {
			continue
		}
		e := &p.audit.edits[st.i]
		er := &st.f.fr.Edits[st.k]
		s := audit.Step{Index: er.Index, Edit: e, Status: string(er.Status), Strategy: string(er.Strategy),
			LineStart: er.LineStart, LineEnd: er.LineEnd, At: st.at, Located: st.located,
			Occurrences: occurrenceLines(er.Occurrences),
			Whole:       viewString(st.whole), Named: nameOf(p, e.Path)}
		if e.Op == edit.Rename {
			s.To = nameOf(p, e.New)
		}
		for _, x := range st.changes {
			s.Splices = append(s.Splices, audit.Splice{At: x.At, Old: x.Old, New: x.New})
		}
		if st.read != nil {
			s.Read = &audit.Reading{Old: st.read.Old, New: st.read.New}
		}
		if r, ok := p.audit.replaced[resultKey{st.f, st.k}]; ok {
			s.Replaced, s.ReplacedBy = string(r.was), r.by
		}
		af.Steps = append(af.Steps, s)
	}
	return audit.Check(tx)
}

// nameOf says what name, a path an edit wrote, is on disk: the file its
// symlinks lead to, and the entry itself (its directories resolved, its
// last name not), from what the resolver's Lstat of each component said.
func (p *planner) nameOf(name string) audit.Name {
	target, err := p.rc.Resolve(name)
	if err != nil {
		return audit.Name{}
	}
	n := audit.Name{Target: target, Entry: target}
	lex := p.rc.Lexical(name)
	if lex == "" || lex == "." {
		return n
	}
	parent := "."
	if d := path.Dir(lex); d != "." {
		if parent, err = p.rc.Resolve(d); err != nil {
			return n
		}
	}
	n.Entry = path.Join(parent, path.Base(lex))
	if fi, err := p.rc.Lstat(n.Entry); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		n.Link = true
	}
	return n
}

// auditContent is s as package audit reads a content: its bytes shared,
// not copied.
func auditContent(s fsio.State) audit.Content {
	if !s.Exists {
		return audit.Content{}
	}
	cs := s.Chunks()
	text := make([]string, len(cs))
	for k, b := range cs {
		text[k] = viewString(b)
	}
	return audit.Content{Exists: true, Text: text, Mode: s.Mode, Exact: s.Exact, Link: s.Link}
}

// occurrenceLines is os as the audit reads a receipt's lines.
func occurrenceLines(os []edit.LineRange) [][2]int {
	var ls [][2]int
	for _, o := range os {
		ls = append(ls, [2]int{o.Start, o.End})
	}
	return ls
}
