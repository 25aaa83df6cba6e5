package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/shell"
)

// mcpServerFile is the server's file name on this system.
func mcpServerFile() string {
	if runtime.GOOS == "windows" {
		return MCPServer + ".exe"
	}
	return MCPServer
}

// FindMCPServer returns the server's path: beside the running edapply
// (symlinks resolved), where make build and go install put it, else on
// PATH. IO_ERROR, with how to install it, when neither has it.
func FindMCPServer() (string, *edit.Error) {
	var dirs []string
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			dirs = append(dirs, filepath.Dir(exe))
		}
	}
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	if p, ok := lookMCPServer(dirs); ok {
		return p, nil
	}
	return "", &edit.Error{
		Code: edit.CodeIO,
		Edit: -1,
		Msg:  MCPServer + " (the MCP server edapply mcp runs) is neither beside edapply nor on PATH",
		Hint: mcpInstallHint,
	}
}

// MCPVersionTimeout is how long CheckMCPServer should wait for the server's
// --version: a few milliseconds for the real one, so only a program that
// is not it takes longer.
const MCPVersionTimeout = 10 * time.Second

// mcpInstallHint says how to install both programs from one build.
const mcpInstallHint = "Install both programs from a checkout: make build (bin/edapply and bin/" + MCPServer +
	"), or CGO_ENABLED=0 go install ./cmd/..., which installs both in one directory."

// CheckMCPServer runs the server at path with --version and refuses it,
// IO_ERROR with how to install both, unless it names itself and the
// version want, this edapply's. Whether beside edapply or on PATH, a
// server of another build would serve a different engine under this
// edapply's name: one installed before edapply was upgraded alone (go
// install of cmd/edapply), or an older install earlier on PATH. Two
// builds that both know no version ("(devel)" without a revision) look
// alike. The check is one run of the server at the start of a session,
// never during it. Its output is read up to a line's worth, and a run
// past timeout is stopped.
func CheckMCPServer(ctx context.Context, path, want string, timeout time.Duration) *edit.Error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(ctx, path, "--version")
	out := &shell.Head{Max: versionHeadMax}
	c.Stdout = out
	c.WaitDelay = time.Second // a child it left holding stdout
	err := c.Run()
	fail := func(msg string) *edit.Error {
		return &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: msg, Hint: mcpInstallHint}
	}
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fail(fmt.Sprintf("%s did not answer --version within %v: not the %s this edapply runs", path, timeout, MCPServer))
	}
	if err != nil {
		return fail(fmt.Sprintf("%s --version failed (%v): not the %s this edapply runs", path, err, MCPServer))
	}
	got, named := strings.CutPrefix(string(out.Bytes()), MCPServer+" version ")
	got, ended := strings.CutSuffix(got, "\n")
	if !named || !ended || out.Over() || strings.ContainsFunc(got, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return fail(fmt.Sprintf("%s --version printed %s: not the %s this edapply runs", path, quoteHead(out.Bytes(), out.Over()), MCPServer))
	}
	if got != want {
		return fail(fmt.Sprintf("%s is version %s, not this edapply's %s: a server of another build would apply edits with another engine", path, got, want))
	}
	return nil
}

// versionHeadMax is how much of the server's --version output is kept.
const versionHeadMax = 512

// quoteHead quotes the start of b, a program's output, for a message.
func quoteHead(b []byte, cut bool) string {
	const most = 80
	if len(b) > most {
		b, cut = b[:most], true
	}
	if cut {
		return strconv.Quote(string(b)) + "..."
	}
	return strconv.Quote(string(b))
}

// lookMCPServer returns the first of dirs that holds the server as a
// regular file the user may execute. A directory named in PATH that is
// not absolute is skipped, as os/exec skips it: it would find a program
// in whatever the current directory is, a working tree a model writes to.
func lookMCPServer(dirs []string) (string, bool) {
	name := mcpServerFile()
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if isExecutableFile(p) {
			return p, true
		}
	}
	return "", false
}

// isExecutableFile reports whether p is, after its symlinks, a regular
// file with an execute bit set (on Windows, where there is none, a
// regular file).
func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
