package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// historyOf is a history of n checkpoints, each of files created files.
func historyOf(n, files int) []apply.Checkpoint {
	cps := make([]apply.Checkpoint, n)
	for i := range cps {
		cps[i] = apply.Checkpoint{Journal: fmt.Sprintf("j%d.journal", i), ID: fmt.Sprintf("id%d", i), Time: time.Unix(int64(i), 0)}
		for k := range files {
			cps[i].Files = append(cps[i].Files, &apply.FileResult{Path: fmt.Sprintf("gen/dir%d/file%06d.txt", i, k), Op: "create"})
		}
	}
	return cps
}

// The undo history of applies that each created 100,000 files is
// answered within historyBudget, in JSON and as text: each apply lists
// the files that fit its share, first first, and counts the rest.
func TestHistoryBounded(t *testing.T) {
	const files = 100_000
	cps := historyOf(3, files)
	cps = append(cps, apply.Checkpoint{Journal: "bad", Time: time.Unix(9, 0),
		Err: &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "damaged journal: " + strings.Repeat("x", 1<<20)}})
	for _, asJSON := range []bool{true, false} {
		var b bytes.Buffer
		if err := History(&b, cps, asJSON); err != nil {
			t.Fatal(err)
		}
		if b.Len() > historyBudget+4<<10 {
			t.Errorf("history (json %v) is %d bytes, want at most %d", asJSON, b.Len(), historyBudget)
		}
		if !asJSON {
			if want := "more files not shown (history cut at 1 MiB)"; strings.Count(b.String(), want) != 3 {
				t.Errorf("text history does not say three times %q", want)
			}
			continue
		}
		var got struct{ History []WireCheckpoint }
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.History) != len(cps) {
			t.Fatalf("%d checkpoints, want %d", len(got.History), len(cps))
		}
		for i, wc := range got.History[:3] {
			if len(wc.Files) == 0 || wc.Files[0].Path != cps[i].Files[0].Path || len(wc.Files)+wc.MoreFiles != files {
				t.Errorf("checkpoint %d: %d files shown from %+v, %d more; want the first and the rest counted to %d",
					i, len(wc.Files), wc.Files[:min(1, len(wc.Files))], wc.MoreFiles, files)
			}
		}
		if e := got.History[3].Error; e == nil || !strings.Contains(e.Message, "more bytes not shown") {
			t.Errorf("a checkpoint's long error is not cut with a marker")
		}
	}
}

// A history that fits is answered whole.
func TestHistoryWhole(t *testing.T) {
	cps := historyOf(2, 3)
	ws := NewWireHistory(cps)
	for i, wc := range ws {
		if len(wc.Files) != 3 || wc.MoreFiles != 0 {
			t.Errorf("checkpoint %d: %d files, %d more; want 3, none", i, len(wc.Files), wc.MoreFiles)
		}
	}
	if got, want := ws[0].FilesLine(), "create gen/dir0/file000000.txt, create gen/dir0/file000001.txt, create gen/dir0/file000002.txt"; got != want {
		t.Errorf("FilesLine = %q, want %q", got, want)
	}
}
