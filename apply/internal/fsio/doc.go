// Package fsio is the raw file I/O of an apply: a file's content at one
// moment ([State]), each directory of the tree held open once ([Dirs]),
// reads and writes by system call where that spares calls (on Linux),
// temp files, atomic writes, descriptor-safe opens and the root's lock.
// It decides nothing about edits; messages of its errors name the OS's
// reason only.
package fsio
