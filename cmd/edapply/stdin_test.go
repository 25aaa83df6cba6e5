package main

import (
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
		if isTerminal(f) {
			t.Errorf("isTerminal(%s) = true", p)
		}
		f.Close()
	}
}
