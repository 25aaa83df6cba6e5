package report

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/edapply/edapply/edit"
)

// parsedEdit is the wire form of one edit in `edapply parse` output.
type parsedEdit struct {
	Op      string   `json:"op"`
	Path    string   `json:"path"`
	Old     *string  `json:"old,omitempty"`
	New     *string  `json:"new,omitempty"`
	Count   *int     `json:"count,omitempty"`
	Hint    int      `json:"hint,omitempty"`
	Anchors []string `json:"anchors,omitempty"`
	AtEOF   bool     `json:"at_eof,omitempty"`
	Mode    string   `json:"mode,omitempty"`
	Format  string   `json:"format"`
	Line    int      `json:"line"`
	Block   int      `json:"block"`
	Start   int      `json:"start"`
	End     int      `json:"end"`
}

// parseOutput is the wire form of `edapply parse`.
type parseOutput struct {
	Edits  []parsedEdit `json:"edits"`
	Errors []wireError  `json:"errors"`
	// Cut says what an output past its budget left out (see ParseJSON).
	Cut string `json:"cut,omitempty"`
}

// newParsedEdit converts one edit to its wire form.
func newParsedEdit(e edit.Edit) parsedEdit {
	pe := parsedEdit{Op: e.Op.String(), Path: e.Path, Hint: e.Hint, Anchors: e.Anchors, AtEOF: e.AtEOF,
		Line: e.Line, Block: e.Block, Start: e.Start, End: e.End}
	if e.Format != edit.FormatAuto {
		pe.Format = e.Format.String() // an edit built by hand names none
	}
	switch e.Op {
	case edit.Replace:
		old, nw, c := e.Old, e.New, e.Count
		pe.Old, pe.New, pe.Count = &old, &nw, &c
	case edit.Delete:
		if e.Old != "" {
			old := e.Old
			pe.Old = &old
		}
	case edit.Create, edit.Rewrite, edit.Rename:
		nw := e.New
		pe.New = &nw
	}
	if e.Mode != 0 {
		pe.Mode = "0" + strconv.FormatUint(uint64(e.Mode), 8)
	}
	return pe
}

// ParseJSON writes parsed edits and errors as indented JSON, within
// receiptBudget bytes whatever the reply: every text is cut to
// fieldBudget, then, when the whole passes the budget, the errors and the
// edits that fit are written, errors first, each side taking half and
// what the other does not need, and "cut" says how many of each were left
// out. The cost is linear in what is written, not in the reply.
func ParseJSON(w io.Writer, edits []edit.Edit, errs edit.ErrorList) error {
	enc := newEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(boundedParseOutput(edits, errs, receiptBudget))
}

// boundedParseOutput is the wire form of edits and errs, cut to budget
// bytes of indented JSON (see ParseJSON).
func boundedParseOutput(edits []edit.Edit, errs edit.ErrorList, budget int) parseOutput {
	out := parseOutput{Edits: []parsedEdit{}, Errors: []wireError{}}
	var textCut []bool // of each edit in out.Edits, whether a text of it was cut
	wireErr := func(i int) wireError {
		we, _ := newWireError(errs[i]).clipped()
		return we
	}
	wireEdit := func(i int) parsedEdit {
		pe := newParsedEdit(edits[i])
		pe.clip()
		return pe
	}
	avail := budget - cutReserve
	// How much the edits need, up to all of avail: what the errors may use.
	_, editNeed := fitItems(len(edits), func(i int) int { return indentedSize(wireEdit(i)) }, avail)
	keptErrs, used := fitItems(len(errs), func(i int) int {
		we := wireErr(i)
		out.Errors = append(out.Errors, we)
		return indentedSize(we)
	}, max(avail/2, avail-editNeed))
	out.Errors = out.Errors[:keptErrs]
	keptEdits, _ := fitItems(len(edits), func(i int) int {
		pe := newParsedEdit(edits[i])
		textCut = append(textCut, pe.clip())
		out.Edits = append(out.Edits, pe)
		return indentedSize(pe)
	}, avail-used)
	out.Edits = out.Edits[:keptEdits]
	clipped := 0
	for _, c := range textCut[:keptEdits] {
		if c {
			clipped++
		}
	}
	var cut []string
	if n := len(errs) - keptErrs; n > 0 {
		cut = append(cut, plural(n, "more error"))
	}
	if n := len(edits) - keptEdits; n > 0 {
		cut = append(cut, plural(n, "more edit"))
	}
	if clipped > 0 {
		cut = append(cut, "part of the text of "+plural(clipped, "edit"))
	}
	if len(cut) > 0 {
		out.Cut = "output cut at " + budgetName + "; not shown: " + strings.Join(cut, ", ")
	}
	return out
}

// fitItems returns how many of the first n items, of size(i) bytes each,
// fit in room, and the bytes they take; it stops at the first that does
// not fit, so its cost is bounded by room, not n.
func fitItems(n int, size func(i int) int, room int) (kept, used int) {
	for kept < n {
		s := size(kept)
		if used+s > room {
			break
		}
		used += s
		kept++
	}
	return kept, used
}

// indentedSize is the length of v as ParseJSON writes an item of its
// lists: indented two levels, and the comma and newline after it.
func indentedSize(v any) int {
	b, err := json.MarshalIndent(v, "    ", "  ")
	if err != nil {
		return 0
	}
	return len(b) + len("    ,\n")
}

// clip cuts each text of pe to fieldBudget, and reports whether any was.
func (pe *parsedEdit) clip() bool {
	cut := false
	c := func(s string) string {
		cut = cut || len(s) > fieldBudget
		return clip(s, fieldBudget)
	}
	pe.Path = c(pe.Path)
	if pe.Old != nil {
		old := c(*pe.Old)
		pe.Old = &old
	}
	if pe.New != nil {
		nw := c(*pe.New)
		pe.New = &nw
	}
	if len(pe.Anchors) > 0 {
		as := make([]string, 0, len(pe.Anchors))
		room := fieldBudget
		for _, a := range pe.Anchors {
			if room <= 0 {
				cut = true
				break
			}
			a = c(a)
			room -= len(a)
			as = append(as, a)
		}
		pe.Anchors = as
	}
	return cut
}
