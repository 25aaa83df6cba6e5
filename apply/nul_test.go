package apply

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// A NUL byte in an edit's new text is refused, BINARY_FILE, in every
// format that can carry one and for a file made new as for one edited:
// written, it would turn the text file binary. Nothing is written, and
// the hint says how to write the character instead.
func TestNULInNewTextRefused(t *testing.T) {
	const before = "package a\n\nvar sep = \"\"\n"
	for _, tc := range []safetyCase{
		{name: "searchReplace", reply: "a.go\n<<<<<<< SEARCH\nvar sep = \"\"\n=======\nvar sep = \"\x00\"\n>>>>>>> REPLACE\n"},
		{name: "udiff", reply: "--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@\n-var sep = \"\"\n+var sep = \"\x00\"\n"},
		{name: "json", reply: `{"path": "a.go", "old_string": "var sep = \"\"", "new_string": "var sep = \"\u0000\""}` + "\n"},
		{name: "codex", reply: "*** Begin Patch\n*** Update File: a.go\n@@\n-var sep = \"\"\n+var sep = \"\x00\"\n*** End Patch\n"},
		{name: "wholeFile", reply: "a.go\n```go\npackage a\n\nvar sep = \"\x00\"\n```\n"},
		{name: "create", reply: "b.go\n<<<<<<< SEARCH\n=======\npackage b\x00\n>>>>>>> REPLACE\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.before, tc.code = tree{"a.go": before}, string(edit.CodeBinaryFile)
			runSafety(t, tc)
		})
	}
	err := nulErr()
	if !strings.Contains(err.Hint, `\x00`) {
		t.Errorf("hint %q does not say how to write the character", err.Hint)
	}
}
