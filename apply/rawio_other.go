//go:build !linux

package apply

import (
	"io/fs"
	"os"
)

// Other systems take the portable path of files.go and commit.go: with
// rawIO false, dirRoots.fileIn gives no directory and these are not called.
const rawIO = false

// A fileStamp is never made here: every drift check reads the file.
type fileStamp struct{ of []byte }

func loadRaw(*os.File, string, bool) (state, error)         { return state{}, errFallback }
func unchangedRaw(*os.File, string, *fileStamp) bool        { return false }
func sameRaw(*os.File, string, [][]byte, int) (bool, error) { return false, errFallback }
func readRaw(*os.File, string) ([]byte, error)              { return nil, errFallback }
func renameRaw(*os.File, string, string) error              { return errFallback }
func writePieces(f *os.File, pieces [][]byte) error         { return writeBuffered(f, pieces) }
func createRaw(*os.File, string, [][]byte, fs.FileMode, fs.FileMode, bool) (syncCloser, error) {
	return nil, errFallback
}
