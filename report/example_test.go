package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

// A Go program applies a model's reply with three calls: parse.Parse,
// apply.Apply, report.WriteJSON (or report.Human).
func Example() {
	dir, err := os.MkdirTemp("", "edapply-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "tree")
	os.Mkdir(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\nbeta\n"), 0o644)

	reply := "a.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n"
	edits, perrs := parse.Parse(reply, parse.Options{})
	if len(perrs) > 0 {
		log.Fatal(perrs.Err()) // a region did not parse: write nothing
	}
	// StateDir keeps the undo journal out of the user's state directory;
	// a program may leave it empty.
	res, err := apply.Apply(context.Background(), edits, apply.Options{Root: root, StateDir: filepath.Join(dir, "state")})
	report.WriteJSON(os.Stdout, report.NewReceipt(res)) // the receipt, also on failure
	fmt.Println("error:", err)
	// Output:
	// {"ok":true,"dry_run":false,"files":[{"path":"a.txt","op":"modify","before_hash":"e49c81e2d2f84e259d40e2fb8192f3bcd198b355184845d76d8f58807d0d78ee","after_hash":"69726aa4696684f51191101c90b115e8cf6e01d6339e158d01b69ca692562fbf","edits":[{"index":0,"status":"applied","strategy":"exact","line_start":2,"line_end":2}]}],"errors":[]}
	// error: <nil>
}

// applied is the Result of a one-edit apply that located its text with the
// trailing-ws level of the ladder.
func applied() *apply.Result {
	before := []byte("alpha  \nbeta\n")
	after := []byte("ALPHA\nbeta\n")
	return &apply.Result{
		OK: true,
		Files: []*apply.FileResult{{
			Path: "a.txt", Op: "modify",
			BeforeHash: apply.HashBytes(before), AfterHash: apply.HashBytes(after),
			Before: before, After: after,
			Edits: []apply.EditResult{{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyTrailingWS, LineStart: 1, LineEnd: 1}},
		}},
	}
}

// refused is the Result of an apply whose second edit matched nowhere:
// nothing was written, and the error names the near miss.
func refused() *apply.Result {
	res := applied()
	res.OK = false
	f := res.Files[0]
	f.AfterHash, f.Edits[0].Status = f.BeforeHash, edit.StatusMatched
	f.Edits = append(f.Edits, apply.EditResult{Index: 1, Status: edit.StatusFailed})
	res.Errors = edit.ErrorList{{
		Code: edit.CodeNoMatch, Path: "a.txt", Edit: 1,
		Msg:        "SEARCH text not found in a.txt",
		Candidates: []edit.Candidate{{LineStart: 2, LineEnd: 2, Similarity: 0.75, Excerpt: "beta\n"}},
		Hint:       "Copy the lines exactly as they stand in the file at line 2.",
	}}
	return res
}

// JSON writes the receipt as one line, for a harness to read line by line;
// it is indented here only to be read.
func ExampleWriteJSON() {
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, report.NewReceipt(refused())); err != nil {
		panic(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		panic(err)
	}
	out.WriteTo(os.Stdout)
	// Output:
	// {
	//   "ok": false,
	//   "dry_run": false,
	//   "files": [
	//     {
	//       "path": "a.txt",
	//       "op": "modify",
	//       "before_hash": "421f07b92161d9e26a8fd2e5fd8a3dc9edd66b12f6dfbbde13ab1d9e2e41c8cd",
	//       "after_hash": "421f07b92161d9e26a8fd2e5fd8a3dc9edd66b12f6dfbbde13ab1d9e2e41c8cd",
	//       "edits": [
	//         {
	//           "index": 0,
	//           "status": "matched",
	//           "strategy": "trailing-ws",
	//           "line_start": 1,
	//           "line_end": 1
	//         },
	//         {
	//           "index": 1,
	//           "status": "failed",
	//           "strategy": "",
	//           "line_start": 0,
	//           "line_end": 0
	//         }
	//       ]
	//     }
	//   ],
	//   "errors": [
	//     {
	//       "code": "NO_MATCH",
	//       "path": "a.txt",
	//       "edit": 1,
	//       "message": "SEARCH text not found in a.txt",
	//       "candidates": [
	//         {
	//           "line_start": 2,
	//           "line_end": 2,
	//           "similarity": 0.75,
	//           "excerpt": "beta\n"
	//         }
	//       ],
	//       "hint": "Copy the lines exactly as they stand in the file at line 2."
	//     }
	//   ]
	// }
}

// Human writes the receipt a person reads; colored is false here, as it is
// for a writer that is not a terminal.
func ExampleHuman() {
	if err := report.Human(os.Stdout, refused(), false); err != nil {
		panic(err)
	}
	// Output:
	// modify a.txt
	//   ○ edit 0: matched, not written (trailing-ws, line 1)
	//   ✗ edit 1: failed
	//
	// ✗ NO_MATCH a.txt, edit 1: SEARCH text not found in a.txt
	//   candidate line 2 (75% similar):
	//     │ beta
	//   hint: Copy the lines exactly as they stand in the file at line 2.
	//
	// 1 error; nothing written
}
