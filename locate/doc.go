// Package locate finds where an edit's old text stands in a file's content
// and says what to write there: strings in, splices out. It imports no os,
// io/fs, syscall, unsafe or sync and starts no goroutine (TestPure);
// package apply reads and writes the files.
//
// [Doc] holds one file's content. [Doc.Prepare] tells it the file's edits
// in the order a plan gives them, and [Doc.Replace] takes them one at a
// time: each is answered as the tolerance ladder below answers it on the
// content the edits before it left, with the splices it made
// ([Result].Splices, each a [Splice]). A run of edits that quote whole lines exactly is
// answered from a batch index instead (batch.go) wherever that is provably
// the ladder's answer, and so are the tolerant rungs' single places and a
// line hint's choice among exact ones, so that many edits to a large file
// cost a pass over it rather than one each; FuzzBatchEquivalence holds the two to the same
// results. [Doc.Bytes] (or [Doc.Pieces]) is the content the edits leave.
// Besides: [Doc.Stands] tells whether an edit's new text stands in the
// content, and [RewriteError], [SameContent] and [IsCRLF] judge the whole
// texts of the whole-file edits, which need no ladder.
//
// # The tolerance ladder
//
// A model quotes the text it wants to replace from memory, and memory
// drifts in predictable ways: line endings, trailing blanks, indentation,
// spacing, typography, and lines it could not be bothered to repeat. Each
// rung below forgives one more of these, and each is safe for the same
// reason: it only ever compares whole lines (the exact rung compares
// bytes), every line of the SEARCH text must still be accounted for, in
// order, and a rung that finds more places than the edit expects refuses
// (MULTIPLE_MATCHES) rather than guess. A looser rung is only tried when
// every stricter one found nothing, so a tolerance never overrides a
// stricter match and never breaks a tie a stricter rung saw. There are 11
// rungs; with [Options].Strict only the first is tried. The strategy a
// result reports is one of the contract's, the first seven rungs' names:
// rungs 8 to 11 report one of those (each says which) and say in the
// result's note how they read the edit.
//
//  1. exact: the bytes, after the edit's "\n" become the file's line
//     endings (per line, so mixed files work). Nothing is assumed, but
//     that the end of a file without a final newline ends its last line.
//     A match that starts inside a line's indentation, of a SEARCH that
//     starts with blanks and spans lines (or whose replacement adds
//     lines), is no exact match: it quotes the line under-indented, and
//     lines written after it would keep the model's indentation; the
//     indent rung, which aligns whole lines, judges it.
//  2. trailing-ws: trailing blanks are invisible in every editor and in the
//     model's own rendering; no program means anything by them.
//  3. indent: the same lines, every one shifted by one amount (which may
//     change units, four spaces for a tab), or else, where no place
//     matches so, every one rescaled by one ratio of indent widths (two
//     spaces a level for the file's four: 2, 4 or 8 columns each side,
//     read off the block's steps). A consistent mapping keeps the block's
//     structure, so Python stays Python; an inconsistent one fails. The
//     replacement is mapped by the same shift, in the style most matched
//     lines show (tabs or spaces).
//  4. whitespace: runs of inner blanks collapsed (gofmt's alignment). The
//     indentation must still map consistently; the replacement is written
//     as sent unless matching needed a mapping.
//  5. unicode: curly quotes, no-break spaces, dashes and "…" folded to
//     ASCII, as typesetting models write them; on top of 4.
//  6. elision: a SEARCH line that is a placeholder ("...", "// ... existing
//     code ...") matches the shortest run of lines that lets the rest match;
//     every other line matches as in 2 to 5. The same placeholder in the
//     REPLACE keeps that run. Last of the comparisons, because a gap
//     matches anything.
//  7. line-hint: a diff's line number breaks a tie among equal matches of
//     one rung only when it points at one of them (within hintWindow lines)
//     and no other is as close; stale numbers cost nothing otherwise. (A
//     diff's @@ anchor lines, found first, start the search below them,
//     and the first match after them is the one meant: hint.go.)
//  8. rescues, for a tool call's old_string only, when all of the above
//     found nothing: a first line quoted after its indentation over a
//     shifted body (reported indent), a read's line numbers (line-hint),
//     escapes sent twice (unicode) (rescue.go).
//  9. blank edges, for any format, when all of the above found nothing:
//     an old text that begins or ends with blank lines the file does not
//     hold there is matched without them, and the new text loses as many
//     at the same end; the rest matches as above, unique or refused, and
//     is reported no closer than the whitespace rung (blankedges.go).
//  10. hunk edges, for a unified diff's hunk that removes lines and has no
//     @@ anchor line, when all of the above found nothing: the hunk without its context from one edge up
//     to a line that disagrees, when the rest stands once and the lines
//     left out agree with the file there but one (a near miss, one line
//     farther out past a line the model dropped, or an added blank line),
//     and no other such reading fits elsewhere; the file keeps its
//     context (hunkedges.go).
//  11. spacing, for any format, when all of the above found nothing: each
//     line compared, typography folded as in 5, once the blanks that touch
//     punctuation (brackets, separators, operators) are dropped and other
//     inner runs collapsed, so "function  f( a, b )" is "function f(a, b)"
//     but "int x" is never "intx"; quotes, "$", "#" and "@" are no such
//     punctuation, since a blank beside them may be a string's or a word's.
//     Whole lines, indentation mapped as from 3 on, unique or refused, and
//     reported as the whitespace rung with a note (spacing.go). Every
//     letter still counts, so a typo finds nothing here and writes
//     nothing (FuzzSpacingTypoNeverApplies); tried last, it costs nothing
//     to an edit an earlier rung finds.
//
// An edit is already applied, and changes nothing, when what it would
// write is what stands; when its new text holds the old and stands around
// every place the old text matched; or, before rungs 8 to 11 are tried,
// when its old text is found nowhere and its new text stands alone as the
// explanation (already.go).
//
// Whatever the rung, only the matched region changes, and within it a line
// the edit keeps (the line its marks name, for a diff hunk; else paired by
// a line diff of old and new text: marks.go) keeps the file's bytes: its
// blanks, quotes, indentation and line ending. Only the lines the edit
// adds or changes take the model's text. The file's final newline state
// is kept, but where a diff hunk that ends the file says otherwise (its
// "\ No newline at end of file" marker on one side only): an old text that
// ends the file without one replaced by a text with one adds it, and a
// hunk whose new text alone lacks it removes it. Below the ladder is never
// an application: similarity search only finds candidates for the
// NO_MATCH error.
//
// The files follow the ladder: ladder.go holds the order of the rungs and
// the choice among the places found; exact.go, trailingws.go, indent.go,
// whitespace.go, unicode.go and elision.go each one rung's comparison
// (lines.go the search the line rungs share, placeholder.go what a
// placeholder is); hint.go the line hint and a diff's anchors; rescue.go,
// blankedges.go, hunkedges.go and spacing.go the rungs tried after them;
// already.go an edit found already applied; insert.go an empty old text;
// write.go and marks.go what a located edit writes and which lines it
// keeps; same.go the places that all write the same file; candidates.go
// looseKey, which rules lines out before every tolerant rung but spacing
// compares them, and the candidates of a NO_MATCH, which read the file's
// lines through postings.go's index and are helped by standing.go (lines
// that stand once), slips.go (a short line with one slip) and
// longlines.go (a piece of a long line); disklines.go gives an error the
// lines of the file on disk. Around the ladder: finder.go and pattern.go
// are the file's content and the edit's texts as the rungs read them,
// document.go and batch.go the Doc and its batch index, stands.go
// Doc.Stands, splice.go the one splice type and its join, whole.go the
// judgements of whole-file edits, locate.go which formats quote whole
// lines, and words.go every message's words, in the terms of the format
// an edit was written in.
package locate
