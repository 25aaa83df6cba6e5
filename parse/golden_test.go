package parse_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

var update = flag.Bool("update", false, "rewrite the want sections of golden files")

// TestGolden parses the "response" of every testdata/<format>/<case>.txtar
// with that format's reader (a directory named auto, or one that is not a
// format name, uses FormatAuto) and compares the JSON with "want", and
// the edits' Marks with "marks" (absent when no edit has any). Sections
// named "tree/PATH" make up a working tree that the reader may consult.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no golden files yet")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.ToSlash(file), ".txtar")
		t.Run(strings.TrimPrefix(name, "testdata/"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var f edit.Format
			if err := f.Set(filepath.Base(filepath.Dir(file))); err != nil {
				f = edit.FormatAuto
			}
			resp, wantIdx := goldenSection(ar, "response"), -1
			for i, fl := range ar.Files {
				if fl.Name == "want" {
					wantIdx = i
				}
			}
			if resp == nil {
				t.Fatalf("%s: no response section", file)
			}
			orig := bytes.Clone(resp)
			// "tree/PATH" sections are the working tree the reader may consult.
			var tree parse.Tree
			for _, fl := range ar.Files {
				if name, ok := strings.CutPrefix(fl.Name, "tree/"); ok {
					if tree == nil {
						tree = fstest.MapFS{}
					}
					tree.(fstest.MapFS)[name] = &fstest.MapFile{Data: fl.Data}
				}
			}
			edits, errs := parse.Parse(string(resp), parse.Options{Format: f, Tree: tree})
			if !bytes.Equal(resp, orig) {
				t.Fatalf("Parse modified its input")
			}
			var got bytes.Buffer
			if err := report.ParseJSON(&got, edits, errs); err != nil {
				t.Fatal(err)
			}
			// The parse JSON does not carry Marks: a "marks" section
			// holds those of the edits that have them.
			marks := goldenMarks(edits)
			if *update {
				ar.Files = setGoldenSection(ar.Files, "want", got.Bytes())
				ar.Files = setGoldenSection(ar.Files, "marks", marks)
				if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 {
				t.Fatalf("%s: no want section (run with -update)", file)
			}
			if want := ar.Files[wantIdx].Data; !bytes.Equal(got.Bytes(), want) {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff.Diff("want", want, "got", got.Bytes()))
			}
			if want := goldenSection(ar, "marks"); !bytes.Equal(marks, want) {
				t.Errorf("Marks mismatch (-want +got):\n%s", diff.Diff("marks", want, "got", marks))
			}
		})
	}
}

func goldenSection(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// goldenMarks lists, one line each, the Marks of the edits that have
// them, quoted and by block; nil when none has.
func goldenMarks(edits []edit.Edit) []byte {
	var b bytes.Buffer
	for _, e := range edits {
		if e.Marks != "" {
			fmt.Fprintf(&b, "%d %q\n", e.Block, e.Marks)
		}
	}
	return b.Bytes()
}

// setGoldenSection sets the section name to data, adding it when absent
// and dropping it when data is empty (but never "want").
func setGoldenSection(fs []txtar.File, name string, data []byte) []txtar.File {
	for i := range fs {
		if fs[i].Name == name {
			if len(data) == 0 && name != "want" {
				return append(fs[:i], fs[i+1:]...)
			}
			fs[i].Data = data
			return fs
		}
	}
	if len(data) == 0 && name != "want" {
		return fs
	}
	return append(fs, txtar.File{Name: name, Data: data})
}
