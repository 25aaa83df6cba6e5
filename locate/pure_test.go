package locate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// impure are the packages locate's code may not import, nor the project's
// packages it imports: locate is text in, text out, and what touches the
// file system, the process or memory behind the type system is apply's.
var impure = []string{"os", "io/fs", "syscall", "unsafe", "sync", "runtime", "net", "plugin"}

// TestPure holds locate, and the packages of this module it imports, to
// that: none of their non-test files imports an impure package (or one
// under it, such as sync/atomic) or starts a goroutine.
func TestPure(t *testing.T) {
	const module = "github.com/edapply/edapply/"
	seen := map[string]bool{}
	var check func(dir string)
	check = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(names) == 0 {
			t.Fatalf("no Go files in %s (%v)", dir, err)
		}
		fset := token.NewFileSet()
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range impure {
					if p == bad || strings.HasPrefix(p, bad+"/") {
						t.Errorf("%s imports %s", name, p)
					}
				}
				if rest, ok := strings.CutPrefix(p, module); ok {
					check(filepath.Join("..", filepath.FromSlash(rest)))
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					t.Errorf("%s starts a goroutine", fset.Position(g.Pos()))
				}
				return true
			})
		}
	}
	check(".")
	if len(seen) < 2 {
		t.Errorf("checked %d packages, want locate and the module's packages it imports", len(seen))
	}
}
