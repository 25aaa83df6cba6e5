//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/edapply/edapply/internal/cli"
)

// lookMCPServer takes the first directory that holds the server as a
// regular file with an execute bit, its symlinks followed, and skips a
// directory named in PATH that is not absolute, a directory, a named
// pipe and a file nobody may execute of the server's name.
func TestLookMCPServer(t *testing.T) {
	base := t.TempDir()
	dir := func(name string) string {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	empty, isDir, fifo, plain, linked, real := dir("empty"), dir("isdir"), dir("fifo"), dir("plain"), dir("linked"), dir("real")
	if err := os.Mkdir(filepath.Join(isDir, cli.MCPServer), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(fifo, cli.MCPServer), 0o755); err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(filepath.Join(plain, cli.MCPServer), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeScript(t, filepath.Join(real, cli.MCPServer), "")
	if err := os.Symlink(filepath.Join(real, cli.MCPServer), filepath.Join(linked, cli.MCPServer)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	for _, tc := range []struct {
		dirs []string
		want string
	}{
		{[]string{empty, isDir, fifo, plain, linked, real}, filepath.Join(linked, cli.MCPServer)},
		{[]string{real, linked}, filepath.Join(real, cli.MCPServer)},
		{[]string{".", "", "real", "./real", empty, isDir, fifo, plain}, ""},
		{nil, ""},
	} {
		got, ok := lookMCPServer(tc.dirs)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("lookMCPServer(%q) = %q, %v; want %q", tc.dirs, got, ok, tc.want)
		}
	}
}
