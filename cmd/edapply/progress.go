package main

import (
	"io"

	"github.com/edapply/edapply/internal/progress"
)

// newMeter returns the meter a run of apply or normalize shows the edits
// it placed on: on stderr when progress.To allows, else nil (none). A test
// replaces it to watch the meter without a terminal.
var newMeter = func(stderr io.Writer, json bool, what string) *progress.Meter {
	return progress.New(progress.To(stderr, json), what, "edits placed")
}

// placing returns what apply.Options.Progress is to call to move meter:
// nil, no call, without one.
func placing(meter *progress.Meter) func(done, total int) {
	if meter == nil {
		return nil
	}
	return meter.Update
}
