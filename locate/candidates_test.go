package locate

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// bigFile returns a Go-like file of about n lines, in blocks of ten whose
// lines are unique but share their shape.
func bigFile(n int) string {
	var b strings.Builder
	for i := 0; b.Len() == 0 || i*10 < n; i++ {
		fmt.Fprintf(&b, "// f%d returns the %dth value.\nfunc f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, errTooSmall\n\t}\n", i, i, i, i)
		fmt.Fprintf(&b, "\ty := x * %d\n\tlog.Printf(\"f%d: %%d\", y)\n\treturn y, nil\n}\n\n", i, i)
	}
	return b.String()
}

func TestCandidatesNearMiss(t *testing.T) {
	file := bigFile(2000)
	old := "func f150(x int) (int, error) {\n\tif x < 150 {\n\t\treturn 0, errTooSmal\n\t}\n\ty := x * 150\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "x\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
		t.Fatalf("locate = %+v, want NO_MATCH with candidates", err)
	}
	c := err.Candidates[0]
	if c.LineStart != 1502 || c.LineEnd != 1506 || c.Similarity < 0.9 {
		t.Errorf("best candidate %+v, want lines 1502-1506", c)
	}
	if !strings.HasPrefix(err.Hint, "Line 1504 differs: the file has `\t\treturn 0, errTooSmall`") {
		t.Errorf("hint %q", err.Hint)
	}
	if len(err.Candidates) > maxCandidates {
		t.Errorf("%d candidates", len(err.Candidates))
	}
	for i := 1; i < len(err.Candidates); i++ {
		if err.Candidates[i].Similarity > err.Candidates[i-1].Similarity {
			t.Errorf("candidates not best first: %+v", err.Candidates)
		}
	}
}

// TestCandidatesFast guards the anchor-line design: the candidates of a
// miss cost in proportion to the file (growth counts it); quadratic
// scoring would not. Timing is for BenchmarkLocateMiss200k.
func TestCandidatesFast(t *testing.T) {
	if testing.Short() {
		t.Skip("large file")
	}
	old := "func f15000(x int) (int, error) {\n\tif x < 15000 {\n\t\treturn 0, errSmall\n\t}\n\ty := x * 15000\n\tlog.Printf(\"f15000: %d\", y)\n\treturn y, nil\n}\n"
	e := &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "x\n"}
	if _, err := locate(bigFile(200000), e, matchOptions{}); err == nil || len(err.Candidates) == 0 || err.Candidates[0].LineStart != 150002 {
		t.Errorf("locate = %+v", err)
	}
	files := map[int]string{1: bigFile(50000), 2: bigFile(100000)}
	growth.Linear(t, "a miss's candidates", func(scale int) {
		if _, err := locate(files[scale], e, matchOptions{}); err == nil || len(err.Candidates) == 0 {
			t.Errorf("locate = %+v", err)
		}
	})
}

func BenchmarkLocateMiss200k(b *testing.B) {
	file := bigFile(200000)
	e := &edit.Edit{Op: edit.Replace, Count: 1, New: "x\n",
		Old: "func f15000(x int) (int, error) {\n\tif x < 15000 {\n\t\treturn 0, errSmall\n\t}\n\ty := x * 15000\n\tlog.Printf(\"f15000: %d\", y)\n\treturn y, nil\n}\n\n// f15001 returns\n"}
	b.ResetTimer()
	for b.Loop() {
		if _, err := locate(file, e, matchOptions{}); err == nil {
			b.Fatal("matched")
		}
	}
}

