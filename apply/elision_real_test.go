package apply

// The elision rules of package locate over files installed on the machine:
// here, beside the package that reads files, so that locate's own tests
// read none.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/locate"
)

// realFile is a text file of this machine for the false-positive checks.
type realFile struct {
	path, kind string
	text       string
}

// realFiles samples source and documentation files installed on the
// machine (Go's tree, Python's standard library, docs, node modules, the
// module cache, scripts): at most per of each kind, spread over the tree.
func realFiles(t testing.TB, per int) []realFile {
	home, _ := os.UserHomeDir()
	py := "/root/.pyenv/versions/3.11.7/lib/python3.11"
	if _, err := os.Stat(py); err != nil {
		m, _ := filepath.Glob("/root/.pyenv/versions/*/lib/python3.*")
		m = append(m, "/usr/lib/python3")
		py = m[0]
	}
	type src struct {
		kind string
		dirs []string
		ok   func(path string) bool
	}
	ext := func(es ...string) func(string) bool {
		return func(p string) bool {
			for _, e := range es {
				if strings.HasSuffix(p, e) {
					return true
				}
			}
			return false
		}
	}
	docs := []string{"/usr/share/doc", "/usr/local/go", "/usr/lib/node_modules", py, filepath.Join(home, "go/pkg/mod")}
	srcs := []src{
		{"go", []string{"/usr/local/go/src"}, ext(".go")},
		{"py", []string{py}, ext(".py")},
		{"md", docs, ext(".md", ".markdown", ".rst", ".txt")},
		{"yaml", docs, ext(".yml", ".yaml")},
		{"json", []string{"/usr/lib/node_modules", "/usr/local/go", filepath.Join(home, "go/pkg/mod")}, ext(".json")},
		{"sh", []string{"/usr/bin", "/usr/local/go", py, filepath.Join(home, "go/pkg/mod")}, func(p string) bool {
			if strings.HasSuffix(p, ".sh") || strings.HasSuffix(p, ".bash") {
				return true
			}
			if !strings.HasPrefix(p, "/usr/bin/") {
				return false
			}
			b := make([]byte, 32)
			f, err := os.Open(p)
			if err != nil {
				return false
			}
			n, _ := f.Read(b)
			f.Close()
			l := string(b[:n])
			return strings.HasPrefix(l, "#!/bin/sh") || strings.HasPrefix(l, "#!/bin/bash") || strings.HasPrefix(l, "#!/usr/bin/env bash") || strings.HasPrefix(l, "#!/usr/bin/env sh")
		}},
	}
	// One walk per directory, each file offered to every kind.
	paths := make([][]string, len(srcs))
	walked := map[string]bool{}
	for _, s := range srcs {
		for _, d := range s.dirs {
			if walked[d] {
				continue
			}
			walked[d] = true
			filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if de.IsDir() {
					if n := de.Name(); n == ".git" || n == "node_modules" && strings.Count(p, "node_modules") > 2 {
						return filepath.SkipDir
					}
					return nil
				}
				if !de.Type().IsRegular() {
					return nil
				}
				for k, s := range srcs {
					if slices.ContainsFunc(s.dirs, func(d string) bool { return strings.HasPrefix(p, d+"/") }) && s.ok(p) {
						paths[k] = append(paths[k], p)
						break
					}
				}
				return nil
			})
		}
	}
	var out []realFile
	for k, s := range srcs {
		step := max(1, len(paths[k])/per)
		n := 0
		for i := 0; i < len(paths[k]) && n < per; i += step {
			b, err := os.ReadFile(paths[k][i])
			if err != nil || len(b) == 0 || len(b) > 512<<10 || !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
				continue
			}
			out = append(out, realFile{paths[k][i], s.kind, string(b)})
			n++
		}
	}
	if len(out) == 0 {
		t.Skip("no source or documentation trees on this machine")
	}
	return out
}

// TestElisionRealFiles runs the elision rules over real files: a rewrite
// that keeps a file, or changes, deletes or repeats one line of it, or
// drops its second half, and a replacement that changes one line, never
// elides. (Placeholders a model writes are new lines; the files' own
// lines are code.)
func TestElisionRealFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	files := realFiles(t, 1500)
	count := map[string]int{}
	fails := 0
	fail := func(f realFile, what string, err *edit.Error) {
		fails++
		if fails <= 30 {
			t.Errorf("%s (%s): %s: %s", f.path, f.kind, what, err.Msg)
		}
	}
	for _, f := range files {
		count[f.kind]++
		o := f.text
		lines := strings.SplitAfter(o, "\n")
		if err := locate.RewriteError(o, o, false); err != nil {
			fail(f, "unchanged", err)
		}
		if err := locate.RewriteError(o, strings.Join(lines[:(len(lines)+1)/2], ""), false); err != nil {
			fail(f, "first half", err)
		}
		// Legitimate rewrites that drop code: a block deleted, the second
		// half cut ending with a line of the original, a stub added.
		m := len(lines) / 2
		stub := "\n\nclass _P(Protocol):\n    def f(self) -> int:\n        ...\n"
		for name, rw := range map[string]string{
			"delete block":   strings.Join(lines[:m], "") + strings.Join(lines[min(len(lines), m+12):], ""),
			"cut, last line": strings.Join(lines[:m], "") + lines[len(lines)-1],
			"add stub":       o + stub,
			"delete, stub":   strings.Join(lines[:m], "") + strings.Join(lines[min(len(lines), m+12):], "") + stub,
		} {
			if err := locate.RewriteError(o, rw, false); err != nil {
				fail(f, name, err)
			}
		}
		for k := 1; k <= 5; k++ {
			i := k * len(lines) / 6
			if i >= len(lines) {
				continue
			}
			at := func(ls []string) string { return strings.Join(ls, "") }
			cl := strings.TrimRight(lines[i], "\r\n")
			variants := map[string][]string{
				"change": append(append(slices.Clone(lines[:i]), cl+" x2\n"), lines[i+1:]...),
				"delete": append(slices.Clone(lines[:i]), lines[i+1:]...),
				"repeat": append(append(slices.Clone(lines[:i+1]), lines[(i*7)%len(lines)]), lines[i+1:]...),
			}
			for name, v := range variants {
				rw := at(v)
				if err := locate.RewriteError(o, rw, false); err != nil {
					fail(f, name+" line "+strconv.Itoa(i+1), err)
				}
			}
			// A replacement of the lines around i that changes line i.
			a, b := max(0, i-6), min(len(lines), i+6)
			old := at(lines[a:b])
			nw := at(variants["change"][a:b])
			if _, err := locate.NewDoc(o, locate.Options{}).Replace(&edit.Edit{Op: edit.Replace, Old: old, New: nw, Count: 1}); err != nil && err.Code == edit.CodeElision {
				fail(f, "replace line "+strconv.Itoa(i+1), err)
			}
		}
	}
	t.Logf("files: %v", count)
	if fails > 0 {
		t.Errorf("%d false positives", fails)
	}
}
