package apply

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
)

// TestPortableIO runs the tests of reading, staging and re-checking files
// with the raw system calls off: the path every other system takes.
func TestPortableIO(t *testing.T) {
	fsio.RawIO = false
	t.Cleanup(func() { fsio.RawIO = true })
	for name, test := range map[string]func(*testing.T){
		"CommitAll": TestCommitAll, "CommitDrift": TestCommitDrift, "CommitFailMidway": TestCommitFailMidway,
		"ApplyPreserves": TestApplyPreserves, "ApplyNotRegular": TestApplyNotRegular,
		"ApplyUnreadable": TestApplyUnreadable, "ApplyDeleteRename": TestApplyDeleteRename,
		"UndoRoundTrip": TestUndoRoundTrip, "UndoOutOfDate": TestUndoOutOfDate,
		"NoAfterWritesTheSameBytes": TestNoAfterWritesTheSameBytes, "NoAfterRollback": TestNoAfterRollback,
	} {
		t.Run(name, test)
	}
}

// stampAll makes every file read on a stampable file system stamped,
// however recently it changed, for the test's duration; it skips the test
// when t.TempDir's file system is not one. A stamp is then proof only
// of changes that move the size, the inode or a time for sure.
func stampAll(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "probe"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := fsio.SettleMargin
	fsio.SettleMargin = -time.Hour
	t.Cleanup(func() { fsio.SettleMargin = old })
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := &fsio.Dirs{Root: r}
	defer d.Close()
	if st, err := d.Load("probe"); err != nil || st.Stamp == nil {
		t.Skipf("%s is not on a file system whose times prove a file unchanged", dir)
	}
}

// TestStampedIO runs the commit's tests with every file's drift check
// made by its stamp: each change those tests make moves the size.
func TestStampedIO(t *testing.T) {
	stampAll(t)
	for name, test := range map[string]func(*testing.T){
		"CommitAll": TestCommitAll, "CommitDrift": TestCommitDrift, "CommitFailMidway": TestCommitFailMidway,
		"ApplyDeleteRename": TestApplyDeleteRename, "UndoRoundTrip": TestUndoRoundTrip,
	} {
		t.Run(name, test)
	}
}
