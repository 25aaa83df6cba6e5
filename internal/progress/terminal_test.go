package progress

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestIsTerminal: neither a regular file nor the null device (a character
// device too) counts as the terminal edapply announces stdin reading on.
func TestIsTerminal(t *testing.T) {
	name := filepath.Join(t.TempDir(), "reply.md")
	if err := os.WriteFile(name, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{name, os.DevNull} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if IsTerminal(f) {
			t.Errorf("IsTerminal(%s) = true", p)
		}
		f.Close()
	}
}

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
			if got := To(stderr, json); got != nil {
				t.Errorf("To(%s, json=%v) = %v, want nil", name, json, got)
			}
		}
	}
}
