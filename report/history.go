package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/edapply/edapply/apply"
)

// WireCheckpoint is the wire form of an [apply.Checkpoint], as `edapply
// undo --list --json` prints it in {"history": [...]}.
type WireCheckpoint struct {
	ID      string       `json:"id,omitempty"`
	Time    string       `json:"time"` // RFC 3339
	Journal string       `json:"journal"`
	Files   []wireFileOp `json:"files"`
	Error   *wireError   `json:"error,omitempty"` // why undo cannot take it back
}

// wireFileOp is a file of a checkpoint and what the apply did to it.
type wireFileOp struct {
	Path string `json:"path"`
	Op   string `json:"op"`
}

// History writes the undo history cps, newest first: as one JSON object
// {"history": [...]}, or a line per apply, in local time.
func History(w io.Writer, cps []apply.Checkpoint, asJSON bool) error {
	if asJSON {
		return newEncoder(w).Encode(struct {
			History []WireCheckpoint `json:"history"`
		}{NewWireHistory(cps)})
	}
	if len(cps) == 0 {
		_, err := fmt.Fprintln(w, "nothing to undo in this root")
		return err
	}
	var b strings.Builder
	for i, cp := range cps {
		fmt.Fprintf(&b, "%d. %s", i+1, cp.Time.Local().Format("2006-01-02 15:04:05 MST"))
		if cp.Err != nil {
			fmt.Fprintf(&b, "  unusable: %s\n", newWireError(cp.Err).Message)
			continue
		}
		ops := make([]string, 0, len(cp.Files))
		for _, f := range cp.Files {
			ops = append(ops, f.Op+" "+f.Path)
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(ops, ", "))
	}
	b.WriteString("\n`edapply undo` takes back the first; each undo the next.\n")
	fmt.Fprintf(&b, "A root keeps its last %d applies, fewer once their journals would hold more than %d MiB (the newest is always kept).\n",
		apply.HistorySize, apply.HistoryBytes>>20)
	_, err := io.WriteString(w, b.String())
	return err
}

// NewWireHistory converts the undo history cps to its wire form, as
// History's JSON holds it; never nil.
func NewWireHistory(cps []apply.Checkpoint) []WireCheckpoint {
	ws := make([]WireCheckpoint, 0, len(cps))
	for _, cp := range cps {
		wc := WireCheckpoint{ID: cp.ID, Time: cp.Time.Format(time.RFC3339), Journal: cp.Journal, Files: []wireFileOp{}}
		for _, f := range cp.Files {
			wc.Files = append(wc.Files, wireFileOp{f.Path, f.Op})
		}
		if cp.Err != nil {
			we := newWireError(cp.Err)
			wc.Error = &we
		}
		ws = append(ws, wc)
	}
	return ws
}
