package lint

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/edapply/edapply/internal/textcut"
)

// quoteBytes is the most of a finding's line its report quotes: the kind
// and the start of the line say what was left behind, and a leftover line
// may be megabytes long.
const quoteBytes = 200

// fileFindings is how many findings of one file Write lists one by one;
// the rest are summed up a line per kind. A file with hundreds of
// leftovers needs its edit redone, not a line for each.
const fileFindings = 50

// cutLineBytes is room kept within textcut.Budget for the line that says
// what a cut report left out.
const cutLineBytes = 128

// quote is t cut to quoteBytes, never inside a character, the cut marked.
func quote(t string) string {
	cut := textcut.Prefix(t, quoteBytes)
	if len(cut) == len(t) {
		return t
	}
	return cut + "… (" + strconv.Itoa(len(t)-len(cut)) + " more bytes)"
}

// Write prints found, in the order given (Files' order: by file, then
// line), one String line each, within bounds whatever the input: each
// line quoted to quoteBytes, the first fileFindings findings of a file
// listed and the rest of it summed up a line per kind ("path:line: kind:
// N more of this kind, not listed, the last on line M", at the first of
// them), and no more than textcut.Budget bytes in all, after which one
// line says how many findings in how many files were left out.
func Write(w io.Writer, found []Finding) error {
	bw := bufio.NewWriter(w)
	written := 0
	for start := 0; start < len(found); {
		end := start + 1
		for end < len(found) && found[end].Path == found[start].Path {
			end++
		}
		left := len(found) - start
		for _, l := range fileReport(found[start:end]) {
			if written+len(l.text)+1 > textcut.Budget-cutLineBytes {
				files := 1
				for j := end; j < len(found); j++ {
					if found[j].Path != found[j-1].Path {
						files++
					}
				}
				fmt.Fprintf(bw, "lint: %d more findings in %d files not shown (output cut at %s)\n", left, files, textcut.BudgetName)
				return bw.Flush()
			}
			written += len(l.text) + 1
			left -= l.findings
			bw.WriteString(l.text)
			bw.WriteByte('\n')
		}
		start = end
	}
	return bw.Flush()
}

// A reportLine is a line Write prints and how many findings it reports.
type reportLine struct {
	text     string
	findings int
}

// fileReport is the lines Write prints for one file's findings.
func fileReport(fs []Finding) []reportLine {
	n := min(len(fs), fileFindings)
	lines := make([]reportLine, 0, n+4)
	for _, f := range fs[:n] {
		lines = append(lines, reportLine{f.String(), 1})
	}
	type rest struct {
		first Finding
		more  int
		last  int
	}
	var kinds []*rest
	byKind := map[string]*rest{}
	for _, f := range fs[n:] {
		r := byKind[f.Kind]
		if r == nil {
			r = &rest{first: f}
			byKind[f.Kind] = r
			kinds = append(kinds, r)
		}
		r.more++
		r.last = f.Line
	}
	for _, r := range kinds {
		text := r.first.String()
		if r.more > 1 {
			text = fmt.Sprintf("%s:%d: %s: %d more of this kind, not listed, the last on line %d", r.first.Path, r.first.Line, r.first.Kind, r.more, r.last)
		}
		lines = append(lines, reportLine{text, r.more})
	}
	return lines
}
