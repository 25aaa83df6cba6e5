package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/edapply/edapply/internal/textcut"
)

// receiptBudget is the most bytes one receipt takes (textcut.Budget).
const receiptBudget = textcut.Budget

// fieldBudget is the most bytes of any one text a receipt quotes (a
// message, hint, note, excerpt, path, --verify output) before the rest is
// cut with a marker: no one field may crowd out the others.
const fieldBudget = 64 << 10

// cutReserve is what a bounded receipt keeps free for the note saying
// what it left out.
const cutReserve = 4 << 10

// clip returns s cut to at most n bytes, at a rune boundary (at a line
// break when there is one in the last quarter kept), followed by a line
// saying how many bytes were cut; s itself when it fits.
func clip(s string, n int) string { return textcut.Cut(s, n) }

// budgetName is the receipt's budget as the cut markers name it.
const budgetName = textcut.BudgetName

// jsonSize is the length of v's JSON encoding.
func jsonSize(v any) int {
	var buf bytes.Buffer
	if err := newEncoder(&buf).Encode(v); err != nil {
		return 0
	}
	return buf.Len() - 1 // the newline
}

// textSize is the length of s as a JSON string, or, for a text longer
// than budget that no receipt holds whole, its length in bytes.
func textSize(s string, budget int) int {
	if len(s) > budget {
		return len(s)
	}
	return jsonSize(s)
}

// clipFields cuts every text of r to fieldBudget, and each error's
// candidates to those whose excerpts fit in 2×fieldBudget, returning how
// many candidates it left out.
func (r *Receipt) clipFields() (dropped int) {
	r.VerifyOutput = clip(r.VerifyOutput, fieldBudget)
	r.UndoReason = clip(r.UndoReason, fieldBudget)
	for i := range r.Files {
		f := &r.Files[i]
		f.Path, f.NewPath = clip(f.Path, fieldBudget), clip(f.NewPath, fieldBudget)
		for j := range f.Edits {
			f.Edits[j].Note = clip(f.Edits[j].Note, fieldBudget)
		}
	}
	for i := range r.Errors {
		var n int
		r.Errors[i], n = r.Errors[i].clipped()
		dropped += n
	}
	return dropped
}

// clipped is e with its texts cut to fieldBudget and the candidates
// whose excerpts fit in 2×fieldBudget, the first always; dropped counts
// the others.
func (e wireError) clipped() (_ wireError, dropped int) {
	e.Path, e.Message = clip(e.Path, fieldBudget), clip(e.Message, fieldBudget)
	e.Hint, e.Repair = clip(e.Hint, fieldBudget), clip(e.Repair, fieldBudget)
	if len(e.Candidates) > 0 {
		cs := make([]wireCandidate, 0, len(e.Candidates))
		shown := 0
		for _, c := range e.Candidates {
			size := min(len(c.Path), fieldBudget) + min(len(c.Excerpt), fieldBudget)
			if len(cs) > 0 && shown+size > 2*fieldBudget {
				break
			}
			shown += size
			c.Path, c.Excerpt = clip(c.Path, fieldBudget), clip(c.Excerpt, fieldBudget)
			cs = append(cs, c)
		}
		dropped = len(e.Candidates) - len(cs)
		e.Candidates = cs
	}
	return e, dropped
}

