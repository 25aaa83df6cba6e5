package txn

import (
	"path"
	"testing"
)

// TestTempNames: a temp file is named in its directory as IsTempName
// (and so the clean-up of a killed apply) expects, and no name repeats.
func TestTempNames(t *testing.T) {
	temps := map[string]bool{}
	for range 1000 {
		tmp := tempName("sub/dir")
		base := path.Base(tmp)
		if path.Dir(tmp) != "sub/dir" || !IsTempName(base) || len(base) != len(tempPrefix)+16+len(tempSuffix) {
			t.Fatalf("temp name %q", tmp)
		}
		if temps[base] {
			t.Fatalf("temp name %s made twice", base)
		}
		temps[base] = true
	}
}
