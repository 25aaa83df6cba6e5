// Package txn commits a set of changes to files under a root as one
// transaction: each new content staged in a temp file beside its target,
// each target re-read just before its rename so that a change made since
// planning is OUT_OF_DATE, deletions last, and on any failure, a
// cancelled context or a failed verification, everything put back from
// the originals in memory. The caller saves the undo journal through the
// function it passes to Commit, before the first file is touched.
package txn
