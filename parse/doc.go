// Package parse reads edits from model output.
//
// [Parse] finds every edit in a model's reply (SEARCH/REPLACE blocks,
// unified diffs, whole-file fences, Codex "*** Begin Patch" envelopes, JSON
// tool calls, mixed with prose) and lowers each to an [edit.Edit]. It
// returns the edits that parsed and a PARSE_ERROR for each region that did
// not, with its line in the reply; a truncated block is an error, never a
// silent no-op. Parse reads no file: locating the edits is package apply's
// job. With [Options.Tree] it may also stat and read files of a read-only [Tree] (an
// *os.Root) for the few questions the reply alone cannot settle: which of
// several "=======" lines splits a block, whether a bare name such as
// "gradlew" is a file, whether a fence under a path is the file or a snippet
// quoted from it.
//
// Applying a reply from a Go program takes three calls, one per package:
//
//	edits, perrs := parse.Parse(reply, parse.Options{})
//	if len(perrs) > 0 {
//		return perrs.Err() // a region did not parse: write nothing
//	}
//	res, err := apply.Apply(ctx, edits, apply.Options{Root: dir})
//	report.JSON(os.Stdout, res) // the receipt, also on failure
//	return err                  // res.Errors.Err(): nil when every edit applied
//
// docs/formats.md (`edapply help formats`) describes each format.
package parse
