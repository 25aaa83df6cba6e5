package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/edapply/edapply/cmd/internal/mcpcmd"
	"github.com/edapply/edapply/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the scripts' golden sections from actual output")

// TestMain makes the test binary both programs, edapply and edapply-mcp,
// each installed by testscript into one directory on the scripts' PATH,
// as make build installs them: `edapply mcp` finds the server beside it.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"edapply":     testMain,
		cli.MCPServer: func() { os.Exit(mcpcmd.Main()) },
	})
}

func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/scripts",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// apply keeps its undo journal in the user's state directory,
			// which testscript points at a HOME that does not exist. Give
			// each script its own, beside its work directory: outside the
			// root, as the journal must be, and removed after the script
			// (testscript removes only the work directory).
			state := env.WorkDir + "-state"
			env.Setenv("XDG_STATE_HOME", state)
			env.Defer(func() { os.RemoveAll(state) })
			return os.Mkdir(state, 0o700)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exitcode": cmdExitCode},
	})
}

// cmdExitCode runs `exitcode N prog args...`: prog must exit with status N.
// testscript's exec only tells zero from non-zero, and the contract gives
// 1, 2 and 3 different meanings.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: exitcode N prog [args...]: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func TestReadResponseLimit(t *testing.T) {
	for name, tc := range map[string]struct {
		in      string
		wantErr bool
	}{
		"under": {in: "12345678", wantErr: false},
		"at":    {in: strings.Repeat("x", 16), wantErr: false},
		"over":  {in: strings.Repeat("x", 17), wantErr: true},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := readResponse("-", strings.NewReader(tc.in), 16)
			var ue *cli.UsageError
			if tc.wantErr {
				if !errors.As(err, &ue) {
					t.Errorf("readResponse(%d bytes) error = %v, want a usage error", len(tc.in), err)
				}
				return
			}
			if err != nil || string(got) != tc.in {
				t.Errorf("readResponse(%q) = %q, %v; want the input back", tc.in, got, err)
			}
		})
	}
}

func TestParseBase(t *testing.T) {
	for in, want := range map[string]struct{ path, hash string }{
		"a.go=DEADBEEF":       {"a.go", "deadbeef"},
		"./src/x.go=0123abcd": {"src/x.go", "0123abcd"},
		"a=b.txt=0123456789":  {"a=b.txt", "0123456789"},
		"a.go=deadbee":        {}, // 7 digits
		"a.go=deadbeeg":       {}, // not hex
		"=deadbeef":           {},
		"a.go":                {},
	} {
		m, err := parseBase([]string{in})
		if want.path == "" {
			var ue *cli.UsageError
			if !errors.As(err, &ue) {
				t.Errorf("parseBase(%q) error = %v, want a usage error", in, err)
			}
			continue
		}
		if err != nil || len(m) != 1 || m[want.path] != want.hash {
			t.Errorf("parseBase(%q) = %v, %v; want %s=%s", in, m, err, want.path, want.hash)
		}
	}
}
