// Package golden reads the replies of the parser's golden cases
// (parse/testdata/FORMAT/CASE.txtar, each a txtar archive whose "response"
// section is a model's reply), which the fuzzers of the packages that read
// and write replies seed their corpora with.
package golden

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Seed adds to f the "response" section of each golden case in the
// directories dirs of root (glob patterns: "*" is every format).
func Seed(f *testing.F, root string, dirs ...string) {
	f.Helper()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.txtar"))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				f.Fatal(err)
			}
			for _, fl := range ar.Files {
				if fl.Name == "response" {
					f.Add(fl.Data)
				}
			}
		}
	}
}