func benchSequential(b *testing.B, crlf bool, drift bool) {
	file := bigFile(50000)
	if crlf {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	var edits []edit.Edit
	for i := 0; i < 500; i++ {
		k := i * 10
		old := fmt.Sprintf("\ty := x * %d\n\tlog.Printf(\"f%d: %%d\", y)\n", k, k)
		if drift {
			old = strings.ReplaceAll(old, "\t", "    ")
		}
		edits = append(edits, edit.Edit{Op: edit.Replace, Count: 1, Old: old,
			New: fmt.Sprintf("\ty := x * %d\n\tlog.Printf(\"f%d: %%d!\", y)\n", k+1, k)})
	}
	b.ResetTimer()
	for b.Loop() {
		content := file
		for i := range edits {
			loc, err := locate(content, &edits[i], matchOptions{})
			if err != nil {
				b.Fatalf("edit %d: %v", i, err)
			}
			content = spliced(b, content, loc)
		}
	}
}

func BenchmarkLocateSequential50k(b *testing.B)       { benchSequential(b, false, false) }
func BenchmarkLocateSequential50kCRLF(b *testing.B)   { benchSequential(b, true, false) }
func BenchmarkLocateSequential50kIndent(b *testing.B) { benchSequential(b, false, true) }

// looseForm is looseKey's general form of s: punctuation folded, its
// fields, split at the blanks the line rungs compare as blanks (isSpace,
// not every Unicode space), joined by one blank.
func looseForm(s string) uint64 {
	fields := strings.FieldsFunc(foldPunct(s), func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
	return maphash.String(candSeed, strings.Join(fields, " "))
}

// TestLooseKeyFastPath checks looseKey's shortcut for plain lines against
// the general form.
func TestLooseKeyFastPath(t *testing.T) {
	general := looseForm
	for _, s := range []string{"", " ", "\t", "a", " a ", "a b", "a  b", "a\tb", "\tx := 1  ", "a -- b", "a-b", "a - - b",
		"x = “a”", "a\u00a0b", "caf\xe9", "a\r", "a \r", "a\vb", "a\fb", "--", "-", "a --", "…", "a\u2014b"} {
		if got, want := looseKey(s), general(s); got != want {
			t.Errorf("looseKey(%q) differs from the general form", s)
		}
	}
	// Pairs of blanks or dashes at every offset, across the eight-byte
	// words plainLine reads.
	alphabet := []string{"a", " ", "-", "\t", "é", "x"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		if s := b.String(); looseKey(s) != general(s) {
			t.Fatalf("looseKey(%q) differs from the general form", s)
		}
	}
}

// FuzzLooseKey holds looseKey's shortcut to the general form for any line.
func FuzzLooseKey(f *testing.F) {
	for _, s := range []string{"a  b", "\tx := 1  ", "a -- b", "caf\xe9", "a\vb", "0123456789abcdef--", "01234567 \t89", "\u0085", "a\u2028b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "\n") {
			return // a line has none
		}
		if looseKey(s) != looseForm(s) {
			t.Errorf("looseKey(%q) differs from the general form", s)
		}
	})
}

// TestCandidatesInvisible: a line that differs only in what does not show
// is named in words, with escapes, and its candidate is not 100% similar.
func TestCandidatesInvisible(t *testing.T) {
	file := "package a\n\nfunc f() {\n\tx := 1\n\ty := \"it’s\"\n\treturn\n}\n"
	for _, tc := range []struct {
		old    string
		strict bool
		hint   string
	}{
		{"func f() {\n    x := 1\n", true,
			"Line 4 differs only in indentation: the file indents with 1 tab, the SEARCH with 4 spaces. Copy lines 3-4 exactly as they stand."},
		{"func f() {\n\tx := 1 \t\n", true,
			"Line 4 differs only in trailing whitespace: the file's line ends in nothing, the SEARCH's in 1 tab and 1 space. Copy lines 3-4 exactly as they stand."},
		{"func f() {\n\tx\u00a0:= 1\n", true,
			"Line 4 differs only in one character (the file has a space, the SEARCH a no-break space (U+00A0)): the file has `\\tx := 1`, the SEARCH has `\\txU+00A0:= 1`. Copy lines 3-4 exactly as they stand."},
		{"func f() {\n\tx :=\u200b 1\n", false,
			"Line 4 differs only in one character: the SEARCH has a zero-width character (U+200B) more: the file has `\\tx := 1`, the SEARCH has `\\tx :=U+200B 1`. Copy lines 3-4 exactly as they stand."},
		{"\ufefffunc f() {\n\tx := 1\n", true,
			"Line 3 differs only in one character: the SEARCH has a byte order mark (U+FEFF) more: the file has `func f() {`, the SEARCH has `U+FEFFfunc f() {`. Copy lines 3-4 exactly as they stand."},
		{"\ty := \"it's\"\n\treturn\n", true,
			"Line 5 differs only in one character (the file has a curly quote ’ (U+2019), the SEARCH a straight quote '): the file has `\\ty := \"it’s\"`, the SEARCH has `\\ty := \"it's\"`. Copy lines 5-6 exactly as they stand."},
		{"\ty := 2\r\n\treturn\r\n", true, // CRLF in the SEARCH is a line ending, never the difference
			"Line 5 differs: the file has `\ty := \"it’s\"`, the SEARCH has `\ty := 2`. Copy lines 5-6 exactly as they stand."},
	} {
		_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: tc.old, New: "z\n"}, matchOptions{Strict: tc.strict})
		if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
			t.Errorf("%q: locate = %v, want NO_MATCH with a candidate", tc.old, err)
			continue
		}
		if err.Hint != tc.hint {
			t.Errorf("%q: hint\n%s\nwant\n%s", tc.old, err.Hint, tc.hint)
		}
		if c := err.Candidates[0]; c.Similarity >= 1 || c.Weak {
			t.Errorf("%q: candidate %+v, want below 100%% and not weak", tc.old, c)
		}
	}
}

