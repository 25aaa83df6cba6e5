//go:build !linux

package fsio

import (
	"io/fs"
	"os"
)

// Other systems take the portable path of files.go and of package txn: with
// RawIO false, Dirs.FileIn gives no directory and these are not called.
const RawIO = false

// A Stamp is never made here: every drift check reads the file.
type Stamp struct{ of []byte }

func loadRaw(*os.File, string, bool) (State, error)         { return State{}, errFallback }
func unchangedRaw(*os.File, string, *Stamp) bool            { return false }
func sameRaw(*os.File, string, [][]byte, int) (bool, error) { return false, errFallback }
func ReadRaw(*os.File, string) ([]byte, error)              { return nil, errFallback }
func RenameRaw(*os.File, string, string) error              { return errFallback }
func WritePieces(f *os.File, pieces [][]byte) error         { return WriteBuffered(f, pieces) }
func CreateRaw(*os.File, string, [][]byte, fs.FileMode, fs.FileMode, bool) (SyncCloser, error) {
	return nil, errFallback
}
