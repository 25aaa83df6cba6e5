package mcp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

// ReadInput is read_file's arguments.
type ReadInput struct {
	Path   string `json:"path" jsonschema:"the file, relative to the root of the working tree"`
	Offset int    `json:"offset,omitempty" jsonschema:"the first line to show, from 1 (default 1)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"show at most this many lines (default 2000)"`
}

// A Replacement is one str_replace edit of edit_file.
type Replacement struct {
	OldString  string `json:"old_string" jsonschema:"whole lines of the file as they stand now, without read_file's line numbers, with enough context to be unique; empty to create the file"`
	NewString  string `json:"new_string" jsonschema:"the text to put in their place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string (a rename) instead of requiring exactly one"`
}

// EditInput is edit_file's arguments.
type EditInput struct {
	Path     string        `json:"path" jsonschema:"the file, relative to the root of the working tree"`
	Edits    []Replacement `json:"edits" jsonschema:"the replacements, applied in order as one transaction"`
	BaseHash string        `json:"base_hash,omitempty" jsonschema:"the sha256 read_file returned (8 or more leading hex digits are enough): refuse with OUT_OF_DATE if the file changed since"`
	DryRun   bool          `json:"dry_run,omitempty" jsonschema:"report and show the diff; write nothing"`
}

// ApplyInput is apply_edits' arguments.
type ApplyInput struct {
	Reply  string            `json:"reply" jsonschema:"text holding the edits: SEARCH/REPLACE blocks, unified diffs, whole-file fences, *** Begin Patch envelopes or JSON str_replace calls"`
	DryRun bool              `json:"dry_run,omitempty" jsonschema:"report and show the diff; write nothing"`
	Base   map[string]string `json:"base,omitempty" jsonschema:"path to the sha256 read_file returned for it: refuse with OUT_OF_DATE if that file changed since"`
}

// UndoInput is undo's arguments: none.
type UndoInput struct{}

var falseHint = new(bool)

// A toolSet is the server's tools, as the SDK lists them to a client.
type toolSet struct{ readFile, editFile, applyEdits, undo *sdk.Tool }

// tools are built with the first server, not when the program starts:
// inferring their input schemas walks the argument types by reflection,
// which every other edapply command would pay for and never use.
var tools = sync.OnceValue(func() toolSet {
	return toolSet{
		readFile: &sdk.Tool{
			Name:        "read_file",
			Description: `Read a file of the working tree: its lines, each after its number right-aligned in six columns and a tab (as cat -n prints them), and the file's sha256. Read a file before you edit it, and keep the sha256: pass it as edit_file's base_hash (or in apply_edits' base) so that an edit of a file changed since is refused rather than misplaced. The numbers are not part of the file: never copy them into old_string. A long file comes in windows of at most 2000 lines; the result says the offset that reads on.`,
			InputSchema: inputSchema[ReadInput](),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: falseHint},
		},
		editFile: &sdk.Tool{
			Name:        "edit_file",
			Description: `Replace text in one file of the working tree. Each edit's old_string is whole lines copied from the file as it stands now (from read_file, without the line numbers), with enough context around the change to occur exactly once; new_string replaces it. The edits apply in order as one transaction: if any fails, nothing is written. Small differences of whitespace, indentation or quotes are tolerated while the place stays unique; an old_string found in several places is refused (MULTIPLE_MATCHES), never guessed: add context, or set replace_all to replace every occurrence (a rename). An empty old_string creates the file, which must not exist. Pass base_hash, the sha256 read_file returned, to refuse the edit (OUT_OF_DATE) if the file changed since you read it. The result is a receipt: ok, each edit's status and lines, the file's new sha256 (the base_hash for its next edit), and for a failure the error code, the closest candidates in the file and a hint.`,
			InputSchema: inputSchema[EditInput](),
			Annotations: &sdk.ToolAnnotations{IdempotentHint: true, OpenWorldHint: falseHint},
		},
		applyEdits: &sdk.Tool{
			Name:        "apply_edits",
			Description: `Apply a reply holding edits to any files of the working tree, in any format edapply reads: SEARCH/REPLACE blocks under the file's path, unified diffs, whole-file fences with the path above them, *** Begin Patch envelopes, JSON str_replace calls. Every edit applies or none does. SEARCH and context lines are whole lines copied from the files as they stand now. base maps a path to the sha256 read_file returned for it, to refuse a file changed since. The result is the receipt, as for edit_file.`,
			InputSchema: inputSchema[ApplyInput](),
			Annotations: &sdk.ToolAnnotations{IdempotentHint: true, OpenWorldHint: falseHint},
		},
		undo: &sdk.Tool{
			Name:        "undo",
			Description: `Restore the files that the last write in this working tree (an edit_file, an apply_edits or the edapply command) changed: their content comes back, files it created are removed, files it deleted return. Refused (OUT_OF_DATE), restoring nothing, when one of those files changed since. Each call takes back one write, newest first; the tree keeps its last ` + strconv.Itoa(apply.HistorySize) + `.`,
			InputSchema: inputSchema[UndoInput](),
			Annotations: &sdk.ToolAnnotations{OpenWorldHint: falseHint},
		},
	}
})

