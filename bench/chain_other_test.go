//go:build !unix

package bench

import (
	"os"
	"path/filepath"
	"strings"
)

func mkChain(dir string, n int) error {
	return os.MkdirAll(filepath.Join(dir, strings.Repeat("d"+string(filepath.Separator), n-1)), 0o755)
}
