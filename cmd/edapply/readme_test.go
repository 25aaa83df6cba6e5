package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestReadmeTour keeps the README's tour true: testdata/scripts/readme-tour.txtar
// runs it against a copy of examples/hello/tree, and every output it checks
// (its want-* files) must appear verbatim in README.md.
func TestReadmeTour(t *testing.T) {
	ar, err := txtar.ParseFile("../../testdata/scripts/readme-tour.txtar")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var wants, trees int
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "want-"):
			wants++
			if !strings.Contains(string(readme), string(f.Data)) {
				t.Errorf("README.md does not show the tour's %s:\n%s", f.Name, f.Data)
			}
		case strings.HasPrefix(f.Name, "hello/"):
			trees++
			name := filepath.Join("../../examples/hello/tree", strings.TrimPrefix(f.Name, "hello/"))
			got, err := os.ReadFile(name)
			if err != nil || string(got) != string(f.Data) {
				t.Errorf("%s differs from the tour script's %s (err %v); copy it into readme-tour.txtar", name, f.Name, err)
			}
		}
	}
	if wants == 0 || trees == 0 {
		t.Errorf("readme-tour.txtar holds %d want-* and %d hello/ files; want some of each", wants, trees)
	}
}
