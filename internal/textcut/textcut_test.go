package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	if got := Cut("short\n", 100); got != "short\n" {
		t.Errorf("a text that fits changed: %q", got)
	}
	lines := strings.Repeat("line of text\n", 100)
	got := Cut(lines, 200)
	if !strings.HasPrefix(got, lines[:195]) || !strings.Contains(got, "more bytes not shown (receipt cut at 1 MiB)") {
		t.Errorf("cut at 200: %q", got)
	}
	if body := got[:strings.Index(got, "…")]; !strings.HasSuffix(body, "\n") || len(body) > 200 {
		t.Errorf("cut not at a line break within the budget: %q", body)
	}
	runes := strings.Repeat("日本語", 100)
	if got := Cut(runes, 100); !utf8.ValidString(got) {
		t.Errorf("cut splits a character: %q", got)
	}
}
