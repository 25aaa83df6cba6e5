package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fatih/color"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// A palette holds the colors of the human receipt. Each is switched on or
// off on its own, rather than through color.NoColor, so that one call's
// choice never leaks into another's (tests render both ways in one process).
type palette struct {
	bold, ok, same, bad, faint *color.Color
	// The edit lines' marks, colored once: a receipt may list thousands.
	markSame, markBad, markOK, markWould, markFaint string
}

func newPalette(on bool) palette {
	p := palette{
		bold:  color.New(color.Bold),
		ok:    color.New(color.FgGreen),
		same:  color.New(color.FgCyan),
		bad:   color.New(color.FgRed, color.Bold),
		faint: color.New(color.Faint),
	}
	for _, c := range []*color.Color{p.bold, p.ok, p.same, p.bad, p.faint} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	p.markSame, p.markBad, p.markFaint = p.same.Sprint("="), p.bad.Sprint("✗"), p.faint.Sprint("○")
	p.markOK, p.markWould = p.ok.Sprint("✓"), p.ok.Sprint("○")
	return p
}

// Human writes res as the receipt a person reads: per file its op and path,
// per edit a mark (✓ applied, ○ would apply, matched but not written, or
// written and restored after a failed check, = already applied, ✗ failed)
// with the
// strategy, the lines and "repaired" when a --repair fixer's edit stood in
// for it (the JSON receipt's "repaired"), then every error with its
// candidates and hint, then one summary line. With color, marks, codes and
// paths are colored.
//
// The receipt stays within receiptBudget: past editsBudget, edits are
// counted rather than listed; errors that would pass it are counted;
// every quoted text is cut to fieldBudget. What was left out is said.
func Human(w io.Writer, res *apply.Result, colored bool) error {
	p := newPalette(colored)
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	written := func() int { return cw.n + bw.Buffered() }
	verifyFailed := res.Verify == "failed"
files:
	for i, f := range res.Files {
		if written() > editsBudget {
			writeMoreEdits(bw, res.Files[i:], 0)
			break
		}
		path := p.bold.Sprint(clip(f.Path, fieldBudget))
		if f.NewPath != "" {
			path += " → " + p.bold.Sprint(clip(f.NewPath, fieldBudget))
		}
		fmt.Fprintf(bw, "%s %s\n", f.Op, path)
		restored := verifyFailed && changes(f)
		for j, e := range f.Edits {
			if written() > editsBudget {
				writeMoreEdits(bw, res.Files[i:], j)
				break files
			}
			p.writeEditLine(bw, e, res.DryRun, restored)
		}
	}
	if len(res.Files) > 0 && len(res.Errors) > 0 {
		bw.WriteString("\n")
	}
	p.writeErrors(bw, res.Errors, written)
	if res.VerifyOutput != "" {
		fmt.Fprintf(bw, "verify output:\n")
		writeIndented(bw, clip(res.VerifyOutput, fieldBudget), "    ")
	}
	if len(res.Files) > 0 || len(res.Errors) > 0 {
		bw.WriteString("\n")
	}
	fmt.Fprintln(bw, p.summary(res))
	if res.Verify == "skipped" {
		fmt.Fprintf(bw, "%s verify not run: nothing was written\n", p.faint.Sprint("○"))
	}
	if res.NoUndo != "" {
		fmt.Fprintf(bw, "%s no undo for this apply: %s\n", p.bad.Sprint("!"), clip(res.NoUndo, fieldBudget))
	}
	return bw.Flush()
}

// editsBudget is how much of receiptBudget the human receipt's lines of
// files and edits may take: the errors after them say what to do next.
const editsBudget = receiptBudget / 4

// A countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += n
	return n, err
}

// writeMoreEdits says how many edits a receipt cut at its budget does not
// list: those of files from the edit from of the first on.
func writeMoreEdits(w *bufio.Writer, files []*apply.FileResult, from int) {
	n := -from
	for _, f := range files {
		n += len(f.Edits)
	}
	fmt.Fprintf(w, "… and %s in %s not shown (receipt cut at %s)\n", plural(n, "more edit"), plural(len(files), "file"), budgetName)
}

// writeErrors writes errs, as many as keep the receipt (written() bytes
// so far) within receiptBudget, and counts the rest.
func (p palette) writeErrors(w *bufio.Writer, errs edit.ErrorList, written func() int) {
	for i, e := range errs {
		if written() > receiptBudget-cutReserve-errorRoom {
			fmt.Fprintf(w, "… and %s not shown (receipt cut at %s)\n", plural(len(errs)-i, "more error"), budgetName)
			return
		}
		p.writeError(w, e)
	}
}

