package bench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/gen"
)

// The cost of failure (issue 35): failing blocks by the hundred on one
// file, and one long SEARCH that misses, each at three sizes a factor of
// four apart, so that the growth of the CPU per op shows whether a shape
// is linear. BenchmarkFailures runs `patch --dry-run` on the same hunks
// beside edapply where patch is installed.

// failSizes are the file lines and failing edits of each size.
var failSizes = []struct{ lines, edits int }{{6_250, 62}, {25_000, 250}, {100_000, 1_000}}

var wordRE = regexp.MustCompile(`\b[a-z][A-Za-z]{3,}\b`)

// misremember renames the first identifier of l, as a model that
// misremembers it does; l unchanged when it has none.
func misremember(l string) string {
	loc := wordRE.FindStringIndex(l)
	if loc == nil {
		return l
	}
	return l[:loc[1]] + "Zq" + l[loc[1]:]
}

// searchReplaceOf renders es as SEARCH/REPLACE blocks.
func searchReplaceOf(es []gen.Edit) []byte {
	blocks := make([]gen.Block, len(es))
	for i, e := range es {
		blocks[i] = gen.Block{Path: e.Path, Search: e.Old(), Replace: e.New()}
	}
	return gen.SearchReplace(blocks)
}

// failingEdits returns a generated file of lines lines and n edits to it
// whose old text the file does not hold: the lines they remove (or, for an
// insertion, the context around it) misremembered.
func failingEdits(lines, n int) ([]byte, []gen.Edit, error) { return someFailing(lines, n, 1) }

// someFailing is failingEdits with one edit in every of them failing,
// the others as the file has them.
func someFailing(lines, n, every int) ([]byte, []gen.Edit, error) {
	src := gen.Source(35, "fail", lines)
	es, err := gen.Sites("fail.go", src, n, 35)
	if err != nil {
		return nil, nil, err
	}
	for i := range es {
		if i%every != 0 {
			continue
		}
		e := &es[i]
		e.Del = append([]string(nil), e.Del...)
		for k := range e.Del {
			e.Del[k] = misremember(e.Del[k])
		}
		e.Before = append([]string(nil), e.Before...)
		e.After = append([]string(nil), e.After...)
		if len(e.Before) > 0 {
			e.Before[len(e.Before)-1] = misremember(e.Before[len(e.Before)-1])
		}
		if len(e.After) > 0 {
			e.After[0] = misremember(e.After[0])
		}
	}
	return src, es, nil
}

// BenchmarkFailures sends n SEARCH/REPLACE blocks that all fail to a file
// of L lines, and runs `patch --dry-run` on the same edits as hunks.
func BenchmarkFailures(b *testing.B) {
	for _, sz := range failSizes {
		src, es, err := failingEdits(sz.lines, sz.edits)
		if err != nil {
			b.Fatal(err)
		}
		resp := searchReplaceOf(es)
		name := fmt.Sprintf("%dlines-%dfail", sz.lines, sz.edits)
		b.Run("edapply-"+name, func(b *testing.B) {
			t := newTree(b, []gen.File{{Path: "fail.go", Src: src}})
			run := func() error {
				res, err := edapply(resp, t.root, t.state)
				// A misremembered line may happen to stand elsewhere: nearly
				// every edit must fail, and nothing may be written.
				if !errors.Is(err, &edit.Error{Code: edit.CodeNoMatch}) || res == nil || res.OK || len(res.Errors) < len(es)*49/50 {
					return fmt.Errorf("want %d NO_MATCH, got %v", len(es), err)
				}
				return nil
			}
			benchFailing(b, len(resp)+len(src), run)
		})
		b.Run("patch-"+name, func(b *testing.B) { benchPatchDryRun(b, src, es) })
	}
}

