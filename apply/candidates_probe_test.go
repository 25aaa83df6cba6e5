package apply

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/gen"
)

// A probe is one edit forced to fail and the line its first candidate
// must start on.
type probe struct {
	file     string // the file's bytes as written
	old, new string
	line     int
	strict   bool
}

// probeRate applies each probe on its own (a dry run) and returns the
// share of those that failed with NO_MATCH whose first candidate starts
// at the probe's line; a probe that applied or failed otherwise is left
// out of the count.
func probeRate(t *testing.T, probes []probe) (rate float64, n int) {
	t.Helper()
	root := t.TempDir()
	right := 0
	for i, p := range probes {
		name := fmt.Sprintf("p%d.go", i)
		if err := os.WriteFile(filepath.Join(root, name), []byte(p.file), 0o644); err != nil {
			t.Fatal(err)
		}
		res, _ := Apply(context.Background(), []edit.Edit{{Op: edit.Replace, Path: name, Old: p.old, New: p.new, Count: 1}},
			Options{Root: root, DryRun: true, Strict: p.strict})
		if len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeNoMatch {
			continue
		}
		n++
		if cs := res.Errors[0].Candidates; len(cs) > 0 && cs[0].LineStart == p.line && !cs[0].Weak {
			right++
		} else if testing.Verbose() {
			t.Logf("%s: want line %d, got %+v\nSEARCH:\n%s", name, p.line, cs, p.old)
		}
	}
	if n == 0 {
		t.Fatal("no probe failed")
	}
	return float64(right) / float64(n), n
}

// probeSites returns the edit sites of a few generated Go files, each
// with its file.
func probeSites(t *testing.T, seed uint64) (files []string, sites [][]gen.Edit) {
	for i := range 8 {
		src := gen.Source(seed+uint64(i), "probe", 400)
		es, err := gen.Sites("p.go", src, 12, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, string(src))
		sites = append(sites, es)
	}
	return files, sites
}

// typo changes one letter of one line of old: replaced, dropped or doubled.
func typo(r *rand.Rand, old string) string {
	lines := strings.SplitAfter(old, "\n")
	for range 100 {
		k := r.IntN(len(lines))
		l := lines[k]
		var letters []int
		for j := 0; j < len(l); j++ {
			if c := l[j]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				letters = append(letters, j)
			}
		}
		if len(letters) == 0 {
			continue
		}
		j := letters[r.IntN(len(letters))]
		switch r.IntN(3) {
		case 0:
			c := byte('a' + r.IntN(26))
			if c == l[j] {
				continue
			}
			l = l[:j] + string(c) + l[j+1:]
		case 1:
			l = l[:j] + l[j+1:]
		default:
			l = l[:j] + l[j:j+1] + l[j:]
		}
		lines[k] = l
		return strings.Join(lines, "")
	}
	return old
}

// TestCandidateProbeTypo: after a one-letter typo in a SEARCH text, the
// first candidate is the place the text was copied from, in LF, CRLF and
// BOM files alike, for at least 98% of the probes (fixed seeds).
func TestCandidateProbeTypo(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 98))
	files, sites := probeSites(t, 1900)
	for _, variant := range []string{"LF", "CRLF", "BOM"} {
		var probes []probe
		for i, es := range sites {
			file := files[i]
			switch variant {
			case "CRLF":
				file = strings.ReplaceAll(file, "\n", "\r\n")
			case "BOM":
				file = "\ufeff" + file
			}
			for _, e := range es {
				probes = append(probes, probe{file: file, old: typo(r, e.Old()), new: e.New(), line: e.Line})
			}
		}
		rate, n := probeRate(t, probes)
		t.Logf("%s: first candidate right for %.1f%% of %d typos", variant, 100*rate, n)
		if rate < 0.98 {
			t.Errorf("%s: first candidate right for %.1f%% of %d typos, want at least 98%%", variant, 100*rate, n)
		}
	}
}

// TestCandidateProbeDrift: an edit whose whitespace drifted (indented one
// tab deeper, trailing blanks), forced to fail with --strict, or whose
// identifiers were misremembered on three lines, gets the place it was
// written against as its first candidate for at least 95% of the probes.
func TestCandidateProbeDrift(t *testing.T) {
	files, sites := probeSites(t, 2000)
	var drift, near []probe
	for i, es := range sites {
		for _, e := range es {
			b := gen.Drift(e)
			drift = append(drift, probe{file: files[i], old: b.Search, new: b.Replace, line: e.Line, strict: true})
		}
	}
	for i := range 60 {
		src := gen.Source(2100+uint64(i), "probe", 400)
		b, err := gen.NearMiss("p.go", []byte(src), uint64(i))
		if err != nil {
			continue
		}
		// NearMiss renames identifiers by appending "Ref": without it, the
		// SEARCH text is the window it was made from.
		orig := strings.ReplaceAll(b.Search, "Ref", "")
		at := strings.Index(string(src), orig)
		if at < 0 || strings.Count(string(src), orig) != 1 {
			continue
		}
		line := strings.Count(string(src[:at]), "\n") + 1
		near = append(near, probe{file: string(src), old: b.Search, new: b.Replace, line: line})
	}
	for name, probes := range map[string][]probe{"drift --strict": drift, "misremembered": near} {
		rate, n := probeRate(t, probes)
		t.Logf("%s: first candidate right for %.1f%% of %d edits", name, 100*rate, n)
		if rate < 0.95 {
			t.Errorf("%s: first candidate right for %.1f%% of %d edits, want at least 95%%", name, 100*rate, n)
		}
	}
}

// TestCandidateProbeEveryLine: a short SEARCH text (the changed lines and
// the line after them, which stand in one place) with a one-letter typo
// on every line shares no
// line with the file; the word vote still places it first for at least
// 95% of the probes.
func TestCandidateProbeEveryLine(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	files, sites := probeSites(t, 2200)
	var probes []probe
	for i, es := range sites {
		for _, e := range es {
			if len(e.Del) == 0 {
				continue
			}
			var orig, old strings.Builder
			for _, l := range append(append([]string(nil), e.Del...), e.After[0]) {
				orig.WriteString(l + "\n")
				old.WriteString(typo(r, l+"\n"))
			}
			if strings.Count(files[i], "\n"+orig.String()) != 1 {
				continue // the lines stand in two places: no candidate can tell them apart
			}
			probes = append(probes, probe{file: files[i], old: old.String(), new: "x\n", line: e.Line + len(e.Before)})
		}
	}
	rate, n := probeRate(t, probes)
	t.Logf("first candidate right for %.1f%% of %d SEARCH texts with a typo on every line", 100*rate, n)
	if rate < 0.95 {
		t.Errorf("first candidate right for %.1f%% of %d SEARCH texts with a typo on every line, want at least 95%%", 100*rate, n)
	}
}
