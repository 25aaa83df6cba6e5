package bench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/parse"
)

// The search for the file a wrong path means (issue 35), at three sizes
// a factor of four to six apart, each op one reply whose one edit names a
// file the tree does not have:
//
//   - flat: a directory of n empty files beside src/, where the file
//     meant is; the wrong path has another first directory.
//   - chain: a chain of n nested directories beside src/.
//   - deep: a tree of n files, 25 to a directory three deep, and the file
//     meant seven directories down; the wrong path lacks its first one.
//
// `find . -name BASE` lists the same trees beside it where a walk is the
// point: the least any search of the whole tree costs. The op fails as
// it must, naming the file meant: a receipt without it fails the run.
type pathShape struct {
	name    string
	sizes   []int
	written string // the path the reply names
	want    string // the candidate the receipt must name
	build   func(root string, n int) error
	find    bool
}

var pathShapes = []pathShape{
	{"flat", []int{10_000, 50_000, 300_000}, "app/server/handlers/user.go", "src/server/handlers/user.go", flatTree, true},
	{"chain", []int{1_000, 4_000, 16_000}, "lib/server/handlers/user.go", "src/server/handlers/user.go", chainTree, false},
	{"deep", []int{10_000, 50_000, 250_000}, "service/internal/store/sql/v2/handler/user_handler.go",
		"pkg/service/internal/store/sql/v2/handler/user_handler.go", deepTree, true},
}

// The file every shape's tree holds besides its bulk.
func meantFile(root, rel string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte("package handlers\n\nfunc User() {}\n"), 0o644)
}

func flatTree(root string, n int) error {
	dir := filepath.Join(root, "gen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%07d.txt", i)), nil, 0o644); err != nil {
			return err
		}
	}
	return meantFile(root, "src/server/handlers/user.go")
}

func deepTree(root string, n int) error {
	for i := range n {
		p := filepath.Join(root, fmt.Sprintf("m%03d/p%02d/q%d/file%02d.go", i/2500, i/250%10, i/25%10, i%25))
		if i%25 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
	}
	return meantFile(root, "pkg/service/internal/store/sql/v2/handler/user_handler.go")
}

func chainTree(root string, n int) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if err := mkChain(filepath.Join(root, "deep"), n); err != nil {
		return err
	}
	return meantFile(root, "src/server/handlers/user.go")
}

var (
	pathTrees    sync.Map // name/n → func() (string, error)
	pathTreeBase string
	pathTreeOnce sync.Once
)

// pathTree returns the tree of shape s at size n, made once per run under
// pathTreeBase (which TestMain removes).
func pathTree(b *testing.B, s pathShape, n int) string {
	pathTreeOnce.Do(func() { pathTreeBase, _ = os.MkdirTemp("", "edapply-pathcands-") })
	if pathTreeBase == "" {
		b.Fatal("no temporary directory")
	}
	f, _ := pathTrees.LoadOrStore(fmt.Sprintf("%s/%d", s.name, n), sync.OnceValues(func() (string, error) {
		root := filepath.Join(pathTreeBase, fmt.Sprintf("%s-%d", s.name, n))
		return root, s.build(root, n)
	}))
	root, err := f.(func() (string, error))()
	if err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkPathCandidates times one failing edit's search of the tree for
// the file its path means; across sizes cpu-ns/op gives the growth
// exponent, log(t2/t1)/log(n2/n1).
func BenchmarkPathCandidates(b *testing.B) {
	for _, s := range pathShapes {
		for _, n := range s.sizes {
			b.Run(fmt.Sprintf("%s/edapply-%d", s.name, n), func(b *testing.B) {
				root := pathTree(b, s, n)
				resp := gen.SearchReplace([]gen.Block{{Path: s.written, Search: "func User() {}\n", Replace: "func User() error { return nil }\n"}})
				state := filepath.Join(b.TempDir(), "state")
				benchFailing(b, len(resp), func() error {
					res, err := edapply(resp, root, state)
					return namesCandidate(res, err, s.want)
				})
			})
			if !s.find {
				continue
			}
			b.Run(fmt.Sprintf("%s/find-%d", s.name, n), func(b *testing.B) {
				benchFind(b, pathTree(b, s, n), filepath.Base(s.want))
			})
		}
	}
}

// benchFind times `find . -name base` in root: the least any search of
// the whole tree costs.
func benchFind(b *testing.B, root, base string) {
	if _, err := exec.LookPath("find"); err != nil {
		b.Skip("find not installed")
	}
	var m meter
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command("find", ".", "-name", base)
		cmd.Dir = root
		cmd.Stdout = &discard{}
		if err := m.run(func() error { return m.exec(cmd) }); err != nil {
			b.Fatal(err)
		}
	}
	m.report(b)
}

// BenchmarkParseBaseName times parsing, with -f whole and the tree, a
// reply whose one whole-file fence prose names by its bare base name
// ("update `user.go` as follows:"), which parse finds in one bounded walk
// of the tree, on the trees of BenchmarkPathCandidates that find lists.
// Up to 100,000 entries (half the walk's budget, which one directory
// gets at most) the one file of that name is named; past it the walk is
// cut short and names none.
func BenchmarkParseBaseName(b *testing.B) {
	for _, s := range pathShapes {
		if !s.find {
			continue
		}
		for _, n := range s.sizes {
			base := filepath.Base(s.want)
			b.Run(fmt.Sprintf("%s/edapply-%d", s.name, n), func(b *testing.B) {
				r, err := os.OpenRoot(pathTree(b, s, n))
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				reply := "Then, update `" + base + "` as follows:\n\n```go\npackage handlers\n\nfunc User() error { return nil }\n```\n"
				opts := parse.Options{Format: edit.FormatWhole, Tree: r}
				want := 0
				if n <= 100_000 {
					want = 1
				}
				if edits, errs := parse.Parse(reply, opts); len(errs) != 0 || len(edits) != want || want == 1 && edits[0].Path != s.want {
					b.Fatalf("edits %+v, errors %v; want %d of %s", edits, errs.Err(), want, s.want)
				}
				var m meter
				b.ReportAllocs()
				for b.Loop() {
					m.run(func() error { parse.Parse(reply, opts); return nil })
				}
				m.report(b)
			})
			b.Run(fmt.Sprintf("%s/find-%d", s.name, n), func(b *testing.B) {
				benchFind(b, pathTree(b, s, n), base)
			})
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// namesCandidate fails unless the apply failed with one FILE_NOT_FOUND
// naming want, and want alone.
func namesCandidate(res *apply.Result, err error, want string) error {
	if !errors.Is(err, &edit.Error{Code: edit.CodeFileNotFound}) || res == nil || len(res.Errors) != 1 {
		return fmt.Errorf("want one FILE_NOT_FOUND, got %v", err)
	}
	cs := res.Errors[0].Candidates
	if len(cs) != 1 || cs[0].Path != want {
		return fmt.Errorf("candidates %v, want %s (hint %q)", cs, want, res.Errors[0].Hint)
	}
	return nil
}
