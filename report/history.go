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
	// MoreFiles counts the files past what one checkpoint's share of
	// historyBudget holds, left out of Files.
	MoreFiles int        `json:"more_files,omitempty"`
	Error     *wireError `json:"error,omitempty"` // why undo cannot take it back
}

// historyBudget bounds the undo history's answer, in JSON and as text,
// whatever the number of files an apply changed: half the receipts'
// budget, so that a tool result carrying both forms stays within it. Each
// checkpoint gets an equal share.
const historyBudget = receiptBudget / 2

// FilesLine is what the checkpoint wc did, on one line: "modify a.go,
// create b.go", and how many files more it changed than Files holds.
func (wc WireCheckpoint) FilesLine() string {
	ops := make([]string, 0, len(wc.Files))
	for _, f := range wc.Files {
		ops = append(ops, f.Op+" "+f.Path)
	}
	line := strings.Join(ops, ", ")
	if wc.MoreFiles > 0 {
		line += fmt.Sprintf(", and %s not shown (history cut at %s)", plural(wc.MoreFiles, "more file"), budgetName)
	}
	return line
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
	ws := NewWireHistory(cps)
	var b strings.Builder
	for i, cp := range cps {
		fmt.Fprintf(&b, "%d. %s", i+1, cp.Time.Local().Format("2006-01-02 15:04:05 MST"))
		if cp.Err != nil {
			fmt.Fprintf(&b, "  unusable: %s\n", ws[i].Error.Message)
			continue
		}
		fmt.Fprintf(&b, "  %s\n", ws[i].FilesLine())
	}
	b.WriteString("\n`edapply undo` takes back the first; each undo the next.\n")
	fmt.Fprintf(&b, "A root keeps its last %d applies, fewer once their journals would hold more than %d MiB (the newest is always kept).\n",
		apply.HistorySize, apply.HistoryBytes>>20)
	_, err := io.WriteString(w, b.String())
	return err
}

// NewWireHistory converts the undo history cps to its wire form, as
// History's JSON holds it, never nil: each checkpoint within its share of
// historyBudget, its files that fit, the rest counted in MoreFiles, its
// texts cut with a marker.
func NewWireHistory(cps []apply.Checkpoint) []WireCheckpoint {
	ws := make([]WireCheckpoint, 0, len(cps))
	share := historyBudget / max(len(cps), 1)
	for _, cp := range cps {
		wc := WireCheckpoint{ID: clip(cp.ID, share/8), Time: cp.Time.Format(time.RFC3339), Journal: clip(cp.Journal, share/8), Files: []wireFileOp{}}
		room := share - len(wc.ID) - len(wc.Journal) - 100
		if cp.Err != nil {
			we := newWireError(cp.Err)
			we.Path, we.Message, we.Hint = clip(we.Path, share/8), clip(we.Message, share/8), clip(we.Hint, share/8)
			we.Candidates = nil
			wc.Error = &we
			room -= jsonSize(we)
		}
		for i, f := range cp.Files {
			// A file's entry as JSON: {"path":"…","op":"…"}, and a comma.
			if room -= textSize(f.Path, share) + len(f.Op) + len(`{"path":,"op":""},`); room < 0 {
				wc.MoreFiles = len(cp.Files) - i
				break
			}
			wc.Files = append(wc.Files, wireFileOp{f.Path, f.Op})
		}
		ws = append(ws, wc)
	}
	return ws
}
