package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/gen"
)

// rssFileLines and rssEditsPerFile shape BenchmarkPeakRSS's trees: files of
// about 25 KB, each edited in ten places, so that a SEARCH/REPLACE reply is
// a little smaller than the files it edits, as in a large real reply.
const rssFileLines, rssEditsPerFile = 600, 10

// rssShapes are BenchmarkPeakRSS's trees: files of rssFileLines, edited
// in rssEditsPerFile places, with reply and files of about 0.1, 1, 3, 10
// and 40 MB in SEARCH/REPLACE; and a reply larger than its files, as the
// issue that set the target measured it (200 files of 1,500 lines, a
// hundred edits each: 10.5 MB of blocks or a 6.0 MB diff over 9.3 MB),
// where a diff's texts, built from its lines, weigh most.
var rssShapes = []struct{ files, lines, edits int }{
	{4, rssFileLines, rssEditsPerFile},
	{40, rssFileLines, rssEditsPerFile},
	{120, rssFileLines, rssEditsPerFile},
	{400, rssFileLines, rssEditsPerFile},
	{1600, rssFileLines, rssEditsPerFile},
	{200, 1500, 100},
}

// BenchmarkPeakRSS reports the edapply binary's peak RSS (peak-rss-B) on
// replies of every size, and its ratio to the bytes the run holds, the
// reply and the files it edits (rss/held); "version" is `edapply
// --version`, the Go runtime's own floor. The command runs under GNU
// time, which starts it from a process of its own: a command this harness
// started itself would count the harness's memory too (see rusage.PeakRSS).
func BenchmarkPeakRSS(b *testing.B) {
	gnuTime := "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		b.Skip("GNU time not installed")
	}
	bin := buildCLI(b)
	b.Run("version", func(b *testing.B) {
		b.ReportMetric(float64(peakRSS(b, gnuTime, 0, nil, bin, "--version")), "peak-rss-B")
	})
	for _, sh := range rssShapes {
		for _, format := range formats {
			name := fmt.Sprintf("%s-%dfiles", format, sh.files)
			if sh.lines != rssFileLines || sh.edits != rssEditsPerFile {
				name += fmt.Sprintf("-%dlines-%dedits", sh.lines, sh.edits)
			}
			b.Run(name, func(b *testing.B) {
				fx, err := newFixture(gen.Tree(uint64(sh.files), sh.files, sh.lines), sh.edits, uint64(sh.files))
				if err != nil {
					b.Fatal(err)
				}
				t := newTree(b, fx.files)
				reply := filepath.Join(b.TempDir(), "reply")
				if err := os.WriteFile(reply, fx.response(format), 0o666); err != nil {
					b.Fatal(err)
				}
				held := len(fx.response(format)) + size(fx.files)
				fx = nil // the harness's memory is not the command's, but keep the machine's free
				rss := peakRSS(b, gnuTime, 0, func() { t.reset(b) }, bin, "--json", "--no-sync", "--root", t.root, reply)
				reportHeld(b, held, rss)
			})
		}
	}
}

// peakRSS runs argv under GNU time once an iteration, after reset (when
// not nil) outside the timer, and returns the largest peak RSS; the
// command must exit with code exit.
func peakRSS(b *testing.B, gnuTime string, exit int, reset func(), argv ...string) int64 {
	var rss int64
	for b.Loop() {
		if reset != nil {
			b.StopTimer()
			reset()
			b.StartTimer()
		}
		r, err := timedRSS(gnuTime, exit, argv...)
		if err != nil {
			b.Fatal(err)
		}
		rss = max(rss, r)
	}
	return rss
}

// reportHeld reports a run's peak RSS beside the bytes it holds.
func reportHeld(b *testing.B, held int, rss int64) {
	b.ReportMetric(float64(held), "held-B")
	b.ReportMetric(float64(rss), "peak-rss-B")
	b.ReportMetric(float64(rss)/float64(held), "rss/held")
}

