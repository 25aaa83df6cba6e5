package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// Receipt is the wire form of an [apply.Result], the object `--json` prints
// (docs/contract.md, "Receipt"). Files and Errors are never nil, so a consumer
// always finds arrays.
type Receipt struct {
	OK         bool        `json:"ok"`
	DryRun     bool        `json:"dry_run"`
	Files      []wireFile  `json:"files"`
	Errors     []wireError `json:"errors"`
	Normalized string      `json:"normalized,omitempty"` // the response as applied; set by the caller that computed it
	// Verify is what became of --verify: "passed", "failed" or
	// "skipped" (nothing was written); absent without it.
	Verify       string `json:"verify,omitempty"`
	VerifyOutput string `json:"verify_output,omitempty"` // tail of --verify's output, when it ran
	// Undo is false, with UndoReason, when the apply wrote files but no
	// undo journal; absent otherwise.
	Undo       *bool  `json:"undo,omitempty"`
	UndoReason string `json:"undo_reason,omitempty"`
	// Cut says what a receipt that would pass receiptBudget left out
	// (see Bounded); absent when nothing was.
	Cut string `json:"cut,omitempty"`
}

// wireFile is the wire form of an [apply.FileResult]. A hash is "" when
// there is no content on that side: before a create, after a delete.
type wireFile struct {
	Path       string     `json:"path"`
	NewPath    string     `json:"new_path,omitempty"` // rename destination
	Op         string     `json:"op"`
	BeforeHash string     `json:"before_hash"`
	AfterHash  string     `json:"after_hash"`
	Edits      []wireEdit `json:"edits"`
	Diff       string     `json:"diff,omitempty"` // a successful dry run's unified diff of the file
}

