package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// A read window's lines are numbered as `cat -n` numbers them: the 1-based
// line number right-aligned in six columns, a tab, then the line as it
// stands. A model that copies a numbered line back into an edit carries
// this prefix along; it is one fixed shape so that it can be recognised.
const lineNumberFormat = "%6d\t"

// ReadOutput is the wire form of an [apply.Window]: what `edapply read
// --json` prints and the MCP server's read_file returns. On failure OK is
// false, Errors says why (as a receipt's errors do) and the rest is zero.
type ReadOutput struct {
	OK         bool   `json:"ok"`
	Path       string `json:"path"`
	SHA256     string `json:"sha256"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	NextOffset int    `json:"next_offset,omitempty"` // the offset that reads on; 0 when the window reaches the end
	// StartColumn is the 1-based byte of start_line the window begins
	// at, when the read asked for one past 1; absent otherwise.
	StartColumn int `json:"start_column,omitempty"`
	// CutLines are the lines shown only in part, longer than a window
	// shows of one line; absent when every line is whole.
	CutLines []cutLine   `json:"cut_lines,omitempty"`
	Content  string      `json:"content"` // the numbered lines
	Errors   []wireError `json:"errors"`
}

// A cutLine is a line that a read window shows only the beginning of.
type cutLine struct {
	Line       int `json:"line"`
	MoreBytes  int `json:"more_bytes"`  // the bytes of the line not shown
	NextColumn int `json:"next_column"` // the column (with offset line) that reads on
}

// cutLines lists the lines w shows only in part.
func cutLines(w *apply.Window) []cutLine {
	var cs []cutLine
	for i, n := range w.Rest {
		if n > 0 {
			cs = append(cs, cutLine{Line: w.Start + i, MoreBytes: n, NextColumn: w.NextColumn(i)})
		}
	}
	return cs
}

// NewReadOutput converts a Read's outcome to its wire form: w when err is
// nil, else the error.
func NewReadOutput(w *apply.Window, err *edit.Error) ReadOutput {
	if err != nil {
		return ReadOutput{Path: err.Path, Errors: []wireError{newWireError(err)}}
	}
	var b strings.Builder
	writeNumbered(&b, w)
	o := ReadOutput{OK: true, Path: w.Path, SHA256: w.Hash, StartLine: w.Start, EndLine: w.End(),
		TotalLines: w.Total, Content: b.String(), Errors: []wireError{}}
	if len(w.Lines) == 0 {
		o.StartLine, o.EndLine = 0, 0
	}
	if w.Column > 1 && len(w.Lines) > 0 {
		o.StartColumn = w.Column
	}
	o.CutLines = cutLines(w)
	if len(w.Lines) > 0 && w.End() < w.Total {
		o.NextOffset = w.End() + 1
	}
	return o
}

// Window writes w as a model reads it: one line naming the file, its
// SHA-256 and the lines shown, then the numbered lines, each line shown
// only in part followed by a line saying how many bytes follow and the
// offset and column that read on, then, when the window stops before the
// end, the offset that reads on.
func Window(out io.Writer, w *apply.Window) error {
	bw := bufio.NewWriter(out)
	fmt.Fprintf(bw, "%s  sha256 %s  ", w.Path, w.Hash)
	switch {
	case w.Total == 0:
		bw.WriteString("empty file\n")
	case len(w.Lines) == 0:
		fmt.Fprintf(bw, "no line at offset %d: the file has %s\n", w.Start, plural(w.Total, "line"))
	case w.Column > 1:
		fmt.Fprintf(bw, "lines %d-%d of %d, line %d from column %d\n", w.Start, w.End(), w.Total, w.Start, w.Column)
	default:
		fmt.Fprintf(bw, "lines %d-%d of %d\n", w.Start, w.End(), w.Total)
	}
	for i, line := range w.Lines {
		fmt.Fprintf(bw, lineNumberFormat, w.Start+i)
		bw.WriteString(line)
		bw.WriteString("\n")
		if i < len(w.Rest) && w.Rest[i] > 0 {
			n := w.Start + i
			fmt.Fprintf(bw, "(line %d goes on for %d more bytes; read on at offset %d, column %d)\n", n, w.Rest[i], n, w.NextColumn(i))
		}
	}
	if len(w.Lines) > 0 && w.End() < w.Total {
		fmt.Fprintf(bw, "(lines %d-%d not shown; read on at offset %d)\n", w.End()+1, w.Total, w.End()+1)
	}
	return bw.Flush()
}

func writeNumbered(b interface {
	io.Writer
	io.StringWriter
}, w *apply.Window) {
	for i, line := range w.Lines {
		fmt.Fprintf(b, lineNumberFormat, w.Start+i)
		b.WriteString(line)
		b.WriteString("\n")
	}
}
