package normalize

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/golden"
	"github.com/edapply/edapply/parse"
)

// trailingBlanks matches the trailing blanks of a line.
var trailingBlanks = regexp.MustCompile(`[ \t]+\n`)

// FuzzNormalize feeds Reply every parsed edit as if the applier had
// found its old text without trailing blanks and written its new text the
// same way (what --trim-trailing-ws and the trailing-ws rung report). The
// output must keep the prose around the regions, parse to as many edits,
// and say the applied text for every edit Reply does not report as
// left as written.
func FuzzNormalize(f *testing.F) {
	golden.Seed(f, parseGoldens, "search-replace", "udiff", "json", "codex", "whole", "auto")
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, errs := parse.Parse(string(src), parse.Options{})
		if len(errs) > 0 || len(edits) == 0 {
			return
		}
		var as []Applied
		for i, e := range edits {
			a := Applied{Index: i, Op: e.Op, Path: e.Path, Line: max(e.Hint, 1),
				Old: lf(trailingBlanks.ReplaceAllString(lf(e.Old), "\n")), New: lf(trailingBlanks.ReplaceAllString(lf(e.New), "\n"))}
			switch e.Op {
			case edit.Replace, edit.Create, edit.Rewrite:
				as = append(as, a)
			}
		}
		out, err := Reply(src, edits, as)
		if out == nil {
			t.Fatalf("Reply returned no text (err %v)", err)
		}
		kept := map[int]bool{}
		if err != nil {
			for _, m := range regexp.MustCompile(`\d+`).FindAllString(strings.SplitN(err.Error(), " could", 2)[0], -1) {
				var k int
				for _, c := range m {
					k = k*10 + int(c-'0')
				}
				kept[k] = true
			}
		}
		if edits[0].Format != edit.FormatUDiff && edits[0].Start > 0 && !strings.HasPrefix(string(out), string(src[:edits[0].Start])) {
			t.Fatalf("the prose before the first edit changed")
		}
		got, gerrs := parse.Parse(string(out), parse.Options{})
		if len(gerrs) > 0 || len(got) != len(edits) {
			t.Fatalf("Reply output parses to %d edits (want %d), %v\ninput:\n%q\noutput:\n%q", len(got), len(edits), gerrs.Err(), src, out)
		}
		for _, a := range as {
			e, g := edits[a.Index], got[a.Index]
			if kept[a.Index] || e.Op == edit.Replace && e.Count != 1 || g.Op != e.Op || e.Format == edit.FormatCodex && e.Old != "" && strings.HasPrefix(e.New, e.Old) {
				continue
			}
			wantNew, wantOld := lf(a.New), lf(a.Old)
			if e.Op == edit.Rewrite && e.Format == edit.FormatWhole && wantNew != "" && !strings.HasSuffix(wantNew, "\n") {
				wantNew += "\n"
			}
			if lf(g.New) != wantNew || (e.Op == edit.Replace && e.Old != "" && lf(g.Old) != wantOld) {
				t.Fatalf("edit %d (%s) reads back as %q -> %q, want %q -> %q\ninput:\n%q\noutput:\n%q", a.Index, e.Format, g.Old, g.New, wantOld, wantNew, src, out)
			}
			if !slices.Equal(g.Anchors, e.Anchors) {
				t.Fatalf("edit %d anchors %q, want %q", a.Index, g.Anchors, e.Anchors)
			}
		}
	})
}
