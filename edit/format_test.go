package edit

import (
	"strings"
	"testing"
)

// TestFormatNames: every format's name reads back as that format, the
// names are the ones usage text lists, and an unknown name is refused.
func TestFormatNames(t *testing.T) {
	var names []string
	for _, f := range Formats() {
		var g Format
		if err := g.Set(f.String()); err != nil || g != f {
			t.Errorf("Set(%q) = %v, %v; want %v", f.String(), g, err, int(f))
		}
		if f.About() == "" {
			t.Errorf("%s: no About", f)
		}
		names = append(names, f.String())
	}
	want := "auto, search-replace, udiff, whole, codex, json"
	if got := strings.Join(names, ", "); got != want || FormatNames() != want {
		t.Errorf("names = %q, FormatNames = %q, want %q", got, FormatNames(), want)
	}
	var g Format
	if err := g.Set("diff"); err == nil {
		t.Errorf("Set(diff) = %v, want an error", g)
	}
	if s := Format(len(names)).String(); !strings.HasPrefix(s, "Format(") {
		t.Errorf("a format out of range prints as %q", s)
	}
}
