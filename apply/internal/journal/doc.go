// Package journal keeps the undo history of a root: the journal an apply
// saves before its commit touches the tree (what each file held and the
// sums of what it holds after; format.go), where journals live (Dirs),
// listing them newest first, reading and checking them, keeping the last
// HistorySize, and pruning the state of roots that are gone.
package journal
