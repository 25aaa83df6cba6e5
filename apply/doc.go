// Package apply locates edits in the files of a working tree and writes them
// as one transaction.
//
// [Apply] resolves each [edit.Edit] against the files under
// [Options.Root], never outside it. The text an edit replaces is located by
// the first rung of package locate's tolerance ladder that finds it: exact
// bytes, then trailing whitespace, indentation, inner whitespace,
// typographic punctuation, elided lines, a diff's line number to break a
// tie, a tool call's rescues (a first line quoted after its indentation,
// a read's line numbers, escapes sent twice), an old text's blank lines at
// its edges, a diff hunk's misremembered context at one edge, and blanks
// beside punctuation; a rung that finds it in more places than the edit
// expects refuses with MULTIPLE_MATCHES rather than guess. Every file is planned in memory first; only when every
// edit has a place is anything written, each file through a temporary file
// renamed into place, with an undo journal kept outside the tree ([Undo]).
// An edit whose new text already stands where its old text was is
// already_applied, so a resent reply is harmless.
//
// Apply always returns a [Result]: what happened to each file and edit
// (status, strategy, lines) and every error with its candidates. Package
// report renders it. From a Go program:
//
//	edits, perrs := parse.Parse(reply, parse.Options{})
//	if len(perrs) > 0 {
//		return perrs.Err() // a region did not parse: write nothing
//	}
//	res, err := apply.Apply(ctx, edits, apply.Options{Root: dir})
//	report.WriteJSON(os.Stdout, report.NewReceipt(res)) // the receipt, also on failure
//	return err                                          // res.Errors.Err(): nil when every edit applied
package apply
