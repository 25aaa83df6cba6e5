// Package report renders the outcome of an apply: the JSON receipt, the
// human receipt, the dry-run diff, the response as applied ([Normalized])
// and the output of `edapply parse`.
//
// [NewReceipt] and [Human] render the same [apply.Result]: the receipt of
// docs/contract.md, which [WriteJSON] writes as one line for a harness,
// and the text a person reads, colored only when the caller says so.
// [Diff] prints the unified diff a dry run would write. From a Go program:
//
//	edits, perrs := parse.Parse(reply, parse.Options{})
//	if len(perrs) > 0 {
//		return perrs.Err() // a region did not parse: write nothing
//	}
//	res, err := apply.Apply(ctx, edits, apply.Options{Root: dir})
//	report.WriteJSON(os.Stdout, report.NewReceipt(res)) // the receipt, also on failure
//	return err                                          // res.Errors.Err(): nil when every edit applied
package report
