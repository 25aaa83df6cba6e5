package parse

import (
	"github.com/edapply/edapply/edit"
	"strings"
	"testing"
)

// TestXMLUnreadTool: an XML call of a tool edapply does not read, naming a
// file and carrying an edit's text, is refused rather than passed over; a
// call whose text another reader reads, one that carries no edit, and an
// example in the reply's prose are left as they were.
func TestXMLUnreadTool(t *testing.T) {
	call := "<edit_file>\n<path>a.py</path>\n<content>\nx = 2\n</content>\n</edit_file>\n"
	block := "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n"
	tests := map[string]struct {
		src     string
		edits   int
		errWith string // the one error's message contains this
	}{
		"refusedBesideAnEdit": {src: call + "\n" + block, edits: 1, errWith: "the <edit_file> call is not one edapply reads"},
		"cutOff":              {src: "<create_file>\n<path>a.py</path>\n<file_text>\nx = 2\n", errWith: "<create_file>"},
		"fencedCall":          {src: "```xml\n" + call + "```\n" + block, edits: 1, errWith: "<edit_file>"},
		"searchReplaceInside": {src: "<edit_file>\n<path>a.py</path>\n<diff>\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n</diff>\n</edit_file>\n", edits: 1},
		"readOnly":            {src: "<read_file>\n<path>a.py</path>\n</read_file>\n" + block, edits: 1},
		"noPath":              {src: "<note>\n<text>\nremember x\n</text>\n</note>\n" + block, edits: 1},
		"pathTooFar":          {src: "<edit_file>\n<a>1</a>\n<b>2</b>\n<c>3</c>\n<path>a.py</path>\n<content>\nx\n</content>\n</edit_file>\n" + block, edits: 1},
		"exampleInProse":      {src: "Call it like this:\n```xml\nSay:\n" + call + "```\n" + block, edits: 1},
		"exampleInOtherFence": {src: "```html\n" + call + "```\n" + block, edits: 1},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := checkParse(t, []byte(tt.src), edit.FormatAuto)
			if len(edits) != tt.edits {
				t.Errorf("Parse(%q) = %d edits %+v, want %d", tt.src, len(edits), edits, tt.edits)
			}
			switch {
			case tt.errWith == "" && len(errs) > 0:
				t.Errorf("Parse(%q) errors = %v, want none", tt.src, errs)
			case tt.errWith != "" && (len(errs) != 1 || !strings.Contains(errs[0].Msg, tt.errWith)):
				t.Errorf("Parse(%q) errors = %v, want one containing %q", tt.src, errs, tt.errWith)
			}
		})
	}
}
