package apply

import (
	"context"

	"github.com/edapply/edapply/edit"
)

// Apply locates every edit in the files under opts.Root and, unless
// opts.DryRun is set or any edit fails, writes the results as one
// transaction. Stub: replaced by the planner.
func Apply(ctx context.Context, edits []edit.Edit, opts Options) (*Result, error) {
	return &Result{DryRun: opts.DryRun}, nil
}
