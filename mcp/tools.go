package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
	"github.com/edapply/edapply/internal/textcut"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

// The types below are the tools' arguments as their input schemas
// describe them to the model, under the names the schemas give them; the
// server reads each call's arguments itself (see args.go), under those
// names and the others listed there.

type readFileArgs struct {
	Path   string `json:"path" jsonschema:"the file, relative to the root of the working tree"`
	Offset int    `json:"offset,omitempty" jsonschema:"the first line to show, from 1 (default 1)"`
	Column int    `json:"column,omitempty" jsonschema:"the byte of the first line to start at, from 1 (default 1): to read on in a line the result says it cut"`
	Limit  int    `json:"limit,omitempty" jsonschema:"show at most this many lines (default 2000)"`
}

type replacementArgs struct {
	OldString  string `json:"old_string" jsonschema:"whole lines of the file as they stand now, without read_file's line numbers, with enough context to be unique; empty to create the file"`
	NewString  string `json:"new_string" jsonschema:"the text to put in their place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string (a rename) instead of requiring exactly one"`
}

type editFileArgs struct {
	Path     string            `json:"path" jsonschema:"the file, relative to the root of the working tree"`
	Edits    []replacementArgs `json:"edits" jsonschema:"the replacements, applied in order as one transaction"`
	BaseHash string            `json:"base_hash,omitempty" jsonschema:"the sha256 read_file returned (8 or more leading hex digits are enough): refuse with OUT_OF_DATE if the file changed since"`
	DryRun   bool              `json:"dry_run,omitempty" jsonschema:"report and show the diff; write nothing"`
}

type applyEditsArgs struct {
	Reply  string            `json:"reply" jsonschema:"text holding the edits: SEARCH/REPLACE blocks, unified diffs, whole-file fences, *** Begin Patch envelopes or JSON str_replace calls"`
	DryRun bool              `json:"dry_run,omitempty" jsonschema:"report and show the diff; write nothing"`
	Base   map[string]string `json:"base,omitempty" jsonschema:"path to the sha256 read_file returned for it: refuse with OUT_OF_DATE if that file changed since"`
	Path   string            `json:"path,omitempty" jsonschema:"the file of the edits that name none (Zed's <old_text>/<new_text> pairs, a bare SEARCH/REPLACE block or hunk, a tool call without a path); edits that name a file keep it"`
}

type undoArgs struct {
	DryRun bool `json:"dry_run,omitempty" jsonschema:"report what would be restored and show the diff; restore nothing"`
	List   bool `json:"list,omitempty" jsonschema:"list the writes undo can take back, newest first; restore nothing"`
}

// undoOutput is undo's structured result: a receipt, and with list the
// history.
type undoOutput struct {
	report.Receipt
	History []report.WireCheckpoint `json:"history,omitempty"`
}

// The tools' annotations. An edit sent again finds its new text in
// place and reports it already applied: edit_file and apply_edits are
// idempotent. Each undo takes back one more write.
var falseHint, trueHint = new(bool), ptr(true)

func ptr(b bool) *bool { return &b }

// A toolSet is the server's tools, as the SDK lists them to a client.
type toolSet struct{ readFile, editFile, applyEdits, undo *sdk.Tool }

