package parse

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/edapply/edapply/edit"
)

// regionsOf names the regions of edits, by byte offset and format, as the
// -f warning counts them.
func regionsOf(edits []edit.Edit) []string {
	var rs []string
	for _, e := range edits {
		if r := fmt.Sprintf("%d %s", e.Start, e.Format); !slices.Contains(rs, r) {
			rs = append(rs, r)
		}
	}
	return rs
}

// TestSkipped: in one pass, Parse with a format tells of the edits that
// a FormatAuto parse of the same reply reads from regions of other formats
// the format left unread, for every golden reply and format. A JSON call
// read under -f json is read whole, the diff or envelope it carries
// included: none of it is skipped.
func TestSkipped(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	told := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var src string
		for _, f := range ar.Files {
			if f.Name == "response" {
				src = string(f.Data)
			}
		}
		all, _ := Parse(src, Options{})
		for _, f := range edit.Formats()[1:] {
			plainEdits, plainErrs := Parse(src, Options{Format: f})
			var want []edit.Edit
			for _, e := range all {
				read := slices.ContainsFunc(plainEdits, func(g edit.Edit) bool { return g.Start == e.Start })
				if e.Format != f && !read {
					want = append(want, e)
				}
			}
			var got []edit.Edit
			edits, errs := Parse(src, Options{Format: f, Skipped: func(e edit.Edit) { got = append(got, e) }})
			if len(edits) != len(plainEdits) || len(errs) != len(plainErrs) {
				t.Errorf("%s -f %s: Skipped changed the parse: %d edits and %d errors, want %d and %d", file, f, len(edits), len(errs), len(plainEdits), len(plainErrs))
			}
			if g, w := regionsOf(got), regionsOf(want); !slices.Equal(g, w) {
				t.Errorf("%s -f %s: skipped regions %q, want %q", file, f, g, w)
			}
			told += len(got)
		}
	}
	if told == 0 {
		t.Fatal("no golden reply has a region of another format")
	}
}
