package bench

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/rusage"
	"github.com/edapply/edapply/parse"
)

// Sizes of the generated data. Every fixture is a pure function of these
// and its seed, so runs on different machines compare the same bytes.
const (
	largeLines, largeEdits = 50_000, 500
	hugeLines              = 200_000
	manyFiles, manyLines   = 1_000, 150
	parseEdits             = 8_000 // over hugeLines: a response of several MB
	scaleLines, scaleEdits = 5_000, 50
)

// TestMain catches SIGINT and SIGTERM for the whole run, as the edapply
// command does from its start (cmd/edapply's main), so that the in-process
// benchmarks time what the command does per response. Without it every
// Apply registers and drops its commit's handler with os/signal, which
// then turns signal catching on and off, each a round trip to the
// runtime's signal thread, which a program that already catches the
// signals never pays. BenchmarkCLI pays
// the command's one registration per run. A signal ends the run, as it
// would without the handler.
func TestMain(m *testing.M) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-c
		signal.Stop(c)
		raise(s)
	}()
	code := m.Run()
	if cliBin != "" {
		os.RemoveAll(filepath.Dir(cliBin))
	}
	if lintBase != "" {
		os.RemoveAll(lintBase)
	}
	if pathTreeBase != "" {
		os.RemoveAll(pathTreeBase)
	}
	os.Exit(code)
}

// A fixture is a tree of files, edits against it, the edits rendered both
// ways, and the tree as it must be after them.
type fixture struct {
	files []gen.File
	edits []gen.Edit
	sr    []byte // SEARCH/REPLACE response
	udiff []byte // one unified diff
	want  []gen.File
}

// newFixture picks perFile edit sites in each of files.
func newFixture(files []gen.File, perFile int, seed uint64) (*fixture, error) {
	fx := &fixture{files: files}
	var blocks []gen.Block
	for i, f := range files {
		es, err := gen.Sites(f.Path, f.Src, perFile, seed+uint64(i))
		if err != nil {
			return nil, err
		}
		after, err := gen.ApplyEdits(f.Src, es)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			blocks = append(blocks, e.Block())
		}
		fx.edits = append(fx.edits, es...)
		fx.want = append(fx.want, gen.File{Path: f.Path, Src: after})
	}
	fx.sr = gen.SearchReplace(blocks)
	fx.udiff = gen.UnifiedDiff(fx.edits)
	return fx, nil
}

// Fixtures are built once per process and shared, so -count=N and the
// reference benchmarks reuse the same bytes.
var (
	largeFixture = sync.OnceValues(func() (*fixture, error) {
		return newFixture([]gen.File{{Path: "internal/big/big.go", Src: gen.Source(50, "big", largeLines)}}, largeEdits, 50)
	})
	hugeSource  = sync.OnceValue(func() []byte { return gen.Source(200, "huge", hugeLines) })
	manyFixture = sync.OnceValues(func() (*fixture, error) {
		return newFixture(gen.Tree(1000, manyFiles, manyLines), 1, 1000)
	})
	parseFixture = sync.OnceValues(func() (*fixture, error) {
		return newFixture([]gen.File{{Path: "internal/huge/huge.go", Src: hugeSource()}}, parseEdits, 8000)
	})
	scaleFixtures sync.Map // int → func() (*fixture, error)
)

func scaleFixture(k int) (*fixture, error) {
	f, _ := scaleFixtures.LoadOrStore(k, sync.OnceValues(func() (*fixture, error) {
		src := gen.Source(uint64(5000+k), "scale", k*scaleLines)
		return newFixture([]gen.File{{Path: "scale.go", Src: src}}, k*scaleEdits, uint64(k))
	}))
	return f.(func() (*fixture, error))()
}

// formats are the response formats a fixture renders, by subbenchmark name.
var formats = []string{"searchreplace", "udiff"}

// response returns fx's response in format, one of formats.
func (fx *fixture) response(format string) []byte {
	if format == "udiff" {
		return fx.udiff
	}
	return fx.sr
}

// load returns the fixture that build makes, or fails b.
func load(b *testing.B, build func() (*fixture, error)) *fixture {
	b.Helper()
	fx, err := build()
	if err != nil {
		b.Fatal(err)
	}
	return fx
}

// A tree is a fixture's files on disk, which a benchmark edits and puts back.
type tree struct {
	root  string
	state string // apply.Options.StateDir, outside root
	files []gen.File
}

func newTree(b *testing.B, files []gen.File) *tree {
	b.Helper()
	t := &tree{root: filepath.Join(b.TempDir(), "tree"), state: filepath.Join(b.TempDir(), "state"), files: files}
	if err := gen.WriteTree(t.root, files); err != nil {
		b.Fatal(err)
	}
	return t
}