// wireEdit is the wire form of an [apply.EditResult]. Lines are 1-based
// and inclusive, 0 when the edit located nothing (a create, a failure).
type wireEdit struct {
	Index     int    `json:"index"`
	Status    string `json:"status"`
	Strategy  string `json:"strategy"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
	Repaired  bool   `json:"repaired,omitempty"` // a --repair fixer's edit was applied in its place
	Note      string `json:"note,omitempty"`     // how a tool call's old text was read to locate it (a rescue)
	// Occurrences are the lines of each place an edit that replaced
	// several changed; absent for one.
	Occurrences []wireLines `json:"occurrences,omitempty"`
}

// wireLines is one place's 1-based, inclusive lines.
type wireLines struct {
	LineStart int `json:"line_start"`
	LineEnd   int `json:"line_end"`
}

// wireCandidate is the wire form of an [edit.Candidate]. A path candidate
// is {"path": …} alone; a line candidate has its line fields and no
// path (see MarshalJSON). The tags make every field optional for a schema
// derived from the type, as the MCP server's is.
type wireCandidate struct {
	Path       string  `json:"path,omitempty"`
	LineStart  int     `json:"line_start,omitempty"`
	LineEnd    int     `json:"line_end,omitempty"`
	Similarity float64 `json:"similarity,omitempty"`
	Excerpt    string  `json:"excerpt,omitempty"`
	Weak       bool    `json:"weak,omitempty"` // the closest region, but not close: not the place to copy from
}

// MarshalJSON writes a path candidate as its path alone, a line candidate
// as its line fields, the four of the contract always present.
func (c wireCandidate) MarshalJSON() ([]byte, error) {
	var v any
	if c.Path != "" {
		v = struct {
			Path string `json:"path"`
		}{c.Path}
	} else {
		v = struct {
			LineStart  int     `json:"line_start"`
			LineEnd    int     `json:"line_end"`
			Similarity float64 `json:"similarity"`
			Excerpt    string  `json:"excerpt"`
			Weak       bool    `json:"weak,omitempty"`
		}{c.LineStart, c.LineEnd, c.Similarity, c.Excerpt, c.Weak}
	}
	var buf bytes.Buffer
	if err := newEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// wireError is the wire form of an [edit.Error], as the receipt's "errors" holds it.
type wireError struct {
	Code       string          `json:"code"`
	Path       string          `json:"path,omitempty"`
	Edit       *int            `json:"edit,omitempty"`
	Line       int             `json:"line,omitempty"`
	Message    string          `json:"message"`
	Candidates []wireCandidate `json:"candidates,omitempty"`
	Hint       string          `json:"hint,omitempty"`
	Repair     string          `json:"repair,omitempty"` // why a --repair fixer did not fix this error
}

// newWireError converts e to its wire form.
func newWireError(e *edit.Error) wireError {
	w := wireError{Code: string(e.Code), Path: e.Path, Line: e.Line, Message: e.Msg, Hint: e.Hint, Repair: e.Repair}
	if w.Message == "" {
		w.Message = e.Error()
	}
	if e.Edit >= 0 {
		i := e.Edit
		w.Edit = &i
	}
	for _, c := range e.Candidates {
		w.Candidates = append(w.Candidates, wireCandidate{Path: c.Path, LineStart: c.LineStart, LineEnd: c.LineEnd,
			Similarity: c.Similarity, Excerpt: c.Excerpt, Weak: c.Weak})
	}
	return w
}

// repairInput is the wire form of an [apply.RepairRequest]: what a
// --repair fixer reads on stdin (docs/contract.md).
type repairInput struct {
	Edit        parsedEdit `json:"edit"`
	Error       wireError  `json:"error"`
	FileExcerpt string     `json:"file_excerpt"`
}

// RepairJSON returns req as a --repair fixer reads it on stdin: one JSON
// object holding the failed edit, its error and the file's excerpt.
func RepairJSON(req apply.RepairRequest) ([]byte, error) {
	return json.Marshal(repairInput{Edit: newParsedEdit(req.Edit), Error: newWireError(req.Err), FileExcerpt: req.FileExcerpt})
}

// NewReceipt converts res to its wire form.
func NewReceipt(res *apply.Result) Receipt {
	r := Receipt{
		OK:           res.OK,
		DryRun:       res.DryRun,
		Files:        make([]wireFile, 0, len(res.Files)),
		Errors:       make([]wireError, 0, len(res.Errors)),
		Verify:       res.Verify,
		VerifyOutput: res.VerifyOutput,
	}
	if res.NoUndo != "" {
		r.Undo, r.UndoReason = new(bool), res.NoUndo
	}
	for _, f := range res.Files {
		wf := wireFile{Path: f.Path, NewPath: f.NewPath, Op: f.Op, BeforeHash: f.BeforeHash, AfterHash: f.AfterHash,
			Edits: make([]wireEdit, 0, len(f.Edits))}
		if res.DryRun && res.OK {
			wf.Diff = string(fileDiff(f))
		}
		for _, e := range f.Edits {
			we := wireEdit{Index: e.Index, Status: string(e.Status), Strategy: string(e.Strategy),
				LineStart: e.LineStart, LineEnd: e.LineEnd, Repaired: e.Repaired, Note: e.Note}
			for _, o := range e.Occurrences {
				we.Occurrences = append(we.Occurrences, wireLines{o.Start, o.End})
			}
			wf.Edits = append(wf.Edits, we)
		}
		r.Files = append(r.Files, wf)
	}
	for _, e := range res.Errors {
		r.Errors = append(r.Errors, newWireError(e))
	}
	return r
}

// WriteJSON writes v, a wire form (a [Receipt], a [ReadOutput], a
// history), as one compact JSON object and a newline, so a harness can
// read receipts line by line.
//
// A Receipt is written as [Receipt.Bounded] cuts it to receiptBudget.
func WriteJSON(w io.Writer, v any) error {
	switch r := v.(type) {
	case Receipt:
		v = r.Bounded(receiptBudget)
	case *Receipt:
		v = r.Bounded(receiptBudget)
	}
	return newEncoder(w).Encode(v)
}

// newEncoder returns the encoder every JSON output uses. Source text
// belongs in it as written: "<" and "&" stay readable rather than
// becoming \u003c.
func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
