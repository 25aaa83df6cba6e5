package apply

import (
	"context"

	"github.com/edapply/edapply/edit"
)

// verify calls fn on the written tree at root, recording what became of it
// in res. Its error is CHECK_FAILED; the caller restores the files and says
// so in the message.
func verify(ctx context.Context, fn func(context.Context, string) (string, error), root string, res *Result) *edit.Error {
	out, err := fn(ctx, root)
	res.VerifyOutput = out
	if err == nil {
		res.Verify = "passed"
		return nil
	}
	res.Verify = "failed"
	return &edit.Error{Code: edit.CodeCheckFailed, Edit: -1, Msg: err.Error(), Err: err,
		Hint: "The edits were undone because the verification failed on them; read its output, fix the edits and resend them."}
}