// reset writes the pristine files back, and waits until they last
// changed settle ago.
func (t *tree) reset(b *testing.B) {
	if err := gen.WriteTree(t.root, t.files); err != nil {
		b.Fatal(err)
	}
	time.Sleep(settle)
}

// settle is how long before a run the tree's files last changed, with
// the timer stopped: the files an agent edits were written a turn ago,
// not a moment ago, and edapply re-checks a file before its rename by
// one stat when it last changed at least 100 ms before it was read (by
// reading it again otherwise; see apply's fileStamp).
const settle = 120 * time.Millisecond

// check fails b unless the files on disk are want.
func (t *tree) check(b *testing.B, want []gen.File) {
	b.Helper()
	for _, f := range want {
		got, err := os.ReadFile(filepath.Join(t.root, filepath.FromSlash(f.Path)))
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(got, f.Src) {
			b.Fatalf("%s: result differs from the reference applier (%d bytes, want %d)", f.Path, len(got), len(f.Src))
		}
	}
}

func size(files []gen.File) int {
	n := 0
	for _, f := range files {
		n += len(f.Src)
	}
	return n
}

// edapply is the pipeline a user runs: parse the response, apply it to the
// tree, write the files (with the undo journal under state).
func edapply(resp []byte, root, state string) (*apply.Result, error) {
	edits, errs := parse.Parse(string(resp), parse.Options{})
	if len(errs) > 0 {
		return nil, fmt.Errorf("parse: %w", errs)
	}
	// As the command asks (outside a dry run): no FileResult.After, so
	// the new content is written from its pieces.
	opts := apply.Options{Root: root, StateDir: state}
	opts.Omit.After = true
	return apply.Apply(context.Background(), edits, opts)
}

// applyOK runs the pipeline and demands every edit applied.
func applyOK(resp []byte, t *tree, edits int) error {
	res, err := edapply(resp, t.root, t.state)
	if err != nil {
		return err
	}
	n := 0
	for _, f := range res.Files {
		for _, e := range f.Edits {
			if e.Status != edit.StatusApplied {
				return fmt.Errorf("edit %d: %s", e.Index, e.Status)
			}
			n++
		}
	}
	if !res.OK || n != edits {
		return fmt.Errorf("ok=%v with %d of %d edits applied", res.OK, n, edits)
	}
	return nil
}

// benchApply times the pipeline applying resp to a tree of fx's files,
// demanding every edit applied and the reference applier's result.
func benchApply(b *testing.B, fx *fixture, resp []byte) {
	t := newTree(b, fx.files)
	benchTree(b, t, fx.want, len(resp)+size(fx.files)+size(fx.want), &meter{}, func() error {
		return applyOK(resp, t, len(fx.edits))
	})
}

// benchFormats runs benchApply on build's fixture once per format.
func benchFormats(b *testing.B, build func() (*fixture, error)) {
	for _, format := range formats {
		b.Run(format, func(b *testing.B) {
			fx := load(b, build)
			benchApply(b, fx, fx.response(format))
		})
	}
}

// A meter adds up the CPU time ops take: this process's, all threads,
// and that of the commands they run. On a loaded machine wall time swings
// with other work; CPU time much less.
type meter struct {
	cpu   time.Duration
	n     int
	child bool  // an op ran a command: its memory is not this process's
	rss   int64 // the largest peak RSS of a command an op ran, bytes
}

// run runs op once, counting its CPU time.
func (m *meter) run(op func() error) error {
	c := cpuTime()
	err := op()
	m.cpu += cpuTime() - c
	m.n++
	return err
}

// exec runs cmd, counting its CPU time, and fails unless it exits 0 and
// prints nothing (on stderr only, when cmd.Stdout is already set).
func (m *meter) exec(cmd *exec.Cmd) error {
	var out bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	cmd.Stderr = &out
	err := cmd.Run()
	m.child = true
	if cmd.ProcessState != nil {
		m.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		m.rss = max(m.rss, rusage.PeakRSS(cmd.ProcessState))
	}
	if err != nil || out.Len() > 0 {
		return fmt.Errorf("%v: %v\n%s", cmd.Args, err, out.Bytes())
	}
	return nil
}

func (m *meter) report(b *testing.B) {
	if m.n > 0 && m.cpu > 0 {
		b.ReportMetric(float64(m.cpu.Nanoseconds())/float64(m.n), "cpu-ns/op")
	}
}

