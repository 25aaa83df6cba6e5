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

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/progress"
)

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

// TestApplyShowsProgress: apply and normalize draw the edits placed on
// the meter, and blank it before the receipt or the reply they print; an
// apply with --json asks for no meter on a terminal (progress.To then
// gives none: internal/progress's TestProgressToNonTerminal).
func TestApplyShowsProgress(t *testing.T) {
	reply := "a.txt\n```\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n```\n\na.txt\n```\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```\n"
	for _, c := range []struct {
		name string
		json bool
		run  func(root string, stdout, stderr *bytes.Buffer) error
	}{
		{"apply", false, func(root string, stdout, stderr *bytes.Buffer) error {
			opts := &applyOptions{planOptions: planOptions{root: root, format: edit.FormatAuto}, attempts: 1, noSync: true}
			return runApply(context.Background(), opts, strings.NewReader(reply), stdout, stderr)
		}},
		{"apply-json", true, func(root string, stdout, stderr *bytes.Buffer) error {
			opts := &applyOptions{planOptions: planOptions{root: root, format: edit.FormatAuto}, json: true, attempts: 1, noSync: true}
			return runApply(context.Background(), opts, strings.NewReader(reply), stdout, stderr)
		}},
		{"normalize", false, func(root string, stdout, stderr *bytes.Buffer) error {
			opts := &normalizeOptions{planOptions: planOptions{root: root, format: edit.FormatAuto}}
			return runNormalize(context.Background(), opts, strings.NewReader(reply), stdout, stderr)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			var stdout, stderr bytes.Buffer
			asked := 0
			old := newMeter
			defer func() { newMeter = old }()
			newMeter = func(_ io.Writer, json bool, what string) *progress.Meter {
				asked++
				if json != c.json {
					t.Errorf("meter asked for with json=%v, want %v", json, c.json)
				}
				if json {
					return nil
				}
				clock := time.Unix(0, 0)
				tick := func() time.Time { clock = clock.Add(time.Second); return clock }
				// Written to stderr, after anything else there, before the receipt.
				return progress.NewClock(&stderr, what, "edits placed", tick, 0)
			}
			if err := c.run(root, &stdout, &stderr); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if asked != 1 {
				t.Fatalf("meter asked for %d times", asked)
			}
			if c.json {
				if stderr.Len() > 0 {
					t.Errorf("stderr = %q, want nothing", stderr.String())
				}
				return
			}
			what := strings.TrimSuffix(c.name, "-json")
			if what == "apply" {
				what = "edapply"
			}
			line2 := what + ": 2/2 edits placed (100%)"
			want := "\r" + what + ": 1/2 edits placed (50%)\r" + line2 + "\r" + strings.Repeat(" ", len(line2)) + "\r"
			if stderr.String() != want {
				t.Errorf("stderr = %q, want %q", stderr.String(), want)
			}
			if stdout.Len() == 0 {
				t.Errorf("nothing printed after the meter")
			}
		})
	}
}
