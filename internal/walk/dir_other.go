//go:build !unix

package walk

import "os"

// plainDir returns f: only on Unix does a directory opened in a root
// stat each entry it lists.
func plainDir(f *os.File) *os.File { return f }