// Bounded returns r cut to at most budget bytes of JSON: every text to
// fieldBudget, then, when the whole still passes budget, without
// Normalized (a piece of a response is no response to send again), and
// with the errors and the files' edits and diffs that fit, errors first.
// Cut says what was left out; a receipt that fits is returned whole. The
// cost is linear in r.
func (r Receipt) Bounded(budget int) Receipt {
	// The cut is the copy's: the caller's receipt stays as it was.
	r.Files, r.Errors = slices.Clone(r.Files), slices.Clone(r.Errors)
	for i := range r.Files {
		r.Files[i].Edits = slices.Clone(r.Files[i].Edits)
	}
	var cut []string
	if n := r.clipFields(); n > 0 {
		cut = append(cut, plural(n, "more candidate"))
	}

	errSizes := make([]int, len(r.Errors))
	errTotal := 0
	for i, e := range r.Errors {
		errSizes[i] = jsonSize(e) + 1
		errTotal += errSizes[i]
	}
	editSizes := make([][]int, len(r.Files))
	fileTotal := 0
	for i, f := range r.Files {
		env := f
		env.Edits, env.Diff = []wireEdit{}, ""
		sizes := make([]int, len(f.Edits)+2)
		sizes[0] = jsonSize(env) + 1
		for j, e := range f.Edits {
			sizes[j+1] = jsonSize(e) + 1
		}
		if f.Diff != "" {
			sizes[len(sizes)-1] = textSize(f.Diff, budget) + len(`,"diff":`)
		}
		editSizes[i] = sizes
		for _, s := range sizes {
			fileTotal += s
		}
	}
	rest := r
	rest.Files, rest.Errors, rest.Normalized = []wireFile{}, []wireError{}, ""
	base := jsonSize(rest)
	norm := 0
	if r.Normalized != "" {
		norm = textSize(r.Normalized, budget) + len(`,"normalized":`)
	}
	if base+norm+errTotal+fileTotal <= budget-cutReserve || base+norm+errTotal+fileTotal <= budget && len(cut) == 0 {
		if len(cut) > 0 {
			r.Cut = "receipt cut at " + budgetName + "; not shown: " + strings.Join(cut, ", ")
		}
		return r
	}

	if r.Normalized != "" {
		cut = append(cut, fmt.Sprintf("normalized (%d bytes)", len(r.Normalized)))
		r.Normalized = ""
	}
	avail := budget - base - cutReserve
	if base+errTotal+fileTotal > budget-cutReserve {
		// Errors first: they say what to do next. Each side gets half,
		// and what one does not need the other may use.
		errAvail := max(avail/2, avail-fileTotal)
		kept, used := 0, 0
		for kept < len(r.Errors) && used+errSizes[kept] <= errAvail {
			used += errSizes[kept]
			kept++
		}
		if n := len(r.Errors) - kept; n > 0 {
			cut = append(cut, plural(n, "more error"))
			r.Errors = r.Errors[:kept]
		}
		fileAvail := avail - used
		var moreEdits, moreFiles, cutDiffs int
		used = 0
		for i := range r.Files {
			f, sizes := &r.Files[i], editSizes[i]
			if used+sizes[0] > fileAvail {
				for _, f := range r.Files[i:] {
					moreEdits += len(f.Edits)
				}
				moreFiles = len(r.Files) - i
				r.Files = r.Files[:i]
				break
			}
			used += sizes[0]
			kept := 0
			for kept < len(f.Edits) && used+sizes[kept+1] <= fileAvail {
				used += sizes[kept+1]
				kept++
			}
			moreEdits += len(f.Edits) - kept
			f.Edits = f.Edits[:kept]
			diff := sizes[len(sizes)-1]
			if diff > 0 && used+diff > fileAvail {
				f.Diff = fitDiff(f.Diff, fileAvail-used-len(`,"diff":`))
				cutDiffs++
				diff = 0
				if f.Diff != "" {
					diff = jsonSize(f.Diff) + len(`,"diff":`)
				}
			}
			used += diff
		}
		if moreEdits > 0 {
			cut = append(cut, plural(moreEdits, "more edit"))
		}
		if moreFiles > 0 {
			cut = append(cut, plural(moreFiles, "more file"))
		}
		if cutDiffs > 0 {
			cut = append(cut, "part of "+plural(cutDiffs, "diff"))
		}
	}
	r.Cut = "receipt cut at " + budgetName + "; not shown: " + strings.Join(cut, ", ")
	return r
}

// fitDiff cuts the diff d to what takes at most room bytes of JSON, at a
// line break, with a marker line; "" when no line fits.
func fitDiff(d string, room int) string {
	n := room
	for n > 0 {
		c := clip(d, n)
		if jsonSize(c) <= room {
			if strings.HasPrefix(c, "…") {
				return ""
			}
			return c
		}
		n = n * 2 / 3
	}
	return ""
}