// TestCandidatesWeak: code that is not in the file gets at most one
// candidate, marked weak, and a hint that neither places the text in the
// file nor says to copy lines from there.
func TestCandidatesWeak(t *testing.T) {
	file := bigFile(300)
	for _, old := range []string{
		"func parseConfig(path string) (*Config, error) {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n",
		"\tdefer mu.Unlock()\n\tcache[key] = value\n",
	} {
		_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "z\n"}, matchOptions{})
		if err == nil || err.Code != edit.CodeNoMatch {
			t.Fatalf("locate = %v, want NO_MATCH", err)
		}
		if len(err.Candidates) > 1 || len(err.Candidates) == 1 && (!err.Candidates[0].Weak || err.Candidates[0].Similarity >= weakSimilarity) {
			t.Errorf("%q: candidates %+v, want at most one, weak", old, err.Candidates)
		}
		for _, bad := range []string{"Copy", "differs", "copy lines"} {
			if strings.Contains(err.Hint, bad) {
				t.Errorf("%q: hint %q says %q", old, err.Hint, bad)
			}
		}
	}
}

// TestCandidatesSpread: a candidate far below the best is dropped, and a
// SEARCH whose every line has a typo is still placed.
func TestCandidatesSpread(t *testing.T) {
	file := bigFile(2000)
	// Both lines misspelt: no line of the file equals one of them.
	old := "\ty := x * 150\n\tlog.Printf(\"f150: %d\", y)\n"
	old = strings.NewReplacer("x * 150", "x * 15O", "Printf", "Prinft").Replace(old)
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "z\n"}, matchOptions{})
	if err == nil || len(err.Candidates) == 0 {
		t.Fatalf("locate = %v, want NO_MATCH with candidates", err)
	}
	best := err.Candidates[0]
	if best.LineStart != 1506 || best.LineEnd != 1507 || best.Weak {
		t.Errorf("best candidate %+v, want lines 1506-1507", best)
	}
	for _, c := range err.Candidates[1:] {
		if c.Similarity < best.Similarity-candidateSpread {
			t.Errorf("candidate %+v kept, far below the best %.2f", c, best.Similarity)
		}
	}
	if !strings.HasPrefix(err.Hint, "Line 1506 differs: the file has `\ty := x * 150`") {
		t.Errorf("hint %q", err.Hint)
	}
}

// TestCandidatesIndentTieBreak: of two regions as close in their words,
// the one indented as the SEARCH text comes first.
func TestCandidatesIndentTieBreak(t *testing.T) {
	file := "func a() {\n\tif x {\n\t\treturn\n\t}\n\treturn\n}\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: "\trturn\n}\n", New: "z\n"}, matchOptions{})
	if err == nil || len(err.Candidates) == 0 || err.Candidates[0].LineStart != 5 {
		t.Fatalf("locate = %+v, want the first candidate at line 5", err)
	}
}

