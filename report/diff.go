package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/edapply/edapply/apply"
)

// Diff writes the unified diff of every file in res, Before against After,
// labeled a/PATH and b/PATH as git labels them; /dev/null stands for the
// side of a create or delete that has no file. A rename with no content
// change is a "rename from"/"rename to" pair, as in git, since a diff of
// equal texts is empty; so is an empty file created or deleted, which gets
// its header lines alone.
func Diff(w io.Writer, res *apply.Result) error {
	var buf bytes.Buffer
	for _, f := range res.Files {
		buf.Write(fileDiff(f))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// fileDiff is one file's part of [Diff]; nil when the file does not change.
func fileDiff(f *apply.FileResult) []byte {
	oldName, newName := "a/"+f.Path, "b/"+f.Path
	if f.NewPath != "" {
		newName = "b/" + f.NewPath
	}
	if f.Before == nil {
		oldName = "/dev/null"
	}
	if f.After == nil {
		newName = "/dev/null"
	}
	if d := anchoredDiff(oldName, f.Before, newName, f.After); d != nil {
		return d
	}
	switch {
	case (f.Before == nil) != (f.After == nil):
		// An empty file created or deleted (moved or not): no lines
		// differ, but the file does.
		return fmt.Appendf(nil, "diff %s %s\n--- %s\n+++ %s\n", oldName, newName, oldName, newName)
	case f.NewPath != "":
		return fmt.Appendf(nil, "diff %s %s\nrename from %s\nrename to %s\n", oldName, newName, f.Path, f.NewPath)
	}
	return nil
}
