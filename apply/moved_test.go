package apply

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
)

// The edits a reply writes against a file it moves (a Codex chunk after
// its "*** Move to:", a hunk after "rename to") are not located in
// whatever stands at the destination when the move fails: they are not
// tried, with the move's code and a hint to fix it, never NO_MATCH
// against another file's lines or matched there. An edit of the
// destination before the move is located as usual.
func TestEditsAfterFailedMove(t *testing.T) {
	before := tree{"old/name.txt": "from\n", "renamed/name.txt": "existing\n"}
	codexMove := func(minus string) string {
		return "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/name.txt\n@@\n-" + minus + "\n+new\n*** End Patch\n"
	}
	for _, tc := range []struct {
		name   string
		before tree
		reply  string
		code   edit.Code // of the move, edit 0
		first  int       // the move's index
	}{
		{"codex onto a file", before, codexMove("from"), edit.CodeFileExists, 0},
		{"codex quoting the file there", before, codexMove("existing"), edit.CodeFileExists, 0},
		{"git rename onto a file", before, "diff --git a/old/name.txt b/renamed/name.txt\nsimilarity index 50%\nrename from old/name.txt\nrename to renamed/name.txt\n--- a/old/name.txt\n+++ b/renamed/name.txt\n@@ -1 +1 @@\n-from\n+new\n", edit.CodeFileExists, 0},
		{"codex from a missing file", tree{"renamed/other.txt": "x\n"}, codexMove("from"), edit.CodeFileNotFound, 0},
		{"after an edit of the destination", before, "renamed/name.txt\n<<<<<<< SEARCH\nexisting\n=======\nexisting too\n>>>>>>> REPLACE\n\n" + codexMove("from"), edit.CodeFileExists, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.before)
			r, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			edits, perrs := parse.Parse(tc.reply, parse.Options{Tree: r})
			if len(perrs) > 0 || len(edits) != tc.first+2 {
				t.Fatalf("parsed %d edits, errors %v", len(edits), perrs)
			}
			res, _ := Apply(context.Background(), edits, testOpts(t, dir))
			diffTrees(t, "after a refused reply", readTree(t, dir), tc.before)
			byEdit := map[int]*edit.Error{}
			for _, e := range res.Errors {
				byEdit[e.Edit] = e
			}
			if len(res.Errors) != 2 || byEdit[tc.first] == nil || byEdit[tc.first].Code != tc.code {
				t.Fatalf("errors %v, want the move's %s and one more", res.Errors, tc.code)
			}
			after := byEdit[tc.first+1]
			if after == nil || after.Code != tc.code || !strings.Contains(after.Msg, "not tried") || len(after.Candidates) > 0 {
				t.Fatalf("the edit after the move: %+v, want it not tried, %s", after, tc.code)
			}
			for _, fr := range res.Files {
				for _, er := range fr.Edits {
					if er.Index == tc.first+1 {
						t.Errorf("%s lists the edit after the move as %s", fr.Path, er.Status)
					}
					if tc.first == 1 && er.Index == 0 && er.Status != edit.StatusMatched {
						t.Errorf("the edit of the destination before the move: %s, want matched", er.Status)
					}
				}
			}
		})
	}
}
