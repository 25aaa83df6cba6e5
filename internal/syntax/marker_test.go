package syntax

import (
	"strings"
	"testing"
)

func TestMarker(t *testing.T) {
	tests := map[string]struct {
		in    string
		c     byte
		n     int
		label string
		ok    bool
	}{
		"search":      {"<<<<<<< SEARCH", '<', 7, "SEARCH", true},
		"bare5":       {"<<<<<", '<', 5, "", true},
		"nine":        {"<<<<<<<<< SEARCH", '<', 9, "SEARCH", true},
		"ten":         {"<<<<<<<<<< SEARCH", '<', 0, "", false},
		"four":        {"<<<< SEARCH", '<', 0, "", false},
		"glued":       {"<<<<<<<SEARCH", '<', 0, "", false},
		"trailingWS":  {"=======  \t", '=', 7, "", true},
		"indented":    {"   =======", '=', 7, "", true},
		"tooIndented": {"    =======", '=', 0, "", false},
		"dividerWord": {"======= x", '=', 0, "", false},
		"gitClose":    {">>>>>>> 1a2b3c (fix: it)", '>', 7, "1a2b3c (fix: it)", true},
		"quote":       {">>>>> nested quote here", '>', 0, "", false},
		"replace":     {">>>>>>> REPLACE", '>', 7, "REPLACE", true},
		"prose":       {"a <<<<<<< SEARCH", '<', 0, "", false},
	}
	for name, tt := range tests {
		n, label, ok := marker(tt.in, tt.c)
		if n != tt.n || label != tt.label || ok != tt.ok {
			t.Errorf("%s: marker(%q, %q) = %d, %q, %v; want %d, %q, %v", name, tt.in, tt.c, n, label, ok, tt.n, tt.label, tt.ok)
		}
	}
}

func TestMarkerRunLengths(t *testing.T) {
	opens := map[string]bool{
		"<<<<<<< SEARCH":       true,
		"<<<<<<<<<<< SEARCH":   true,
		"<<< SEARCH":           true,
		"--- SEARCH":           true,
		"----------- search>":  true,
		"<< SEARCH":            false, // a run of two: a near miss
		"<<<<<<<<<<<":          false, // a long bare run is text
		"<<<<<<<<<<< HEAD":     false, // only the word makes a long run a marker
		"-----------":          false,
		"<<<<<<<<<<<SEARCH":    false,
		"<<<<<<<<<<< SEARCH x": false,
	}
	for in, want := range opens {
		if got := IsSearchOpener(in); got != want {
			t.Errorf("IsSearchOpener(%q) = %v, want %v", in, got, want)
		}
		if got := OpensLevel(in); got != want && !strings.HasPrefix(in, "<<<<<<< ") {
			t.Errorf("OpensLevel(%q) = %v, want %v", in, got, want)
		}
	}
	closes := map[string]bool{
		">>>>>>> REPLACE":     true,
		">>>>>>>>>>> REPLACE": true,
		"+++ REPLACE":         true,
		"+++++++ REPLACE>":    true,
		"+++++++++++ REPLACE": true,
		">>>>>>>>>>>":         false,
		"+++ b/a.go":          false,
		">> REPLACE":          false,
	}
	for in, want := range closes {
		if got := ClosesLevel(in); got != want {
			t.Errorf("ClosesLevel(%q) = %v, want %v", in, got, want)
		}
	}
	named := map[string]bool{
		">>>>>>> REPLACE":     true,
		">>>>>>> UPDATED":     true,
		">>>>>>>>>>> REPLACE": true,
		"+++++++ REPLACE":     true,
		">>>>>>> b":           false,
		">>>>>>>":             false,
		">>>>>>> abc (fix)":   false,
		"+++ b/a.go":          false,
	}
	for in, want := range named {
		if got := IsReplaceCloser(in); got != want {
			t.Errorf("IsReplaceCloser(%q) = %v, want %v", in, got, want)
		}
	}
	loose := map[string]bool{"===": true, "==========": true, "=======": false, "=====": false, "==": false, "=== x": false, "    ===": false}
	for in, want := range loose {
		if got := looseDivider(in); got != want {
			t.Errorf("looseDivider(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestMayBeMarker: ScanBlock skips the lines mayBeMarker rules out, so
// it must never rule out one that a marker rule of any spelling takes.
func TestMayBeMarker(t *testing.T) {
	var lines []string
	for _, c := range []string{"<", "=", ">", "+", "-", "x", "\t", "#"} {
		for _, n := range []int{1, 3, 5, 7, 9, 11} {
			for _, indent := range []string{"", " ", "   ", "    ", "\t"} {
				for _, label := range []string{"", " SEARCH", " REPLACE", " search>", " HEAD", "SEARCH", "  \t"} {
					lines = append(lines, indent+strings.Repeat(c, n)+label)
				}
			}
		}
	}
	lines = append(lines, "", "   ", "\tx := 1", "a <<<<<<< SEARCH")
	for _, l := range lines {
		_, div := isDivider(l)
		marks := OpensLevel(l) || ClosesLevel(l) || div || looseDivider(l)
		if marks && !mayBeMarker(l) {
			t.Errorf("mayBeMarker(%q) = false, but a marker rule takes it", l)
		}
	}
	if mayBeMarker("\tx := 1") || mayBeMarker("    <<<<<<< SEARCH") {
		t.Error("mayBeMarker takes a line of text, or one indented past a marker's three spaces")
	}
}

// TestOpenerLineHint: Zed's "<<<<<<< SEARCH line=N" opens a block and
// carries N; other words after SEARCH do not open one.
func TestOpenerLineHint(t *testing.T) {
	tests := map[string]struct {
		in     string
		opener bool
		hint   int
	}{
		"plain":      {"<<<<<<< SEARCH line=42", true, 42},
		"quoted":     {`<<<<<<< SEARCH line="42"`, true, 42},
		"lowercase":  {"<<<<<<< search line=3", true, 3},
		"noHint":     {"<<<<<<< SEARCH", true, 0},
		"zero":       {"<<<<<<< SEARCH line=0", false, 0},
		"signed":     {"<<<<<<< SEARCH line=+4", false, 0},
		"word":       {"<<<<<<< SEARCH line=x", false, 0},
		"otherLabel": {"<<<<<<< HEAD line=4", false, 0},
		"runOfSix":   {"<<<<<< SEARCH line=4", false, 0},
	}
	for name, tt := range tests {
		if got := IsSearchOpener(tt.in); got != tt.opener {
			t.Errorf("%s: IsSearchOpener(%q) = %v, want %v", name, tt.in, got, tt.opener)
		}
		if got := OpenerLineHint(tt.in); got != tt.hint {
			t.Errorf("%s: OpenerLineHint(%q) = %d, want %d", name, tt.in, got, tt.hint)
		}
	}
}