// errorRoom bounds the bytes one error takes in the human receipt: its
// message, hint and repair note at fieldBudget each, and candidates until
// they pass 2×fieldBudget, each excerpt at fieldBudget with its line
// prefixes.
const errorRoom = 8 * fieldBudget

// Errors writes the errors of res as Human does, and nothing else: what
// a command that prints only errors (edapply --check) prints.
func Errors(w io.Writer, res *apply.Result, colored bool) error {
	p := newPalette(colored)
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	p.writeErrors(bw, res.Errors, func() int { return cw.n + bw.Buffered() })
	return bw.Flush()
}

// changes reports whether the edits of f change its file: a commit writes
// it.
func changes(f *apply.FileResult) bool {
	return f.NewPath != "" || (f.Before == nil) != (f.After == nil) || !bytes.Equal(f.Before, f.After)
}

// writeEditLine writes one edit's outcome, indented, on a line of its
// own. A dry run's located edits "would apply"; an edit located in a
// transaction that wrote nothing is "matched, not written": neither reads
// as a write. restored says the edit's file was written, and put back
// when the check failed: its matched edits were "written, then restored".
// It writes its parts rather than formatting them: a large reply's
// receipt has a line for each of thousands of edits.
func (p palette) writeEditLine(w *bufio.Writer, e apply.EditResult, dryRun, restored bool) {
	var mark, status string
	switch {
	case e.Status == edit.StatusAlreadyApplied:
		mark, status = p.markSame, "already applied"
	case e.Status != edit.StatusApplied && e.Status != edit.StatusMatched:
		mark, status = p.markBad, "failed"
	case dryRun:
		mark, status = p.markWould, "would apply"
	case e.Status == edit.StatusMatched && restored:
		mark, status = p.markFaint, "written, then restored"
	case e.Status == edit.StatusMatched:
		mark, status = p.markFaint, "matched, not written"
	default:
		mark, status = p.markOK, "applied"
	}
	var num [20]byte
	w.WriteString("  ")
	w.WriteString(mark)
	w.WriteString(" edit ")
	w.Write(strconv.AppendInt(num[:0], int64(e.Index), 10))
	w.WriteString(": ")
	w.WriteString(status)
	sep := " ("
	if e.Strategy != "" {
		w.WriteString(sep)
		w.WriteString(string(e.Strategy))
		sep = ", "
	}
	if len(e.Occurrences) > 1 {
		w.WriteString(sep)
		w.WriteString(occurrences(e.Occurrences))
		sep = ", "
	} else if e.LineStart > 0 {
		w.WriteString(sep)
		if e.LineEnd <= e.LineStart {
			w.WriteString("line ")
			w.Write(strconv.AppendInt(num[:0], int64(e.LineStart), 10))
		} else {
			w.WriteString("lines ")
			w.Write(strconv.AppendInt(num[:0], int64(e.LineStart), 10))
			w.WriteByte('-')
			w.Write(strconv.AppendInt(num[:0], int64(e.LineEnd), 10))
		}
		sep = ", "
	}
	if e.Repaired {
		w.WriteString(sep)
		w.WriteString("repaired")
		sep = ", "
	}
	if sep == ", " {
		w.WriteByte(')')
	}
	if e.Note != "" {
		w.WriteString(": ")
		w.WriteString(p.faint.Sprint(e.Note))
	}
	w.WriteByte('\n')
}

