package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Context is the number of unchanged lines an Edit keeps on each side of
// its change, as diff -U3 and most models do.
const Context = 3

// An Edit is one change to one file, the way a model sends it: unchanged
// Before lines, the Del lines it removes, the Add lines it puts in their
// place, and unchanged After lines. Lines carry no line endings.
type Edit struct {
	Path   string
	Line   int // 1-based line of the original file where Before starts
	Before []string
	Del    []string
	Add    []string
	After  []string
}

// Old returns the text the edit replaces: Before, Del and After, each line
// ending in a newline.
func (e Edit) Old() string { return joinLines(e.Before, e.Del, e.After) }

// New returns the text the edit puts in place of Old.
func (e Edit) New() string { return joinLines(e.Before, e.Add, e.After) }

// Block returns e as a SEARCH/REPLACE block.
func (e Edit) Block() Block { return Block{Path: e.Path, Search: e.Old(), Replace: e.New()} }

// oldLen is the number of lines Old spans.
func (e Edit) oldLen() int { return len(e.Before) + len(e.Del) + len(e.After) }

func joinLines(parts ...[]string) string {
	var b strings.Builder
	for _, p := range parts {
		for _, l := range p {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// splitLines splits newline-terminated text into lines without their
// newlines; a last line without one is kept.
func splitLines(src []byte) []string {
	s := strings.TrimSuffix(string(src), "\n")
	if s == "" && len(src) == 0 {
		return nil
	}
	return strings.Split(s, "\n")
}

// lineIndex finds where runs of a file's lines occur as text.
type lineIndex struct {
	lines []string
	at    map[string][]int // line text → 0-based line numbers
}

func newLineIndex(lines []string) *lineIndex {
	x := &lineIndex{lines: lines, at: make(map[string][]int, len(lines))}
	for i, l := range lines {
		x.at[l] = append(x.at[l], i)
	}
	return x
}

// count returns how many times (capped at 2) the text of lines
// [start, start+k), each ending in a newline, occurs as a substring of the
// file, k >= 2. A match of that text starts inside some line j whose text ends
// with lines[start] and continues with whole lines, so only lines sharing the
// window's rarest later line need checking.
func (x *lineIndex) count(start, k int) int {
	key := start + 1
	for t := start + 2; t < start+k; t++ {
		if len(x.at[x.lines[t]]) < len(x.at[x.lines[key]]) {
			key = t
		}
	}
	n := 0
	for _, m := range x.at[x.lines[key]] {
		j := m - (key - start)
		if j < 0 || j+k > len(x.lines) || !strings.HasSuffix(x.lines[j], x.lines[start]) {
			continue
		}
		same := true
		for t := 1; t < k; t++ {
			if x.lines[j+t] != x.lines[start+t] {
				same = false
				break
			}
		}
		if same {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
}

// isCode reports whether l is worth editing: not blank and not a lone brace.
func isCode(l string) bool {
	switch strings.TrimSpace(l) {
	case "", "}", ")", "{", "(", "} else {", "default:":
		return false
	}
	return true
}

func indentOf(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

var identRE = regexp.MustCompile(`\b[a-z][A-Za-z]{3,}\b`)

// stdNames are the imported package names, which an edit does not rename.
var stdNames = map[string]bool{"bufio": true, "bytes": true, "context": true, "json": true, "errors": true,
	"filepath": true, "sort": true, "strconv": true, "strings": true, "sync": true, "time": true, "metrics": true}

// modify returns l changed the way a model changes a line, marked with id so
// the result occurs nowhere else in the file.
func modify(r *rand.Rand, l string, id int) string {
	if strings.HasPrefix(strings.TrimSpace(l), "//") {
		return fmt.Sprintf("%s (see #%d)", l, id)
	}
	locs := identRE.FindAllStringIndex(l, -1)
	if len(locs) == 0 || r.IntN(4) == 0 {
		return fmt.Sprintf("%s // #%d: %s", l, id, words(r, 4))
	}
	locs = slices.DeleteFunc(locs, func(loc []int) bool {
		w := l[loc[0]:loc[1]]
		return isKeyword(w) || stdNames[w] || strings.Count(l[:loc[0]], `"`)%2 == 1
	})
	if len(locs) == 0 {
		return fmt.Sprintf("%s // #%d: %s", l, id, words(r, 4))
	}
	loc := locs[r.IntN(len(locs))]
	return fmt.Sprintf("%s%s%d%s", l[:loc[1]], title(adjs[r.IntN(len(adjs))]), id, l[loc[1]:])
}

// inserted returns a new line at indentation ind, as a model adds one.
func inserted(r *rand.Rand, ind string, id int) string {
	switch r.IntN(3) {
	case 0:
		return fmt.Sprintf("%s// NOTE(#%d): %s.", ind, id, words(r, 6))
	case 1:
		return fmt.Sprintf("%slog.Printf(\"%s: %s step %d\")", ind, verbs[r.IntN(len(verbs))], nouns[r.IntN(len(nouns))], id)
	}
	return fmt.Sprintf("%smetrics%d.Add(%d)", ind, id, 1+r.IntN(100))
}

func words(r *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		switch i % 3 {
		case 0:
			ws[i] = verbs[r.IntN(len(verbs))]
		case 1:
			ws[i] = adjs[r.IntN(len(adjs))]
		default:
			ws[i] = nouns[r.IntN(len(nouns))]
		}
	}
	return strings.Join(ws, " ")
}

// Sites picks n edits to the file path with content src, spread evenly
// through it: ascending, at least one unchanged line apart, each with
// Context lines either side, each Old text occurring exactly once in src,
// and each added line carrying a mark that occurs nowhere else, so the
// edits can be applied one after another in any order. About half modify a
// line, a quarter insert one, a quarter replace two lines with one to three.
// It fails when src is too short or too repetitive to hold n such sites.
func Sites(path string, src []byte, n int, seed uint64) ([]Edit, error) {
	lines := splitLines(src)
	x := newLineIndex(lines)
	r := newRand(seed)
	const maxWindow = 2*Context + 2
	seg := len(lines) / max(n, 1)
	if n <= 0 || seg < maxWindow+1 {
		return nil, fmt.Errorf("gen: %s: %d lines cannot hold %d edits", path, len(lines), n)
	}
	edits := make([]Edit, 0, n)
	for i := 0; i < n; i++ {
		lo := i * seg
		e, ok := site(r, x, path, lo, lo+seg-1, i+1) // keep the segment's last line unchanged
		if !ok {
			return nil, fmt.Errorf("gen: %s: no unique edit site in lines %d-%d", path, lo+1, lo+seg)
		}
		edits = append(edits, e)
	}
	return edits, nil
}

// site looks for an edit whose window lies within lines [lo, hi).
func site(r *rand.Rand, x *lineIndex, path string, lo, hi, id int) (Edit, bool) {
	for try := 0; try < 64; try++ {
		del := 1
		kind := r.IntN(4)
		switch kind {
		case 2:
			del = 0
		case 3:
			del = 2
		}
		w := 2*Context + del
		if hi-lo < w {
			return Edit{}, false
		}
		start := lo + r.IntN(hi-lo-w+1)
		c := start + Context // first changed line, or the insertion point
		e := Edit{
			Path:   path,
			Line:   start + 1,
			Before: x.lines[start:c],
			Del:    x.lines[c : c+del],
			After:  x.lines[c+del : start+w],
		}
		ok := true
		for _, l := range e.Del {
			ok = ok && isCode(l)
		}
		if !ok || !isCode(x.lines[c]) || x.count(start, w) != 1 {
			continue
		}
		// The edit keeps copies of its few lines, not slices of the file's
		// every line: a benchmark holding its fixture's edits would
		// otherwise keep the whole file's lines for the collector to scan
		// in every cycle of the code it measures.
		for _, ls := range []*[]string{&e.Before, &e.Del, &e.After} {
			*ls = ownLines(*ls)
		}
		switch kind {
		case 0, 1:
			e.Add = []string{modify(r, e.Del[0], id)}
		case 2:
			e.Add = []string{inserted(r, indentOf(x.lines[c]), id)}
		case 3:
			e.Add = []string{modify(r, e.Del[0], id)}
			for k := r.IntN(3); k > 0; k-- {
				e.Add = append(e.Add, inserted(r, indentOf(e.Del[1]), id))
			}
		}
		return e, true
	}
	return Edit{}, false
}

// ownLines copies ls and each of its strings.
func ownLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.Clone(l)
	}
	return out
}

// NearMiss returns a SEARCH/REPLACE block for path that a model might send
// after misremembering src: a window of real lines with identifiers renamed
// on three of them. Its SEARCH text is close to one place in src but
// matches none at any tolerance (whitespace, indentation, punctuation), so an
// applier must report NO_MATCH, ideally with that place as its candidate.
func NearMiss(path string, src []byte, seed uint64) (Block, error) {
	lines := splitLines(src)
	x := newLineIndex(lines)
	r := newRand(seed)
	norm := strings.Join(normalize(lines), "")
	mid := len(lines) / 2
	for try := 0; try < 100; try++ {
		e, ok := site(r, x, path, mid+try*20, mid+try*20+20, 1)
		if !ok {
			continue
		}
		old := append(append(append([]string(nil), e.Before...), e.Del...), e.After...)
		changed := 0
		for _, k := range []int{1, Context, len(old) - 2} {
			loc := identRE.FindStringIndex(old[k])
			if loc == nil {
				continue
			}
			old[k] = old[k][:loc[1]] + "Ref" + old[k][loc[1]:]
			changed++
		}
		if changed < 2 || strings.Contains(norm, strings.Join(normalize(old), "")) {
			continue
		}
		rep := append([]string(nil), old...)
		rep[Context] = modify(r, rep[Context], 1)
		return Block{Path: path, Search: joinLines(old), Replace: joinLines(rep)}, nil
	}
	return Block{}, errors.New("gen: no near-miss site found")
}

// normalize strips every line's whitespace, for the strictest "does it
// match at any tolerance" test: each line becomes its non-blank characters
// and a newline.
func normalize(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Join(strings.Fields(l), "") + "\n"
	}
	return out
}

// Drift returns e as a SEARCH/REPLACE block a model sent with its
// whitespace drifted: every non-blank line indented by one more tab, and
// the SEARCH lines given trailing blanks. The ladder's trailing-whitespace
// and indentation rungs together should land it where e lands.
func Drift(e Edit) Block {
	shift := func(ls []string, trail bool) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			if strings.TrimSpace(l) == "" {
				out[i] = l
				continue
			}
			out[i] = "\t" + l
			if trail {
				out[i] += []string{" ", "  ", "\t", " \t"}[i%4]
			}
		}
		return out
	}
	return Block{
		Path:    e.Path,
		Search:  joinLines(shift(e.Before, true), shift(e.Del, true), shift(e.After, true)),
		Replace: joinLines(shift(e.Before, false), shift(e.Add, false), shift(e.After, false)),
	}
}

