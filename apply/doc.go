// Package apply locates edits in the files of a working tree and writes them
// as one transaction.
//
// [Apply] resolves each [edit.Edit] against the files under [Options.Root],
// never outside it, and locates the text it replaces by the tolerance
// ladder of package locate, whose documentation lists the rungs: the first
// rung that finds the text decides, and one that finds it in more places
// than the edit expects refuses with MULTIPLE_MATCHES rather than guess.
// Every file is planned in memory first; only when every edit has a place
// is anything written, each file through a temporary file renamed into
// place after a last check that it still holds what planning read, with
// an undo journal kept outside the tree ([Undo], [History]). An edit whose
// new text already stands where its old text was is already_applied, so a
// resent reply is harmless. [Read] and [Hash] show a file as an edit of
// its path would see it.
//
// Apply always returns a [Result]: what happened to each file and edit
// (status, strategy, lines) and every error with its candidates, which
// package report renders as the receipt. From a Go program:
//
//	edits, perrs := parse.Parse(reply, parse.Options{})
//	if len(perrs) > 0 {
//		return perrs.Err() // a region did not parse: write nothing
//	}
//	res, err := apply.Apply(ctx, edits, apply.Options{Root: dir})
//	for _, f := range res.Files { // also on failure: what each edit found
//		for _, e := range f.Edits {
//			fmt.Println(f.Path, e.Status, e.Strategy, e.LineStart, e.LineEnd)
//		}
//	}
//	return err // res.Errors.Err(): nil when every edit applied
package apply
