//go:build !unix

package apply

func openFileLimit() uint64 { return 0 }