// benchPatchDryRun times `patch -p1 --dry-run` on es as hunks to src,
// some of which must fail.
func benchPatchDryRun(b *testing.B, src []byte, es []gen.Edit) {
	if _, err := exec.LookPath("patch"); err != nil {
		b.Skip("patch not installed")
	}
	t := newTree(b, []gen.File{{Path: "fail.go", Src: src}})
	df := filepath.Join(b.TempDir(), "edits.diff")
	if err := os.WriteFile(df, gen.UnifiedDiff(es), 0o666); err != nil {
		b.Fatal(err)
	}
	var m meter
	run := func() error {
		cmd := exec.Command("patch", "-p1", "--dry-run", "-s", "-i", df)
		cmd.Dir = t.root
		out, err := cmd.CombinedOutput()
		m.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		m.n++
		if err == nil || !strings.Contains(string(out), "FAILED") {
			return fmt.Errorf("patch --dry-run: %v, want failed hunks\n%.300s", err, out)
		}
		return nil
	}
	if err := run(); err != nil {
		b.Fatal(err)
	}
	m = meter{}
	for b.Loop() {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
	m.report(b)
}

// BenchmarkFailuresInterleaved sends n blocks to a file of L lines, every
// other one failing: each block that lands between two that fail leaves
// a new content for the next failure's candidates. `patch --dry-run`
// runs on the same hunks beside it.
func BenchmarkFailuresInterleaved(b *testing.B) {
	for _, sz := range failSizes {
		src, es, err := someFailing(sz.lines, sz.edits, 2)
		if err != nil {
			b.Fatal(err)
		}
		resp := searchReplaceOf(es)
		b.Run(fmt.Sprintf("edapply-%dlines-%dedits", sz.lines, sz.edits), func(b *testing.B) {
			t := newTree(b, []gen.File{{Path: "fail.go", Src: src}})
			benchFailing(b, len(resp)+len(src), func() error {
				res, err := edapply(resp, t.root, t.state)
				if !errors.Is(err, &edit.Error{Code: edit.CodeNoMatch}) || res == nil || res.OK || len(res.Errors) < len(es)/2*49/50 {
					return fmt.Errorf("want %d NO_MATCH, got %v", len(es)/2, err)
				}
				return nil
			})
		})
		b.Run(fmt.Sprintf("patch-%dlines-%dedits", sz.lines, sz.edits), func(b *testing.B) { benchPatchDryRun(b, src, es) })
	}
}

// BenchmarkLongMiss sends one SEARCH of n lines, a stretch of the file
// with every tenth line misremembered, to a file of 4n lines.
func BenchmarkLongMiss(b *testing.B) {
	for _, n := range []int{1_250, 5_000, 20_000} {
		src := gen.Source(36, "miss", 4*n)
		lines := strings.SplitAfter(string(src), "\n")
		old := slices2(lines[n : 2*n])
		for k := 0; k < len(old); k += 10 {
			old[k] = misremember(old[k])
		}
		resp := gen.SearchReplace([]gen.Block{{Path: "miss.go", Search: strings.Join(old, ""), Replace: "x\n"}})
		b.Run(fmt.Sprintf("%dlines", n), func(b *testing.B) {
			t := newTree(b, []gen.File{{Path: "miss.go", Src: src}})
			benchFailing(b, len(resp)+len(src), func() error {
				res, err := edapply(resp, t.root, t.state)
				if !errors.Is(err, &edit.Error{Code: edit.CodeNoMatch}) || res == nil || len(res.Errors) != 1 {
					return fmt.Errorf("want one NO_MATCH, got %v", err)
				}
				return checkBounded(res)
			})
		})
	}
}

func slices2(s []string) []string { return append([]string(nil), s...) }

// checkBounded fails when a receipt's excerpts exceed their budget.
func checkBounded(res *apply.Result) error {
	for _, e := range res.Errors {
		for _, c := range e.Candidates {
			if len(c.Excerpt) > 16<<10 {
				return fmt.Errorf("an excerpt of %d bytes", len(c.Excerpt))
			}
		}
	}
	return nil
}

// benchFailing times op, which fails as it must and writes nothing.
func benchFailing(b *testing.B, touched int, op func() error) {
	var err error
	alloc, peak := measure(func() { err = op() })
	if err != nil {
		b.Fatal(err)
	}
	var m meter
	b.ReportAllocs()
	for b.Loop() {
		if err := m.run(op); err != nil {
			b.Fatal(err)
		}
	}
	m.report(b)
	reportMem(b, touched, alloc, peak)
}
