package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/textcut"
	"github.com/edapply/edapply/report"
)

// TestReceiptSizeOfLargeReply applies a reply of more than 10 MiB, every
// edit exact, and bounds the JSON receipt: it holds each file's hashes and
// each edit's entry, not the reply's text, so it stays under 1 MiB. The
// same reply with one edit's SEARCH text indented differently would carry
// "normalized", the whole reply as applied, which passes the receipt's
// budget: the receipt leaves it out and says so in "cut".
func TestReceiptSizeOfLargeReply(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10 MiB reply")
	}
	const (
		nFiles, lines   = 110, 2000
		perFile, window = 20, 80 // each edit quotes 80 lines and adds one
	)
	files := gen.Tree(22, nFiles, lines)
	var blocks []gen.Block
	for _, f := range files {
		ls := strings.SplitAfter(string(f.Src), "\n")
		for k := range perFile {
			at := k * (len(ls) / perFile)
			old := strings.Join(ls[at:at+window], "")
			blocks = append(blocks, gen.Block{Path: f.Path, Search: old, Replace: old + "\t// reviewed\n"})
		}
	}
	reply := gen.SearchReplace(blocks)
	if len(reply) < 10<<20 {
		t.Fatalf("reply is %d bytes; the test means a reply of 10 MiB or more", len(reply))
	}

	receipt := func(reply []byte) (map[string]any, int) {
		t.Helper()
		root := t.TempDir()
		if err := gen.WriteTree(root, files); err != nil {
			t.Fatal(err)
		}
		t.Setenv("XDG_STATE_HOME", t.TempDir())
		// Syncs are not what this test is about; on a slow disk they take seconds.
		opts := &applyOptions{planOptions: planOptions{root: root, format: edit.FormatAuto}, json: true, attempts: 1, noSync: true}
		var out, errOut bytes.Buffer
		if err := runApply(context.Background(), opts, bytes.NewReader(reply), &out, &errOut); err != nil {
			t.Fatalf("apply: %v\n%s", err, errOut.Bytes())
		}
		var r map[string]any
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r["ok"] != true {
			t.Fatalf("reply did not apply: %s", out.Bytes()[:min(out.Len(), 2000)])
		}
		return r, out.Len()
	}

	r, size := receipt(reply)
	if r["normalized"] != nil {
		t.Errorf("receipt of a reply applied as sent carries normalized")
	}
	if size >= 1<<20 {
		t.Errorf("receipt of a %d-byte reply is %d bytes, want under 1 MiB", len(reply), size)
	}

	// The first block's SEARCH lines gain a leading tab: the indentation
	// rung locates it, and the reply as applied differs from the reply.
	first := blocks[0].Search
	drifted := bytes.Replace(reply, []byte(first), []byte("\t"+strings.ReplaceAll(strings.TrimSuffix(first, "\n"), "\n", "\n\t")+"\n"), 1)
	r, size = receipt(drifted)
	cut, _ := r["cut"].(string)
	if r["normalized"] != nil || !strings.Contains(cut, "normalized") || size >= 1<<20 {
		t.Errorf("receipt of a 10 MiB reply located tolerantly: %d bytes, normalized %v, cut %q; want normalized left out and said so",
			size, r["normalized"] != nil, cut)
	}
}

// TestReceiptSizeOfManyFailures applies a reply of 100,000 blocks whose
// SEARCH text stands nowhere: the JSON receipt and the human one each
// stay within textcut.Budget, list the first errors and say how
// many more there are.
func TestReceiptSizeOfManyFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("applies 100,000 edits")
	}
	var blocks []gen.Block
	for i := range 100000 {
		blocks = append(blocks, gen.Block{Path: "a.go", Search: fmt.Sprintf("missing line %d\n", i), Replace: "new\n"})
	}
	reply := gen.SearchReplace(blocks)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc A() int {\n\treturn 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, asJSON := range []bool{true, false} {
		opts := &applyOptions{planOptions: planOptions{root: root, format: edit.FormatAuto}, json: asJSON, attempts: 1, noSync: true}
		var out, errOut bytes.Buffer
		runApply(context.Background(), opts, bytes.NewReader(reply), &out, &errOut)
		if out.Len() > textcut.Budget+1 {
			t.Errorf("receipt (json %v) of 100,000 failures is %d bytes, want at most %d", asJSON, out.Len(), textcut.Budget)
		}
		if !asJSON {
			if !strings.Contains(out.String(), "more errors not shown") {
				t.Errorf("text receipt does not count the errors it leaves out")
			}
			continue
		}
		var r report.Receipt
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("receipt is not JSON: %v", err)
		}
		if len(r.Errors) == 0 || r.Errors[0].Code != "NO_MATCH" || !strings.Contains(r.Cut, "more errors") {
			t.Errorf("receipt lists %d errors, cut %q; want the first and the count of the rest", len(r.Errors), r.Cut)
		}
	}
}

// TestParseOutputBounded parses a reply of 100,000 edits, one of them
// with a 3 MiB replacement, and a marker line of a broken block: the
// output stays within the receipts' budget, is one JSON object, keeps the
// error and the first edits, and says in "cut" how many edits it left out
// and that a text was cut.
func TestParseOutputBounded(t *testing.T) {
	const n = 100_000
	var b strings.Builder
	fmt.Fprintf(&b, "big.txt\n<<<<<<< SEARCH\nold\n=======\n%s>>>>>>> REPLACE\n\n", strings.Repeat("new text line\n", 3<<20/14))
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "f%d.go\n<<<<<<< SEARCH\nold %d\n=======\nnew %d\n>>>>>>> REPLACE\n\n", i, i, i)
	}
	b.WriteString("g.go\n<<<<<<< SEARCH\nnever closed\n")
	var out bytes.Buffer
	err := runParse(&parseOptions{root: t.TempDir()}, strings.NewReader(b.String()), &out)
	if code := exitCode(nil, err, io.Discard); code != exitFailed {
		t.Fatalf("parse exit %d (%v), want %d: one region failed", code, err, exitFailed)
	}
	if out.Len() > textcut.Budget {
		t.Fatalf("parse output is %d bytes, want at most %d", out.Len(), textcut.Budget)
	}
	var got struct {
		Edits []struct {
			Path string `json:"path"`
			New  string `json:"new"`
		} `json:"edits"`
		Errors []struct {
			Code string `json:"code"`
		} `json:"errors"`
		Cut string `json:"cut"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("parse output is no JSON object: %v", err)
	}
	if len(got.Errors) != 1 || got.Errors[0].Code != "PARSE_ERROR" {
		t.Errorf("errors %+v, want the one PARSE_ERROR", got.Errors)
	}
	if len(got.Edits) < 1000 || got.Edits[0].Path != "big.txt" || got.Edits[1].Path != "f1.go" {
		t.Fatalf("kept %d edits, first %+v; want the first thousands in order", len(got.Edits), got.Edits[:min(2, len(got.Edits))])
	}
	if !strings.Contains(got.Edits[0].New, "more bytes not shown") || len(got.Edits[0].New) > 70<<10 {
		t.Errorf("the 3 MiB replacement is %d bytes, not cut with a marker", len(got.Edits[0].New))
	}
	want := fmt.Sprintf("output cut at 1 MiB; not shown: %d more edits, part of the text of 1 edit", n-len(got.Edits))
	if got.Cut != want {
		t.Errorf("cut = %q, want %q", got.Cut, want)
	}
}
