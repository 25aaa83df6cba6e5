//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/cli"
)

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
