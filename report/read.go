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
	OK         bool        `json:"ok"`
	Path       string      `json:"path"`
	SHA256     string      `json:"sha256"`
	StartLine  int         `json:"start_line"`
	EndLine    int         `json:"end_line"`
	TotalLines int         `json:"total_lines"`
	NextOffset int         `json:"next_offset,omitempty"` // the offset that reads on; 0 when the window reaches the end
	Content    string      `json:"content"`               // the numbered lines
	Errors     []wireError `json:"errors"`
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
	if len(w.Lines) > 0 && w.End() < w.Total {
		o.NextOffset = w.End() + 1
	}
	return o
}

// Window writes w as a model reads it: one line naming the file, its
// SHA-256 and the lines shown, then the numbered lines, then, when the
// window stops before the end, the offset that reads on.
func Window(out io.Writer, w *apply.Window) error {
	bw := bufio.NewWriter(out)
	fmt.Fprintf(bw, "%s  sha256 %s  ", w.Path, w.Hash)
	switch {
	case w.Total == 0:
		bw.WriteString("empty file\n")
	case len(w.Lines) == 0:
		fmt.Fprintf(bw, "no line at offset %d: the file has %s\n", w.Start, plural(w.Total, "line"))
	default:
		fmt.Fprintf(bw, "lines %d-%d of %d\n", w.Start, w.End(), w.Total)
	}
	writeNumbered(bw, w)
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
