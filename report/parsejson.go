package report

import (
	"encoding/json"
	"io"

	"github.com/edapply/edapply/edit"
)

// ParsedEdit is the wire form of one edit in `edapply parse` output.
type ParsedEdit struct {
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

// ParseOutput is the wire form of `edapply parse`.
type ParseOutput struct {
	Edits  []ParsedEdit `json:"edits"`
	Errors []WireError  `json:"errors"`
}

// NewParseOutput converts parsed edits and errors to their wire form.
func NewParseOutput(edits []edit.Edit, errs edit.ErrorList) ParseOutput {
	out := ParseOutput{Edits: []ParsedEdit{}, Errors: []WireError{}}
	for _, e := range edits {
		pe := ParsedEdit{Op: e.Op.String(), Path: e.Path, Hint: e.Hint, Anchors: e.Anchors, AtEOF: e.AtEOF,
			Format: e.Format, Line: e.Line, Block: e.Block, Start: e.Start, End: e.End}
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
			pe.Mode = "0" + formatOctal(e.Mode)
		}
		out.Edits = append(out.Edits, pe)
	}
	for _, e := range errs {
		out.Errors = append(out.Errors, NewWireError(e))
	}
	return out
}

func formatOctal(m uint32) string {
	const digits = "01234567"
	if m == 0 {
		return "0"
	}
	var b []byte
	for ; m > 0; m /= 8 {
		b = append([]byte{digits[m%8]}, b...)
	}
	return string(b)
}

// WireCandidate is the wire form of an [edit.Candidate].
type WireCandidate struct {
	LineStart  int     `json:"line_start"`
	LineEnd    int     `json:"line_end"`
	Similarity float64 `json:"similarity"`
	Excerpt    string  `json:"excerpt"`
}

// WireError is the wire form of an [edit.Error], as the receipt's "errors" holds it.
type WireError struct {
	Code       string          `json:"code"`
	Path       string          `json:"path,omitempty"`
	Edit       *int            `json:"edit,omitempty"`
	Line       int             `json:"line,omitempty"`
	Message    string          `json:"message"`
	Candidates []WireCandidate `json:"candidates,omitempty"`
	Hint       string          `json:"hint,omitempty"`
}

// NewWireError converts e to its wire form.
func NewWireError(e *edit.Error) WireError {
	w := WireError{Code: string(e.Code), Path: e.Path, Line: e.Line, Message: e.Msg, Hint: e.Hint}
	if w.Message == "" {
		w.Message = e.Error()
	}
	if e.Edit >= 0 {
		i := e.Edit
		w.Edit = &i
	}
	for _, c := range e.Candidates {
		w.Candidates = append(w.Candidates, WireCandidate{c.LineStart, c.LineEnd, c.Similarity, c.Excerpt})
	}
	return w
}

// ParseJSON writes parsed edits and errors as indented JSON.
func ParseJSON(w io.Writer, edits []edit.Edit, errs edit.ErrorList) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(NewParseOutput(edits, errs))
}
