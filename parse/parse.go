package parse

import (
	"fmt"
	"strings"

	"github.com/edapply/edapply/edit"
)

// A Format names one of the edit formats models write.
type Format int

const (
	FormatAuto          Format = iota // detect each region by its markers
	FormatSearchReplace               // Aider SEARCH/REPLACE blocks
	FormatUDiff                       // unified diffs, git or loose
	FormatWhole                       // a path, then a fence holding the whole file
	FormatCodex                       // *** Begin Patch envelopes
	FormatJSON                        // str_replace-style tool calls
)

var formatNames = [...]string{
	FormatAuto:          "auto",
	FormatSearchReplace: "search-replace",
	FormatUDiff:         "udiff",
	FormatWhole:         "whole",
	FormatCodex:         "codex",
	FormatJSON:          "json",
}

// String returns the format's name as the --format flag spells it.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Set parses a --format value; with String and Type it satisfies pflag.Value.
func (f *Format) Set(s string) error {
	for i, n := range formatNames {
		if n == s {
			*f = Format(i)
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (want one of %s)", s, strings.Join(formatNames[:], ", "))
}

// Type names the flag's value type in usage text.
func (f *Format) Type() string { return "format" }

// Formats returns every format, FormatAuto first, in the order their names
// are listed in usage text and shell completion.
func Formats() []Format {
	fs := make([]Format, len(formatNames))
	for i := range fs {
		fs[i] = Format(i)
	}
	return fs
}

// Parse reads every edit in src. It returns the edits that parsed and a list
// of PARSE_ERRORs for the regions that did not; a truncated block, envelope
// or fence is an error, never a silent no-op. With FormatAuto each region is
// detected by its own markers, so one response may mix formats. Parse never
// modifies src.
func Parse(src []byte, f Format) ([]edit.Edit, edit.ErrorList) {
	p := newParser(src, f)
	p.run()
	for i := range p.edits {
		p.edits[i].Block = i
	}
	return p.edits, p.errs
}

// A line is one line of the model output.
type line struct {
	text  string // without its line ending
	start int    // byte offset of the line's first byte
	end   int    // byte offset just past its line ending
	num   int    // 1-based line number
}

func splitLines(src []byte) []line {
	s := string(src)
	var ls []line
	for off, n := 0, 1; off < len(s); n++ {
		i := strings.IndexByte(s[off:], '\n')
		end := len(s)
		if i >= 0 {
			end = off + i + 1
		}
		text := strings.TrimSuffix(strings.TrimSuffix(s[off:end], "\n"), "\r")
		ls = append(ls, line{text: text, start: off, end: end, num: n})
		off = end
	}
	return ls
}

// A region is one format's reader. starts reports whether a region of the
// format begins at line i; read consumes it and returns the index of the
// first line after it, which must be greater than i.
type region struct {
	format Format
	starts func(p *parser, i int) bool
	read   func(p *parser, i int) (next int)
}

// regions lists the readers in the order auto-detection tries them: the
// most distinctive markers first, whole-file fences (a bare fence) last.
var regions []region

func init() {
	// Set in init: the readers refer back to the parser, which refers to regions.
	regions = []region{codexRegion, searchReplaceRegion, udiffRegion, jsonRegion, wholeRegion}
}

// A parser holds the state of one Parse call. Region readers append to
// edits and errs, and may read and set lastPath (SEARCH/REPLACE blocks
// inherit the previous block's file).
type parser struct {
	src      []byte
	lines    []line
	format   Format
	edits    []edit.Edit
	errs     edit.ErrorList
	lastPath string
	scan     scanState // what the SEARCH/REPLACE and whole-file readers learnt on earlier lines (whole.go)
}

func newParser(src []byte, f Format) *parser {
	return &parser{src: src, lines: splitLines(src), format: f}
}

// run walks the lines; each line either starts a region of an accepted
// format, which its reader consumes, or is prose and skipped.
func (p *parser) run() {
	for i := 0; i < len(p.lines); {
		next := i + 1
		for _, r := range regions {
			if p.format != FormatAuto && p.format != r.format {
				continue
			}
			if r.starts(p, i) {
				if n := r.read(p, i); n > i {
					next = n
				}
				break
			}
		}
		i = next
	}
}

// errorf records a PARSE_ERROR at the 1-based output line num.
func (p *parser) errorf(num int, format string, args ...any) {
	p.errorHint(num, "Resend the edit complete, with every marker line in place.", format, args...)
}

// errorHint records a PARSE_ERROR with a hint of the reader's own.
func (p *parser) errorHint(num int, hint, format string, args ...any) {
	p.errs.Add(&edit.Error{Code: edit.CodeParse, Edit: -1, Line: num, Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// add records an edit whose region spans lines [from, to) of the output.
func (p *parser) add(e edit.Edit, format Format, from, to int) {
	e.Format = format.String()
	if from < len(p.lines) {
		e.Start = p.lines[from].start
		if e.Line == 0 {
			e.Line = p.lines[from].num
		}
	}
	e.End = len(p.src)
	if to < len(p.lines) {
		e.End = p.lines[to].start
	}
	p.edits = append(p.edits, e)
}