func (p palette) writeError(w *bufio.Writer, e *edit.Error) {
	var where []string
	if e.Path != "" {
		where = append(where, p.bold.Sprint(clip(e.Path, fieldBudget)))
	}
	if e.Edit >= 0 {
		where = append(where, fmt.Sprintf("edit %d", e.Edit))
	}
	if e.Line > 0 {
		where = append(where, fmt.Sprintf("response line %d", e.Line))
	}
	msg := e.Msg
	if msg == "" {
		msg = e.Error()
	}
	msg = clip(msg, fieldBudget)
	fmt.Fprintf(w, "%s %s", p.bad.Sprint("✗"), p.bad.Sprint(e.Code))
	if len(where) > 0 {
		fmt.Fprintf(w, " %s", strings.Join(where, ", "))
	}
	fmt.Fprintf(w, ": %s\n", msg)
	shown := 0
	for i, c := range e.Candidates {
		if shown > 2*fieldBudget {
			fmt.Fprintf(w, "  … and %s not shown (receipt cut at %s)\n", plural(len(e.Candidates)-i, "more candidate"), budgetName)
			break
		}
		if c.Path != "" {
			c.Path = clip(c.Path, fieldBudget)
			shown += len(c.Path)
			fmt.Fprintf(w, "  candidate file %s\n", p.bold.Sprint(c.Path))
			continue
		}
		c.Excerpt = clip(c.Excerpt, fieldBudget)
		shown += len(c.Excerpt)
		// Similarity is shown rounded down, so a near miss never reads as 100%.
		pct := int(math.Floor(c.Similarity*100 + 1e-9))
		weak := ""
		if c.Weak {
			weak = ", weak: probably not the place"
		}
		fmt.Fprintf(w, "  candidate %s (%d%% similar%s):\n", lineRange(c.LineStart, c.LineEnd), pct, weak)
		writeIndented(w, c.Excerpt, "    "+p.faint.Sprint("│")+" ")
	}
	if e.Hint != "" {
		fmt.Fprintf(w, "  hint: %s\n", clip(e.Hint, fieldBudget))
	}
	if e.Repair != "" {
		fmt.Fprintf(w, "  repair failed: %s\n", clip(e.Repair, fieldBudget))
	}
}

func (p palette) summary(res *apply.Result) string {
	var edits, applied, already int
	changed := 0
	for _, f := range res.Files {
		fileChanged := false
		for _, e := range f.Edits {
			edits++
			switch e.Status {
			case edit.StatusApplied, edit.StatusMatched:
				applied++
				fileChanged = true
			case edit.StatusAlreadyApplied:
				already++
			}
		}
		if fileChanged {
			changed++
		}
	}
	if !res.OK {
		// An edit of a failed apply that still reads applied was written,
		// and a rollback did not put its file back.
		kept := 0
		for _, f := range res.Files {
			if slices.ContainsFunc(f.Edits, func(e apply.EditResult) bool { return e.Status == edit.StatusApplied }) {
				kept++
			}
		}
		switch {
		case res.Verify == "failed" && kept == 0:
			return p.bad.Sprint("verify failed") + "; every file restored"
		case res.Verify == "failed":
			return p.bad.Sprint("verify failed") + "; " + plural(kept, "file") + " not restored"
		case len(res.Errors) == 0:
			return "nothing written"
		case kept > 0:
			return p.bad.Sprint(plural(len(res.Errors), "error")) + "; " + plural(kept, "file") + " not restored"
		}
		return p.bad.Sprint(plural(len(res.Errors), "error")) + "; nothing written"
	}
	var s string
	switch {
	case edits == 0 && len(res.Files) > 0:
		// A result with files but no edits is an undo's restore.
		if res.DryRun {
			s = fmt.Sprintf("dry run: %s would change; nothing written", plural(len(res.Files), "file"))
		} else {
			s = fmt.Sprintf("changed %s", plural(len(res.Files), "file"))
		}
	case res.DryRun:
		s = fmt.Sprintf("dry run: %s would apply to %s; nothing written", plural(applied, "edit"), plural(changed, "file"))
	case applied == 0:
		s = "nothing to do"
	default:
		s = fmt.Sprintf("applied %s to %s", plural(applied, "edit"), plural(changed, "file"))
	}
	if already > 0 {
		s += fmt.Sprintf(" (%d already applied)", already)
	}
	return p.ok.Sprint(s)
}

// shownOccurrences is how many places of an edit that replaced several
// the text receipt lists before it counts the rest.
const shownOccurrences = 10

// occurrences says how many places an edit replaced, and where:
// "3 occurrences: lines 2, 5-6, 9".
func occurrences(os []edit.LineRange) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d occurrences: lines ", len(os))
	for i, o := range os {
		if i == shownOccurrences {
			fmt.Fprintf(&b, " and %d more", len(os)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(o.Start))
		if o.End > o.Start {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(o.End))
		}
	}
	return b.String()
}

// lineRange formats 1-based inclusive lines; "" when unknown.
func lineRange(start, end int) string {
	switch {
	case start <= 0:
		return ""
	case end <= start:
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeIndented writes text line by line after prefix, so multi-line
// excerpts and command output stay visibly inside the error they belong to.
func writeIndented(w *bufio.Writer, text, prefix string) {
	text = strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for line := range strings.SplitSeq(text, "\n") {
		w.WriteString(prefix)
		w.WriteString(line)
		w.WriteString("\n")
	}
}