// maxReply bounds apply_edits' reply. Over stdio a message is already
// bounded by the SDK's frame limit, past which the session ends; a
// transport without one gets the same bound here.
const maxReply = sdk.DefaultMaxLineLength

func (s *server) readFile(ctx context.Context, _ *sdk.CallToolRequest, in ReadInput) (*sdk.CallToolResult, report.ReadOutput, error) {
	if in.Limit < 0 {
		return usageRead(in.Path, "limit must be positive")
	}
	w, err := apply.ReadWith(apply.Options{Root: s.opts.Root, PathPrefixes: s.opts.PathPrefixes}, in.Path, in.Offset, in.Limit)
	out := report.NewReadOutput(w, err)
	if err != nil {
		return &sdk.CallToolResult{IsError: true, Content: text(errorText(err))}, out, nil
	}
	var b bytes.Buffer
	if err := report.Window(&b, w); err != nil {
		return nil, out, err
	}
	return &sdk.CallToolResult{Content: text(b.String())}, out, nil
}

func usageRead(p, msg string) (*sdk.CallToolResult, report.ReadOutput, error) {
	e := &edit.Error{Code: edit.CodeUsage, Path: p, Edit: -1, Msg: msg}
	return &sdk.CallToolResult{IsError: true, Content: text(errorText(e))}, report.NewReadOutput(nil, e), nil
}

func (s *server) editFile(ctx context.Context, _ *sdk.CallToolRequest, in EditInput) (*sdk.CallToolResult, report.Receipt, error) {
	if in.Path == "" {
		return usage("path is empty", "Name the file to edit, relative to the root.")
	}
	if len(in.Edits) == 0 {
		return usage("edits is empty", "Give at least one {old_string, new_string}.")
	}
	edits := make([]edit.Edit, len(in.Edits))
	for i, r := range in.Edits {
		// As parse lowers a JSON str_replace call, so that the ladder
		// treats these edits as the tool calls they are.
		e := edit.Edit{Op: edit.Replace, Path: in.Path, Old: r.OldString, New: r.NewString, Count: 1, Format: edit.FormatJSON, EveryKey: "replace_all", Block: i}
		switch {
		case r.OldString == "":
			e.Op, e.Old = edit.Create, ""
		case r.ReplaceAll:
			e.Count = 0
		}
		edits[i] = e
	}
	var base map[string]string
	if in.BaseHash != "" {
		base = map[string]string{in.Path: in.BaseHash}
	}
	res := s.apply(ctx, edits, base, in.DryRun)
	return s.receipt(res, "")
}

// parse parses reply in place (the edits' texts share its bytes) with the
// working tree at hand, read only through an os.Root so that no name
// leaves it. A root that cannot be opened parses without the tree; Apply
// reports the root then.
func (s *server) parse(reply string) ([]edit.Edit, edit.ErrorList) {
	var opts parse.Options
	root := s.opts.Root
	if root == "" {
		root = "."
	}
	if r, err := os.OpenRoot(root); err == nil {
		defer r.Close()
		opts.Tree = r
	}
	return parse.Parse(reply, opts)
}

