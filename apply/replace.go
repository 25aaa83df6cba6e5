package apply

import (
	"runtime"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/locate"
)

// inBatch reports whether e is a Replace that quotes an old text, or
// inserts before a hinted line (a diff's hunk of added lines only): the
// edits a Doc takes in a row, its batch with them. (Another empty old
// text appends, after anchors or at the end, or creates the file.)
func inBatch(e *edit.Edit) bool {
	return e.Op == edit.Replace && (e.Old != "" || e.Hint > 0 && len(e.Anchors) == 0 && !e.AtEOF)
}

// prepare groups every Replace edit in a batch (inBatch) by path, in the order
// they are planned: restOf(i, path) is edit i and those after it to the
// same path, what a locate.Doc for that path is prepared for from edit i
// on.
func (p *planner) prepare(edits []edit.Edit, src []string, bad []bool) {
	isReplace := func(i int) bool { return !bad[i] && inBatch(&edits[i]) }
	count := map[string]int{}
	n := 0
	for i := range edits {
		if isReplace(i) {
			count[src[i]]++
			n++
		}
	}
	if n == 0 {
		return
	}
	// One array holds every path's group, each contiguous.
	all := make([]*edit.Edit, n)
	start := map[string]int{}
	off := 0
	for i := range edits {
		if isReplace(i) {
			if _, ok := start[src[i]]; !ok {
				start[src[i]] = off
				off += count[src[i]]
			}
		}
	}
	p.restAt = make([]int32, len(edits))
	p.groups = map[string][]*edit.Edit{}
	for i := range edits {
		if isReplace(i) {
			k := start[src[i]]
			start[src[i]]++
			all[k] = &edits[i]
			g, ok := p.groups[src[i]]
			if !ok {
				g = all[k : k+count[src[i]]]
				p.groups[src[i]] = g
			}
			p.restAt[i] = int32(len(g)-count[src[i]]) + 1
			count[src[i]]--
		}
	}
}

// restOf is edit i and the later edits to path, its file's, that quote;
// nil when edit i was not grouped.
func (p *planner) restOf(i int, path string) []*edit.Edit {
	if i >= len(p.restAt) || p.restAt[i] == 0 {
		return nil
	}
	return p.groups[path][p.restAt[i]-1:]
}

// replace plans a Replace on f's content through the content's
// locate.Doc: one that quotes an old text, or an empty one that inserts or
// appends.
func (p *planner) replace(f *file, i int, e *edit.Edit) {
	s := f.at
	if !s.cur.Exists {
		p.failOn(f, i, e, notFound(e))
		return
	}
	if _, err := p.fileEncoding(f); err != nil {
		p.failOn(f, i, e, err)
		return
	}
	if s.doc == nil {
		s.doc = locate.NewDoc(viewString(s.cur.Data), p.mopts)
		// Not prepared for an edit not grouped (a fixer's, or an
		// append): the batch never tries it.
		s.doc.Prepare(p.restOf(i, s.path))
		s.doc.StreamTo(func(size, pieces int) locate.Stream {
			if size < streamMin || runtime.GOMAXPROCS(0) < 2 || p.noHashes {
				return nil
			}
			s.hs = newHashStream(pieces)
			return s.hs
		})
	}
	// The text the edit keeps is the content's: known before it is
	// applied, and asked only of an edit that may add text a file that
	// is not UTF-8 cannot hold.
	before, foreign := "", hasNonASCII(e.New) && p.foreign(f)
	if foreign {
		before = p.text(s)
	}
	var r locate.Result
	var err *edit.Error
	if p.force[i] {
		// Found already applied in a round before, but a later edit
		// moves that text away (see holdAlready): it applies for real.
		r, err = s.doc.Force(e)
	} else {
		r, err = s.doc.Replace(e)
	}
	if err != nil {
		if err.Code == edit.CodeBinaryFile {
			err = binaryErr()
		}
		if p.force[i] && err.Code == edit.CodeNoMatch {
			err.Hint = "Its new text stood in the file only until a later edit of this reply changed it. " + err.Hint
		}
		p.failOn(f, i, e, err)
		return
	}
	if err := p.unfit(f, r.Written); err != nil && r.Status == edit.StatusApplied {
		p.failOn(f, i, e, err)
		return
	}
	if foreign && r.Status == edit.StatusApplied {
		if line, bad := foreignLine(before, r.Written); bad {
			p.failOn(f, i, e, encodingErr(line))
			return
		}
	}
	p.setMode(s, e)
	if r.Status == edit.StatusAlreadyApplied {
		p.held = append(p.held, heldCheck{i: i, f: f, k: len(f.fr.Edits), changes: f.changes})
	}
	p.record(f, i, EditResult{Status: r.Status, Strategy: r.Strategy,
		LineStart: r.LineStart, LineEnd: r.LineEnd, Occurrences: r.Occurrences, Matched: r.Matched, Written: r.Written, Note: r.Note})
	p.logLocated(r)
}

// streamMin is the smallest content whose after hash a Doc's batch
// computes as it goes (hashStream): below it, hashing after planning
// costs less than a goroutine's start.
const streamMin = 128 << 10

// sync puts the content of s's Doc, if any, in s.cur and lets the Doc go:
// before an edit other than a Replace reads or moves the content, and,
// final, when planning is over, when the hash a batch streamed is the
// content's.
func (p *planner) sync(s *slot, final bool) {
	if s.doc == nil {
		return
	}
	if final && p.noAfter {
		// Planning is over, and nothing reads the content but commit and
		// the receipt's hash: it stays in pieces (see fsio.State.Pieces).
		if ps, n, changed := s.doc.Pieces(final); changed {
			s.cur.Data, s.cur.Pieces = nil, fsio.ChunksOf(ps)
			if n == 0 {
				s.cur.Data, s.cur.Pieces = []byte{}, nil
			}
		}
	} else if data, changed := s.doc.Bytes(final); changed {
		s.cur.Data = data
	}
	if s.hs != nil {
		if !final {
			s.hs.Stop()
		} else if d := s.hs.finish(); d != nil {
			s.streamed, s.streamedOf = d, s.cur
		}
		s.hs = nil
	}
	s.doc = nil
}

// text is s's current content without its BOM.
func (p *planner) text(s *slot) string {
	if s.doc != nil {
		return s.doc.Text()
	}
	body, _ := splitBOM(s.cur.Data)
	return body
}
