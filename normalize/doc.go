// Package normalize rewrites a model's reply to what applying it did, and
// writes edits in the canonical SEARCH/REPLACE form.
//
// [Reply] takes the reply, the edits parse.Parse read from it and what
// the applier did for each ([Applied]); [AppliedAsWritten] tells, without
// rendering, when the reply stands as sent. [Write] and
// [WriteSearchReplace] write edits as blocks that parse.Parse reads back
// as the same edits, or refuse with [ErrInexpressible].
//
// Each edit's region is re-rendered in its own format, so the model sees
// its own reply with only the quoted text corrected: a SEARCH/REPLACE block
// keeps its path line and fences and gets new SEARCH and REPLACE bodies; a
// JSON call keeps its keys and other fields and gets its old and new
// strings re-encoded; diff hunks get their lines and "@@" numbers from
// what was applied and their file's "---"/"+++" header corrected; codex
// chunks keep their "@@" anchors and get new ' ', '-' and '+' lines; a
// whole-file fence gets the content as written. The text between regions,
// and every region whose edit was applied as written, keep their bytes.
//
// Every rendered region is parsed back before it is used. Where that gives
// a different edit (the file's own text holds marker lines, a diff line
// reads as a file header), a SEARCH/REPLACE block, a whole-file fence or a
// file's hunks fall back to the canonical form of [Write]; a JSON call or
// codex chunk sits inside a structure that a block cannot replace, so it is
// left as written, and Reply's error names it. A whole-file fence and
// a canonical block are parsed back in the rewritten response itself: which
// fence closes a block depends on the fences after it. A line that ends in
// a CR is left as written in every format but JSON, since the reader would
// take the CR for part of a CRLF ending.
//
// The read-back is parse.Parse itself, told that the text is complete
// (parse.Options.Complete): where a rendering ends is no sign of a reply
// cut off. The spelling rules the renderings follow (markers, fences,
// path lines, diff headers) are the readers' own, in internal/syntax.
package normalize
