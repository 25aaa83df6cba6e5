package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edapply/edapply/internal/progress"
)

// TestProgressToNonTerminal: progress goes nowhere but a terminal: not to
// a pipe, a file, the null device or a writer that is no file.
func TestProgressToNonTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for name, stderr := range map[string]io.Writer{"pipe": w, "file": file, "null": null, "buffer": &bytes.Buffer{}} {
		for _, json := range []bool{false, true} {
			if got := progressTo(stderr, json); got != nil {
				t.Errorf("progressTo(%s, json=%v) = %v, want nil", name, json, got)
			}
		}
	}
}

// TestLintShowsProgress: runLint draws the meter it is given while it
// checks, and blanks it before the findings; with none, nothing.
func TestLintShowsProgress(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
	os.WriteFile(a, []byte("// ...\n"), 0o644)
	os.WriteFile(b, []byte("package b\n"), 0o644)
	var stderr, stdout bytes.Buffer
	clock := time.Unix(0, 0)
	tick := func() time.Time { clock = clock.Add(time.Second); return clock }
	meter := progress.NewClock(&stderr, "lint", "files checked", tick, 0)
	if err := runLint(context.Background(), []string{a, b}, &stdout, meter); err == nil {
		t.Fatal("runLint found nothing")
	}
	line2 := "lint: 2/2 files checked (100%)"
	want := "\rlint: 1/2 files checked (50%)\r" + line2 + "\r" + strings.Repeat(" ", len(line2)) + "\r"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	if got := stdout.String(); got != a+":1: elision: // ...\n" {
		t.Errorf("stdout = %q", got)
	}
	stderr.Reset()
	stdout.Reset()
	if err := runLint(context.Background(), []string{a}, &stdout, nil); err == nil || stdout.Len() == 0 {
		t.Errorf("runLint without a meter: %v, %q", err, stdout.String())
	}
}
