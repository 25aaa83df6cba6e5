//go:build !unix

package paths

import "os"

// plainDir returns f: only on Unix does a directory opened in a root
// stat each entry it lists.
func plainDir(f *os.File) *os.File { return f }
