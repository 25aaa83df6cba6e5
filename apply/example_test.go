package apply_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// exampleTree makes a working tree holding greet.go, and a state directory
// for the undo journal beside it (never inside the tree). It returns both
// and a function that removes them.
func exampleTree() (root, state string, cleanup func()) {
	dir, err := os.MkdirTemp("", "edapply-example")
	if err != nil {
		log.Fatal(err)
	}
	root, state = filepath.Join(dir, "tree"), filepath.Join(dir, "state")
	if err := os.Mkdir(root, 0o755); err != nil {
		log.Fatal(err)
	}
	src := "package greet\n\nfunc Greeting(name string) string {\n\treturn \"Hello, \" + name\n}\n"
	if err := os.WriteFile(filepath.Join(root, "greet.go"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}
	return root, state, func() { os.RemoveAll(dir) }
}

// The model indented "return" one tab too deep: the indent level of the
// tolerance ladder finds the line anyway, re-bases the replacement onto the
// file's indentation, and the receipt names the level.
func ExampleApply() {
	root, state, cleanup := exampleTree()
	defer cleanup()

	edits := []edit.Edit{{
		Op:    edit.Replace,
		Path:  "greet.go",
		Old:   "\t\treturn \"Hello, \" + name\n",
		New:   "\t\treturn \"Hi, \" + name\n",
		Count: 1,
	}}
	res, err := apply.Apply(context.Background(), edits, apply.Options{Root: root, StateDir: state})
	if err != nil {
		fmt.Println("not applied:", err) // res.Errors holds every error, with candidates
		return
	}
	for _, f := range res.Files {
		for _, e := range f.Edits {
			fmt.Printf("%s %s: %s (%s, lines %d-%d)\n", f.Op, f.Path, e.Status, e.Strategy, e.LineStart, e.LineEnd)
		}
	}
	b, _ := os.ReadFile(filepath.Join(root, "greet.go"))
	fmt.Print(string(b))
	// Output:
	// modify greet.go: applied (indent, lines 4-4)
	// package greet
	//
	// func Greeting(name string) string {
	// 	return "Hi, " + name
	// }
}

// A dry run plans and reports, with the content each file would get, and
// writes nothing.
func ExampleApply_dryRun() {
	root, state, cleanup := exampleTree()
	defer cleanup()

	edits := []edit.Edit{{
		Op:    edit.Replace,
		Path:  "greet.go",
		Old:   "\treturn \"Hello, \" + name\n",
		New:   "\treturn \"Hi, \" + name + \"!\"\n",
		Count: 1,
	}}
	res, err := apply.Apply(context.Background(), edits, apply.Options{Root: root, StateDir: state, DryRun: true})
	if err != nil {
		fmt.Println("would not apply:", err)
		return
	}
	f := res.Files[0]
	fmt.Println("ok:", res.OK, "dry run:", res.DryRun, "strategy:", f.Edits[0].Strategy)
	fmt.Printf("would write: %q\n", f.After)
	b, _ := os.ReadFile(filepath.Join(root, "greet.go"))
	fmt.Printf("on disk:     %q\n", b)
	// Output:
	// ok: true dry run: true strategy: exact
	// would write: "package greet\n\nfunc Greeting(name string) string {\n\treturn \"Hi, \" + name + \"!\"\n}\n"
	// on disk:     "package greet\n\nfunc Greeting(name string) string {\n\treturn \"Hello, \" + name\n}\n"
}

// An edit whose text stands in two places is refused, never guessed: the
// error is MULTIPLE_MATCHES, with a candidate for each place, and nothing
// is written.
func ExampleApply_ambiguous() {
	root, state, cleanup := exampleTree()
	defer cleanup()

	edits := []edit.Edit{{Op: edit.Replace, Path: "greet.go", Old: "name", New: "who", Count: 1}}
	res, _ := apply.Apply(context.Background(), edits, apply.Options{Root: root, StateDir: state})
	for _, e := range res.Errors {
		fmt.Println(e.Code, e.Path, "edit", e.Edit)
		for _, c := range e.Candidates {
			fmt.Printf("  line %d: %q\n", c.LineStart, c.Excerpt)
		}
	}
	fmt.Println("ok:", res.OK)
	// Output:
	// MULTIPLE_MATCHES greet.go edit 0
	//   line 3: "func Greeting(name string) string {\n"
	//   line 4: "\treturn \"Hello, \" + name\n"
	// ok: false
}
