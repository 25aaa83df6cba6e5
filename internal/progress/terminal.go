package progress

import (
	"io"
	"os"
)

// To returns where a command shows its progress: stderr when it is a
// terminal and stdout does not carry JSON, else nil, no progress. A
// --json run's reader is a program, and a log or a pipe would keep every
// redrawn line.
func To(stderr io.Writer, json bool) io.Writer {
	f, ok := stderr.(*os.File)
	if json || !ok || !IsTerminal(f) {
		return nil
	}
	return f
}

// IsTerminal reports whether f is a terminal: a character device other
// than the null device, which is one too.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
