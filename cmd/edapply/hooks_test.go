package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/edapply/edapply/internal/testhook"
)

// The test binary's "edapply" command (see TestMain) is main with two
// knobs that only tests have, set through the environment because the
// tests run it as a separate process:
//
//	EDAPPLY_TEST_MAX_RESPONSE=N  lower the response size limit to N bytes
//	EDAPPLY_TEST_PAUSE=STEP[:K]  hold the commit at the K-th (default
//	                             first) call of its STEP hook (journal,
//	                             mkdir, temp, rename, remove, done)
//	EDAPPLY_TEST_CORRUPT=TEXT    plant a defect in every plan: each new
//	                             content gets TEXT appended, which the
//	                             check before commit must refuse
//
// When paused, the command prints pausedMarker and the step to stderr and
// waits (at most pauseLimit) for SIGINT or SIGTERM, which the command
// also catches (cancelling the commit's context); then, after a moment for
// the command's own handler to take the same signal, it lets the step go
// ahead. SIGKILL simply ends it there. The
// release binary has neither knob: this file is compiled only into tests.
const (
	pausedMarker = "edapply-test: paused at "
	pauseLimit   = 30 * time.Second
)

func testMain() {
	if v := os.Getenv("EDAPPLY_TEST_MAX_RESPONSE"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "EDAPPLY_TEST_MAX_RESPONSE:", err)
			os.Exit(125)
		}
		maxResponse = n
	}
	if v := os.Getenv("EDAPPLY_TEST_CORRUPT"); v != "" {
		testhook.Plan = func(_ string, b []byte, mode fs.FileMode) ([]byte, fs.FileMode) {
			return append(b[:len(b):len(b)], v...), mode
		}
	}
	if v := os.Getenv("EDAPPLY_TEST_PAUSE"); v != "" {
		step, k, ok := strings.Cut(v, ":")
		n := 1
		if ok {
			var err error
			if n, err = strconv.Atoi(k); err != nil || n < 1 {
				fmt.Fprintln(os.Stderr, "EDAPPLY_TEST_PAUSE: want STEP[:K], K ≥ 1:", v)
				os.Exit(125)
			}
		}
		testhook.Commit = func(s, p string) {
			if s != step {
				return
			}
			if n--; n != 0 {
				return
			}
			sigc := make(chan os.Signal, 1)
			signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sigc)
			fmt.Fprintf(os.Stderr, "%s%s %s\n", pausedMarker, s, p)
			select {
			case <-sigc:
				// Signal delivery to the command's own channel may come a
				// moment after ours.
				time.Sleep(100 * time.Millisecond)
			case <-time.After(pauseLimit):
			}
		}
	}
	main()
}
