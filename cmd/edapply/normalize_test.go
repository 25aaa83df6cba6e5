package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

// TestNormalizeProperty checks the promise of `edapply normalize` over many
// generated responses in every format, with the drift models write
// (trailing blanks, shifted indentation, curly quotes, elided lines, stale
// line numbers, CRLF files): applying the normalized response with --strict
// gives exactly the tree that applying the original with the ladder gives.
func TestNormalizeProperty(t *testing.T) {
	const cases = 600
	ok, rewritten, resent := 0, 0, 0
	strategies := map[edit.Strategy]int{}
	for seed := int64(1); seed <= cases; seed++ {
		c := genCase(rand.New(rand.NewSource(seed)))
		root := t.TempDir()
		for name, body := range c.files {
			if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		edits, perrs := parse.Parse(c.response, parse.Options{})
		if len(perrs) > 0 || len(edits) == 0 {
			t.Fatalf("seed %d: generated response does not parse: %v\n%s", seed, perrs.Err(), c.response)
		}
		res, _ := apply.Apply(context.Background(), edits, apply.Options{Root: root, DryRun: true, TrimTrailingWS: c.trimWS, StateDir: t.TempDir()})
		if !res.OK {
			continue // the ladder refused (two equal places): nothing to normalize to
		}
		ok++
		for _, f := range res.Files {
			for _, e := range f.Edits {
				strategies[e.Strategy]++
			}
		}
		norm, err := normalized(c.response, edits, res)
		if err != nil {
			t.Errorf("seed %d: Normalize: %v\nresponse:\n%s", seed, err, c.response)
			continue
		}
		if norm != c.response {
			rewritten++
		}
		nedits, perrs := parse.Parse(norm, parse.Options{})
		if len(perrs) > 0 || len(nedits) != len(edits) {
			t.Errorf("seed %d: normalized response parses to %d edits (want %d), errors %v\n%s", seed, len(nedits), len(edits), perrs.Err(), norm)
			continue
		}
		nres, _ := apply.Apply(context.Background(), nedits, apply.Options{Root: root, DryRun: true, Strict: true, StateDir: t.TempDir()})
		if !nres.OK {
			t.Errorf("seed %d: normalized response fails with --strict: %v\noriginal:\n%s\nnormalized:\n%s", seed, nres.Errors.Err(), c.response, norm)
			continue
		}
		want, got := afterTree(res), afterTree(nres)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Errorf("seed %d: trees differ\nladder: %q\nstrict: %q\noriginal:\n%s\nnormalized:\n%s", seed, want, got, c.response, norm)
		}
		// Resent after it applied, the response is already applied; its
		// normalized form says so with --strict too, and changes nothing.
		if seed%4 == 0 && checkResent(t, seed, root, c, res) {
			resent++
		}
		for _, f := range nres.Files {
			for _, e := range f.Edits {
				if e.Strategy != edit.StrategyExact && e.Strategy != edit.StrategyCreate && e.Strategy != edit.StrategyRewrite && e.Strategy != edit.StrategyLineHint {
					t.Errorf("seed %d: normalized edit %d located by %s, want exact", seed, e.Index, e.Strategy)
				}
			}
		}
	}
	t.Logf("%d of %d cases applied, %d rewritten, %d resent; strategies %v", ok, cases, rewritten, resent, strategies)
	if ok < cases/2 || rewritten < ok/3 || resent < cases/10 {
		t.Errorf("generator too weak: %d cases applied, %d rewritten", ok, rewritten)
	}
	for _, s := range []edit.Strategy{edit.StrategyTrailingWS, edit.StrategyIndent, edit.StrategyUnicode, edit.StrategyElision} {
		if strategies[s] == 0 {
			t.Errorf("no case exercised strategy %s", s)
		}
	}
}

// checkResent writes the ladder's result and normalizes the response again
// against it, where every edit is already applied; it reports whether the
// check ran.
func checkResent(t *testing.T, seed int64, root string, c normCase, res *apply.Result) bool {
	t.Helper()
	for p, body := range afterTree(res) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edits, _ := parse.Parse(c.response, parse.Options{})
	again, _ := apply.Apply(context.Background(), edits, apply.Options{Root: root, DryRun: true, TrimTrailingWS: c.trimWS, StateDir: t.TempDir()})
	if !again.OK {
		return false // a resent edit may be ambiguous now (its new text twice); not normalize's business
	}
	for _, f := range again.Files {
		for _, e := range f.Edits {
			if e.Status != edit.StatusAlreadyApplied {
				// The ladder applied a resent edit a second time: not
				// idempotent (reported to the ladder's owner); the
				// normalized form is checked against the resend only when
				// every edit is already applied.
				t.Logf("seed %d: resent edit %d was %s again (%s)", seed, e.Index, e.Status, e.Strategy)
				return false
			}
		}
	}
	norm, err := normalized(c.response, edits, again)
	if err != nil {
		t.Errorf("seed %d: resent: Normalize: %v", seed, err)
		return true
	}
	nedits, _ := parse.Parse(norm, parse.Options{})
	nres, _ := apply.Apply(context.Background(), nedits, apply.Options{Root: root, DryRun: true, Strict: true, StateDir: t.TempDir()})
	if !nres.OK {
		t.Errorf("seed %d: resent: normalized response fails with --strict: %v\n%s", seed, nres.Errors.Err(), norm)
		return true
	}
	if want, got := afterTree(again), afterTree(nres); fmt.Sprint(want) != fmt.Sprint(got) {
		t.Errorf("seed %d: resent: trees differ\nladder: %q\nstrict: %q\nnormalized:\n%s", seed, want, got, norm)
	}
	return true
}