// tools are built with the first server, not when the program starts:
// inferring their schemas walks the argument types by reflection, which
// every other edapply command would pay for and never use.
var tools = sync.OnceValue(func() toolSet {
	return toolSet{
		readFile: &sdk.Tool{
			Name:         "read_file",
			Title:        "Read file",
			Description:  `Read a file of the working tree: its lines, each after its number right-aligned in six columns and a tab (as cat -n prints them), and the file's sha256. Read a file before you edit it, and keep the sha256: pass it as edit_file's base_hash (or in apply_edits' base) so that an edit of a file changed since is refused rather than misplaced. The numbers are not part of the file: never copy them into old_string. A long file comes in windows of at most 2000 lines; the result says the offset that reads on. A line over 64 KiB shows its first 64 KiB; the result says the offset and column that read on in it.`,
			InputSchema:  inputSchema[readFileArgs](),
			OutputSchema: outputSchema[report.ReadOutput](),
			Annotations:  &sdk.ToolAnnotations{Title: "Read file", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: falseHint},
		},
		editFile: &sdk.Tool{
			Name:         "edit_file",
			Title:        "Edit file",
			Description:  `Replace text in one file of the working tree. Each edit's old_string is whole lines copied from the file as it stands now (from read_file, without the line numbers), with enough context around the change to occur exactly once; new_string replaces it. The edits apply in order as one transaction: if any fails, nothing is written. Small differences of whitespace, indentation or quotes are tolerated while the place stays unique; an old_string found in several places is refused (MULTIPLE_MATCHES), never guessed: add context, or set replace_all to replace every occurrence (a rename). An empty old_string creates the file, which must not exist. Pass base_hash, the sha256 read_file returned, to refuse the edit (OUT_OF_DATE) if the file changed since you read it. The result is the diff of what changed and a receipt: ok, each edit's status and lines, the file's new sha256 (the base_hash for its next edit), and for a failure the error code, the closest candidates in the file and a hint.`,
			InputSchema:  inputSchema[editFileArgs](),
			OutputSchema: outputSchema[report.Receipt](),
			Annotations:  &sdk.ToolAnnotations{Title: "Edit file", DestructiveHint: trueHint, IdempotentHint: true, OpenWorldHint: falseHint},
		},
		applyEdits: &sdk.Tool{
			Name:         "apply_edits",
			Title:        "Apply edits",
			Description:  `Apply a reply holding edits to any files of the working tree, in any format edapply reads: SEARCH/REPLACE blocks under the file's path, unified diffs, whole-file fences with the path above them, *** Begin Patch envelopes, JSON str_replace calls, Zed's <old_text>/<new_text> pairs. Every edit applies or none does. path names the file of the edits that name none. SEARCH and context lines are whole lines copied from the files as they stand now. base maps a path to the sha256 read_file returned for it, to refuse a file changed since. The result is the receipt, as for edit_file.`,
			InputSchema:  inputSchema[applyEditsArgs](),
			OutputSchema: outputSchema[report.Receipt](),
			Annotations:  &sdk.ToolAnnotations{Title: "Apply edits", DestructiveHint: trueHint, IdempotentHint: true, OpenWorldHint: falseHint},
		},
		undo: &sdk.Tool{
			Name:         "undo",
			Title:        "Undo last write",
			Description:  `Restore the files that the last write in this working tree (an edit_file, an apply_edits or the edapply command) changed: their content comes back, files it created are removed, files it deleted return. Refused (OUT_OF_DATE), restoring nothing, when one of those files changed since. Each call takes back one write, newest first; the tree keeps its last ` + strconv.Itoa(apply.HistorySize) + `, fewer once they hold more than ` + strconv.Itoa(apply.HistoryBytes>>20) + ` MiB. dry_run shows what would be restored, as a diff; list shows the writes undo can take back. Neither restores anything.`,
			InputSchema:  inputSchema[undoArgs](),
			OutputSchema: outputSchema[undoOutput](),
			Annotations:  &sdk.ToolAnnotations{Title: "Undo last write", DestructiveHint: trueHint, OpenWorldHint: falseHint},
		},
	}
})

// toolHints are the hints of the errors whose way out is one of these
// tools; the others' hints, worded by the library for every caller, name
// no command-line flag either (see package remedy).
var toolHints = map[*remedy.Remedy]string{
	remedy.Undo: "Call undo to restore the files from the undo journal.",
	remedy.Hash: "Pass the sha256 that read_file returned for the file, or a prefix of at least 8 of its hex digits.",
}

// maxReply bounds apply_edits' reply. Over stdio a message is already
// bounded by the SDK's frame limit, past which the session ends; a
// transport without one gets the same bound here.
const maxReply = sdk.DefaultMaxLineLength

func (s *server) readFile(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	c, uerr := readReadArgs(req.Params.Arguments)
	if uerr != nil {
		e := uerr.toError(readUsage)
		return readResult(report.NewReadOutput(nil, e), e, "")
	}
	w, err := apply.Read(apply.Options{Root: s.opts.Root, PathPrefixes: s.opts.PathPrefixes}, c.path, c.offset, c.column, c.limit)
	out := report.NewReadOutput(w, err)
	if err != nil {
		return readResult(out, err, "")
	}
	var b bytes.Buffer
	if err := report.Window(&b, w); err != nil {
		return nil, err
	}
	return readResult(out, nil, b.String())
}

// readResult is read_file's result: out, and for the model the window,
// or the error as a receipt shows it, candidate files and all.
func readResult(out report.ReadOutput, e *edit.Error, window string) (*sdk.CallToolResult, error) {
	if e != nil {
		var b bytes.Buffer
		if err := report.Errors(&b, &apply.Result{Errors: edit.ErrorList{e}}, false); err != nil {
			return nil, err
		}
		window = b.String()
	}
	return result(out, window, e != nil)
}

