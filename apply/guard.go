package apply

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/edapply/edapply/apply/internal/txn"
	"github.com/edapply/edapply/edit"
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
		errs.Add(&edit.Error{Code: edit.CodeIO, Path: c.Path, Edit: -1,
			Msg:  fmt.Sprintf("%s is read-only (mode %#o): edapply does not replace a file the user may not write", c.Path, fi.Mode().Perm()),
			Hint: "The file is protected; leave it unchanged. A user who means the edit makes it writable first, or passes --force-readonly."})
	}
	return errs
}

// anyWrite is every write permission bit.
const anyWrite fs.FileMode = 0o222
