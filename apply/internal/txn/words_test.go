package txn

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestWriteErrNamesDirectory: a write that the file's directory refuses
// names the directory, with a hint, since the file itself may be
// writable; other failures keep the system's words.
func TestWriteErrNamesDirectory(t *testing.T) {
	denied := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}
	tests := []struct {
		path, what string
		err        error
		msg, hint  string
	}{
		{"src/a.go", "cannot write temporary file", denied, "cannot write temporary file: this user may not write in directory src", "leave the files of directory src out of the edits"},
		{"a.go", "cannot rename into place", denied, "cannot rename into place: this user may not write in the root directory", "the root directory"},
		{"src/a.go", "cannot delete", &fs.PathError{Op: "remove", Path: "x", Err: errors.New("input/output error")}, "cannot delete: input/output error", ""},
	}
	for _, tt := range tests {
		e := writeErr(tt.path, tt.what, tt.err)
		if e.Code != edit.CodeIO || e.Path != tt.path || e.Msg != tt.msg || !strings.Contains(e.Hint, tt.hint) || (tt.hint == "") != (e.Hint == "") {
			t.Errorf("writeErr(%q, %q) = %q, hint %q; want %q, hint with %q", tt.path, tt.what, e.Msg, e.Hint, tt.msg, tt.hint)
		}
	}
}
