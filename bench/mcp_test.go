package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/mcp"
)

// The MCP server's answers (issue 35): what an agent's edit tool costs
// per call, at three sizes a factor of four apart, beside the reference
// tools on the same change. Each call goes through the SDK's client and
// an in-memory transport, so the CPU counted is both ends' JSON as well
// as the apply; answer-B is the size of the answer the client decoded,
// which must stay bounded however large the work.
//
//   - diff: one apply_edits call whose reply is a diff of n hunks to a
//     file of 100n lines; `patch -p1` on the same diff.
//   - failing: one apply_edits call of n SEARCH/REPLACE blocks that all
//     fail on a file of 100n lines; `patch --dry-run` on the same hunks.
//   - edit_file: one edit_file call of one model-style edit to a file of
//     100n lines; `patch -p1` on the same change as a one-hunk diff.
var mcpSizes = []int{125, 500, 2_000}

// mcpSession serves t's tree over an in-memory transport and returns a
// client session on it.
func mcpSession(b *testing.B, t *tree) *sdk.ClientSession {
	b.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.New(mcp.Options{Root: t.root, StateDir: t.state, Version: "bench"}).Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// An mcpAnswer is what a benchmark reads of a tool's structured answer.
type mcpAnswer struct {
	OK     bool `json:"ok"`
	Errors []struct {
		Code string `json:"code"`
	} `json:"errors"`
}

// callTool calls name with args and returns its answer and the bytes of
// its structured content, failing on a protocol error.
func callTool(cs *sdk.ClientSession, name string, args any) (mcpAnswer, int, error) {
	var a mcpAnswer
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return a, 0, fmt.Errorf("%s: %v", name, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return a, 0, err
	}
	n := len(raw)
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			n += len(tc.Text)
		}
	}
	return a, n, json.Unmarshal(raw, &a)
}

// BenchmarkMCP runs each MCP shape at each size through the server and
// the reference tool on the same change.
func BenchmarkMCP(b *testing.B) {
	for _, n := range mcpSizes {
		path := "mcp.go"
		src := gen.Source(uint64(41_000+n), "mcp", 100*n)
		es, err := gen.Sites(path, src, n, uint64(n))
		if err != nil {
			b.Fatal(err)
		}
		want, err := gen.ApplyEdits(src, es)
		if err != nil {
			b.Fatal(err)
		}
		diff := gen.UnifiedDiff(es)
		files := []gen.File{{Path: path, Src: src}}
		b.Run(fmt.Sprintf("diff/edapply-%d", n), func(b *testing.B) {
			t := newTree(b, files)
			cs := mcpSession(b, t)
			var size int
			benchTree(b, t, []gen.File{{Path: path, Src: want}}, len(diff)+2*len(src), &meter{}, func() error {
				a, sz, err := callTool(cs, "apply_edits", map[string]any{"reply": string(diff)})
				size = sz
				if err == nil && (!a.OK || len(a.Errors) > 0) {
					err = fmt.Errorf("apply_edits: ok=%v, %d errors", a.OK, len(a.Errors))
				}
				return err
			})
			b.ReportMetric(float64(size), "answer-B")
		})
		b.Run(fmt.Sprintf("diff/patch-%d", n), func(b *testing.B) { benchPatch(b, files, diff) })

		fsrc, fes, err := failingEdits(100*n, n)
		if err != nil {
			b.Fatal(err)
		}
		reply := string(searchReplaceOf(fes))
		b.Run(fmt.Sprintf("failing/edapply-%d", n), func(b *testing.B) {
			t := newTree(b, []gen.File{{Path: "fail.go", Src: fsrc}})
			cs := mcpSession(b, t)
			var size int
			benchFailing(b, len(reply)+len(fsrc), func() error {
				a, sz, err := callTool(cs, "apply_edits", map[string]any{"reply": reply})
				size = sz
				if err == nil && (a.OK || len(a.Errors) == 0 || a.Errors[0].Code != "NO_MATCH") {
					err = fmt.Errorf("apply_edits: ok=%v, %d errors, want NO_MATCH", a.OK, len(a.Errors))
				}
				return err
			})
			b.ReportMetric(float64(size), "answer-B")
		})
		b.Run(fmt.Sprintf("failing/patch-%d", n), func(b *testing.B) { benchPatchDryRun(b, fsrc, fes) })

		one, err := gen.Sites(path, src, 1, uint64(n)+1)
		if err != nil {
			b.Fatal(err)
		}
		oneWant, err := gen.ApplyEdits(src, one)
		if err != nil {
			b.Fatal(err)
		}
		oneDiff := gen.UnifiedDiff(one)
		old, edited := one[0].Old(), one[0].New()
		b.Run(fmt.Sprintf("edit_file/edapply-%d", n), func(b *testing.B) {
			t := newTree(b, files)
			cs := mcpSession(b, t)
			var size int
			args := map[string]any{"path": path, "edits": []map[string]any{{"old_string": old, "new_string": edited}}}
			benchTree(b, t, []gen.File{{Path: path, Src: oneWant}}, len(old)+len(edited)+2*len(src), &meter{}, func() error {
				a, sz, err := callTool(cs, "edit_file", args)
				size = sz
				if err == nil && !a.OK {
					err = fmt.Errorf("edit_file: not ok, %d errors", len(a.Errors))
				}
				return err
			})
			b.ReportMetric(float64(size), "answer-B")
		})
		b.Run(fmt.Sprintf("edit_file/patch-%d", n), func(b *testing.B) { benchPatch(b, files, oneDiff) })
	}
}

// benchPatch times `patch -p1` applying diff to a tree of files.
func benchPatch(b *testing.B, files []gen.File, diff []byte) {
	if _, err := exec.LookPath("patch"); err != nil {
		b.Skip("patch not installed")
	}
	t := newTree(b, files)
	df := filepath.Join(b.TempDir(), "edits.diff")
	if err := os.WriteFile(df, diff, 0o666); err != nil {
		b.Fatal(err)
	}
	var m meter
	benchTree(b, t, nil, len(diff)+2*size(files), &m, func() error {
		cmd := exec.Command("patch", "-p1", "-s", "-i", df)
		cmd.Dir = t.root
		return m.exec(cmd)
	})
}
