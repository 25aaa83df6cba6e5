package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/edapply/edapply/internal/gen"
)

// lintSizes are the changed files of BenchmarkLint's repositories, a
// factor of ten apart, so its results fit a growth exponent.
var lintSizes = []int{1_000, 10_000, 100_000}

// lintLines is the length of each generated file: a small source file.
const lintLines = 40

var (
	lintRepoDir = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "edapply-bench-lint-")
		lintBase = dir
		return dir, err
	})
	lintBase     string   // the repositories' directory, which TestMain removes
	lintRepos    sync.Map // int → func() (string, error)
	lintRepoLock sync.Mutex
)

// lintRepo returns a git repository of n committed Go files, each changed
// in the work tree by one model-style edit (gen.Sites) and none staged,
// made once per process: generating 100,000 files costs several seconds.
func lintRepo(n int) (string, error) {
	f, _ := lintRepos.LoadOrStore(n, sync.OnceValues(func() (string, error) {
		lintRepoLock.Lock() // one at a time: each takes both cores
		defer lintRepoLock.Unlock()
		base, err := lintRepoDir()
		if err != nil {
			return "", err
		}
		dir := filepath.Join(base, fmt.Sprint(n))
		return dir, makeLintRepo(dir, n)
	}))
	return f.(func() (string, error))()
}

// makeLintRepo writes the repository: the committed files through git
// fast-import, one pack and no process per file, then the index from that
// commit and the edited files in the work tree. The pack holds each blob
// whole (--depth=0), as git gc keeps a file's latest version: chains of
// deltas, which fast-import makes by default between unrelated files,
// would cost both tools the same reconstruction and drown the difference.
func makeLintRepo(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	git := func(stdin io.Reader, args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Stdin = dir, stdin
		cmd.Env = gitEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := git(nil, "init", "-q"); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	imported := make(chan error, 1)
	go func() { imported <- git(pr, "fast-import", "--quiet", "--depth=0"); pr.Close() }()
	w := bufio.NewWriterSize(pw, 1<<20)
	paths := make([]string, n)
	for i := range n {
		dirName := fmt.Sprintf("pkg/p%03d", i/100)
		paths[i] = fmt.Sprintf("%s/f%05d.go", dirName, i)
		src := gen.Source(uint64(7000+i), fmt.Sprintf("p%03d", i/100), lintLines)
		edits, err := gen.Sites(paths[i], src, 1, uint64(i))
		if err != nil {
			pw.CloseWithError(err)
			<-imported
			return err
		}
		after, err := gen.ApplyEdits(src, edits)
		if err != nil {
			pw.CloseWithError(err)
			<-imported
			return err
		}
		fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n%s\n", i+1, len(src), src)
		if err := gen.WriteTree(dir, []gen.File{{Path: paths[i], Src: after}}); err != nil {
			pw.CloseWithError(err)
			<-imported
			return err
		}
	}
	fmt.Fprintf(w, "commit refs/heads/main\ncommitter b <b@example.com> 0 +0000\ndata 5\nbase\n")
	for i, p := range paths {
		fmt.Fprintf(w, "M 100644 :%d %s\n", i+1, p)
	}
	w.WriteString("\n")
	err := w.Flush()
	pw.CloseWithError(err)
	if err := <-imported; err != nil {
		return err
	}
	if err := git(nil, "symbolic-ref", "HEAD", "refs/heads/main"); err != nil {
		return err
	}
	return git(nil, "read-tree", "HEAD")
}

// gitEnv is the environment of every git command of the lint benchmarks:
// none of the user's configuration, and no repository above dir.
func gitEnv(dir string) []string {
	return append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
}

// BenchmarkLint runs `edapply lint` over every changed file of a
// repository of 1,000, 10,000 and 100,000 files, and `git diff --check`,
// the check git itself runs over a change, on the same repository in the
// same run. Neither finds anything: the edits are clean code. cpu-ns/op
// counts the command and the git processes it runs. TestFilesGitProcesses
// (in lint) holds what makes it linear: a fixed number of git processes.
func BenchmarkLint(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	bin := buildCLI(b)
	for _, n := range lintSizes {
		for _, tool := range []struct {
			name string
			argv []string
		}{
			{"edapply", []string{bin, "lint"}},
			{"gitdiffcheck", []string{"git", "diff", "--check"}},
		} {
			b.Run(fmt.Sprintf("%s-%d", tool.name, n), func(b *testing.B) {
				dir, err := lintRepo(n)
				if err != nil {
					b.Fatal(err)
				}
				var m meter
				b.ReportAllocs()
				for b.Loop() {
					cmd := exec.Command(tool.argv[0], tool.argv[1:]...)
					cmd.Dir, cmd.Env = dir, gitEnv(dir)
					if err := m.run(func() error { return m.exec(cmd) }); err != nil {
						b.Fatal(err)
					}
				}
				m.report(b)
				b.ReportMetric(float64(m.cpu.Nanoseconds())/float64(m.n*n), "cpu-ns/file")
				b.ReportMetric(float64(m.rss), "peak-rss-B") // the command's or the largest of its git processes
			})
		}
	}
}
