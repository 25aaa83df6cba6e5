package report

import (
	"encoding/json"
	"io"

	"github.com/edapply/edapply/apply"
)

// Receipt is the wire form of an [apply.Result], the object `--json` prints
// (CONTRACT.md, "Receipt"). Files and Errors are never nil, so a consumer
// always finds arrays.
type Receipt struct {
	OK          bool        `json:"ok"`
	DryRun      bool        `json:"dry_run"`
	Files       []WireFile  `json:"files"`
	Errors      []WireError `json:"errors"`
	Normalized  string      `json:"normalized,omitempty"`   // the response as applied; set by the caller that computed it
	CheckOutput string      `json:"check_output,omitempty"` // tail of --check's output, when it ran
}

// WireFile is the wire form of an [apply.FileResult]. A hash is "" when
// there is no content on that side: before a create, after a delete.
type WireFile struct {
	Path       string     `json:"path"`
	NewPath    string     `json:"new_path,omitempty"` // rename destination
	Op         string     `json:"op"`
	BeforeHash string     `json:"before_hash"`
	AfterHash  string     `json:"after_hash"`
	Edits      []WireEdit `json:"edits"`
}

// WireEdit is the wire form of an [apply.EditResult]. Lines are 1-based
// and inclusive, 0 when the edit located nothing (a create, a failure).
type WireEdit struct {
	Index     int    `json:"index"`
	Status    string `json:"status"`
	Strategy  string `json:"strategy"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
	Repaired  bool   `json:"repaired,omitempty"` // a --repair fixer's edit was applied in its place
}

// NewReceipt converts res to its wire form.
func NewReceipt(res *apply.Result) Receipt {
	r := Receipt{
		OK:          res.OK,
		DryRun:      res.DryRun,
		Files:       make([]WireFile, 0, len(res.Files)),
		Errors:      make([]WireError, 0, len(res.Errors)),
		CheckOutput: res.CheckOutput,
	}
	for _, f := range res.Files {
		wf := WireFile{Path: f.Path, NewPath: f.NewPath, Op: f.Op, BeforeHash: f.BeforeHash, AfterHash: f.AfterHash,
			Edits: make([]WireEdit, 0, len(f.Edits))}
		for _, e := range f.Edits {
			wf.Edits = append(wf.Edits, WireEdit{Index: e.Index, Status: string(e.Status), Strategy: string(e.Strategy),
				LineStart: e.LineStart, LineEnd: e.LineEnd, Repaired: e.Repaired})
		}
		r.Files = append(r.Files, wf)
	}
	for _, e := range res.Errors {
		r.Errors = append(r.Errors, NewWireError(e))
	}
	return r
}

// JSON writes res as one compact JSON object and a newline, so a harness
// can read receipts line by line.
func JSON(w io.Writer, res *apply.Result) error {
	return WriteReceipt(w, NewReceipt(res))
}

// WriteReceipt writes r as JSON prints it; for a caller that filled in
// fields a Result does not carry, such as Normalized.
func WriteReceipt(w io.Writer, r Receipt) error {
	enc := json.NewEncoder(w)
	// Source text belongs in the receipt as written: "<" and "&" stay
	// readable rather than becoming \u003c.
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