// TestCandidatesFragment: a tool call's old_string that is a misspelt
// piece of a line is placed on the line that holds its closest stretch.
func TestCandidatesFragment(t *testing.T) {
	file := "func routes(mux *http.ServeMux) {\n\tmux.HandleFunc(\"/items\", listItems)\n\tmux.HandleFunc(\"/users\", listUsers)\n}\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: `"/itemz"`, New: `"/x"`, Format: edit.FormatJSON}, matchOptions{})
	if err == nil || len(err.Candidates) != 1 {
		t.Fatalf("locate = %+v, want one candidate", err)
	}
	if c := err.Candidates[0]; c.LineStart != 2 || c.Weak || c.Similarity < weakSimilarity {
		t.Errorf("candidate %+v, want line 2, not weak", c)
	}
}

// An old text whose first and last lines bound one block of the file, the
// lines between summarized, is refused with that block as a candidate and
// a hint to quote it; it is never applied.
func TestCandidatesAnchoredBlock(t *testing.T) {
	file := "class Cart:\n    def __init__(self):\n        self.items = []\n\n    def total(self):\n        return sum(self.items)\n\n\ndef main():\n    pass\n"
	for name, c := range map[string]struct {
		old        string
		start, end int // the anchored candidate; 0: none
	}{
		"summarized": {old: "class Cart:\n    # the methods\n    def total(self):\n        return sum(self.items)\n", start: 1, end: 6},
		"middleOnly": {old: "def main():\n    # body\n    pass\n", start: 9, end: 10},
		"twoLines":   {old: "class Cart:\n        return sum(self.items)\n"},
		// The last line's indentation relative to the first must hold.
		"shifted": {old: "class Cart:\n    # the methods\nreturn sum(self.items)\n"},
	} {
		_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: c.old, New: "x\n"}, matchOptions{})
		if err == nil || err.Code != edit.CodeNoMatch {
			t.Errorf("%s: locate = %+v, want NO_MATCH", name, err)
			continue
		}
		var got *edit.Candidate
		for i, cd := range err.Candidates {
			if i > 0 && cd.Similarity > err.Candidates[i-1].Similarity {
				t.Errorf("%s: candidates not best first: %+v", name, err.Candidates)
			}
			if strings.Contains(err.Hint, fmt.Sprintf("quote lines %d-%d", cd.LineStart, cd.LineEnd)) {
				got = &err.Candidates[i]
			}
		}
		switch {
		case c.start == 0 && strings.Contains(err.Hint, "first and last lines"):
			t.Errorf("%s: hint %q names a block", name, err.Hint)
		case c.start != 0 && (got == nil || got.LineStart != c.start || got.LineEnd != c.end):
			t.Errorf("%s: candidates %+v, hint %q; want block %d-%d named by both", name, err.Candidates, err.Hint, c.start, c.end)
		}
		if len(err.Candidates) > maxCandidates {
			t.Errorf("%s: %d candidates", name, len(err.Candidates))
		}
	}
	// Two blocks bounded alike: neither is named.
	twice := file + file
	_, err := locate(twice, &edit.Edit{Op: edit.Replace, Count: 1, Old: "class Cart:\n    # the methods\n    def total(self):\n        return sum(self.items)\n", New: "x\n"}, matchOptions{})
	if err == nil || strings.Contains(err.Hint, "first and last lines") {
		t.Errorf("twice: %+v", err)
	}
}

// TestCandidatesTie: a SEARCH text as close to several places as to each
// other lists them all, and the hint names none as the place to copy
// (copying add's lines for div would turn add into div).
func TestCandidatesTie(t *testing.T) {
	file := "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n\n" +
		"def mul(a, b):\n    return a * b\n\ndef mod(a, b):\n    return a % b\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: "def div(a, b):\n    return a / b\n", New: "z\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch {
		t.Fatalf("locate = %v, want NO_MATCH", err)
	}
	var at []int
	for _, c := range err.Candidates {
		at = append(at, c.LineStart)
	}
	if !slices.Equal(at, []int{1, 4, 7, 10}) {
		t.Errorf("candidates at %v, want all four functions", at)
	}
	for _, bad := range []string{"Copy", "differs"} {
		if strings.Contains(err.Hint, bad) {
			t.Errorf("hint %q says %q", err.Hint, bad)
		}
	}
	if !strings.Contains(err.Hint, "lines 1-2, 4-5, 7-8 and 10-11") || !strings.Contains(err.Hint, "may not be in this file") {
		t.Errorf("hint %q", err.Hint)
	}
}
