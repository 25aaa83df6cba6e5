// Package lint finds what a model's edit left behind in a file: marker lines
// of an edit format and placeholders that stand in for code.
//
// A model that writes a whole file, or an applier that misreads a response,
// can leave SEARCH/REPLACE or conflict markers, Codex envelope lines or an
// "// ... existing code ..." comment in the result. Each is a line that
// compiles or renders without complaint and silently loses code, so a
// pre-commit check looks for them before they are committed.
//
// Only what is new counts: a line that also stands in the committed version
// of the file (a placeholder in a README's example, a fixture that shows the
// format) was put there on purpose, so File compares against that version
// and reports only added lines.
package lint

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/edapply/edapply/locate"
)

// The kinds of Finding.
const (
	KindConflict      = "conflict-marker"       // <<<<<<< HEAD / ======= / >>>>>>> branch
	KindSearchReplace = "search-replace-marker" // <<<<<<< SEARCH / ======= / >>>>>>> REPLACE
	KindPatchEnvelope = "patch-envelope"        // *** Begin Patch, *** Update File: …
	KindElision       = "elision"               // // ... existing code ...
)

// A Finding is one line a model left behind.
type Finding struct {
	Path string // the path given to File
	Line int    // 1-based line number in the file's content
	Kind string // one of the Kind constants
	Text string // the line, without surrounding white space
}

// String formats f as "path:line: kind: text", the form compilers use, so
// editors and CI logs link it to the line; text is cut to quoteBytes.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", f.Path, f.Line, f.Kind, quote(f.Text))
}

// File returns the findings in content, the current bytes of the file at
// path, in line order. base is the committed version of the file; a finding
// whose lines also stand in base is not reported. With base nil (a new or
// untracked file) every finding counts.
//
// path is used only for the findings and to recognize the file's language:
// Markdown code fences and reStructuredText underlines are not markers, and
// a bare "..." line is elision only where it cannot be code. Content with a
// NUL byte is binary and has no findings.
func File(path string, content, base []byte) []Finding {
	if bytes.IndexByte(content, 0) >= 0 {
		return nil
	}
	lang := language(path)
	cur := splitLines(content)
	isNew := make([]bool, len(cur))
	if base == nil || bytes.IndexByte(base, 0) >= 0 {
		for i := range isNew {
			isNew[i] = true
		}
	} else {
		markNew(splitLines(base), cur, isNew)
	}
	var skip []bool
	if lang == langMarkdown {
		// A fenced block in a document is an example, and examples of edit
		// formats are full of markers and "// ...".
		skip = fenced(cur)
	} else {
		skip = make([]bool, len(cur))
	}

	var fs []Finding
	add := func(i int, kind string) {
		fs = append(fs, Finding{Path: path, Line: i + 1, Kind: kind, Text: strings.TrimSpace(cur[i])})
	}
	for _, g := range markerGroups(cur, skip, lang) {
		// A group is reported whole when any of its lines is new: a new
		// divider between an old opener and closer is still one leftover.
		if slices.ContainsFunc(g.lines, func(i int) bool { return isNew[i] }) {
			for _, i := range g.lines {
				add(i, g.kind)
			}
		}
	}
	for i, l := range cur {
		if !isNew[i] || skip[i] {
			continue
		}
		switch {
		case envelopeLine().MatchString(l):
			add(i, KindPatchEnvelope)
		case isElision(cur, i, lang):
			add(i, KindElision)
		}
	}
	slices.SortStableFunc(fs, func(a, b Finding) int { return a.Line - b.Line })
	return fs
}

// splitLines returns content's lines without line endings or trailing
// blanks (a CRLF checkout or an editor's trimming is not a change), and
// without a leading byte order mark.
func splitLines(content []byte) []string {
	s := strings.TrimPrefix(string(content), "\ufeff")
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return lines
}

type lang int

const (
	langOther    lang = iota
	langMarkdown      // fences hold examples
	langRST           // a row of punctuation under a title is an underline
	langCode          // C-like syntax: a line that is only "..." cannot be code
)

// language classifies path by its extension. Unknown extensions get the
// cautious defaults: a bare "..." is not elision there (Python, prose).
func language(p string) lang {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx":
		return langMarkdown
	case ".rst", ".rest":
		return langRST
	case ".go", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m", ".mm",
		".java", ".kt", ".kts", ".scala", ".cs", ".swift", ".rs", ".dart",
		".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".php",
		".css", ".scss", ".less", ".sql", ".proto", ".zig":
		return langCode
	}
	return langOther
}

// fenced reports the lines of a Markdown document that belong to a fenced
// code block, fences included (CommonMark: three or more backticks or
// tildes indented at most three spaces; the closing fence uses the same
// character, at least as many, and nothing else).
func fenced(lines []string) []bool {
	in := make([]bool, len(lines))
	var fence string // the opening fence's run; "" outside a block
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			in[i] = fence != ""
			continue
		}
		run := fenceRun(t)
		switch {
		case fence == "" && run != "":
			if run[0] == '`' && strings.Contains(t[len(run):], "`") {
				break // not a fence: a backtick info string may not hold backticks
			}
			fence = run
			in[i] = true
		case fence != "":
			in[i] = true
			if run != "" && run[0] == fence[0] && len(run) >= len(fence) && strings.TrimSpace(t[len(run):]) == "" {
				fence = ""
			}
		}
	}
	return in
}

