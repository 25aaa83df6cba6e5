package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestExamples runs the scripts in examples/testdata, which drive the
// programs in examples/ (found through $EXAMPLES) against the edapply this
// test binary provides on $PATH.
func TestExamples(t *testing.T) {
	dir, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(dir, "testdata"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", dir)
			state := env.WorkDir + "-state"
			env.Setenv("XDG_STATE_HOME", state)
			// testscript removes only the work directory.
			env.Defer(func() { os.RemoveAll(state) })
			return os.Mkdir(state, 0o700)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exitcode": cmdExitCode},
	})
}
