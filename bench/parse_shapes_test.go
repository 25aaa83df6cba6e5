package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/parse"
)

// BenchmarkParseFenceRun parses a run of path lines and fences ("f.go",
// "```go") before one SEARCH/REPLACE block, at 4,000, 16,000 and 64,000
// pairs (44 KB to 704 KB): each fence is a candidate file whose content
// would run to the block. Linear work grows ns/op by 4 and 16.
func BenchmarkParseFenceRun(b *testing.B) {
	for _, n := range []int{4000, 16000, 64000} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			reply := strings.Repeat("f.go\n```go\n", n) +
				"f.go\n```go\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n"
			if edits, errs := parse.Parse(reply, parse.Options{}); len(edits) != 1 || len(errs) > 0 {
				b.Fatalf("parsed %d edits and %d errors, want the one block", len(edits), len(errs))
			}
			benchParse(b, reply)
		})
	}
}

// BenchmarkParseSmallFiles parses a run of small whole-file fences ("f.go",
// "```go", "x", "```") with nothing else, at 4,000, 16,000 and 64,000
// files: after each close, the fences up to the next edit region are
// weighed for the file's true close. Linear work grows ns/op by 4 and 16.
func BenchmarkParseSmallFiles(b *testing.B) {
	for _, n := range []int{4000, 16000, 64000} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			reply := strings.Repeat("f.go\n```go\nx\n```\n", n)
			if edits, errs := parse.Parse(reply, parse.Options{}); len(edits) == 0 || len(errs) > 0 {
				b.Fatalf("parsed %d edits and %d errors, want whole files", len(edits), len(errs))
			}
			benchParse(b, reply)
		})
	}
}

// BenchmarkParseManyErrors parses a reply of unclosed SEARCH markers, one
// a line, at 100,000, 400,000 and 1,600,000 lines: every line is an
// error, of which the parser keeps a few and counts the rest.
func BenchmarkParseManyErrors(b *testing.B) {
	for _, n := range []int{100000, 400000, 1600000} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			reply := strings.Repeat("<<<<<<< SEARCH\n", n)
			if _, errs := parse.Parse(reply, parse.Options{}); len(errs) == 0 || len(errs) > 100 {
				b.Fatalf("parsed %d errors, want a few", len(errs))
			}
			benchParse(b, reply)
		})
	}
}

// BenchmarkParseOpenCalls parses a run of lines that each open a JSON
// tool call and never close it ({"old_str": "x",) before one
// SEARCH/REPLACE block, at 4,000, 16,000 and 64,000 lines: each line is
// tried as a call. Linear work grows ns/op by 4 and 16.
func BenchmarkParseOpenCalls(b *testing.B) {
	for _, n := range []int{4000, 16000, 64000} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			reply := strings.Repeat(`{"old_str": "x",`+"\n", n) +
				"f.go\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
			if edits, errs := parse.Parse(reply, parse.Options{}); len(edits) != 1 || len(errs) == 0 {
				b.Fatalf("parsed %d edits and %d errors, want the block and the broken calls", len(edits), len(errs))
			}
			benchParse(b, reply)
		})
	}
}

// benchParse times parsing reply, in CPU time as well.
func benchParse(b *testing.B, reply string) {
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	var m meter
	for b.Loop() {
		m.run(func() error { parse.Parse(reply, parse.Options{}); return nil })
	}
	m.report(b)
}