// benchTree times op, which edits t's files; between iterations, with the
// timer stopped, the files are put back. Before timing, op runs once, its
// result is checked against want, and its memory is measured; touched is
// the bytes the op must at least read and write, for the alloc/touched and
// peak/touched metrics.
func benchTree(b *testing.B, t *tree, want []gen.File, touched int, m *meter, op func() error) {
	var err error
	alloc, peak := measure(func() { err = op() })
	if m.child {
		alloc, peak = 0, 0 // the harness's, not the command's
	}
	*m = meter{}
	if err != nil {
		b.Fatal(err)
	}
	if want != nil {
		t.check(b, want)
	}
	t.reset(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := m.run(op); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		t.reset(b)
		b.StartTimer()
	}
	m.report(b)
	reportMem(b, touched, alloc, peak)
	if m.rss > 0 {
		b.ReportMetric(float64(m.rss), "peak-rss-B")
		b.ReportMetric(float64(m.rss)/float64(touched), "rss/touched")
	}
}

func reportMem(b *testing.B, touched int, alloc, peak uint64) {
	b.ReportMetric(float64(touched), "touched-B/op")
	if alloc > 0 {
		b.ReportMetric(float64(alloc)/float64(touched), "alloc/touched")
		b.ReportMetric(float64(peak)/float64(touched), "peak/touched")
	}
}