// fenceRun returns the run of three or more backticks or tildes that t
// starts with, or "".
func fenceRun(t string) string {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// envelopeLine matches the lines of a Codex patch envelope. Each starts with
// "*** " and a fixed phrase, which no language uses at the start of a line.
var envelopeLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\*\*\* (Begin Patch|End Patch|End of File)$|^\*\*\* ((Add|Delete|Update) File|Move to): `)
})

// A marker is a line of one repeated character, as SEARCH/REPLACE blocks
// and git conflicts use: an opener of '<', a divider of '=' (or diff3's
// base marker of '|'), a closer of '>'.
type marker struct {
	char  byte   // '<', '=', '|' or '>'
	n     int    // how many times char repeats
	label string // the word after the run: SEARCH, HEAD, a branch; "" if none
}

// parseMarker reads l as a marker line: 5 to 9 repetitions (the
// SEARCH/REPLACE grammar of docs/formats.md; git writes 7) after at most
// three spaces of indentation (models indent blocks inside list items, and
// the parser accepts them), then nothing or a label. A divider takes no label; a
// label of several words is git's ("abc123 (subject)") only after seven
// characters, and elsewhere a Markdown quote (">>>>> as she said"). Longer
// runs are rules and underlines, not markers.
func parseMarker(l string) (marker, bool) {
	for k := 0; k < 3 && strings.HasPrefix(l, " "); k++ {
		l = l[1:]
	}
	if l == "" || !strings.ContainsRune("<=|>", rune(l[0])) {
		return marker{}, false
	}
	c := l[0]
	n := len(l) - len(strings.TrimLeft(l, l[:1]))
	if n < 5 || n > 9 {
		return marker{}, false
	}
	rest := l[n:]
	m := marker{char: c, n: n, label: strings.TrimSpace(rest)}
	switch {
	case rest == "":
	case rest[0] == ' ' || rest[0] == '\t':
		if c == '=' || n != 7 && strings.ContainsAny(m.label, " \t") {
			return marker{}, false
		}
	case c == '<' && strings.EqualFold(rest, "SEARCH"), c == '>' && strings.EqualFold(rest, "REPLACE"):
		// "<<<<<<<SEARCH": models drop the space; the word still says what it is.
	default:
		return marker{}, false
	}
	return m, true
}

// searchReplace reports whether m's label is a SEARCH/REPLACE word.
func (m marker) searchReplace() bool {
	return strings.EqualFold(m.label, "SEARCH") || strings.EqualFold(m.label, "REPLACE")
}

// alone reports whether m is a leftover even outside an arrangement: a
// SEARCH or REPLACE word, or git's seven-character opener or closer with
// its label ("<<<<<<< HEAD"), which nothing else writes at a line start.
func (m marker) alone() bool {
	if m.char != '<' && m.char != '>' {
		return false
	}
	return m.searchReplace() || (m.n == 7 && m.label != "")
}

// A group is the lines of one leftover: an arrangement of opener, dividers
// and closer, or a marker that is a leftover alone.
type group struct {
	kind  string
	lines []int // 0-based, ascending
}

// markerGroups finds the marker lines of cur not in skip. Openers and
// closers pair up like brackets, so a SEARCH/REPLACE block that quotes a
// conflict (or the reverse) is two arrangements, as docs/formats.md's
// nesting rule reads them. A divider counts only inside a pair: a row of '=' under
// a Markdown heading has none around it. A pair without a divider, and an
// opener or closer without its partner, report only the markers that are
// leftovers alone.
func markerGroups(cur []string, skip []bool, lg lang) []group {
	type frame struct {
		open     int    // the opener's line
		m        marker // the opener
		dividers []int
	}
	var (
		stack  []frame
		groups []group
	)
	lone := func(i int, m marker) {
		if m.alone() {
			groups = append(groups, group{kind: kindOf(m), lines: []int{i}})
		}
	}
	for i, l := range cur {
		if skip[i] {
			continue
		}
		m, ok := parseMarker(l)
		if !ok {
			continue
		}
		if lg == langRST && m.label == "" {
			// reStructuredText underlines and overlines titles with any
			// punctuation, '<', '=' and '>' included.
			continue
		}
		switch m.char {
		case '<':
			stack = append(stack, frame{open: i, m: m})
		case '=', '|':
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				top.dividers = append(top.dividers, i)
			}
		case '>':
			if len(stack) == 0 {
				lone(i, m)
				break
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(f.dividers) == 0 {
				lone(f.open, f.m)
				lone(i, m)
				break
			}
			lines := append(append([]int{f.open}, f.dividers...), i)
			groups = append(groups, group{kind: arrangementKind(f.m, m, cur, f.dividers), lines: lines})
		}
	}
	// An opener never closed: a truncated block. Its dividers belong to it
	// when the opener itself is a leftover.
	for _, f := range stack {
		if f.m.alone() {
			groups = append(groups, group{kind: kindOf(f.m), lines: append([]int{f.open}, f.dividers...)})
		}
	}
	slices.SortFunc(groups, func(a, b group) int { return a.lines[0] - b.lines[0] })
	return groups
}

// kindOf names a lone marker: a SEARCH/REPLACE word or a length other than
// git's seven makes it an edit format's marker; else it is git's.
func kindOf(m marker) string {
	if m.searchReplace() || m.n != 7 {
		return KindSearchReplace
	}
	return KindConflict
}

// arrangementKind names a complete arrangement. Git always labels both
// ends and writes seven characters; anything else is an edit format.
func arrangementKind(open, close marker, cur []string, dividers []int) string {
	if open.searchReplace() || close.searchReplace() || open.label == "" || close.label == "" || open.n != 7 || close.n != 7 {
		return KindSearchReplace
	}
	for _, i := range dividers {
		if d, _ := parseMarker(cur[i]); d.n != 7 {
			return KindSearchReplace
		}
	}
	return KindConflict
}

// isElision reports whether cur[i] is a placeholder standing in for code,
// by the ladder's rule (locate.IsPlaceholder), less what the file's
// language makes something else: in Markdown "# ..." is a heading, and a
// line of bare dots is a statement only in C-like languages (in Python it
// is the Ellipsis, in prose and YAML it is text).
func isElision(cur []string, i int, lg lang) bool {
	t := strings.TrimSpace(cur[i])
	if lg == langMarkdown && strings.HasPrefix(t, "#") {
		return false
	}
	if lg != langCode && t != "" && strings.Trim(t, ". …") == "" {
		return false
	}
	return locate.IsPlaceholder(cur, i)
}

// markNew sets isNew[j] for each line of cur that a line diff against base
// shows as added. It is patience diff: lines that occur exactly once in
// both anchor the alignment, in their longest common order, and the gaps
// between anchors are diffed the same way. A gap with no such line (runs of
// "}" and blank lines) falls back to counting: a line is new when cur has
// more copies of it there than base. That costs O(n log n) where an LCS
// would cost O(n²), and lint only asks whether a placeholder or marker line
// was added, not where the smallest diff would put it.
func markNew(base, cur []string, isNew []bool) {
	var rec func(alo, ahi, blo, bhi int)
	rec = func(alo, ahi, blo, bhi int) {
		for alo < ahi && blo < bhi && base[alo] == cur[blo] {
			alo, blo = alo+1, blo+1
		}
		for alo < ahi && blo < bhi && base[ahi-1] == cur[bhi-1] {
			ahi, bhi = ahi-1, bhi-1
		}
		if blo == bhi {
			return
		}
		anchors := uniqueCommon(base[alo:ahi], cur[blo:bhi])
		if len(anchors) == 0 {
			count := make(map[string]int)
			for _, l := range base[alo:ahi] {
				count[l]++
			}
			for j := blo; j < bhi; j++ {
				if count[cur[j]] > 0 {
					count[cur[j]]--
				} else {
					isNew[j] = true
				}
			}
			return
		}
		a, b := alo, blo
		for _, p := range anchors {
			rec(a, alo+p[0], b, blo+p[1])
			a, b = alo+p[0]+1, blo+p[1]+1
		}
		rec(a, ahi, b, bhi)
	}
	rec(0, len(base), 0, len(cur))
}

// uniqueCommon returns index pairs {i, j} with a[i] == b[j] for lines
// that occur once in a and once in b, forming the longest run increasing
// in both i and j (patience sorting).
func uniqueCommon(a, b []string) [][2]int {
	type seen struct{ na, nb, i, j int }
	m := make(map[string]*seen)
	for i, l := range a {
		s := m[l]
		if s == nil {
			s = &seen{}
			m[l] = s
		}
		s.na++
		s.i = i
	}
	for j, l := range b {
		if s := m[l]; s != nil {
			s.nb++
			s.j = j
		}
	}
	var pairs [][2]int // in b order
	for j, l := range b {
		if s := m[l]; s != nil && s.na == 1 && s.nb == 1 && s.j == j {
			pairs = append(pairs, [2]int{s.i, j})
		}
	}
	// Longest increasing subsequence of the pairs' i, by patience sorting:
	// tops[k] is the pair ending the best run of length k+1; prev links
	// each pair to the one before it in its run.
	var tops []int
	prev := make([]int, len(pairs))
	for p := range pairs {
		k, _ := slices.BinarySearchFunc(tops, pairs[p][0], func(t, i int) int { return pairs[t][0] - i })
		if k > 0 {
			prev[p] = tops[k-1]
		} else {
			prev[p] = -1
		}
		if k == len(tops) {
			tops = append(tops, p)
		} else {
			tops[k] = p
		}
	}
	if len(tops) == 0 {
		return nil
	}
	lis := make([][2]int, len(tops))
	for k, p := len(tops)-1, tops[len(tops)-1]; k >= 0; k, p = k-1, prev[p] {
		lis[k] = pairs[p]
	}
	return lis
}
