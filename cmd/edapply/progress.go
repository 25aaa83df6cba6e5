package main

import (
	"io"
	"os"
)

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
