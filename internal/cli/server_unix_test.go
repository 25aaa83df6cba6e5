//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edapply/edapply/edit"
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
	if err := os.Mkdir(filepath.Join(isDir, MCPServer), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(fifo, MCPServer), 0o755); err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(filepath.Join(plain, MCPServer), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeScript(t, filepath.Join(real, MCPServer), "")
	if err := os.Symlink(filepath.Join(real, MCPServer), filepath.Join(linked, MCPServer)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	for _, tc := range []struct {
		dirs []string
		want string
	}{
		{[]string{empty, isDir, fifo, plain, linked, real}, filepath.Join(linked, MCPServer)},
		{[]string{real, linked}, filepath.Join(real, MCPServer)},
		{[]string{".", "", "real", "./real", empty, isDir, fifo, plain}, ""},
		{nil, ""},
	} {
		got, ok := lookMCPServer(tc.dirs)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("lookMCPServer(%q) = %q, %v; want %q", tc.dirs, got, ok, tc.want)
		}
	}
}

// CheckMCPServer takes a server that answers --version with this build's
// version alone, and refuses with IO_ERROR and how to install both
// programs one of another version, another program, one that fails, one
// that prints more than the line, and one that does not answer in time.
func TestCheckMCPServer(t *testing.T) {
	dir := t.TempDir()
	const want = "v1.2.3"
	for _, tc := range []struct {
		name, body string
		ok         bool
		msg        string // in the error's message
	}{
		{"same", versionLine(want), true, ""},
		{"devel", versionLine("(devel) 0123456789ab"), false, "version (devel) 0123456789ab, not this edapply's v1.2.3"},
		{"older", versionLine("v1.2.2"), false, "version v1.2.2, not this edapply's v1.2.3"},
		{"prefix", versionLine(want + "-rc1"), false, "v1.2.3-rc1"},
		{"other", "echo 'edapply version v1.2.3'\n", false, "not the " + MCPServer},
		{"fails", "exit 3\n", false, "exit status 3"},
		{"more", "echo '" + MCPServer + " version " + want + "'\nhead -c 1000000 /dev/zero\n", false, "not the " + MCPServer},
		{"hangs", "exec sleep 1000\n", false, "did not answer --version within 100ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			writeScript(t, p, tc.body)
			timeout := 10 * time.Second
			if tc.name == "hangs" {
				timeout = 100 * time.Millisecond
			}
			e := CheckMCPServer(context.Background(), p, want, timeout)
			if tc.ok {
				if e != nil {
					t.Fatalf("CheckMCPServer = %v; want it taken", e)
				}
				return
			}
			if e == nil || e.Code != edit.CodeIO || !strings.Contains(e.Msg, tc.msg) || !strings.Contains(e.Msg, p) ||
				!strings.Contains(e.Hint, "make build") {
				t.Fatalf("CheckMCPServer = %#v; want IO_ERROR naming %s, with %q, and the install hint", e, p, tc.msg)
			}
		})
	}
}

// writeScript writes an executable shell script of body at path.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// versionLine is a stand-in server's first line: it answers --version as
// the server of version v does.
func versionLine(v string) string {
	return "if [ \"$1\" = --version ]; then echo '" + MCPServer + " version " + v + "'; exit 0; fi\n"
}