// A File is one generated source file.
type File struct {
	Path string // slash-separated, relative
	Src  []byte
}

// Tree returns n Go files of at least lines lines each, spread over
// directories of up to 50 files, named like "pkg/lease07/lease07_031.go".
func Tree(seed uint64, n, lines int) []File {
	r := newRand(seed)
	files := make([]File, n)
	var dir string
	for i := range files {
		if i%50 == 0 {
			dir = fmt.Sprintf("%s%02d", nouns[r.IntN(len(nouns))], i/50)
		}
		files[i] = File{
			Path: fmt.Sprintf("pkg/%s/%s_%03d.go", dir, dir, i%50),
			Src:  Source(seed+uint64(i)+1, dir, lines),
		}
	}
	return files
}

// WriteTree writes files under root, creating directories as needed.
func WriteTree(root string, files []File) error {
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Src, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// ApplyEdits is the reference applier: it applies edits of one file, in
// ascending non-overlapping order, to src by line number, checking that each
// Old stands where its Line says. It is what every tool under test must
// produce.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	lines := splitLines(src)
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	next := 0 // first line of src not yet copied
	for _, e := range edits {
		start := e.Line - 1
		if start < next || start+e.oldLen() > len(lines) {
			return nil, fmt.Errorf("gen: %s: edit at line %d overlaps or runs past the end", e.Path, e.Line)
		}
		if got := joinLines(lines[start : start+e.oldLen()]); got != e.Old() {
			return nil, fmt.Errorf("gen: %s: edit at line %d: old text does not stand there", e.Path, e.Line)
		}
		b.WriteString(joinLines(lines[next:start]))
		b.WriteString(e.New())
		next = start + e.oldLen()
	}
	b.WriteString(joinLines(lines[next:]))
	return []byte(b.String()), nil
}
