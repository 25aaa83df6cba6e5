// Package paths resolves the paths a model wrote against the root of the
// tree: clean, root-relative, through every symlink on the way and never
// out of the root (OUT_OF_ROOT is decided before any file is read),
// absolute paths under the root or under a --path-prefix, placeholders of
// documentation refused as directories. When a path names no file it
// offers the tree's files the model probably meant (AddCandidates).
package paths