// afterTree maps each path to its content after res (nil: deleted).
func afterTree(res *apply.Result) map[string]string {
	m := map[string]string{}
	for _, f := range res.Files {
		p := f.Path
		if f.NewPath != "" {
			p = f.NewPath
		}
		m[p] = string(f.After)
	}
	return m
}

type normCase struct {
	files    map[string]string
	response string
	trimWS   bool
}

// genCase writes one or two files and a response of edits to them in a
// random format, each edit quoting its old text with a random drift.
func genCase(r *rand.Rand) normCase {
	c := normCase{files: map[string]string{}, trimWS: r.Intn(4) == 0}
	var resp strings.Builder
	resp.WriteString("Some prose before the edits.\n\n")
	nfiles := 1 + r.Intn(2)
	for fi := 0; fi < nfiles; fi++ {
		name := fmt.Sprintf("f%d.go", fi)
		crlf := r.Intn(5) == 0
		lines := genLines(r, fi)
		file := strings.Join(lines, "")
		if crlf {
			file = strings.ReplaceAll(file, "\n", "\r\n")
		}
		if r.Intn(6) == 0 {
			file = strings.TrimRight(file, "\r\n") // no final newline
		}
		c.files[name] = file
		format := []string{"sr", "udiff", "json", "codex", "whole"}[r.Intn(5)]
		if format == "whole" {
			nl := append([]string{}, lines...)
			nl[r.Intn(len(nl))] = "\t// rewritten  \n"
			fmt.Fprintf(&resp, "%s\n```go\n%s```\n\n", name, strings.Join(nl, ""))
			continue
		}
		type hunk struct{ old, new string }
		var hs []hunk
		var lineNos []int
		at := 0
		for k := 0; k < 1+r.Intn(3) && at < len(lines)-3; k++ {
			a := at + r.Intn(3)
			b := a + 2 + r.Intn(4)
			if b > len(lines) {
				break
			}
			old := append([]string{}, lines[a:b]...)
			nw := append([]string{}, old...)
			j := r.Intn(len(nw))
			switch r.Intn(3) {
			case 0: // change a line
				nw[j] = strings.TrimRight(nw[j], "\n") + " // changed" + trailing(r) + "\n"
			case 1: // add a line
				nw = append(nw[:j+1], append([]string{"\tadded()" + trailing(r) + "\n"}, nw[j+1:]...)...)
			case 2: // remove a line
				nw = append(nw[:j], nw[j+1:]...)
			}
			old, nw = drift(r, old, nw)
			hs = append(hs, hunk{strings.Join(old, ""), strings.Join(nw, "")})
			lineNos = append(lineNos, a+1)
			at = b + 1
		}
		switch format {
		case "sr":
			for _, h := range hs {
				fmt.Fprintf(&resp, "%s\n```go\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n```\n\nMore prose.\n\n", name, h.old, h.new)
			}
		case "json":
			switch r.Intn(3) {
			case 0: // one call per line
				for _, h := range hs {
					b, _ := json.Marshal(map[string]string{"file_path": name, "old_string": h.old, "new_string": h.new})
					fmt.Fprintf(&resp, "%s\n", b)
				}
			case 1: // an array on one line
				var calls []map[string]string
				for _, h := range hs {
					calls = append(calls, map[string]string{"path": name, "old_str": h.old, "new_str": h.new, "command": "str_replace"})
				}
				b, _ := json.Marshal(calls)
				fmt.Fprintf(&resp, "```json\n%s\n```\n", b)
			case 2: // MultiEdit, pretty printed
				var es []map[string]string
				for _, h := range hs {
					es = append(es, map[string]string{"old_string": h.old, "new_string": h.new})
				}
				b, _ := json.MarshalIndent(map[string]any{"file_path": name, "edits": es}, "", "  ")
				fmt.Fprintf(&resp, "%s\n", b)
			}
			resp.WriteString("\n")
		case "udiff":
			if r.Intn(2) == 0 {
				fmt.Fprintf(&resp, "```diff\n--- %s\n+++ %s\n", name, name)
			} else {
				fmt.Fprintf(&resp, "```diff\ndiff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", name, name, name, name)
			}
			for k, h := range hs {
				n := lineNos[k] + r.Intn(3)*5 // stale numbers
				if k == 0 && r.Intn(5) == 0 {
					// the "@@" line dropped
				} else if r.Intn(3) == 0 {
					resp.WriteString("@@ ... @@\n")
				} else {
					fmt.Fprintf(&resp, "@@ -%d,%d +%d,%d @@\n", n, strings.Count(h.old, "\n"), n, strings.Count(h.new, "\n"))
				}
				resp.WriteString(hunkBody(h.old, h.new, ""))
			}
			resp.WriteString("```\n\n")
		case "codex":
			fmt.Fprintf(&resp, "*** Begin Patch\n*** Update File: %s\n", name)
			for k, h := range hs {
				if a := lineNos[k] - 2; a >= 0 && r.Intn(3) == 0 && strings.HasPrefix(lines[a], "func ") {
					// Anchored on the line above, as codex writes it; sometimes
					// a chunk that only adds lines right after the anchor.
					fmt.Fprintf(&resp, "@@ %s", lines[a])
					if r.Intn(2) == 0 {
						fmt.Fprintf(&resp, "+\tinserted%d()%s\n", k, trailing(r))
						continue
					}
				} else {
					resp.WriteString("@@\n")
				}
				resp.WriteString(hunkBody(h.old, h.new, ""))
			}
			resp.WriteString("*** End Patch\n\n")
		}
	}
	resp.WriteString("That is all.\n")
	c.response = resp.String()
	return c
}

