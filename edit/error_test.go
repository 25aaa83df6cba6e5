package edit

import (
	"errors"
	"io/fs"
	"testing"
)

func TestErrorIs(t *testing.T) {
	err := &Error{Code: CodeNoMatch, Path: "a.go", Msg: "SEARCH text not found in a.go"}
	if !errors.Is(err, &Error{Code: CodeNoMatch}) {
		t.Errorf("errors.Is(%v, NO_MATCH) = false, want true", err)
	}
	if errors.Is(err, &Error{Code: CodeMultipleMatches}) {
		t.Errorf("errors.Is(%v, MULTIPLE_MATCHES) = true, want false", err)
	}
	if errors.Is(err, &Error{Code: CodeNoMatch, Path: "b.go"}) {
		t.Errorf("errors.Is with a different path matched")
	}
}

func TestErrorListUnwrap(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Fatalf("empty list Err() = %v, want nil", l.Err())
	}
	l.Add(&Error{Code: CodeParse, Line: 3, Msg: "unterminated SEARCH block"})
	l.Add(&Error{Code: CodeIO, Path: "x", Msg: "read failed", Err: fs.ErrPermission})
	err := l.Err()
	if !errors.Is(err, &Error{Code: CodeParse}) || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("errors.Is through ErrorList failed: %v", err)
	}
	if got, want := err.Error(), "line 3: unterminated SEARCH block (and 1 more errors)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestOpString(t *testing.T) {
	for op, want := range map[Op]string{Create: "create", Delete: "delete", Replace: "replace", Rewrite: "rewrite", Rename: "rename", 0: "Op(0)"} {
		if got := op.String(); got != want {
			t.Errorf("Op(%d).String() = %q, want %q", int(op), got, want)
		}
		if op.Valid() != (op != 0) {
			t.Errorf("Op(%d).Valid() = %v", int(op), op.Valid())
		}
	}
}
