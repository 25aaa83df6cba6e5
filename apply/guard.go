package apply

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/edapply/edapply/apply/internal/txn"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
)

// refuseReadOnly returns an IO_ERROR for each existing file among changes
// that the user has no write permission for (see writable). A harness
// protects a file that way, and a rename over it would not ask: the file
// is refused unless the caller says otherwise (Options.ForceReadOnly).
func refuseReadOnly(abs string, changes []txn.Change) edit.ErrorList {
	var errs edit.ErrorList
	for _, c := range changes {
		if !c.Orig.Exists || c.Orig.Link {
			continue // a link is removed or moved by its directory's permission, not its own
		}
		fi, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(c.Path)))
		if err != nil || writable(fi) {
			continue // a file gone or replaced is the commit's re-check's to find
		}
		errs.Add(notWritable(c.Path, fi))
	}
	return errs
}

// anyWrite is every write permission bit.
const anyWrite fs.FileMode = 0o222

// notWritable is the IO_ERROR of a file the user may not write, fi its
// Lstat. The mode alone may allow writes (0644 that another user owns):
// the message says that this user may not write it, and whose it is,
// rather than calling it read-only.
func notWritable(rel string, fi fs.FileInfo) *edit.Error {
	why := fmt.Sprintf("mode %#o", fi.Mode().Perm())
	if owner, ok := ownerOf(fi); ok && fi.Mode().Perm()&anyWrite != 0 {
		why += fmt.Sprintf(", owned by uid %d", owner)
	}
	return remedy.Mark(&edit.Error{Code: edit.CodeIO, Path: rel, Edit: -1,
		Msg:  fmt.Sprintf("%s is not writable by this user (%s): edapply does not replace a file the user may not write", rel, why),
		Hint: "The file is protected; leave it unchanged. A user who means the edit makes it writable first."}, remedy.ForceReadOnly)
}