// measure runs op once and returns the bytes it allocated and its peak heap
// growth. The peak is sampled from runtime/metrics with GOGC at 10, so dead
// objects are freed promptly: it approximates the largest live heap above
// what was live before (within about 10% and the sampling interval).
func measure(op func()) (alloc, peak uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	total := ms.TotalAlloc
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	old := debug.SetGCPercent(10)
	stop, hi := make(chan struct{}), make(chan uint64)
	go func() {
		var m uint64
		for {
			metrics.Read(s)
			m = max(m, s[0].Value.Uint64())
			select {
			case <-stop:
				hi <- m
				return
			default:
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	op()
	close(stop)
	top := <-hi
	debug.SetGCPercent(old)
	runtime.ReadMemStats(&ms)
	if top > base {
		peak = top - base
	}
	return ms.TotalAlloc - total, peak
}

// BenchmarkLargeFile applies 500 edits to one 50,000-line file, sent as
// SEARCH/REPLACE blocks and as one 500-hunk diff: parse, locate, write.
func BenchmarkLargeFile(b *testing.B) { benchFormats(b, largeFixture) }

// BenchmarkReference runs what edapply competes with on the same data:
// GNU patch and git apply on the diffs of BenchmarkLargeFile and
// BenchmarkManyFiles, and a plain copy of the 200,000-line file, the
// floor for any tool that reads a file and writes a new one. Tools that are
// not installed are skipped.
func BenchmarkReference(b *testing.B) {
	tools := []struct {
		name string
		argv []string // the diff file is appended
	}{
		{"patch", []string{"patch", "-p1", "-s", "-i"}},
		{"gitapply", []string{"git", "apply"}},
	}
	for _, set := range []struct {
		name    string
		fixture func() (*fixture, error)
	}{{"50k", largeFixture}, {"1000", manyFixture}} {
		for _, tool := range tools {
			b.Run(tool.name+"-"+set.name, func(b *testing.B) {
				if _, err := exec.LookPath(tool.argv[0]); err != nil {
					b.Skipf("%s not installed", tool.argv[0])
				}
				fx := load(b, set.fixture)
				t := newTree(b, fx.files)
				df := filepath.Join(b.TempDir(), "edits.diff")
				if err := os.WriteFile(df, fx.udiff, 0o666); err != nil {
					b.Fatal(err)
				}
				var m meter
				benchTree(b, t, fx.want, len(fx.udiff)+size(fx.files)+size(fx.want), &m, func() error {
					cmd := exec.Command(tool.argv[0], append(tool.argv[1:], df)...)
					cmd.Dir = t.root
					cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(t.root))
					return m.exec(cmd)
				})
			})
		}
	}
	b.Run("copy-200k", func(b *testing.B) {
		src := hugeSource()
		t := newTree(b, []gen.File{{Path: "huge.go", Src: src}})
		from, to := filepath.Join(t.root, "huge.go"), filepath.Join(t.root, "huge.go.new")
		var m meter
		b.ReportAllocs()
		for b.Loop() {
			err := m.run(func() error {
				data, err := os.ReadFile(from)
				if err != nil {
					return err
				}
				return os.WriteFile(to, data, 0o666)
			})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if err := os.Remove(to); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		m.report(b)
		reportMem(b, 2*len(src), 0, 0)
	})
}

// BenchmarkMiss200k sends one SEARCH block that is close to, but not in, a
// 200,000-line file: the worst case, where every rung of the ladder fails
// and the similarity search for candidates scans the whole file.
func BenchmarkMiss200k(b *testing.B) {
	src := hugeSource()
	bl, err := gen.NearMiss("huge.go", src, 200)
	if err != nil {
		b.Fatal(err)
	}
	resp := gen.SearchReplace([]gen.Block{bl})
	t := newTree(b, []gen.File{{Path: "huge.go", Src: src}})
	check := func(res *apply.Result, err error) error {
		if !errors.Is(err, &edit.Error{Code: edit.CodeNoMatch}) || res == nil || len(res.Errors) != 1 {
			return fmt.Errorf("want one NO_MATCH, got %v", err)
		}
		return nil
	}
	miss := func() error { return check(edapply(resp, t.root, t.state)) }
	var res *apply.Result
	alloc, peak := measure(func() { res, err = edapply(resp, t.root, t.state) })
	if err = check(res, err); err != nil {
		b.Fatal(err)
	}
	if c := res.Errors[0].Candidates; len(c) == 0 {
		b.Logf("NO_MATCH without candidates: not the worst case this benchmark means to time")
	} else {
		b.Logf("best candidate: lines %d-%d, similarity %.2f", c[0].LineStart, c[0].LineEnd, c[0].Similarity)
	}
	var m meter
	b.ReportAllocs()
	for b.Loop() {
		if err := m.run(miss); err != nil {
			b.Fatal(err)
		}
	}
	m.report(b)
	reportMem(b, len(resp)+len(src), alloc, peak)
}

// BenchmarkDrift200k sends one SEARCH block whose lines gained a tab of
// indentation and trailing blanks: the ladder's indentation rung lands it.
func BenchmarkDrift200k(b *testing.B) {
	src := hugeSource()
	es, err := gen.Sites("huge.go", src, 1, 201)
	if err != nil {
		b.Fatal(err)
	}
	after, err := gen.ApplyEdits(src, es)
	if err != nil {
		b.Fatal(err)
	}
	resp := gen.SearchReplace([]gen.Block{gen.Drift(es[0])})
	t := newTree(b, []gen.File{{Path: "huge.go", Src: src}})
	var strategy edit.Strategy
	benchTree(b, t, []gen.File{{Path: "huge.go", Src: after}}, len(resp)+len(src)+len(after), &meter{}, func() error {
		res, err := edapply(resp, t.root, t.state)
		if err != nil {
			return err
		}
		if len(res.Files) != 1 || len(res.Files[0].Edits) != 1 || res.Files[0].Edits[0].Status != edit.StatusApplied {
			return fmt.Errorf("drifted edit not applied")
		}
		strategy = res.Files[0].Edits[0].Strategy
		return nil
	})
	if strategy == edit.StrategyExact {
		b.Errorf("drifted edit matched exactly; the benchmark does not exercise the ladder")
	}
}

// BenchmarkManyFiles applies one edit to each of 1,000 small files.
func BenchmarkManyFiles(b *testing.B) { benchFormats(b, manyFixture) }

// BenchmarkParse parses a response of several megabytes (8,000 edits to
// one file) without applying it.
func BenchmarkParse(b *testing.B) {
	for _, format := range formats {
		b.Run(format, func(b *testing.B) {
			fx := load(b, parseFixture)
			resp := fx.response(format)
			edits, errs := parse.Parse(string(resp), parse.Options{})
			if len(errs) > 0 || len(edits) != len(fx.edits) {
				b.Fatalf("parsed %d edits and %d errors (%v), want %d edits", len(edits), len(errs), errs.Err(), len(fx.edits))
			}
			for i, e := range edits {
				if e.Old != fx.edits[i].Old() || e.New != fx.edits[i].New() {
					b.Fatalf("edit %d parsed wrong", i)
				}
			}
			alloc, peak := measure(func() { parse.Parse(string(resp), parse.Options{}) })
			b.SetBytes(int64(len(resp)))
			b.ReportAllocs()
			var m meter
			for b.Loop() {
				m.run(func() error { parse.Parse(string(resp), parse.Options{}); return nil })
			}
			m.report(b)
			reportMem(b, len(resp), alloc, peak)
		})
	}
}

// BenchmarkScaling grows the file and the number of edits together: 5,000
// lines with 50 edits, times 1, 4 and 16. Linear work grows ns/op by 4 and
// 16; work per edit that scans the file grows it by 16 and 256.
func BenchmarkScaling(b *testing.B) {
	for _, k := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("%dx", k), func(b *testing.B) {
			fx := load(b, func() (*fixture, error) { return scaleFixture(k) })
			benchApply(b, fx, fx.sr)
		})
	}
}

// BenchmarkCLI runs the edapply binary, built once, on the diff of
// BenchmarkLargeFile: the same process start-up and I/O that patch and git
// apply pay in BenchmarkReference. The -json runs print the JSON receipt,
// with its SHA-256 hashes of the file before and after, where the human
// receipt has none.
func BenchmarkCLI(b *testing.B) {
	bin := buildCLI(b)
	for _, format := range append(formats, "udiff-json") {
		b.Run(format+"-50k", func(b *testing.B) {
			fx := load(b, largeFixture)
			resp := fx.response(strings.TrimSuffix(format, "-json"))
			t := newTree(b, fx.files)
			var m meter
			benchTree(b, t, fx.want, len(resp)+size(fx.files)+size(fx.want), &m, func() error {
				cmd := exec.Command(bin, "--root", t.root)
				if strings.HasSuffix(format, "-json") {
					cmd.Args = append(cmd.Args, "--json")
				}
				cmd.Stdin = bytes.NewReader(resp)
				cmd.Stdout = io.Discard // the receipt
				cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.state)
				return m.exec(cmd)
			})
		})
	}
}