// timedRSS runs argv under GNU time and returns the command's peak RSS in
// bytes. It fails unless the command exits with code exit.
func timedRSS(gnuTime string, exit int, argv ...string) (int64, error) {
	f, err := os.CreateTemp("", "edapply-rss-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	f.Close()
	cmd := exec.Command(gnuTime, append([]string{"-f", "%M", "-o", f.Name(), "--"}, argv...)...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Run(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exit {
		return 0, fmt.Errorf("%v: %v, want exit %d\n%s", argv, err, exit, errOut.Bytes())
	}
	out, err := os.ReadFile(f.Name())
	if err != nil {
		return 0, err
	}
	// GNU time says first when the command exited non-zero.
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return 0, fmt.Errorf("GNU time printed nothing")
	}
	kib, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("GNU time printed %q: %v", out, err)
	}
	return kib << 10, nil
}

// BenchmarkPeakRSSFailures is BenchmarkPeakRSS on replies that fail, with
// --json, at three sizes each: failing blocks by the hundred on one file
// (BenchmarkFailures' shape), every other one failing between blocks that
// land (BenchmarkFailuresInterleaved's), and one SEARCH that misses a file
// of 1, 10 and 100 MB. A failure holds the indexes its candidates read (lines,
// keys, postings) beside the file.
func BenchmarkPeakRSSFailures(b *testing.B) {
	gnuTime := "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		b.Skip("GNU time not installed")
	}
	bin := buildCLI(b)
	run := func(b *testing.B, path string, src, reply []byte) {
		t := newTree(b, []gen.File{{Path: path, Src: src}})
		rf := filepath.Join(b.TempDir(), "reply")
		if err := os.WriteFile(rf, reply, 0o666); err != nil {
			b.Fatal(err)
		}
		held := len(reply) + len(src)
		reportHeld(b, held, peakRSS(b, gnuTime, 1, nil, bin, "--json", "--no-sync", "--root", t.root, rf))
	}
	for _, sz := range failSizes {
		b.Run(fmt.Sprintf("blocks-%dlines-%dfail", sz.lines, sz.edits), func(b *testing.B) {
			src, es, err := failingEdits(sz.lines, sz.edits)
			if err != nil {
				b.Fatal(err)
			}
			run(b, "fail.go", src, searchReplaceOf(es))
		})
		b.Run(fmt.Sprintf("interleaved-%dlines-%dedits", sz.lines, sz.edits), func(b *testing.B) {
			src, es, err := someFailing(sz.lines, sz.edits, 2)
			if err != nil {
				b.Fatal(err)
			}
			run(b, "fail.go", src, searchReplaceOf(es))
		})
	}
	for _, mb := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("miss-%dMB", mb), func(b *testing.B) {
			src := gen.Source(37, "big", mb<<20/36)
			bl, err := gen.NearMiss("big.go", src, 40)
			if err != nil {
				b.Fatal(err)
			}
			run(b, "big.go", src, gen.SearchReplace([]gen.Block{bl}))
		})
	}
}

// BenchmarkPeakRSSWholeFile reports the edapply binary's peak RSS on a
// reply of one whole-file fence of 12.5, 50 and 200 MB, creating the file
// and rewriting one of about its size (the 200 MB shape), and its
// ratio to the reply (rss/reply) and to the reply and the file rewritten
// (rss/held).
func BenchmarkPeakRSSWholeFile(b *testing.B) {
	gnuTime := "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		b.Skip("GNU time not installed")
	}
	bin := buildCLI(b)
	for _, mb := range []float64{12.5, 50, 200} {
		content := wholeContent(int(mb * (1 << 20)))
		reply := []byte("big.txt\n```\n" + content + "```\n")
		for _, op := range []string{"create", "rewrite"} {
			b.Run(fmt.Sprintf("%s-%gMB", op, mb), func(b *testing.B) {
				dir := b.TempDir()
				root, replyPath := filepath.Join(dir, "tree"), filepath.Join(dir, "reply.md")
				if err := os.WriteFile(replyPath, reply, 0o666); err != nil {
					b.Fatal(err)
				}
				old := strings.ReplaceAll(content, "reply", "file ")
				held := len(reply)
				if op == "rewrite" {
					held += len(old)
				}
				fresh := func() {
					os.RemoveAll(root)
					if err := os.Mkdir(root, 0o755); err != nil {
						b.Fatal(err)
					}
					if op == "rewrite" {
						if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(old), 0o644); err != nil {
							b.Fatal(err)
						}
					}
				}
				rss := peakRSS(b, gnuTime, 0, fresh, bin, "--json", "--no-sync", "--root", root, replyPath)
				reportHeld(b, held, rss)
				b.ReportMetric(float64(rss)/float64(len(reply)), "rss/reply")
			})
		}
	}
}

// wholeContent is about n bytes of distinct lines of text.
func wholeContent(n int) string {
	var sb strings.Builder
	sb.Grow(n + 100)
	for i := 0; sb.Len() < n; i++ {
		fmt.Fprintf(&sb, "line %d of the reply's whole file, with text to make it long enough %d\n", i, i*7)
	}
	return sb.String()
}
