//go:build !unix

package fsio

func openFileLimit() uint64 { return 0 }
