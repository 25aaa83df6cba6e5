package report

import (
	"bytes"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/normalize"
)

// Normalized rewrites src, the response whose edits were planned as res,
// to what res applied (see normalize.Reply): the Receipt's Normalized. It
// returns "" when the response as applied is byte for byte the response
// as sent, which the caller already holds: a receipt then stays small
// however large the reply, and the absence tells the caller that the
// reply may stand in the history as it is. Edits that cannot be
// rewritten stay as written, and the error names them.
func Normalized(src []byte, edits []edit.Edit, res *apply.Result) (string, error) {
	applied := appliedOf(res, edits)
	if normalize.AppliedAsWritten(src, edits, applied) {
		return "", nil
	}
	out, err := normalize.Reply(src, edits, applied)
	if out == nil || bytes.Equal(out, src) {
		return "", err
	}
	return string(out), err
}

// appliedOf turns the edits res reports as applied (or already applied)
// into what normalize.Reply renders: the text each located and wrote.
// Failed edits, deletions and renames have no entry and stay as written.
func appliedOf(res *apply.Result, edits []edit.Edit) []normalize.Applied {
	// Room for every result at once: grown by append, 20,000 entries of
	// 80 bytes allocate five times their 1.6 MB.
	n := 0
	for _, fr := range res.Files {
		n += len(fr.Edits)
	}
	as := make([]normalize.Applied, 0, n)
	for _, fr := range res.Files {
		for _, er := range fr.Edits {
			if er.Status == edit.StatusFailed || er.Index < 0 || er.Index >= len(edits) {
				continue
			}
			e := edits[er.Index]
			if er.Repaired {
				if er.Fix == nil {
					continue
				}
				e = *er.Fix
			}
			a := normalize.Applied{Index: er.Index, Op: e.Op, Path: e.Path, Line: er.LineStart, Repaired: er.Repaired}
			switch e.Op {
			case edit.Replace:
				if e.Count != 1 && !er.Repaired {
					// Only the first match is known; Reply leaves it.
					a.Old, a.New = e.Old, e.New
					break
				}
				a.Old, a.New = er.Matched, er.Written
				if er.Status == edit.StatusAlreadyApplied && e.Old != e.New {
					// The old text is gone; the edit keeps saying what it
					// replaced, and its replacement as it stands.
					a.Old = e.Old
				}
			case edit.Create:
				if er.Status == edit.StatusAlreadyApplied {
					continue // the content stands as sent, up to blanks
				}
				a.New = er.Written
			case edit.Rewrite:
				a.New = er.Written
				if b := fr.Before; len(b) > 0 && b[len(b)-1] != '\n' {
					// The applier drops one final newline from a rewrite
					// of a file that has none: send one more.
					a.New += "\n"
				}
			default:
				continue
			}
			as = append(as, a)
		}
	}
	return as
}
