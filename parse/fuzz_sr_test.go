package parse

import (
	"bytes"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/golden"
	"github.com/edapply/edapply/internal/syntax"
)

// FuzzParseSearchReplace checks the reader's invariants on any input,
// and that each edit's text lies inside its region. (normalize's
// FuzzWriteParsed checks that the canonical writer puts every edit back.)
func FuzzParseSearchReplace(f *testing.F) {
	golden.Seed(f, "testdata", "search-replace")
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, _ := checkParse(t, src, edit.FormatSearchReplace)
		for _, e := range edits {
			checkSpanHolds(t, src, e)
		}
	})
}

// checkSpanHolds checks that an edit's text lies inside its region, once
// the backslashes that escape the region's marker lines are dropped. A
// Zed text written on its tags' line lacks the line break its edit ends
// with.
func checkSpanHolds(t *testing.T, src []byte, e edit.Edit) {
	t.Helper()
	region := []byte(syntax.UnescapeMarkers(string(src[e.Start:e.End])))
	holds := func(s string) bool {
		return bytes.Contains(region, []byte(s)) || bytes.Contains(region, []byte("<old_text")) && bytes.Contains(region, []byte(strings.TrimRight(s, "\r\n")))
	}
	if !holds(e.Old) || !holds(e.New) {
		t.Errorf("edit %+v: text outside its region %q", e, region)
	}
}

// FuzzParseWhole checks the reader's invariants, and that a rewrite's
// content lies inside its region and is whole lines.
func FuzzParseWhole(f *testing.F) {
	golden.Seed(f, "testdata", "whole")
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, _ := checkParse(t, src, edit.FormatWhole)
		for _, e := range edits {
			first, _, _ := strings.Cut(string(src[e.Start:e.End]), "\n")
			if name, _, ok := syntax.XMLToolOpen(first); ok && name != "write_to_file" {
				continue // Roo's insert_content and search_and_replace are no whole files
			}
			if e.Op != edit.Rewrite {
				t.Errorf("edit %+v: op %v, want rewrite", e, e.Op)
			}
			if e.New != "" && e.New[len(e.New)-1] != '\n' {
				t.Errorf("edit %+v: content does not end in a newline", e)
			}
			// An indented fence strips indentation from its content, so
			// only an unindented block's content is a verbatim substring.
			// A tool call's last line may stand before its closing tag.
			region := src[e.Start:e.End]
			last := strings.TrimRight(e.New, "\r\n")
			if !bytes.Contains(region, []byte(e.New)) && !bytes.Contains(region, []byte(" ```")) && !bytes.Contains(region, []byte(" ~~~")) &&
				!bytes.Contains(region, []byte(last+"</")) && !bytes.Contains(region, []byte(last+"]]></")) {
				t.Errorf("edit %+v: content outside its region %q", e, region)
			}
		}
	})
}

// FuzzDetect runs the auto-detector over responses of every format.
func FuzzDetect(f *testing.F) {
	golden.Seed(f, "testdata", "auto", "search-replace", "whole", "udiff", "codex", "json")
	f.Fuzz(func(t *testing.T, src []byte) {
		checkParse(t, src, edit.FormatAuto)
	})
}
