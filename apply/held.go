package apply

import (
	"context"
	"os"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/locate"
)

// An edit is already applied when its new text stands where it would go:
// in the content as the whole reply leaves it, not only as the edits
// before it left it. A later edit of the same reply may move that text
// away or change it (a block that wraps the lines another block found
// standing), and the receipt would then claim a text the file written
// lacks, and the result would depend on the order of the blocks. So once
// a reply is planned, the new text of each edit found already applied
// whose file a later edit changed is looked for in the file's final
// content (locate.Doc.Stands: as the ladder finds a text, anywhere); one
// whose text is gone is planned again, the whole reply with it, as an
// edit that may not be found already applied (locate.Doc.Force): it
// applies for real, or fails. The text is looked for, not the edit
// located again: a later edit that makes its old text stand twice
// changes nothing of the claim. That may change what later edits find,
// so the check repeats, up to maxHoldRounds rounds: a reply still not
// settled then is refused (the edits still unsettled fail), never
// reported on a guess.

// maxHoldRounds bounds the rounds of planning that holdAlready runs after
// the first: one settles every reply seen, and each forces at least one
// more edit, so a reply needs more only when its edits keep moving each
// other's text.
var maxHoldRounds = 4

// A heldCheck is an edit found already applied, to be checked in its
// file's final content: the edit at position i, on file f, whose result
// is f's k-th, found so when f had been changed changes times.
type heldCheck struct {
	i, k    int
	f       *file
	changes int
}

// holdAlready plans with plan, which plans the whole reply forcing the
// positions it is given, until every edit found already applied holds in
// its file's final content (see above), and returns the last planner.
func holdAlready(edits []edit.Edit, plan func(force map[int]bool) *planner) *planner {
	p := plan(nil)
	force := map[int]bool{}
	for round := 0; ; round++ {
		again := p.unheld(edits)
		if len(again) == 0 {
			return p
		}
		if round == maxHoldRounds {
			p.refuseUnheld(edits, again)
			return p
		}
		for i := range again {
			force[i] = true
		}
		p = plan(force)
	}
}

// refuseUnheld fails each edit at the positions again, found already
// applied in a content that the reply's later edits change, after every
// round holdAlready runs: a reply whose edits keep moving each other's
// text is refused, not reported on a guess.
func (p *planner) refuseUnheld(edits []edit.Edit, again map[int]bool) {
	for _, c := range p.held {
		if !again[c.i] {
			continue
		}
		e := &edits[c.i]
		p.fail(c.i, e, &edit.Error{Code: edit.CodeNoMatch,
			Msg:  "the edit's new text stands only until a later edit of this reply changes it, and applying it changes what other edits find",
			Hint: "Send this file's changes as fewer edits, each quoting the lines as the edits before it leave them."})
		for k := range c.f.fr.Edits {
			if er := &c.f.fr.Edits[k]; er.Index == p.index(c.i) {
				er.Status = edit.StatusFailed
			}
		}
	}
}

// unheld returns the positions of the edits found already applied whose
// new text does not stand in their file's final content.
func (p *planner) unheld(edits []edit.Edit) map[int]bool {
	var out map[int]bool
	docs := map[*file]*locate.Doc{}
	for _, c := range p.held {
		f := c.f
		if f.changes == c.changes || f.at == nil || !f.at.cur.Exists || f.fr.Edits[c.k].Status != edit.StatusAlreadyApplied {
			// Nothing changed the file after the edit (or the reply
			// deleted it): what the edit saw is what the reply leaves;
			// or the edit claims nothing any more (see supersede).
			continue
		}
		d, ok := docs[f]
		if !ok {
			d = locate.NewDoc(viewString(joinChunks(f.at.cur)), p.mopts)
			docs[f] = d
		}
		if d.Stands(&edits[c.i]) {
			continue
		}
		if out == nil {
			out = map[int]bool{}
		}
		out[c.i] = true
	}
	return out
}

// joinChunks is st's content as one slice: its data, or its pieces
// joined.
func joinChunks(st fsio.State) []byte {
	if st.Pieces == nil {
		return st.Data
	}
	b := make([]byte, 0, st.Size())
	for _, c := range st.Pieces {
		b = append(b, c...)
	}
	return b
}

// planReply plans edits in root, as Apply does without a fixer: until
// every edit found already applied holds (holdAlready), reading each file
// once over the rounds.
func planReply(ctx context.Context, root *os.Root, rs *paths.Resolver, hs *hasher, edits []edit.Edit, opts Options) *planner {
	cache := map[string]loaded{}
	dirs := &fsio.Dirs{Root: root} // shared by the rounds, closed by Apply
	return holdAlready(edits, func(force map[int]bool) *planner {
		p := newPlanner(root, rs, opts, nil, cache)
		p.hasher, p.dirs, p.force = hs, dirs, force
		p.plan(ctx, edits, opts.Base)
		return p
	})
}