func (s *server) applyEdits(ctx context.Context, _ *sdk.CallToolRequest, in ApplyInput) (*sdk.CallToolResult, report.Receipt, error) {
	if len(in.Reply) > maxReply {
		return usage(fmt.Sprintf("reply larger than %d MiB", maxReply>>20), "Send the edits in several calls.")
	}
	edits, perrs := s.parse(in.Reply)
	if len(edits) == 0 {
		if len(perrs) == 0 {
			perrs.Add(&edit.Error{Code: edit.CodeParse, Edit: -1, Msg: "no edits found in the reply",
				Hint: "Write each change as a SEARCH/REPLACE block, a unified diff, a whole-file fence, a *** Begin Patch envelope or a JSON str_replace call."})
		}
		return s.receipt(&apply.Result{DryRun: in.DryRun, Errors: perrs}, "")
	}
	// A reply with a region that did not parse writes nothing, but its
	// parsed edits are still planned so that the receipt reports every
	// problem at once, as the CLI does.
	res := s.apply(ctx, edits, in.Base, in.DryRun || len(perrs) > 0)
	if len(perrs) > 0 {
		res.OK, res.DryRun = false, in.DryRun
		res.Errors = append(perrs, res.Errors...)
	}
	// Normalizing reads bytes: the copy is made for the receipt alone, not
	// held through the apply.
	return s.receipt(res, report.ChangedNormalized([]byte(in.Reply), edits, res))
}

func (s *server) undo(ctx context.Context, _ *sdk.CallToolRequest, _ UndoInput) (*sdk.CallToolResult, report.Receipt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, _ := apply.Undo(ctx, apply.Options{Root: s.opts.Root, StateDir: s.opts.StateDir})
	return s.receipt(res, "")
}

// apply runs apply.Apply under the server's lock. Its error is the
// Result's, which the receipt reports.
func (s *server) apply(ctx context.Context, edits []edit.Edit, base map[string]string, dryRun bool) *apply.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Only a dry run's diff reads the new content (see receipt).
	res, _ := apply.Apply(ctx, edits, apply.Options{Root: s.opts.Root, Strict: s.opts.Strict, DryRun: dryRun,
		Base: base, StateDir: s.opts.StateDir, PathPrefixes: s.opts.PathPrefixes, NoAfter: !dryRun})
	return res
}

// receipt makes a tool result of res: the receipt as `--json` prints it
// for the client, the human receipt for the model (after the diff, on a
// dry run that would succeed; followed by each written file's new hash,
// the base for its next edit), and isError when an edit failed.
func (s *server) receipt(res *apply.Result, normalized string) (*sdk.CallToolResult, report.Receipt, error) {
	r := report.NewReceipt(res)
	r.Normalized = normalized
	var b bytes.Buffer
	if res.DryRun && res.OK {
		if err := report.Diff(&b, res); err != nil {
			return nil, r, err
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
	}
	if err := report.Human(&b, res, false); err != nil {
		return nil, r, err
	}
	if res.OK && !res.DryRun {
		for _, f := range res.Files {
			if f.AfterHash == "" || f.AfterHash == f.BeforeHash {
				continue
			}
			p := f.Path
			if f.NewPath != "" {
				p = f.NewPath
			}
			fmt.Fprintf(&b, "%s  sha256 %s\n", p, f.AfterHash)
		}
	}
	return &sdk.CallToolResult{IsError: !res.OK, Content: text(b.String())}, r, nil
}

// usage is the result of a request that is wrong as a whole, before any
// file is looked at: a receipt holding one USAGE error.
func usage(msg, hint string) (*sdk.CallToolResult, report.Receipt, error) {
	res := &apply.Result{}
	res.Errors.Add(&edit.Error{Code: edit.CodeUsage, Edit: -1, Msg: msg, Hint: hint})
	r := report.NewReceipt(res)
	return &sdk.CallToolResult{IsError: true, Content: text(errorText(res.Errors[0]))}, r, nil
}

// errorText is one error as the model reads it: code, path, message, hint.
func errorText(e *edit.Error) string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Path != "" {
		b.WriteString(" " + e.Path)
	}
	b.WriteString(": " + e.Msg)
	if e.Hint != "" {
		b.WriteString("\n" + e.Hint)
	}
	return b.String() + "\n"
}

func text(s string) []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: s}} }