func trailing(r *rand.Rand) string {
	if r.Intn(3) == 0 {
		return "  \t"
	}
	return ""
}

// genLines returns a Go-looking file whose lines are mostly unique.
func genLines(r *rand.Rand, fi int) []string {
	ls := []string{"package p\n", "\n"}
	for f := 0; f < 3+r.Intn(3); f++ {
		ls = append(ls, fmt.Sprintf("func g%d_%d() {\n", fi, f))
		for k := 0; k < 2+r.Intn(4); k++ {
			switch r.Intn(4) {
			case 0:
				ls = append(ls, fmt.Sprintf("\ts%d := \"v%d\"\n", k, f))
			case 1:
				ls = append(ls, fmt.Sprintf("\tif x%d > %d {\n\t\tcall%d()\n\t}\n", k, f, k))
			default:
				ls = append(ls, fmt.Sprintf("\tx%d_%d := %d\n", f, k, r.Intn(100)))
			}
		}
		ls = append(ls, "}\n", "\n")
	}
	// Split the multi-line entries into lines.
	return strings.SplitAfter(strings.TrimSuffix(strings.Join(ls, ""), "\n")+"\n", "\n")[:strings.Count(strings.Join(ls, ""), "\n")]
}

// drift changes how the old (and new) lines are quoted, the way models
// misquote: trailing blanks, a consistent indentation shift, curly quotes,
// or an elided run of unchanged middle lines.
func drift(r *rand.Rand, old, nw []string) ([]string, []string) {
	switch r.Intn(6) {
	case 0:
		for k := range old {
			old[k] = strings.TrimRight(old[k], "\n") + "   \n"
		}
	case 1:
		for k := range old {
			old[k] = "    " + old[k]
		}
		for k := range nw {
			nw[k] = "    " + nw[k]
		}
	case 2:
		for k := range old {
			old[k] = strings.ReplaceAll(old[k], "\"", "\u201c")
		}
	case 3:
		// Elide the unchanged lines between the first and last two.
		if len(old) >= 5 && len(nw) >= 5 {
			p, s := 0, 0
			for p < len(old) && p < len(nw) && old[p] == nw[p] {
				p++
			}
			for s < len(old)-p && s < len(nw)-p && old[len(old)-1-s] == nw[len(nw)-1-s] {
				s++
			}
			if s >= 3 {
				// old[len-s : len-1] is unchanged; elide it, keeping the last line.
				ph := "\t// ... existing code ...\n"
				old = append(append(old[:len(old)-s:len(old)-s], ph), old[len(old)-1])
				nw = append(append(nw[:len(nw)-s:len(nw)-s], ph), nw[len(nw)-1])
			}
		}
	}
	return old, nw
}

// hunkBody writes old → new as diff lines: the common head and tail as
// context, the rest removed and added.
func hunkBody(old, nw, _ string) string {
	a, b := strings.SplitAfter(old, "\n"), strings.SplitAfter(nw, "\n")
	a, b = a[:len(a)-1], b[:len(b)-1]
	var s strings.Builder
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		s.WriteString(" " + a[p])
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	for _, l := range a[p : len(a)-q] {
		s.WriteString("-" + l)
	}
	for _, l := range b[p : len(b)-q] {
		s.WriteString("+" + l)
	}
	for _, l := range a[len(a)-q:] {
		s.WriteString(" " + l)
	}
	return s.String()
}

// normalized is the response as `edapply normalize` prints it: as
// rewritten, or as sent when that is what applying it did.
func normalized(response string, edits []edit.Edit, res *apply.Result) (string, error) {
	norm, err := report.Normalized([]byte(response), edits, res)
	if norm == "" {
		norm = response
	}
	return norm, err
}
