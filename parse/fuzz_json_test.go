package parse

import (
	"encoding/json"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/golden"
)

// FuzzParseJSON checks the reader's invariants on any input, and that every
// Replace or Create it reads survives a round trip through a canonical JSONL
// call: the text was decoded exactly once, so encoding it again and reading
// it back must give the same edit.
func FuzzParseJSON(f *testing.F) {
	// Every format's goldens, not only JSON's: the JSON reader must leave
	// other formats' text alone, and must keep its invariants beside them.
	golden.Seed(f, "testdata", "*")
	f.Add([]byte(`{"path": "a", "old_string": "x", "new_string": "y"}`))
	f.Add([]byte("```json\n[{\"file_path\": \"a\", \"edits\": [{\"old_string\": \"x\", \"new_string\": \"y\"}]}]\n```\n"))
	f.Add([]byte(`{"command": "str_replace", "path": "a", "diff": "@@ -1 +1 @@\n-x\n+y\n"}`))
	f.Add([]byte(`{"command": "create", "path": "a", "file_text": "x\n", "old_str": "y"}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, _ := checkParse(t, src, edit.FormatJSON)
		checkParse(t, src, edit.FormatAuto)
		for _, e := range edits {
			if (e.Format == edit.FormatCodex || e.Format == edit.FormatUDiff) && e.Start < len(src) && src[e.Start] == '"' {
				continue // a patch or diff the call carries, read by the Codex or diff reader
			}
			if e.Format != edit.FormatJSON {
				t.Errorf("edit %+v: format %q", e, e.Format)
			}
			if (e.Op != edit.Replace || e.Hint != 0 || e.Count > 1) && e.Op != edit.Create {
				continue
			}
			call := map[string]any{"path": e.Path, "old_string": e.Old, "new_string": e.New, "replace_all": e.Count == 0 && e.Op == edit.Replace}
			if e.Op == edit.Create {
				// The text-editor tools' create: the one call that creates
				// an empty file too.
				call = map[string]any{"command": "create", "path": e.Path, "file_text": e.New}
			}
			// Decoded JSON strings are valid UTF-8, so Marshal keeps every byte.
			line, err := json.Marshal(call)
			if err != nil {
				t.Fatal(err)
			}
			back, errs := Parse(string(line), Options{Format: edit.FormatJSON})
			if len(errs) != 0 || len(back) != 1 {
				t.Fatalf("round trip of %+v through %s = %v, %v", e, line, back, errs)
			}
			b := back[0]
			if b.Op != e.Op || b.Path != e.Path || b.Old != e.Old || b.New != e.New || b.Count != e.Count {
				t.Errorf("round trip of %+v through %s = %+v", e, line, b)
			}
		}
	})
}
