//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edapply/edapply/edit"
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

// checkMCPServer takes a server that answers --version with this build's
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
		{"other", "echo 'edapply version v1.2.3'\n", false, "not the " + cli.MCPServer},
		{"fails", "exit 3\n", false, "exit status 3"},
		{"more", "echo '" + cli.MCPServer + " version " + want + "'\nhead -c 1000000 /dev/zero\n", false, "not the " + cli.MCPServer},
		{"hangs", "exec sleep 1000\n", false, "did not answer --version within 100ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			writeScript(t, p, tc.body)
			timeout := 10 * time.Second
			if tc.name == "hangs" {
				timeout = 100 * time.Millisecond
			}
			e := checkMCPServer(context.Background(), p, want, timeout)
			if tc.ok {
				if e != nil {
					t.Fatalf("checkMCPServer = %v; want it taken", e)
				}
				return
			}
			if e == nil || e.Code != edit.CodeIO || !strings.Contains(e.Msg, tc.msg) || !strings.Contains(e.Msg, p) ||
				!strings.Contains(e.Hint, "make build") {
				t.Fatalf("checkMCPServer = %#v; want IO_ERROR naming %s, with %q, and the install hint", e, p, tc.msg)
			}
		})
	}
}

// `edapply mcp` runs a server of its own build, beside it or on PATH, and
// refuses one of another build wherever it is found, before it could read
// a message: nothing on stdout, IO_ERROR and both versions on stderr.
func TestMCPServerOfAnotherBuild(t *testing.T) {
	for _, tc := range []struct {
		name         string
		beside, path string // the versions of the servers there; "" for none
		served       string // which one serves; "" for none
	}{
		{"beside", cli.Version(), "", "beside"},
		{"on PATH", "", cli.Version(), "path"},
		{"stale beside", "v0.0.1-stale", cli.Version(), ""},
		{"stale on PATH", "", "v0.0.1-stale", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edapply := installedEdapply(t)
			onPath := t.TempDir()
			if tc.beside != "" {
				writeScript(t, filepath.Join(filepath.Dir(edapply), cli.MCPServer), versionLine(tc.beside)+"echo served by beside\n")
			}
			if tc.path != "" {
				writeScript(t, filepath.Join(onPath, cli.MCPServer), versionLine(tc.path)+"echo served by path\n")
			}
			cmd := exec.Command(edapply, "mcp", "-C", t.TempDir())
			cmd.Env = append(os.Environ(), "PATH="+onPath+string(filepath.ListSeparator)+"/usr/bin:/bin")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if tc.served != "" {
				if err != nil || stdout.String() != "served by "+tc.served+"\n" {
					t.Fatalf("edapply mcp: %v, stdout %q; want the server %s to serve\nstderr:\n%s", err, stdout.String(), tc.served, stderr.String())
				}
				return
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitFailed || stdout.Len() != 0 {
				t.Fatalf("edapply mcp: %v, stdout %q; want exit status %d and nothing on stdout", err, stdout.String(), exitFailed)
			}
			if !strings.HasPrefix(stderr.String(), "edapply: IO_ERROR ") || !strings.Contains(stderr.String(), "v0.0.1-stale, not this edapply's "+cli.Version()) ||
				!strings.Contains(stderr.String(), "\nhint: Install both programs") {
				t.Errorf("stderr:\n%s\nwant IO_ERROR naming both versions and how to install both", stderr.String())
			}
		})
	}
}
