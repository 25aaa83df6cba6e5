package apply

import (
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestCreateWords: the edit that creates a file is named in the words of
// the format the failed edit was written in, a block's for no edit.
func TestCreateWords(t *testing.T) {
	for format, want := range map[edit.Format]string{
		edit.FormatJSON: "an empty old_string", edit.FormatUDiff: "a hunk of only + lines", edit.FormatCodex: "a hunk of only + lines",
		edit.FormatSearchReplace: "an empty SEARCH section", edit.FormatWhole: "an empty SEARCH section",
	} {
		if got := createWords(&edit.Edit{Format: format}); got != want {
			t.Errorf("createWords(%s) = %q, want %q", format, got, want)
		}
	}
	if got := createWords(nil); got != "an empty SEARCH section" {
		t.Errorf("createWords(nil) = %q", got)
	}
}
