package apply

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestMemoryLimit gives Apply a memory limit below what a 256 KiB file
// and its edit need: the apply is refused with IO_ERROR before anything is
// read or written. Under a limit with room, the same apply succeeds.
func TestMemoryLimit(t *testing.T) {
	big := strings.Repeat("filler line of text\n", 256<<10/20)
	for _, c := range []struct {
		limit int64
		ok    bool
	}{
		{limit: 1 << 20, ok: false}, // under 8 × 256 KiB
		{limit: 64 << 20, ok: true}, // room to spare
	} {
		root := t.TempDir()
		before := tree{"big.txt": big + "old\n"}
		writeTree(t, root, before)
		opts := testOpts(t, root)
		memoryLimit = c.limit
		t.Cleanup(func() { memoryLimit = 0 })
		res, err := Apply(context.Background(), []edit.Edit{replace("big.txt", "old\n", "new\n")}, opts)
		if c.ok {
			if err != nil || !res.OK {
				t.Errorf("limit %d: apply failed: %v", c.limit, err)
			}
			continue
		}
		if res.OK || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), "not enough memory") {
			t.Errorf("limit %d: Apply = %v, want IO_ERROR not enough memory", c.limit, err)
		}
		if got := readTree(t, root); !maps.Equal(got, before) {
			t.Errorf("limit %d: a refused apply changed the tree", c.limit)
		}
	}
}

// TestFreeMemory checks that what the system reports, where it reports
// anything, is a plausible amount: positive and not more than the
// machine could hold.
func TestFreeMemory(t *testing.T) {
	free := freeMemory()
	if free < 0 || free > 1<<50 {
		t.Errorf("freeMemory() = %d", free)
	}
	t.Logf("free memory: %s", mib(free))
}
