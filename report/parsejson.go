package report

import (
	"io"
	"strconv"

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
}

// newParseOutput converts parsed edits and errors to their wire form.
func newParseOutput(edits []edit.Edit, errs edit.ErrorList) parseOutput {
	out := parseOutput{Edits: []parsedEdit{}, Errors: []wireError{}}
	for _, e := range edits {
		out.Edits = append(out.Edits, newParsedEdit(e))
	}
	for _, e := range errs {
		out.Errors = append(out.Errors, newWireError(e))
	}
	return out
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

// ParseJSON writes parsed edits and errors as indented JSON.
func ParseJSON(w io.Writer, edits []edit.Edit, errs edit.ErrorList) error {
	enc := newEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(newParseOutput(edits, errs))
}