func (s *server) editFile(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	c, uerr := readEditArgs(req.Params.Arguments)
	if uerr != nil {
		return s.usage(uerr.toError(editUsage))
	}
	edits := make([]edit.Edit, len(c.edits))
	for i, r := range c.edits {
		// As parse lowers a JSON str_replace call, so that the ladder
		// treats these edits as the tool calls they are, with this tool's
		// arguments for the hints about whole files.
		e := edit.Edit{Op: edit.Replace, Path: c.path, Old: r.old, New: r.new, Count: 1, Format: edit.FormatJSON,
			EveryKey: r.everyKey, Args: &edit.ToolArgs{Old: argOld[0]}, Block: i}
		switch {
		case r.old == "":
			e.Op, e.Old = edit.Create, ""
		case r.replaceAll:
			e.Count = 0
		}
		edits[i] = e
	}
	var base map[string]string
	if c.baseHash != "" {
		base = map[string]string{c.path: c.baseHash}
	}
	res := s.apply(ctx, edits, base, c.dryRun, true)
	type said struct {
		Old, New string
		All      bool
	}
	var key []said // what the edits say, whatever names they came under
	for _, r := range c.edits {
		key = append(key, said{r.old, r.new, r.replaceAll})
	}
	if s.breaker.repeated(keyOf(req.Session, "edit_file", c.path, c.baseHash, key), res) {
		markRepeated(res, "copy old_string from what it shows, exactly and without the line numbers, and pass its sha256 as base_hash")
	}
	return s.receipt(res, "", true)
}

// parse parses reply in place (the edits' texts share its bytes) with the
// working tree at hand.
func (s *server) parse(reply, file string) ([]edit.Edit, edit.ErrorList) {
	return parse.ParseInRoot(reply, parse.Options{File: file, FileArg: `apply_edits' "path"`}, s.opts.Root)
}

func (s *server) applyEdits(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	c, uerr := readApplyArgs(req.Params.Arguments)
	if uerr != nil {
		return s.usage(uerr.toError(applyUsage))
	}
	if len(c.reply) > maxReply {
		return s.usage(&edit.Error{Code: edit.CodeUsage, Edit: -1, Msg: fmt.Sprintf("reply larger than %d MiB", maxReply>>20),
			Hint: "Send the edits in several calls."})
	}
	edits, perrs := s.parse(c.reply, c.path)
	if len(edits) == 0 {
		if len(perrs) == 0 {
			perrs.Add(&edit.Error{Code: edit.CodeParse, Edit: -1, Msg: "no edits found in the reply",
				Hint: "Write each change as a SEARCH/REPLACE block, a unified diff, a whole-file fence, a *** Begin Patch envelope or a JSON str_replace call."})
		}
		return s.receipt(&apply.Result{DryRun: c.dryRun, Errors: perrs}, "", false)
	}
	// A reply with a region that did not parse writes nothing, but its
	// parsed edits are still planned so that the receipt reports every
	// problem at once, as the CLI does.
	res := s.apply(ctx, edits, c.base, c.dryRun || len(perrs) > 0, false)
	if len(perrs) > 0 {
		res.OK, res.DryRun = false, c.dryRun
		res.Errors = append(perrs, res.Errors...)
	}
	if s.breaker.repeated(keyOf(req.Session, "apply_edits", c.reply, c.base, c.path), res) {
		markRepeated(res, "quote the lines exactly as it shows them, without the line numbers, and pass its sha256 in base")
	}
	// Normalizing reads bytes: the copy is made for the receipt alone, not
	// held through the apply.
	normalized, _ := report.Normalized([]byte(c.reply), edits, res)
	return s.receipt(res, normalized, false)
}