// BenchmarkOneEdit is the fixed cost of one call: a one-line diff to one
// of five small files, through the edapply binary (with and without
// --no-sync, and with --json) and through git apply and patch on the same
// diff, side by side; and the same diff checked without writing, by
// edapply --dry-run and git apply --check, the cost of a call that writes
// nothing (a refused edit costs about the same). Each reports cpu-ns/op
// and the command's peak RSS.
func BenchmarkOneEdit(b *testing.B) {
	files := gen.Tree(22, 5, 200)
	fx := load(b, func() (*fixture, error) { return newFixture(files[:1], 1, 22) })
	for _, c := range []struct {
		name   string
		argv   func(bin, root, diff string) []string
		writes bool
	}{
		{"edapply", func(bin, root, diff string) []string { return []string{bin, "--root", root, diff} }, true},
		{"edapply-nosync", func(bin, root, diff string) []string { return []string{bin, "--no-sync", "--root", root, diff} }, true},
		// As a harness calls it: the receipt as JSON, with its hashes.
		{"edapply-json", func(bin, root, diff string) []string { return []string{bin, "--json", "--root", root, diff} }, true},
		{"gitapply", func(_, _, diff string) []string { return []string{"git", "apply", diff} }, true},
		{"patch", func(_, _, diff string) []string { return []string{"patch", "-p1", "-s", "-i", diff} }, true},
		{"edapply-dryrun", func(bin, root, diff string) []string { return []string{bin, "--dry-run", "--root", root, diff} }, false},
		{"gitapply-check", func(_, _, diff string) []string { return []string{"git", "apply", "--check", diff} }, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			bin := ""
			if strings.HasPrefix(c.name, "edapply") {
				bin = buildCLI(b)
			}
			argv := c.argv(bin, "", "")
			if _, err := exec.LookPath(argv[0]); err != nil {
				b.Skipf("%s not installed", argv[0])
			}
			t := newTree(b, files)
			df := filepath.Join(b.TempDir(), "edit.diff")
			if err := os.WriteFile(df, fx.udiff, 0o666); err != nil {
				b.Fatal(err)
			}
			argv = c.argv(bin, t.root, df)
			want := fx.want
			if !c.writes {
				want = files
			}
			var m meter
			benchTree(b, t, want, len(fx.udiff)+2*len(files[0].Src), &m, func() error {
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Dir = t.root
				cmd.Stdout = io.Discard // the receipt
				cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.state, "GIT_CEILING_DIRECTORIES="+filepath.Dir(t.root))
				return m.exec(cmd)
			})
		})
	}
}

var (
	cliOnce sync.Once
	cliBin  string
	cliErr  error
)

// cliCgo is CGO_ENABLED for the binary the CLI benchmarks run.
var cliCgo = cmp.Or(os.Getenv("EDAPPLY_BENCH_CGO"), "0")

func buildCLI(b *testing.B) string {
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "edapply-bench-")
		if err != nil {
			cliErr = err
			return
		}
		cliBin = filepath.Join(dir, "edapply")
		// go test puts its own go command first in PATH. Built as make
		// build builds it (see the Makefile): static, without cgo.
		cmd := exec.Command("go", "build", "-trimpath", "-o", cliBin, "github.com/edapply/edapply/cmd/edapply")
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+cliCgo)
		out, err := cmd.CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build: %v\n%s", err, strings.TrimSpace(string(out)))
		}
	})
	if cliErr != nil {
		b.Skip(cliErr)
	}
	return cliBin
}
