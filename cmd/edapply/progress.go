package main

import (
	"io"
	"os"

	"github.com/edapply/edapply/internal/progress"
)

// newMeter returns the meter a run of apply or normalize shows the edits
// it placed on: on stderr when progressTo allows, else nil (none). A test
// replaces it to watch the meter without a terminal.
var newMeter = func(stderr io.Writer, json bool, what string) *progress.Meter {
	return progress.New(progressTo(stderr, json), what, "edits placed")
}

// placing returns what apply.Options.Progress is to call to move meter:
// nil, no call, without one.
func placing(meter *progress.Meter) func(done, total int) {
	if meter == nil {
		return nil
	}
	return meter.Update
}

// progressTo returns where a command shows its progress (see
// internal/progress): stderr when it is a terminal and stdout does not
// carry JSON, else nil, no progress. A --json run's reader is a program,
// and a log or a pipe would keep every redrawn line.
func progressTo(stderr io.Writer, json bool) io.Writer {
	f, ok := stderr.(*os.File)
	if json || !ok || !isTerminal(f) {
		return nil
	}
	return f
}