func (s *server) undo(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	c, uerr := readUndoArgs(req.Params.Arguments)
	if uerr != nil {
		return s.usage(uerr.toError(undoUsage))
	}
	opts := apply.Options{Root: s.opts.Root, StateDir: s.opts.StateDir, DryRun: c.dryRun}
	s.mu.Lock()
	defer s.mu.Unlock()
	cps, herr := apply.History(opts)
	switch {
	case c.list && herr != nil:
		res := &apply.Result{}
		res.Errors.Add(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot read the undo history: " + herr.Error(), Err: herr})
		return s.receipt(res, "", false)
	case c.list:
		return historyResult(cps)
	case herr == nil && len(cps) == 0:
		// Nothing went wrong with a file: none is named, none is missing.
		return s.usage(&edit.Error{Code: edit.CodeUsage, Edit: -1, Msg: "nothing to undo: no write is recorded for this root",
			Hint: fmt.Sprintf("undo takes back the writes made in this root (by edit_file, apply_edits or the edapply command), the last %d, newest first, each once; none is left.", apply.HistorySize)})
	}
	// Like Apply, Undo always returns a Result holding its errors.
	res, _ := apply.Undo(ctx, opts)
	remedy.For(res.Errors, toolHints)
	return s.receipt(res, "", false)
}

// historyResult is undo's result with list: the writes undo can take
// back, newest first.
func historyResult(cps []apply.Checkpoint) (*sdk.CallToolResult, error) {
	ws := report.NewWireHistory(cps)
	var b strings.Builder
	if len(cps) == 0 {
		b.WriteString("nothing to undo in this root\n")
	}
	for i, cp := range cps {
		fmt.Fprintf(&b, "%d. %s", i+1, cp.Time.UTC().Format(time.RFC3339))
		if cp.Err != nil {
			fmt.Fprintf(&b, "  unusable: %s\n", ws[i].Error.Message)
			continue
		}
		fmt.Fprintf(&b, "  %s\n", ws[i].FilesLine())
	}
	if len(cps) > 0 {
		b.WriteString("undo takes back the first; each call after it the next.\n")
		fmt.Fprintf(&b, "The tree keeps its last %d writes, fewer once their journals would hold more than %d MiB (the newest is always kept).\n",
			apply.HistorySize, apply.HistoryBytes>>20)
	}
	out := undoOutput{Receipt: report.NewReceipt(&apply.Result{OK: true}), History: ws}
	return result(out, b.String(), false)
}

// apply runs apply.Apply under the server's lock; keepAfter keeps each
// file's new content, for the diff of what a write changed. Its error is
// the Result's, which the receipt reports.
func (s *server) apply(ctx context.Context, edits []edit.Edit, base map[string]string, dryRun, keepAfter bool) *apply.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Otherwise only a dry run's diff reads the new content (see receipt).
	opts := apply.Options{Root: s.opts.Root, Strict: s.opts.Strict, DryRun: dryRun,
		Base: base, StateDir: s.opts.StateDir, PathPrefixes: s.opts.PathPrefixes}
	opts.Omit.After = !dryRun && !keepAfter
	res, _ := apply.Apply(ctx, edits, opts)
	remedy.For(res.Errors, toolHints)
	return res
}

// receipt makes a tool result of res: the receipt as `--json` prints it
// for the client, the human receipt for the model (after the diff, on a
// dry run that would succeed, and with withDiff on a write; followed by
// each written file's new hash, the base for its next edit), and isError
// when an edit failed. With withDiff, each written file of the receipt
// carries its diff, as a dry run's does.
func (s *server) receipt(res *apply.Result, normalized string, withDiff bool) (*sdk.CallToolResult, error) {
	r := report.NewReceipt(res)
	r.Normalized = normalized
	var b bytes.Buffer
	if res.OK && (res.DryRun || withDiff) {
		var diffs bytes.Buffer
		for i, f := range res.Files {
			var d bytes.Buffer
			if err := report.Diff(&d, &apply.Result{Files: []*apply.FileResult{f}}); err != nil {
				return nil, err
			}
			r.Files[i].Diff = d.String()
			if diffs.Len() <= textDiffBudget {
				diffs.Write(d.Bytes())
			}
		}
		if diffs.Len() > 0 {
			b.WriteString(textcut.Cut(diffs.String(), textDiffBudget))
			b.WriteString("\n")
		}
	}
	if err := report.Human(&b, res, false); err != nil {
		return nil, err
	}
	if res.OK && !res.DryRun {
		hashes := 0
		for i, f := range res.Files {
			if f.AfterHash == "" || f.AfterHash == f.BeforeHash {
				continue
			}
			if hashes > textDiffBudget/2 {
				fmt.Fprintf(&b, "… and the hashes of up to %d more files not shown (receipt cut at 1 MiB)\n", len(res.Files)-i)
				break
			}
			p := f.Path
			if f.NewPath != "" {
				p = f.NewPath
			}
			n, _ := fmt.Fprintf(&b, "%s  sha256 %s\n", p, f.AfterHash)
			hashes += n
		}
	}
	r = r.Bounded(textcut.Budget)
	text := textcut.Cut(b.String(), textcut.Budget)
	return result(r, text, !res.OK)
}

// textDiffBudget bounds the diffs a tool result's text shows, within
// textcut.Budget: the human receipt after them needs the rest.
const textDiffBudget = textcut.Budget / 4

// usage is the result of a call that is wrong as a whole, before any file
// is looked at: a receipt holding e, a USAGE error.
func (s *server) usage(e *edit.Error) (*sdk.CallToolResult, error) {
	res := &apply.Result{}
	res.Errors.Add(e)
	return s.receipt(res, "", false)
}

// result is a tool result with the structured content v, as one JSON
// object that keeps source text readable ("<" and "&" as they are), and
// text for the model.
func result(v any, text string, isError bool) (*sdk.CallToolResult, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{IsError: isError, Content: []sdk.Content{&sdk.TextContent{Text: text}},
		StructuredContent: json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))}, nil
}
