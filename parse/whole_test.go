package parse

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/edapply/edapply/edit"
)

// TestParseWhole covers small layouts; the golden files cover whole
// responses.
func TestParseWhole(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []string // "path: content"
		errs int
	}{
		"basic":       {"a.go\n```go\nx\n```\n", []string{"a.go: x\n"}, 0},
		"empty":       {"a.txt\n```\n```\n", []string{"a.txt: "}, 0},
		"crlf":        {"a.go\r\n```go\r\nx\r\n```\r\n", []string{"a.go: x\r\n"}, 0},
		"noClosingNL": {"a.go\n```\nx\n```", []string{"a.go: x\n"}, 0},
		"longerClose": {"a.go\n```\nx\n`````\n", []string{"a.go: x\n"}, 0},
		"tildeInside": {"a.md\n~~~\n```\n~~~\n", []string{"a.md: ```\n"}, 0},
		"prose":       {"Look at a.go:\n```go\nx\n```\n", []string{"a.go: x\n"}, 0}, // -f whole: prose naming one file introduces it
		"noPath":      {"```go\nx\n```\n", nil, 0},
		"console":     {"a.go\n```console\n$ go run a.go\n```\n", nil, 0},
		"patch":       {"a.go\n```patch\nx\n```\n", nil, 0},
		"sr":          {"a.go\n```\n<<<<<<< SEARCH\n```\n", nil, 0},
		"udiff":       {"a.go\n```\n--- a/a.go\n+++ b/a.go\n```\n", nil, 0},
		"hunk":        {"a.go\n```\n@@ -1 +1 @@\n```\n", nil, 0},
		"hunkNoClose": {"a.go\n```\n@@ -1,3 +1,4\n-x\n+y\n```\n", nil, 0},
		"hunkBare":    {"a.go\n```\n@@ ... @@\n-x\n+y\n```\n", nil, 0},
		// A line that merely opens with "@@ " is the file's text: a Perl
		// heredoc's banner.
		"atAtText": {"bin/annotate\n```perl\nprint <<END\n@@ WARNING @@ WARNING @@\n@@\n@@ cause: changed\nEND\n```\n",
			[]string{"bin/annotate: print <<END\n@@ WARNING @@ WARNING @@\n@@\n@@ cause: changed\nEND\n"}, 0},
		"gitDiff":      {"a.go\n```\ndiff --git a/a.go b/a.go\n```\n", nil, 0},
		"codex":        {"a.go\n```\n*** Begin Patch\n*** Update File: a.go\n```\n", nil, 0},
		"codexAsText":  {"t.sh\n```\ncat <<EOF\n*** Begin Patch\nEOF\n```\n", []string{"t.sh: cat <<EOF\n*** Begin Patch\nEOF\n"}, 0},
		"toolCall":     {"edits.json\n```json\n{\"path\": \"a.go\", \"old_string\": \"x\", \"new_string\": \"y\"}\n```\n", nil, 0},
		"jsonFile":     {"package.json\n```json\n{\"name\": \"x\"}\n```\n", []string{"package.json: {\"name\": \"x\"}\n"}, 0},
		"truncated":    {"a.go\n```go\nx\n", nil, 1},
		"proseOpen":    {"```go\nx\n", nil, 0},
		"listingClose": {"```\n$ ls\na.go\n```\ntext\n```\n", nil, 0},
		"twoBlank":     {"a.go\n\n\n```\nx\n```\n", nil, 0},
		"shellScript":  {"run.sh\n```bash\necho hi\n```\n", []string{"run.sh: echo hi\n"}, 0},
	}
	for name, tt := range tests {
		edits, errs := Parse(tt.in, Options{Format: edit.FormatWhole})
		var got []string
		for _, e := range edits {
			got = append(got, e.Path+": "+e.New)
		}
		if strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") || len(errs) != tt.errs {
			t.Errorf("%s: Parse(%q) = %q, %d errors; want %q, %d errors", name, tt.in, got, len(errs), tt.want, tt.errs)
		}
	}
}

// TestWholeAfterOtherFormats checks that in auto mode the fence closing a
// SEARCH/REPLACE block is not mistaken for one opening a whole file.
func TestWholeAfterOtherFormats(t *testing.T) {
	src := "a.go\n```go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\nnotes.txt\n```\nhello\n```\n"
	edits, errs := Parse(src, Options{})
	if len(errs) != 0 || len(edits) != 2 || edits[1].Path != "notes.txt" || edits[1].New != "hello\n" {
		t.Errorf("Parse = %+v, %v; want a replace in a.go and notes.txt rewritten to hello", edits, errs)
	}
}

// TestReadersAdvance checks the cursor invariant of both readers: wherever
// starts reports a region, read consumes at least that line.
func TestReadersAdvance(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range ar.Files {
			if fl.Name != "response" {
				continue
			}
			for _, f := range []edit.Format{edit.FormatSearchReplace, edit.FormatWhole} {
				p := newParser(string(fl.Data), f)
				r := map[edit.Format]reader{edit.FormatSearchReplace: &p.sr, edit.FormatWhole: &p.whole}[f]
				for i := range p.lines {
					if r.starts(i) {
						if n := r.read(i); n <= i || n > len(p.lines) {
							t.Errorf("%s: %v read(%d) = %d", file, f, i, n)
						}
					}
				}
			}
		}
	}
}
