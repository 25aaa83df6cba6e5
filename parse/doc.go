// Package parse reads edits from model output.
//
// [Parse] finds every edit in a model's reply (SEARCH/REPLACE blocks,
// unified diffs, whole-file fences, Codex "*** Begin Patch" envelopes, JSON
// and XML tool calls, Zed's <old_text>/<new_text> pairs, mixed with prose)
// and lowers each to an [edit.Edit].
// It returns the edits that parsed and a PARSE_ERROR for each region that
// did not, with its line in the reply; a truncated block is an error, never
// a silent no-op. The edits' texts share the reply's string. Parse reads no
// file unless [Options.Tree] is set: then it may stat and read regular
// files of a read-only [Tree] (an *os.Root) for the few questions the reply
// alone cannot settle: which of several "=======" lines splits a block,
// whether a bare name such as "gradlew" is a file, whether a fence under a
// path is the file or a snippet quoted from it. Locating the edits is
// package apply's job.
//
// # Readers
//
// Parse walks the reply's lines once. At each line the readers are asked,
// in this order, whether a region of their format starts there; the first
// that says so reads the region and the walk goes on after it. A line no
// reader claims is prose. With [Options.Format] set, only that format's
// readers are asked (and, for edit.FormatCodex, the JSON reader, for the
// envelopes tool calls carry); [Options.Skipped] is told of the edits that
// edit.FormatAuto would have read from the regions left out, read in the
// same walk.
//
//   - codexReader (codex.go): a "*** Begin Patch" envelope, up to "*** End
//     Patch"; Add, Delete and Update File sections, "*** Move to", "@@"
//     anchors and "*** End of File". An envelope with any error yields no
//     edit.
//   - srReader (searchreplace.go): a SEARCH/REPLACE block, found by its
//     marker lines (Aider's, Cline's, Roo Code's preamble), never by
//     fences; only a divider at nesting depth one splits it, and the path
//     is the line before the block, a fence's info string, or the previous
//     block's file. It keeps the openers it found never closed.
//   - udiffReader (udiff.go, contextdiff.go): a unified diff, git's or a
//     model's loose one (miscounted hunks, "@@" without numbers, no "diff
//     --git"), or a context diff (diff -c); git's extended headers through
//     go-gitdiff; names as patch reads them, or stripped by [Options.Strip]. It keeps the fence the diff
//     sits in, a diff fence never closed (a reply cut off) and the lines of
//     the file being edited, for context lines that lost their space.
//   - jsonReader (json.go, codexcall.go, shellcall.go): JSON tool calls,
//     found by decoding, each read with its tool's semantics or refused;
//     a call that carries a diff or an envelope yields that diff's or
//     envelope's edits. It keeps the text-editor view calls, an error
//     only when the reply holds nothing else.
//   - nearMissReader (searchreplace.go): a block whose opener is a near
//     miss of a marker ("<<<<<<<SEARCH"): a PARSE_ERROR, its lines consumed.
//   - zedReader (zed.go): Zed's edit stream, <old_text>/<new_text> pairs
//     (inside <edits> or not), each a whole-line replacement of a block's
//     reading, its tag's line= the hint; a closing tag of another kind
//     ends a text, as Zed's parser reads it.
//   - xmlReader (xml.go): Cline's and Roo Code's XML calls (write_to_file,
//     insert_content, search_and_replace); a call of another tool that
//     carries an edit's text no other reader reads is refused.
//   - wholeReader (whole.go): a path line, then a fence holding the whole
//     file. It keeps the prose fence it saw open, so that a name inside
//     quoted output is not a path. Once every region is read, whole-file
//     fences that turn out to be quotes or drafts are dropped (dropQuotes).
//
// What the readers share the parser holds: the edits, the errors, the
// previous block's file and whether a whole-file fence named it, and what
// the tree said of each name.
//
// Applying a reply from a Go program takes three calls, one per package:
//
//	edits, perrs := parse.Parse(reply, parse.Options{})
//	if len(perrs) > 0 {
//		return perrs.Err() // a region did not parse: write nothing
//	}
//	res, err := apply.Apply(ctx, edits, apply.Options{Root: dir})
//	report.WriteJSON(os.Stdout, report.NewReceipt(res)) // the receipt, also on failure
//	return err                                          // res.Errors.Err(): nil when every edit applied
//
// docs/formats.md (`edapply help formats`) describes each format.
package parse
