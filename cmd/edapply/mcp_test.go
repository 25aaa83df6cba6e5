package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/cli"
)

// TestCommandDoesNotLinkMCP asks the go command what each program links:
// edapply neither the MCP SDK nor the server, whose package inits would
// run on every call; edapply-mcp both (which shows the listing works).
func TestCommandDoesNotLinkMCP(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	isMCP := func(p string) bool {
		return p == "github.com/edapply/edapply/mcp" || strings.HasPrefix(p, "github.com/modelcontextprotocol/") || p == "net/http"
	}
	if i := slices.IndexFunc(deps("."), isMCP); i >= 0 {
		t.Errorf("edapply links %s; only edapply-mcp may", deps(".")[i])
	}
	server := deps("../edapply-mcp")
	if !slices.Contains(server, "github.com/edapply/edapply/mcp") || !slices.ContainsFunc(server, func(p string) bool {
		return strings.HasPrefix(p, "github.com/modelcontextprotocol/")
	}) {
		t.Errorf("edapply-mcp links neither package mcp nor the SDK:\n%s", strings.Join(server, "\n"))
	}
}

// installedEdapply returns a copy of the edapply testscript installed (this
// test binary, run as "edapply"), alone in a directory of its own.
func installedEdapply(t *testing.T) string {
	t.Helper()
	src, err := exec.LookPath("edapply")
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "edapply")
	if runtime.GOOS == "windows" {
		dst += ".exe"
	}
	if os.Link(src, dst) == nil {
		return dst
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// `edapply mcp` runs edapply-mcp, found beside it, with its flags, and a
// client may start edapply-mcp itself: either way the client's messages
// reach the server, whose answers come back, and a path under
// --path-prefix reads the file under the root.
func TestMCPRunsServer(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, argv := range [][]string{
		{"edapply", "mcp", "-C", root, "--path-prefix", "/repo"},
		{cli.MCPServer, "-C", root, "--path-prefix", "/repo"},
	} {
		t.Run(argv[0], func(t *testing.T) { testMCPSession(t, argv) })
	}
}

// testMCPSession starts argv, shakes hands as a client, reads /repo/a.txt
// and closes stdin, after which the server must exit 0.
func testMCPSession(t *testing.T, argv []string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// A file, not a buffer: the server writes it while a failing test
	// reads it, with no copying goroutine between them.
	stderrFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderrFile.Close()
	cmd.Stderr = stderrFile
	stderr := func() string { b, _ := os.ReadFile(stderrFile.Name()); return string(b) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil { // a test that failed early leaves no server behind
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 1<<20)
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(in, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv := func() map[string]any {
		t.Helper()
		if !out.Scan() {
			t.Fatalf("no answer from %s: %v; stderr:\n%s", argv[0], out.Err(), stderr())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("answer %q: %v", out.Bytes(), err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	init := recv()
	if info, _ := init["result"].(map[string]any)["serverInfo"].(map[string]any); info["name"] != "edapply" {
		t.Fatalf("initialize answered %v, want serverInfo edapply", init)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/repo/a.txt"}}}`)
	read := recv()
	res, _ := read["result"].(map[string]any)
	if b, _ := json.Marshal(res); res == nil || res["isError"] == true || !strings.Contains(string(b), "alpha") {
		t.Fatalf("read_file /repo/a.txt answered %v, want alpha read under the root", read)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s after stdin closed: %v; stderr:\n%s", argv[0], err, stderr())
	}
}

// writeScript writes an executable shell script.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// versionLine is a stand-in server's first line: it answers --version as
// the server of version v does.
func versionLine(v string) string {
	return "if [ \"$1\" = --version ]; then echo '" + cli.MCPServer + " version " + v + "'; exit 0; fi\n"
}

// `edapply mcp` hands its process to the server beside it, not the one on
// PATH: the server's parent is edapply's, its stdin and stdout the
// caller's, and its arguments the flags, each as --name=value in its
// order, a value that starts with "-" included.
func TestMCPExecsServerBeside(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in servers are shell scripts")
	}
	edapply := installedEdapply(t)
	writeScript(t, filepath.Join(filepath.Dir(edapply), cli.MCPServer), versionLine(cli.Version())+
		"echo \"parent $PPID\"\nfor a in \"$@\"; do echo \"arg $a\"; done\nwhile IFS= read -r l; do echo \"in $l\"; done\n")
	onPath := t.TempDir()
	writeScript(t, filepath.Join(onPath, cli.MCPServer), "echo wrong server\n")
	cmd := exec.Command(edapply, "mcp", "--strict", "-C", t.TempDir(), "--path-prefix", "-odd", "--path-prefix=/b")
	cmd.Env = append(os.Environ(), "PATH="+onPath+string(filepath.ListSeparator)+"/usr/bin:/bin")
	cmd.Stdin = strings.NewReader("hello\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("edapply mcp: %v\n%s", err, out)
	}
	want := "parent " + strconv.Itoa(os.Getpid()) + "\narg --path-prefix=-odd\narg --path-prefix=/b\narg --root=" + cmd.Args[4] + "\narg --strict=true\nin hello\n"
	if string(out) != want {
		t.Errorf("the server printed\n%s\nwant\n%s", out, want)
	}
}

// Without edapply-mcp beside it or in an absolute directory of PATH,
// `edapply mcp` fails with IO_ERROR and says how to install it: a file of
// that name that is not a regular executable file is not the server, nor
// one found through a relative PATH entry (the current directory).
func TestMCPServerNotFound(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in servers are shell scripts")
	}
	edapply := installedEdapply(t)
	plain, dir, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, cli.MCPServer), []byte("#!/bin/sh\necho not executable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, cli.MCPServer), 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, filepath.Join(cwd, cli.MCPServer), "echo planted server\n")
	cmd := exec.Command(edapply, "mcp", "-C", cwd)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "PATH="+strings.Join([]string{plain, dir, ".", ""}, string(filepath.ListSeparator)))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFailed {
		t.Fatalf("edapply mcp: %v, want exit status %d\nstdout:\n%s\nstderr:\n%s", err, exitFailed, stdout.String(), stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing (a client reads it)", stdout.String())
	}
	if !strings.HasPrefix(stderr.String(), "edapply: IO_ERROR "+cli.MCPServer+" ") || !strings.Contains(stderr.String(), "\nhint: ") ||
		!strings.Contains(stderr.String(), "make build") || !strings.Contains(stderr.String(), "go install ./cmd/...") {
		t.Errorf("stderr:\n%s\nwant IO_ERROR naming %s and a hint to install it", stderr.String(), cli.MCPServer)
	}
}
