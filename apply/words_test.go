package apply

import (
	"strings"
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

func TestToolArgsWords(t *testing.T) {
	for _, c := range []struct {
		args      edit.ToolArgs
		create    string
		exists    []string
		existsNot []string
	}{
		{edit.ToolArgs{Old: "old_string"}, "an empty old_string",
			[]string{"as old_string", "an empty old_string creates a new file only"}, []string{"content", "str_replace", "old_str,"}},
		{edit.ToolArgs{Old: "oldText", Whole: "content"}, "an empty oldText",
			[]string{"as oldText", `send it as "content" with no oldText`}, []string{"old_string", "str_replace"}},
	} {
		e := &edit.Edit{Op: edit.Create, Format: edit.FormatJSON, Args: &c.args}
		if got := createWords(e); got != c.create {
			t.Errorf("%+v: CreateWords = %q, want %q", c.args, got, c.create)
		}
		h := existsHint(e)
		for _, w := range c.exists {
			if !strings.Contains(h, w) {
				t.Errorf("%+v: ExistsHint %q does not say %q", c.args, h, w)
			}
		}
		for _, w := range c.existsNot {
			if strings.Contains(h, w) {
				t.Errorf("%+v: ExistsHint %q says %q", c.args, h, w)
			}
		}
	}
}

// TestNamedCallWords: a tool call that named its old text otherwise
// (old_str, oldString) is told about creating and changing a file in
// that name.
func TestNamedCallWords(t *testing.T) {
	for _, old := range []string{"old_str", "oldString"} {
		e := &edit.Edit{Op: edit.Create, Format: edit.FormatJSON, Names: &edit.TextNames{Old: old, New: "new"}}
		if got, want := createWords(e), "an empty "+old; got != want {
			t.Errorf("%s: createWords = %q, want %q", old, got, want)
		}
		if h := existsHint(e); !strings.Contains(h, "as "+old+";") || !strings.Contains(h, "with no "+old+".") || strings.Contains(h, "old_string") {
			t.Errorf("%s: existsHint %q", old, h)
		}
	}
}
