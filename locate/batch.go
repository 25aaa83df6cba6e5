package locate

// Batched planning of one file's run of SEARCH/REPLACE edits.
//
// The plain path (Doc.ladder) gives every edit the whole file as the
// edits before it left it: it scans all of it for the old text (to judge
// uniqueness) and copies it to splice the result in, a scan and a copy of
// the file per edit: quadratic in a run of edits to one file.
//
// A batch instead keeps one segment: the content when the segment began
// (orig) and the splices accepted since, not yet applied. An edit is
// accepted only when it is provable that the plain path would find exactly
// the same thing: one exact match of its old text in the current content
// (orig with the splices applied), lying on lines no accepted splice
// touched (and the answers below). Everything else flushes the segment
// (one copy) and goes through the plain path, after which a new segment
// starts from the content that left. The result is the plain path's, edit
// for edit: FuzzBatchEquivalence checks it.
//
// Uniqueness without a scan: the current content's lines are either lines
// of orig that no splice touched, or "zone" lines: the lines an accepted
// splice's text and the rest of the lines it cut through make. Every
// occurrence of an old text that spans at least one whole line puts every
// whole line of it, and so its key line (the longest, see keyLine), on
// one of those two kinds of line. So the occurrences are found by looking
// the key line up in two hash indexes, one of orig's lines (built once per
// segment, only for lines equal to some edit's key line) and one of the
// zone lines (grown as splices are accepted), and comparing the old text
// at each place. Old texts without a whole line take the plain path; an
// edit that quotes whole lines (LineOriented) has its first line whole,
// so a one-line quote has a key line too.
//
// More answers are proved the same way, so that the shapes that would
// otherwise take the plain path edit after edit cost an index rather
// than a pass over the file each:
//
//   - Several exact places and a line hint (a diff's hunk without
//     context): the hint picks the nearest within its window, and only
//     the places near the hinted line are looked up, through the key
//     line's orig lines, ordered, and the zone lines (byHint).
//   - No exact place (a quote whose tabs came back as spaces): the line
//     rungs' places are found as the ladder finds them, by the looseKey
//     of the old text's telling line, in an index of orig's lines built
//     once per segment and of the zone lines grown with the splices; the
//     places on untouched lines are judged in orig, and those that would
//     span a line a splice made are read from the current content line
//     by line (tryFound). Only one place at the first rung that finds
//     any is accepted, and only where the ladder writes it from the
//     matched lines alone.
//   - An empty old text with a line hint (a hunk of added lines only):
//     inserted before the hinted line, where that is a line of orig no
//     splice touched (tryInsert).
//   - One exact place on or next to lines a splice made (tryCrossing):
//     given the place, the ladder reads only the lines it spans, so it is
//     written as sent, or as the ladder writes it asked over those lines
//     read from the current content, and merged with the splices whose
//     lines it shares (replaceCurrent).
//   - Several exact places that no line hint picks (tryMultiple): the
//     ladder's MULTIPLE_MATCHES, from the places the indexes give, where
//     they are the ones the ladder lists and the edit would not write
//     the same file at each.

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/edapply/edapply/edit"
)

var batchSeed = maphash.MakeSeed()

func lineHash(s string) uint64 { return maphash.String(batchSeed, s) }

// A zone is what the batch knows of an accepted splice's lines: the orig
// lines its zone spans (those of its start and of its end), and how many
// "\n" it adds to the content.
type zone struct {
	first, last, dLines int
	id                  int // names the splice among all the segment accepted (zoneLine.id)
}

// A zoneLine is a line of the current content that a splice made: it
// starts rel bytes after the splice's start in the current content (rel is
// negative for the part of orig's line before the splice).
type zoneLine struct {
	at  int // the splice's start in orig, which finds it
	rel int
	// id is the splice's zone.id: a splice merged into another
	// (replaceCurrent) leaves its lines in the indexes, and they are
	// skipped (live).
	id int
}

// live returns the splice z is a line of, and whether it still stands:
// false for a line of a splice merged into another since.
func (g *segment) live(z zoneLine) (int, bool) {
	j := g.before(z.at)
	return j, j < len(g.sp) && g.sp[j].At == z.at && g.zone[j].id == z.id
}

// A segment is the content at the start of a stretch of batched edits and
// the splices accepted since.
type segment struct {
	orig   string
	hasBOM bool
	f      *finder               // over orig: the exact hits' units and replacement text are read there
	nl     int                   // "\n" in orig
	keys   map[uint64][]keyLoc   // hash of an edit's key line (see keyLine) → orig's lines with that text
	maybe  *keyFilter            // rules out most lines that are no key line, before keys is asked
	zones  map[uint64][]zoneLine // hash of a key line → the zone lines with that text
	sp     []Splice              // accepted, of orig, ascending
	zone   []zone                // zone[j] is sp[j]'s
	ids    int                   // zone ids handed out
	cumB   []int                 // cumB[j]: the bytes sp[:j] add to the content
	cumL   []int                 // likewise zone[:j]'s dLines
	crlf   int                   // "\r\n" in the current content
	mode   int                   // eolLF or eolCRLF: the mode orig had, and the current content has
	closed bool                  // the last splice changed something the batch assumes: flush before the next edit
	// hs, when not nil, is fed the content as the splices make it: it has
	// been fed the content up to orig[fed] (see accept).
	hs  Stream
	fed int
	// loose finds lines by looseKey, for the tolerant rungs (tryFound);
	// nil until an edit needs it. It indexes only the telling lines of
	// run, the edits from the segment's first on.
	loose *looseIndex
	run   []*edit.Edit
	// ends finds the places that start inside a line of a key line
	// quoted first (endings); nil until an edit needs it.
	ends map[string]*lineEnds
	// scans counts the passes over orig the segment made beyond its
	// index (Doc.passes).
	scans int
}

// lineEnds are where the current content holds a line k followed by a
// line ending, starting inside a line: in orig, at lines no splice had
// touched when they were found, ascending; and on zone lines (rel is
// where k starts), as the splices made them.
type lineEnds struct {
	orig  []keyLoc
	zones []zoneLine
}

// A keyLoc is a line of orig: its number and its offset.
type keyLoc struct{ line, off int }

// A batchEdit is one edit of the run, with what the batch needs of it:
// not its patterns (lines split and classified, several times its text's
// bytes), which are made again for the ladder only when an edit reaches
// it, so that a run's prepared edits hold little beside their texts.
type batchEdit struct {
	known bool // judged (Doc.judge)
	ok    bool // the batch may try it at all
	kind  batchKind
	// plain: the new text has no gap line and ends a line as the old does,
	// what finder.writesAsSent asks of the patterns.
	plain    bool
	oldLines int32      // the old text's lines (pattern.lines)
	lf       *[2]string // the old and new text with "\r\n" turned into "\n", when either has a "\r"; nil: the edit's own
}

// A batchKind says how the batch tries an edit. One byte, not a flag each:
// a run's judged edits stay two words each.
type batchKind uint8

// The zero batchKind is a replace.
const (
	// kindInsert: an empty old text, inserted before the hinted line
	// (tryInsert).
	kindInsert batchKind = iota + 1
	// kindHoldsOld: the new text holds the old (isInsertion), so the
	// ladder looks for it first; the batch accepts the edit only written
	// as sent where the new text cannot stand around the place
	// (standsAround).
	kindHoldsOld
)

// texts returns e's old and new text as be's patterns hold them: with
// "\r\n" turned into "\n".
func (be *batchEdit) texts(e *edit.Edit) (old, new string) {
	if be.lf != nil {
		return be.lf[0], be.lf[1]
	}
	return e.Old, e.New
}

// lastLine is pattern.lastLine of the old text.
func (be *batchEdit) lastLine(first int) int { return first + max(int(be.oldLines), 1) - 1 }

// batchable judges e for the batch: it may try a Replace of one
// occurrence with nothing that makes the plain path look beyond the exact
// rung's single hit (anchors, end of file, a placeholder the replacement
// may elide code with), and an old text with a whole line in it (two "\n"
// at least). A replacement that contains the old text, and so is first
// looked for itself, is marked (kindHoldsOld). Its patterns are made to judge it, their lines cut in
// sc's room (nil: room of its own), and then dropped.
func batchable(e *edit.Edit, sc *lineScratch) batchEdit {
	if e.Op == edit.Replace && e.Old == "" && e.New != "" && e.Hint > 0 && e.Count == 1 && len(e.Anchors) == 0 && !e.AtEOF {
		// An insertion before a hinted line (a diff's hunk of added lines
		// only): the batch asks only that its text has no placeholder.
		var np pattern
		if body, ok := np.setText(e.New); ok {
			np.lines = strings.Split(body, "\n")
		}
		np.classify(false)
		return batchEdit{ok: np.phs == 0, kind: kindInsert}
	}
	if e.Op != edit.Replace || e.Old == "" || e.Count != 1 || len(e.Anchors) > 0 || e.AtEOF ||
		strings.Count(e.Old, "\n") < 2 && !(LineOriented(e) && strings.Contains(e.Old, "\n")) {
		return batchEdit{}
	}
	// Placeholders and gap lines are judged in the new text only: the
	// batch asks nothing of the old text's, so its lines are split, not
	// classified. Both texts' lines are cut in room reused from edit to
	// edit, and dropped with the patterns.
	if sc == nil {
		sc = new(lineScratch)
	}
	defer sc.release()
	var np, op pattern
	if body, ok := np.setText(e.New); ok {
		sc.new = splitInto(sc.new, body)
		np.lines = sc.new
	}
	np.classify(false)
	if np.phs != 0 {
		return batchEdit{}
	}
	if body, ok := op.setText(e.Old); ok {
		sc.old = splitInto(sc.old, body)
		op.lines = sc.old
	}
	if len(op.lines) > math.MaxInt32 {
		return batchEdit{}
	}
	be := batchEdit{ok: true, plain: np.gaps == 0 && op.finalNL == np.finalNL, oldLines: int32(len(op.lines))}
	if isInsertion(&op, &np) {
		// The ladder first looks for the new text around the old one's
		// place (a resent insertion is already applied): the batch tries
		// it only where it can rule that out by the lines around the
		// place (standsAround), which a text with a "\r" left in it, or
		// gap lines, would not let it read as the ladder does.
		if np.gaps > 0 || strings.IndexByte(np.text, '\r') >= 0 {
			return batchEdit{}
		}
		be.kind = kindHoldsOld
	}
	if op.text != e.Old || np.text != e.New {
		be.lf = &[2]string{op.text, np.text}
	}
	return be
}

// A lineScratch is the room batchable cuts an edit's texts' lines in,
// kept by a Doc from edit to edit.
type lineScratch struct{ old, new []string }

// release drops the lines sc holds, keeping its room: it keeps no reply's
// text alive.
func (sc *lineScratch) release() {
	clear(sc.old)
	clear(sc.new)
}

// newSegment starts a segment at body (a text file's content without its
// BOM), indexing the lines the edits es quote, bes[b] the batch's judgement
// of es[b]. It returns nil when its line endings are mixed.
func newSegment(body string, hasBOM bool, es []*edit.Edit, bes []batchEdit) *segment {
	g := &segment{orig: body, hasBOM: hasBOM, f: newFinder(body), run: es}
	g.mode = g.f.eolMode()
	if g.mode == eolMixed {
		return nil
	}
	// Each edit's occurrences are found through one line of its old text,
	// its key line; only the file's lines equal to some key line are
	// indexed. The longest line is the key: long lines are the ones a
	// file rarely repeats, where "}" may stand on thousands. A bit per
	// slice of the hash space rules most of the file's lines out before
	// the map is asked.
	g.keys = map[uint64][]keyLoc{}
	g.maybe = &keyFilter{}
	for b := range es {
		if !bes[b].ok {
			continue
		}
		old, _ := bes[b].texts(es[b])
		line, _, ok := keyLine(needle(old, g.mode), LineOriented(es[b]))
		if !ok {
			continue
		}
		g.keys[g.maybe.add(line)] = nil
	}
	// No index of every line's start: the batch needs only the key
	// lines', and finds the rest of a match's lines next to them.
	for off := 0; ; g.nl++ {
		end := len(body)
		if k := strings.IndexByte(body[off:], '\n'); k >= 0 {
			end = off + k
		}
		if g.maybe.may(body[off:end]) {
			h := lineHash(body[off:end])
			if ls, ok := g.keys[h]; ok {
				g.keys[h] = append(ls, keyLoc{g.nl, off})
			}
		}
		if end == len(body) {
			break
		}
		off = end + 1
	}
	if g.mode == eolCRLF {
		g.crlf = g.nl
	}
	g.zones = map[uint64][]zoneLine{}
	g.cumB, g.cumL = []int{0}, []int{0}
	return g
}

// A keyFilter is a set of lines that may answer "maybe" for a line not in
// it, and answers quickly: a bit per slice of the space of a cheap
// signature (length, first and last eight bytes) rules out nearly every
// line before its lineHash is computed.
type keyFilter struct {
	sigs hashBits
}

// hashBits is a set of 64-bit hashes that may answer "maybe" for one not
// in it: a bit per 1/65536 of the hash space.
type hashBits [1 << 16 / 64]uint64

func (b *hashBits) set(h uint64)      { b[h>>54] |= 1 << (h >> 48 & 63) }
func (b *hashBits) has(h uint64) bool { return b[h>>54]&(1<<(h>>48&63)) != 0 }

// add puts line in the set and returns its lineHash.
func (k *keyFilter) add(line string) uint64 {
	k.sigs.set(lineSig(line))
	return lineHash(line)
}

// may reports whether line may be in the set. It is inlined into the scan
// of every line of a file: the caller computes lineHash only for a maybe.
func (k *keyFilter) may(line string) bool { return k.sigs.has(lineSig(line)) }

// lineSig is a hash of s's length and its first and last eight bytes,
// mixed into the high bits hashBits reads: cheap enough to inline, where
// lineHash reads every byte behind a call. A line shorter than eight
// bytes is its length alone: an edit's key line (its longest) rarely is
// one, and a loop over its bytes would keep lineSig from being inlined.
func lineSig(s string) uint64 {
	n := len(s)
	h := uint64(n)
	if n >= 8 {
		h ^= load64(s)*0x9e3779b97f4a7c15 ^ load64(s[n-8:])*0xc2b2ae3d27d4eb4f
	}
	return h * 0x165667b19e3779f9
}

// load64 is s's first eight bytes, little-endian: one load where the
// machine has unaligned loads, and cheap enough to be inlined into the
// scan's filter, may. The conversion copies nothing: the compiler sees the
// bytes are only read.
func load64(s string) uint64 { return binary.LittleEndian.Uint64([]byte(s)) }

// keyLine returns the longest whole line of text (the first of the
// longest), and its offset; false when text has no whole line. lineStart
// says text is only ever matched at a line's start (LineOriented), which
// makes its first line whole when a "\n" ends it.
func keyLine(text string, lineStart bool) (line string, off int, ok bool) {
	forWholeLines(text, lineStart, func(l string, o int) {
		if !ok || len(l) > len(line) {
			line, off, ok = l, o, true
		}
	})
	return line, off, ok
}

// forWholeLines calls fn with each whole line of text (one with a "\n"
// before and after it; the first and last pieces are not, but that the
// first is when lineStart is set) and its offset.
func forWholeLines(text string, lineStart bool, fn func(line string, off int)) {
	first := strings.IndexByte(text, '\n')
	if first < 0 {
		return
	}
	if lineStart {
		first = -1
	}
	for off := first + 1; ; {
		k := strings.IndexByte(text[off:], '\n')
		if k < 0 {
			return
		}
		fn(text[off:off+k], off)
		off += k + 1
	}
}

// crlfJoined is strings.Count(a+t+b, "\r\n") without the concatenation;
// a and b are a byte at most.
func crlfJoined(a, t, b string) int {
	n := strings.Count(t, "\r\n")
	if a == "\r" && (t != "" && t[0] == '\n' || t == "" && b == "\n") {
		n++
	}
	if b == "\n" && t != "" && t[len(t)-1] == '\r' {
		n++
	}
	return n
}

// before returns how many accepted splices start before orig offset o.
func (g *segment) before(o int) int {
	return sort.Search(len(g.sp), func(j int) bool { return g.sp[j].At >= o })
}

// size is the current content's length.
func (g *segment) size() int { return len(g.orig) + g.cumB[len(g.sp)] }

// cStart is where sp[j]'s text starts in the current content.
func (g *segment) cStart(j int) int { return g.sp[j].At + g.cumB[j] }

// touched reports whether a splice's zone spans an orig line from first to
// last.
func (g *segment) touched(first, last int) bool {
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].last >= first })
	return j < len(g.zone) && g.zone[j].first <= last
}

// spliceAt returns the first accepted splice whose text ends after x, an
// offset in the current content (len(g.sp) when none does).
func (g *segment) spliceAt(x int) int {
	return sort.Search(len(g.sp), func(j int) bool { return g.cStart(j)+len(g.sp[j].New) > x })
}

// equalAt reports whether the current content holds s at offset x (x and
// x+len(s) within it).
func (g *segment) equalAt(x int, s string) bool {
	j := g.spliceAt(x)
	for s != "" {
		if j < len(g.sp) && x >= g.cStart(j) {
			t := g.sp[j].New[x-g.cStart(j):]
			n := min(len(t), len(s))
			if t[:n] != s[:n] {
				return false
			}
			s, x, j = s[n:], x+n, j+1
			continue
		}
		o := x - g.cumB[j]
		lim := len(g.orig)
		if j < len(g.sp) {
			lim = g.sp[j].At
		}
		n := min(lim-o, len(s))
		if n <= 0 || g.orig[o:o+n] != s[:n] {
			return false
		}
		s, x = s[n:], x+n
	}
	return true
}

// startsLine reports whether offset x of the current content starts a
// line.
func (g *segment) startsLine(x int) bool { return x == 0 || g.equalAt(x-1, "\n") }

// endsNoNL reports whether y is the end of a current content without a
// final line ending, as finder.endsNoNL does for the ladder.
func (g *segment) endsNoNL(y int) bool { return y == g.size() && !g.endsWith("\n") }

// endsWith reports whether the current content ends with s.
func (g *segment) endsWith(s string) bool {
	return len(s) <= g.size() && g.equalAt(g.size()-len(s), s)
}

// An occurrence is a place the current content holds a needle: at x,
// with its key line on orig's line key, or on a zone line (key.line < 0).
type occurrence struct {
	x   int
	key keyLoc
}

// occurrences returns where needle occurs in the current content,
// ascending, stopping after two, and the offset of its key line in it;
// with lineStart, only those that start a line. False when the needle is
// not indexed: its occurrences are unknown.
func (g *segment) occurrences(needle string, lineStart bool) (at []occurrence, keyOff int, ok bool) {
	best, _, keyOff, ok := g.indexed(needle, lineStart)
	if !ok {
		return nil, 0, false // not indexed (cannot happen for a needle of the run's mode)
	}
	add := func(x int, key keyLoc) {
		if x < 0 || x+len(needle) > g.size() || !g.equalAt(x, needle) || lineStart && !g.startsLine(x) ||
			slices.ContainsFunc(at, func(o occurrence) bool { return o.x == x }) {
			return
		}
		at = append(at, occurrence{x, key})
	}
	for _, kl := range g.keys[best] {
		if g.touched(kl.line, kl.line) {
			continue // a zone line now; the zone index has it
		}
		add(kl.off+g.cumB[g.before(kl.off)]-keyOff, kl)
		if len(at) > 1 {
			return at, keyOff, true
		}
	}
	for _, z := range g.zones[best] {
		j, ok := g.live(z)
		if !ok {
			continue
		}
		add(g.cStart(j)+z.rel-keyOff, keyLoc{line: -1})
		if len(at) > 1 {
			return at, keyOff, true
		}
	}
	return at, keyOff, true
}

// try plans e in the segment if it can prove the plain path would plan it
// the same way, or would refuse it with err; false leaves everything as it
// was. disk, when not nil, maps the offset of a line of the current
// content to the line on disk an error names for it (Doc.diskLineAt). The location's splice
// is in the offsets of the current content, as the edit sees it.
func (g *segment) try(e *edit.Edit, be *batchEdit, opts matchOptions, disk func(off int) int) (location, *edit.Error, bool) {
	if be.kind == kindInsert {
		loc, ok := g.tryInsert(e)
		return loc, nil, ok
	}
	old, _ := be.texts(e)
	needle := needle(old, g.mode)
	if strings.HasSuffix(old, "\n") && !g.endsWith("\n") {
		// The exact rung also takes the end of a file without a final
		// newline for the old text's last line ending (finder.exactHits):
		// a place the occurrences do not count.
		if g.endsWith(strings.TrimSuffix(needle, eolOf(g.mode))) {
			return location{}, nil, false
		}
	}
	lineStart := LineOriented(e)
	hinted := false // the line hint chose among several places
	var at []occurrence
	keyOff := 0
	if e.Hint > 0 && lineStart && apart(old) {
		var ok bool
		if at, keyOff, hinted, ok = g.byHint(needle, e.Hint, hintWindow(int(be.oldLines))); !ok {
			at = nil // a tie (tryMultiple's), or not indexed (occurrences says so)
		}
	}
	if at == nil {
		var ok bool
		if at, keyOff, ok = g.occurrences(needle, lineStart); !ok {
			return location{}, nil, false
		}
		if len(at) == 0 {
			if be.kind == kindHoldsOld {
				return location{}, nil, false // tryFound would judge the new text in orig
			}
			loc, ok := g.tryFound(e, opts)
			return loc, nil, ok
		}
	}
	if len(at) != 1 {
		err, ok := g.tryMultiple(e, be, needle, lineStart, opts, disk)
		return location{}, err, ok
	}
	if at[0].key.line < 0 {
		loc, ok := g.tryCrossing(e, be, at[0].x, hinted, opts) // on a line a splice made
		return loc, nil, ok
	}
	// The match must lie on lines of orig no splice touched: then its
	// bytes, and those next to it that the ladder reads, are orig's.
	x, key := at[0].x, at[0].key
	// Where the match starts in orig, if no splice lies in it; then its
	// lines are counted from its key line's.
	o := key.off - keyOff
	j := g.before(o)
	if o < 0 || j > 0 && g.sp[j-1].end() > o || j < len(g.sp) && g.sp[j].At < o+len(needle) || x != o+g.cumB[j] {
		loc, ok := g.tryCrossing(e, be, x, hinted, opts)
		return loc, nil, ok
	}
	first := key.line - strings.Count(needle[:keyOff], "\n")
	last := first + strings.Count(needle, "\n") // the line holding the match's end
	if g.touched(first, last) {
		loc, ok := g.tryCrossing(e, be, x, hinted, opts)
		return loc, nil, ok
	}
	// The hit as finder.exactHits reports it, in the lines the edit sees.
	line := first + g.cumL[j]
	h := hit{start: o, end: o + len(needle), first: line, last: be.lastLine(line), cmp: levelExact}
	if startsBlankText(old) && g.f.inIndent(h.start) {
		return location{}, nil, false // not exact (matcher.inIndent): the indent rung reads the whole file
	}
	if LineOriented(e) && (o > 0 && g.orig[o-1] != '\n' || j > 0 && g.sp[j-1].end() == o) {
		loc, ok := g.tryCrossing(e, be, x, hinted, opts) // mid-line, or after a splice (matcher.midLine)
		return loc, nil, ok
	}
	loc, ok := g.plainWrite(e, be, h, opts)
	if be.kind == kindHoldsOld && !ok {
		// Not written as sent (a CRLF file, trimmed blanks): the ladder
		// writes it from the place's lines, asked over them alone, which
		// it reads of the current content (tryCrossing).
		loc, ok := g.tryCrossing(e, be, x, hinted, opts)
		return loc, nil, ok
	}
	if be.kind == kindHoldsOld && g.standsAround(e, be, line, last+g.cumL[j]) {
		// The ladder would look for the new text, in the whole content:
		// its to answer, unless it stands nowhere around the place.
		return location{}, nil, false
	}
	if !ok {
		var err *edit.Error
		if loc, err = locateIn(g.f, e, newPattern(e.Old), newPattern(e.New), opts, []hit{h}); err != nil {
			return location{}, nil, false // the plain path will report it
		}
	}
	if loc.Status != edit.StatusAlreadyApplied {
		if len(loc.Splices) != 1 || loc.Splices[0].At != h.start || loc.Splices[0].end() != h.end {
			return location{}, nil, false
		}
		sp := loc.Splices[0]
		g.accept(sp, first, last)
		// The splice as the edit saw it: at x of the current content.
		sp.At = x
		loc.Splices = []Splice{sp}
	}
	if hinted {
		loc.Strategy = edit.StrategyLineHint
	}
	return loc, nil, true
}

// tryMultiple answers e, whose old text (as needle, found at line
// starts only with lineStart) stands at two places at least in the
// current content, with the ladder's MULTIPLE_MATCHES where that is
// provably its answer: it finds every place the ladder keeps, or the
// first it lists where it stops there (see hitLimit), the edit's line
// hint picks none of them (pickByHint), and the edit written at the first two places makes
// different files, so it is not the same everywhere (sameEverywhere). The
// places are found through the key line's indexes, as occurrences finds
// them; their excerpts are read line by line from the current content,
// and the lines they are named by mapped to the disk by disk (nil: the
// same).
func (g *segment) tryMultiple(e *edit.Edit, be *batchEdit, needle string, lineStart bool, opts matchOptions, disk func(off int) int) (*edit.Error, bool) {
	old, nw := be.texts(e)
	if be.kind == kindHoldsOld || startsBlankText(old) && !lineStart {
		return nil, false // matcher.places looks for the new text; matcher.inIndent drops places
	}
	xs, ok := g.allOccurrences(needle, lineStart, maxListed)
	counted := true
	if ok && len(xs) >= maxListed {
		// The ladder stops at the first maxListed places, mid-line ones
		// among them (matcher.hitLimit), and then filters: without a
		// line hint, and where no place it stopped at starts inside a
		// line, it lists those and counts no more. Otherwise it finds
		// every place, keeps those at line starts, and counts them: the
		// places the index has, every one.
		every := e.Hint > 0
		if !every {
			if _, keyOff, _ := keyLine(needle, lineStart); lineStart && keyOff == 0 {
				// Its key line is its first, which a place inside a line
				// does not hold whole: the places inside lines are found
				// by the end of the line they start in (midLineBefore).
				if xs, ok = g.firstLineStarts(needle, maxListed); !ok || len(xs) < maxListed {
					return nil, false
				}
				every = g.midLineBefore(needle, xs[len(xs)-1])
			} else {
				if xs, ok = g.firstOccurrences(needle, lineStart, maxListed); !ok || len(xs) < maxListed {
					return nil, false
				}
				every = slices.ContainsFunc(xs, func(x int) bool { return lineStart && !g.startsLine(x) })
			}
			counted = false
		}
		if every {
			xs, ok = g.allOccurrences(needle, lineStart, math.MaxInt)
			counted = e.Hint > 0
		}
	}
	if !ok || len(xs) < 2 {
		return nil, false
	}
	total := len(xs)
	overlaps := false
	for i := 1; i < total; i++ {
		overlaps = overlaps || xs[i] < xs[i-1]+len(needle) // overlapping
	}
	if e.Hint == 0 {
		// Without a line hint the answer names the first places alone,
		// and counts the rest (errMultipleOf).
		xs = xs[:min(total, maxListed)]
	}
	hits := make([]hit, len(xs))
	for i, x := range xs {
		c := g.lineAt(x)
		hits[i] = hit{start: x, end: x + len(needle), first: c, last: be.lastLine(c), cmp: levelExact}
	}
	if !overlaps && e.Hint > 0 {
		if _, ok := pickByHint(hits, e.Hint, hintWindow(int(be.oldLines))); ok {
			return nil, false // written at the place it picks
		}
	}
	if counted && !overlaps && old != nw && hits[len(hits)-1].end-hits[0].start <= maxSameSpan {
		// sameEverywhere writes the edit at each place; written as sent
		// (finder.writesAsSent), the first two must make different files.
		// Elsewhere the ladder writes each place from its lines, asked
		// over them alone (ladderAt); a place where it writes nothing
		// fails sameEverywhere too.
		a, b := hits[0], hits[1]
		if g.mode == eolLF && !opts.TrimTrailingWS && be.plain && !(nw == "" && g.endsNoNL(b.end)) {
			if !g.resultsDiffer(Splice{At: a.start, Old: needle, New: nw}, Splice{At: b.start, Old: needle, New: nw}) {
				return nil, false
			}
		} else {
			la, ok := g.ladderAt(e, be, a.start, opts)
			if !ok {
				return nil, false
			}
			lb, ok := g.ladderAt(e, be, b.start, opts)
			if !ok {
				return nil, false
			}
			if la.Status == edit.StatusApplied && lb.Status == edit.StatusApplied && !g.resultsDiffer(la.Splices[0], lb.Splices[0]) {
				return nil, false
			}
		}
	}
	var toDisk func(k int) int
	shown := func(k int) int { return k + 1 }
	if disk != nil {
		n := g.lineCount()
		toDisk = func(k int) int {
			if k >= n {
				return k
			}
			return disk(g.currentLineStart(k))
		}
		shown = func(k int) int { return toDisk(k) + 1 }
	}
	if e.Hint > 0 {
		// The model's own retry most likely goes to the line it named.
		hits = nearestFirst(hits, e.Hint)
	}
	excerpt := func(first, last int) string {
		return excerptOf(first, min(last, g.lineCount()-1), func(c int) string {
			l, _ := g.currentLine(c)
			return l
		})
	}
	n := total
	if !counted {
		n = 0
	}
	// errMultipleOf names the lines of the first places alone.
	named := hits[:min(len(hits), maxNamed+1)]
	return errMultipleOf(wordsOf(e), shownHitsBy(named, toDisk), total, counted, overlaps, 1, everyHint(e, n), listedOf(hits, shown, excerpt)), true
}

// indexed returns the hash of needle's key line (keyLine's, for
// lineStart), orig's lines with that text and the key line's offset in
// needle; false when the needle is not indexed.
func (g *segment) indexed(needle string, lineStart bool) (key uint64, locs []keyLoc, keyOff int, ok bool) {
	line, keyOff, ok := keyLine(needle, lineStart)
	if !ok {
		return 0, nil, 0, false
	}
	key = lineHash(line)
	locs, ok = g.keys[key]
	return key, locs, keyOff, ok
}

// firstOccurrences returns the first limit places of needle in the
// current content, ascending, mid-line ones included (finder.exactHits
// with a limit); false when they are unknown: the needle is not indexed,
// or, when it was indexed for places at line starts (lineStart), its key
// line is its first, which a mid-line place does not hold whole.
func (g *segment) firstOccurrences(needle string, lineStart bool, limit int) ([]int, bool) {
	if _, keyOff, ok := keyLine(needle, lineStart); !ok || lineStart && keyOff == 0 {
		return nil, false
	}
	return g.firstPlaces(needle, lineStart, false, limit)
}

// firstLineStarts returns the first limit places of needle at line
// starts in the current content, ascending. False when the needle is not
// indexed.
func (g *segment) firstLineStarts(needle string, limit int) ([]int, bool) {
	return g.firstPlaces(needle, true, true, limit)
}

// firstPlaces returns the first limit places of needle that its key line
// (keyLine's, for lineStart) gives, ascending, only those at line starts
// when onlyLineStarts: those orig's lines give in order, and every one on
// a line a splice made, sorted in. False when the needle is not indexed.
func (g *segment) firstPlaces(needle string, lineStart, onlyLineStarts bool, limit int) ([]int, bool) {
	best, locs, keyOff, ok := g.indexed(needle, lineStart)
	if !ok {
		return nil, false
	}
	valid := func(x int) bool {
		return x >= 0 && x+len(needle) <= g.size() && g.equalAt(x, needle) && (!onlyLineStarts || g.startsLine(x))
	}
	var xs []int
	for _, z := range g.zones[best] {
		if j, ok := g.live(z); ok {
			if x := g.cStart(j) + z.rel - keyOff; valid(x) {
				xs = append(xs, x)
			}
		}
	}
	fromOrig := 0
	for _, kl := range locs {
		if fromOrig == limit {
			break
		}
		if x := kl.off + g.cumB[g.before(kl.off)] - keyOff; !g.touched(kl.line, kl.line) && valid(x) {
			xs = append(xs, x)
			fromOrig++
		}
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	return xs[:min(len(xs), limit)], true
}

// midLineBefore reports whether needle, whose first line is a whole line
// of it ending in "\n", stands in the current content at a place inside
// a line that starts before x. Such a place holds the first line and its
// ending at the end of a longer line: the places of those are found in
// orig once per first line and segment (a pass), and on the zone lines
// as the splices make them.
func (g *segment) midLineBefore(needle string, x int) bool {
	k := needle[:strings.IndexByte(needle, '\n')]
	if k == "" {
		return true // every line's end: not worth an index
	}
	le := g.lineEnds(k)
	for _, kl := range le.orig {
		o := kl.off + g.cumB[g.before(kl.off)]
		if g.touched(kl.line, kl.line) {
			continue // a zone line now: le.zones has it
		}
		if o >= x {
			break
		}
		if g.equalAt(o, needle) {
			return true
		}
	}
	for _, z := range le.zones {
		if j, ok := g.live(z); ok {
			if o := g.cStart(j) + z.rel; o < x && o+len(needle) <= g.size() && g.equalAt(o, needle) {
				return true
			}
		}
	}
	return false
}

// lineEnds returns the places of k followed by "\n" that start inside
// a line, made on first asking: a pass over orig, and over the zone
// lines the splices so far made.
func (g *segment) lineEnds(k string) *lineEnds {
	if le, ok := g.ends[k]; ok {
		return le
	}
	if g.ends == nil {
		g.ends = map[string]*lineEnds{}
	}
	g.scans++
	le := &lineEnds{}
	seek := k + "\n"
	line, counted := 0, 0
	for off := 0; ; {
		i := strings.Index(g.orig[off:], seek)
		if i < 0 {
			break
		}
		s := off + i
		if s > 0 && g.orig[s-1] != '\n' {
			line += strings.Count(g.orig[counted:s], "\n")
			counted = s
			le.orig = append(le.orig, keyLoc{line, s})
		}
		off = s + 1
	}
	for j, sp := range g.sp {
		g.forZoneLines(sp, func(l string, rel int) {
			if len(l) > len(k) && strings.HasSuffix(l, k) {
				le.zones = append(le.zones, zoneLine{at: sp.At, rel: rel + len(l) - len(k), id: g.zone[j].id})
			}
		})
	}
	g.ends[k] = le
	return le
}

// resultsDiffer reports that splicing a or b, splices of the current
// content, a before b and apart, gives different contents
// (finder.sameResult), reading a bounded stretch: what lies before a and
// after b is common, so the two read a's new text and the content from
// a's end to b's, and the content from a to b and b's new text. False
// when they agree as far as it reads.
func (g *segment) resultsDiffer(a, b Splice) bool {
	if len(a.New)-len(a.Old) != len(b.New)-len(b.Old) {
		return true
	}
	total := len(a.New) + b.end() - a.end()
	m := min(total, len(a.New)+len(a.Old)+len(b.New)+4096)
	left := a.New[:min(m, len(a.New))]
	if m > len(a.New) {
		left += g.read(a.end(), a.end()+m-len(a.New))
	}
	k := min(m, b.At-a.At)
	right := g.read(a.At, a.At+k) + b.New[:m-k]
	return left != right
}

// allOccurrences returns where needle occurs in the current content, as
// occurrences finds them, ascending, stopping at limit; false when the
// needle is not indexed.
func (g *segment) allOccurrences(needle string, lineStart bool, limit int) ([]int, bool) {
	best, locs, keyOff, ok := g.indexed(needle, lineStart)
	if !ok {
		return nil, false
	}
	var xs []int
	add := func(x int) bool {
		if x >= 0 && x+len(needle) <= g.size() && g.equalAt(x, needle) && (!lineStart || g.startsLine(x)) {
			xs = append(xs, x)
		}
		return len(xs) < limit
	}
	for _, kl := range locs {
		if !g.touched(kl.line, kl.line) && !add(kl.off+g.cumB[g.before(kl.off)]-keyOff) {
			return xs, true
		}
	}
	for _, z := range g.zones[best] {
		if j, ok := g.live(z); ok && !add(g.cStart(j)+z.rel-keyOff) {
			return xs, true
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs), true
}

// lineCount is the current content's number of lines, as indexLines
// counts them.
func (g *segment) lineCount() int {
	n := g.nl + g.cumL[len(g.sp)]
	if g.size() > 0 && !g.endsWith("\n") {
		n++
	}
	return n
}

// currentLineStart is the offset of the current content's line c (one
// of its lines).
func (g *segment) currentLineStart(c int) int {
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL[j] > c })
	if j > 0 {
		z, cs := g.zone[j-1], g.zone[j-1].first+g.cumL[j-1]
		if c <= cs+z.last-z.first+z.dLines {
			k, at := c-cs, 0
			g.forZoneLines(g.sp[j-1], func(_ string, rel int) {
				if k == 0 {
					at = rel
				}
				k--
			})
			return g.cStart(j-1) + at
		}
	}
	return int(g.f.lineIndex()[c-g.cumL[j]].start) + g.cumB[j]
}

// tryCrossing plans e, whose old text's one place (or the one its line
// hint picks: hinted) is at x of the current content, on or next to lines
// accepted splices made, or right after one. The ladder, given that
// exact hit, reads only the lines it spans (see locateIn): where the
// content has "\n" endings and the new text is written as sent
// (finder.writesAsSent) the batch writes it so itself; otherwise it asks
// the ladder, over those lines alone, read from the current content. The
// splices whose lines the place shares are then merged with it into one
// (replaceCurrent). A new text that holds the old is written where it
// stands nowhere around the place (standsAround); the rest is the plain
// path's.
func (g *segment) tryCrossing(e *edit.Edit, be *batchEdit, x int, hinted bool, opts matchOptions) (location, bool) {
	old, nw := be.texts(e)
	needle := needle(old, g.mode)
	y := x + len(needle)
	if (startsBlankText(old) || LineOriented(e)) && !g.startsLine(x) { // matcher.inIndent's, matcher.midLine's
		return location{}, false
	}
	first, last := g.lineAt(x), g.lineAt(y)
	asSent := g.mode == eolLF && !opts.TrimTrailingWS && be.plain && old != nw &&
		!(nw == "" && g.endsNoNL(y)) // finder.lastLineCut's
	if be.kind == kindHoldsOld && g.standsAround(e, be, first, last) {
		// The ladder would look for the new text in the whole content:
		// where it stands nowhere around the place, it finds none that
		// holds the place (matcher.places), and writes the place, from
		// its lines alone.
		return location{}, false
	}
	var loc location
	if asSent {
		loc = location{Splices: []Splice{{At: x, Old: old, New: nw}}, Strategy: edit.StrategyExact, Status: edit.StatusApplied,
			LineStart: first + 1, LineEnd: be.lastLine(first) + 1, Matched: old, Written: nw}
	} else {
		var ok bool
		if loc, ok = g.ladderAt(e, be, x, opts); !ok {
			return location{}, false
		}
	}
	if loc.Status != edit.StatusAlreadyApplied {
		g.replaceCurrent(x, y, loc.Splices[0].New)
	}
	if hinted {
		loc.Strategy = edit.StrategyLineHint
	}
	return loc, true
}

// ladderAt is what the ladder makes of e given the exact hit of its old
// text at x of the current content, asked over the lines the hit spans
// alone, read whole from the current content: all it reads of the file
// (see locateIn). The location's splice and lines are the current
// content's. False when it would read more, or when it writes anything
// but one splice of the hit.
func (g *segment) ladderAt(e *edit.Edit, be *batchEdit, x int, opts matchOptions) (location, bool) {
	old, _ := be.texts(e)
	y := x + len(needle(old, g.mode))
	if x > 0 && g.endsNoNL(y) {
		// A deletion there widens to the line ending before the hit
		// (finder.lastLineCut), which the lines read would not hold.
		return location{}, false
	}
	first, last := g.lineAt(x), g.lineAt(y)
	ws, we := g.currentLineStart(first), g.size()
	if last+1 < g.lineCount() {
		we = g.currentLineStart(last + 1)
	}
	f := newFinder(g.read(ws, we))
	if f.eolMode() != g.mode {
		return location{}, false
	}
	h := hit{start: x - ws, end: y - ws, first: 0, last: be.lastLine(0), cmp: levelExact}
	loc, err := locateIn(f, e, newPattern(e.Old), newPattern(e.New), opts, []hit{h})
	if err != nil || f.readAll || loc.Note != "" || loc.Read != nil {
		return location{}, false
	}
	loc.LineStart += first
	loc.LineEnd += first
	if loc.Status != edit.StatusAlreadyApplied {
		if len(loc.Splices) != 1 || loc.Splices[0].At != h.start || loc.Splices[0].end() != h.end {
			return location{}, false
		}
		loc.Splices[0].At = x
	}
	return loc, true
}

// standsAround reports whether e's new text, which holds its old text
// (kindHoldsOld), may stand at some rung around the old text's place on the
// current content's lines first to last: the sign the ladder reads of an
// insertion already made (matcher.places), which needs a place of the new
// text that holds the old text's one place. Such a place lies on the
// lines of the new text's length around it, so those lines alone are
// read, each with a "\n" after it (the end of a file without one too),
// and searched as the ladder would search them: false means the ladder
// finds no place of the new text there, and so none it would take for
// the insertion made.
func (g *segment) standsAround(e *edit.Edit, be *batchEdit, first, last int) bool {
	_, nw := be.texts(e)
	n := strings.Count(nw, "\n") + 1
	var b strings.Builder
	for c := max(first-n, 0); c <= last+n; c++ {
		l, ok := g.currentLine(c)
		if !ok {
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	around := b.String()
	if strings.Contains(around, nw) {
		return true
	}
	f, np := newFinder(around), newPattern(nw)
	for lv := levelTrailingWS; lv <= levelUnicode; lv++ {
		if len(f.lineHits(np, lv, false, 0, 1)) > 0 {
			return true
		}
	}
	return false
}

// plainWrite returns what the ladder makes of the exact hit h when it
// writes the new text as sent (finder.writesAsSent), without running it:
// batchable has ruled out placeholders, an insertion and anchors, which
// matcher.run would look at first. False when the ladder must judge
// (also when the new text is the old: already applied).
func (g *segment) plainWrite(e *edit.Edit, be *batchEdit, h hit, opts matchOptions) (location, bool) {
	old, new := be.texts(e)
	if old == new || !g.f.writesAsSent(h, opts.TrimTrailingWS, be.plain) || new == "" && g.f.endsNoNL(h.end) {
		return location{}, false // the last case is finder.lastLineCut's
	}
	return location{Splices: []Splice{g.f.splice(h.start, h.end, new)}, Strategy: edit.StrategyExact, Status: edit.StatusApplied,
		LineStart: h.first + 1, LineEnd: h.last + 1, Matched: g.orig[h.start:h.end], Written: new}, true
}

// accept adds sp, a splice of orig, whose zone is orig's lines first to
// last.
func (g *segment) accept(sp Splice, first, last int) {
	start, end, text := sp.At, sp.end(), sp.New
	// Line endings: "\r\n" pairs can only appear or vanish within a byte of
	// the splice, and those bytes are orig's.
	lo, hi := max(start-1, 0), min(end+1, len(g.orig))
	dCRLF := crlfJoined(g.orig[lo:start], text, g.orig[end:hi]) - strings.Count(g.orig[lo:hi], "\r\n")
	j := g.before(start)
	g.place(j, j, sp, first, last, dCRLF, start)
}

// replaceCurrent writes text for the current content's bytes x to y,
// which may lie on lines accepted splices made or cut through: the
// splices whose zones share a line with them are merged with it into
// one splice of orig, whose zone is theirs and the lines x to y stand
// on.
func (g *segment) replaceCurrent(x, y int, text string) {
	lo, hi := g.origLine(g.lineAt(x), true), g.origLine(g.lineAt(y), false)
	jlo := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].last >= lo })
	jhi := jlo
	for jhi < len(g.zone) && g.zone[jhi].first <= hi {
		jhi++
	}
	// The merged splice covers orig from S to E, the current content
	// from cs to ce.
	// Outside the merged splices' texts, x and y lie on orig's bytes: a
	// byte of a splice's text stands on a line of its zone.
	S, cs := g.origAt(x), x
	E, ce := g.origAt(y), y
	if jlo < jhi {
		if x >= g.cStart(jlo) {
			S, cs = g.sp[jlo].At, g.cStart(jlo)
		}
		if end := g.cStart(jhi-1) + len(g.sp[jhi-1].New); y <= end {
			E, ce = g.sp[jhi-1].end(), end
		}
	}
	merged := g.read(cs, x) + text + g.read(y, ce)
	// Line endings, as accept counts them, in the current content.
	dCRLF := crlfJoined(g.read(max(x-1, 0), x), text, g.read(y, min(y+1, g.size()))) -
		strings.Count(g.read(max(x-1, 0), min(y+1, g.size())), "\r\n")
	g.place(jlo, jhi, Splice{At: S, Old: g.orig[S:E], New: merged}, g.lineOf(S), g.lineOf(E), dCRLF, min(S, x))
}

// origAt is the orig offset of the current content's offset x, one on
// no splice's text (but at its ends).
func (g *segment) origAt(x int) int { return x - g.cumB[g.spliceAt(x)] }

// lineAt is the current content's 0-based line that holds offset x.
func (g *segment) lineAt(x int) int {
	j := g.spliceAt(x)
	if j < len(g.sp) && x >= g.cStart(j) {
		return g.zone[j].first + g.cumL[j] + strings.Count(g.sp[j].New[:x-g.cStart(j)], "\n")
	}
	return g.lineOf(x-g.cumB[j]) + g.cumL[j]
}

// read is the current content's bytes x to y.
func (g *segment) read(x, y int) string {
	var b strings.Builder
	for j := g.spliceAt(x); x < y; j++ {
		if j < len(g.sp) && x >= g.cStart(j) {
			t := g.sp[j].New[x-g.cStart(j):]
			n := min(len(t), y-x)
			b.WriteString(t[:n])
			x += n
			continue
		}
		o := x - g.cumB[j]
		lim := len(g.orig)
		if j < len(g.sp) {
			lim = g.sp[j].At
		}
		n := min(lim-o, y-x)
		b.WriteString(g.orig[o : o+n])
		x += n
		j--
	}
	return b.String()
}

// place puts sp, a splice of orig whose zone is orig's lines first to
// last, in place of the splices sp[jlo:jhi] (none when equal), which it
// covers; dCRLF is what it changes of the content's "\r\n" count, and
// at its first byte in orig or in the current content, the lower.
func (g *segment) place(jlo, jhi int, sp Splice, first, last, dCRLF, at int) {
	start, end, text := sp.At, sp.end(), sp.New
	if g.hs != nil {
		// The stream has the content up to orig[fed]: a splice before that
		// (edits out of file order), or at it after another, ends it.
		if start < g.fed || start == g.fed && g.fed > 0 {
			g.hs.Stop()
			g.hs = nil
		} else {
			g.hs.Feed(g.orig[g.fed:start])
			g.hs.Feed(text)
			g.fed = end
		}
	}
	dNL := strings.Count(text, "\n") - strings.Count(g.orig[start:end], "\n")
	g.ids++
	g.sp = slices.Replace(g.sp, jlo, jhi, sp)
	g.zone = slices.Replace(g.zone, jlo, jhi, zone{first: first, last: last, dLines: dNL, id: g.ids})
	n := min(len(g.cumB), len(g.sp)+1)
	g.cumB, g.cumL = g.cumB[:n], g.cumL[:n]
	for len(g.cumB) < len(g.sp)+1 {
		g.cumB = append(g.cumB, 0)
		g.cumL = append(g.cumL, 0)
	}
	for q := jlo; q < len(g.sp); q++ {
		g.cumB[q+1] = g.cumB[q] + len(g.sp[q].New) - len(g.sp[q].Old)
		g.cumL[q+1] = g.cumL[q] + g.zone[q].dLines
	}
	g.crlf += dCRLF
	mode := eolLF
	if g.crlf > 0 {
		mode = eolMixed
		if nl := g.nl + g.cumL[len(g.sp)]; g.crlf == nl {
			mode = eolCRLF
		}
	}
	// The zone's lines: what the splice's text makes of orig's lines first
	// to last, the lines of head+text+tail. Only the first and the last
	// join orig's bytes to the text's, and only they are joined, when
	// there is something to join: a splice of whole lines joins nothing.
	g.forZoneLines(sp, func(l string, rel int) {
		z := zoneLine{at: start, rel: rel, id: g.ids}
		// Only a key line is ever looked up (occurrences).
		if g.maybe.may(l) {
			h := lineHash(l)
			if _, key := g.keys[h]; key {
				g.zones[h] = append(g.zones[h], z)
			}
		}
		if g.loose != nil {
			g.loose.addZone(l, z)
		}
		for k, le := range g.ends {
			if len(l) > len(k) && strings.HasSuffix(l, k) {
				le.zones = append(le.zones, zoneLine{at: start, rel: rel + len(l) - len(k), id: g.ids})
			}
		}
	})
	// A change of line-ending mode changes the needles; a NUL, or new first
	// bytes without a BOM before them, may make the content binary: the
	// plain path judges what follows.
	if mode != g.mode || strings.IndexByte(text, 0) >= 0 || !g.hasBOM && at < 2 {
		g.closed = true
	}
}

// forZoneLines calls fn with each line of the zone of sp, a splice of
// orig, and where it starts relative to the splice's start (negative for
// the part of orig's line before it): the lines of head+text+tail, where
// head and tail are the rest of orig's lines the splice starts and ends
// in. Only the first and the last join orig's bytes to the text's, and
// only they are joined, when there is something to join: a splice of
// whole lines joins nothing.
func (g *segment) forZoneLines(sp Splice, fn func(line string, rel int)) {
	start, end := sp.At, sp.end()
	ls := lineStartAt(g.orig, start)
	head, tail := g.orig[ls:start], g.orig[end:lineEndAt(g.orig, end)]
	off, line, rest := 0, head, sp.New // line: the zone's line under way, up to rest
	for {
		k := strings.IndexByte(rest, '\n')
		l := rest
		if k >= 0 {
			l = rest[:k]
		} else if tail != "" {
			l += tail
		}
		if line != "" {
			l = line + l
			line = ""
		}
		fn(l, off-len(head))
		if k < 0 {
			break
		}
		off += len(l) + 1
		rest = rest[k+1:]
	}
}

// A looseIndex finds the lines of the current content by their looseKey,
// as finder.starts does for the ladder, for the keys a tolerant rung may
// look up: those of the run's edits' telling lines (tellingKey). Like the
// exact index, it holds orig's lines with such a key by number, and the
// lines accepted splices made with one. It is built when a segment's
// first edit needs a tolerant rung, and grows with the splices.
type looseIndex struct {
	maybe hashBits           // rules out most keys that are no telling line's
	lines map[uint64][]int32 // a telling key → orig's lines with it, ascending
	zone  map[uint64][]zoneLine
}

// addZone records z, a line a splice made whose text is l, if its key
// may be looked up.
func (lx *looseIndex) addZone(l string, z zoneLine) {
	k := looseKey(strings.TrimSuffix(l, "\r"))
	if !lx.maybe.has(k) {
		return
	}
	if _, ok := lx.lines[k]; ok {
		lx.zone[k] = append(lx.zone[k], z)
	}
}

// tellingKey is the looseKey of old's telling line, by which tryFound
// looks its places up; false for an empty text. room holds the lines.
func tellingKey(old string, room *[]string) (uint64, bool) {
	var p pattern
	body, ok := p.setText(old)
	if !ok {
		return 0, false
	}
	*room = splitInto(*room, body)
	p.lines = *room
	key := looseKey(p.lines[tellingLine(&p, false, 0)])
	clear(*room)
	return key, true
}

// zoneLineNumber is the 0-based line of the current content that z, a
// line a splice made, is.
func (g *segment) zoneLineNumber(z zoneLine) int {
	j := g.before(z.at)
	c := g.zone[j].first + g.cumL[j]
	if z.rel > 0 {
		c += strings.Count(g.sp[j].New[:z.rel], "\n")
	}
	return c
}

// currentLine is the current content's 0-based line c, without its line
// ending; false past the last line.
func (g *segment) currentLine(c int) (string, bool) {
	if c < 0 {
		return "", false
	}
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL[j] > c })
	if j > 0 {
		z, cs := g.zone[j-1], g.zone[j-1].first+g.cumL[j-1]
		if c <= cs+z.last-z.first+z.dLines {
			var line string
			k := c - cs
			g.forZoneLines(g.sp[j-1], func(l string, _ int) {
				if k == 0 {
					line = strings.TrimSuffix(l, "\r")
				}
				k--
			})
			return line, true
		}
	}
	lines := g.f.lineIndex()
	L := c - g.cumL[j]
	if L < 0 || L >= len(lines) {
		return "", false
	}
	return g.orig[lines[L].start:lines[L].end], true
}

// matchesAt reports whether op may match the current content's lines
// from c on at a line rung up to lv: the lines are read one by one and
// compared as the ladder compares them. Lines past the content, or a
// rung's doubt, say yes: the caller then leaves the edit to the plain path.
func (g *segment) matchesAt(op *pattern, c int, lv level) bool {
	if c < 0 {
		return false // no start the ladder tries (finder.starts)
	}
	var b strings.Builder
	for i := range op.lines {
		l, ok := g.currentLine(c + i)
		if !ok {
			return false // the ladder's starts stop there too
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	f := newFinder(b.String())
	for cmp := levelTrailingWS; cmp <= lv; cmp++ {
		if len(f.lineHitsAt(op, cmp, false, []int{0}, 1)) > 0 {
			return true
		}
	}
	return false
}

// looseIndex returns the segment's loose index, building it first.
func (g *segment) looseIndex() *looseIndex {
	if g.loose != nil {
		return g.loose
	}
	lx := &looseIndex{lines: map[uint64][]int32{}, zone: map[uint64][]zoneLine{}}
	var room []string
	for _, e := range g.run {
		if k, ok := tellingKey(e.Old, &room); ok {
			lx.maybe.set(k)
			lx.lines[k] = nil
		}
	}
	for L, k := range g.f.looseKeys() {
		if lx.maybe.has(k) {
			if ls, ok := lx.lines[k]; ok {
				lx.lines[k] = append(ls, int32(L))
			}
		}
	}
	for j, sp := range g.sp {
		g.forZoneLines(sp, func(l string, rel int) { lx.addZone(l, zoneLine{at: sp.At, rel: rel, id: g.zone[j].id}) })
	}
	g.loose = lx
	return lx
}

// lineOf is the orig line that holds offset o (the line after the last
// for the end of an orig that ends with a newline).
func (g *segment) lineOf(o int) int {
	lines := g.f.lineIndex()
	return min(sort.Search(len(lines), func(i int) bool { return int(lines[i].next) > o }), g.nl)
}

// tryFound plans e, whose old text the exact rung finds nowhere in the
// current content, at the first tolerant rung that finds it, where that
// is provably the plain path's answer: every line that could start a
// match at a line rung (by its telling line's looseKey, as finder.starts
// finds them) is a line of orig that no splice touched, as are the lines
// a match there would span, so the rungs find in orig exactly what they
// would in the current content; and they find one place. The file is
// indexed once per segment, not scanned once per edit.
func (g *segment) tryFound(e *edit.Edit, opts matchOptions) (location, bool) {
	if opts.Strict {
		return location{}, false
	}
	op := newPattern(e.Old)
	if op.blank || len(op.lines) == 0 || len(g.f.lineIndex()) > math.MaxInt32 {
		return location{}, false
	}
	ni := tellingLine(op, false, 0)
	lx := g.looseIndex()
	key := looseKey(op.lines[ni])
	orig, indexed := lx.lines[key]
	if !indexed {
		return location{}, false // not a telling key of the run (cannot happen)
	}
	n, lines := len(op.lines), g.f.lineIndex()
	// starts are orig's lines where a match may start; mixed the current
	// content's, where a match would span lines a splice made.
	var starts, mixed []int
	for _, L := range orig {
		k := int(L) - ni
		if k < 0 {
			continue
		}
		if k+n > len(lines) {
			break
		}
		if g.touched(int(L), int(L)) {
			continue // no line of the current content: a line a splice made is a zone line
		}
		if g.touched(k, k+n-1) {
			mixed = append(mixed, int(L)+g.cumL[g.before(int(lines[L].start))]-ni)
			continue
		}
		starts = append(starts, k)
	}
	if len(starts) == 0 {
		return location{}, false
	}
	var hits []hit
	lv := levelTrailingWS
	for ; lv <= levelUnicode; lv++ {
		if hits = g.f.lineHitsAt(op, lv, false, starts, 1<<30); len(hits) > 0 {
			break
		}
	}
	if len(hits) != 1 {
		return location{}, false // none (the rungs after are the plain path's), or several
	}
	for _, z := range lx.zone[key] {
		if _, ok := g.live(z); !ok {
			continue
		}
		mixed = append(mixed, g.zoneLineNumber(z)-ni)
	}
	for _, c := range mixed {
		if g.matchesAt(op, c, lv) {
			return location{}, false // another place, at this rung or a stricter one
		}
	}
	h := hits[0]
	last := g.lineOf(h.end)
	if g.touched(h.first, last) {
		return location{}, false
	}
	g.f.readAll = false
	np := newPattern(e.New)
	// batchable found the new text does not hold the old (try leaves one
	// that does to the plain path): the ladder need not look again.
	op.insNew, op.ins = np, false
	loc, err := locateFound(g.f, e, op, np, opts, lv, hits)
	if err != nil || g.f.readAll || loc.Note != "" || loc.Read != nil {
		return location{}, false
	}
	// The lines as the edit sees them.
	j := g.before(h.start)
	loc.LineStart += g.cumL[j]
	loc.LineEnd += g.cumL[j]
	if loc.Status != edit.StatusAlreadyApplied {
		if len(loc.Splices) != 1 || loc.Splices[0].At != h.start || loc.Splices[0].end() != h.end {
			return location{}, false
		}
		sp := loc.Splices[0]
		g.accept(sp, h.first, last)
		sp.At = h.start + g.cumB[j]
		loc.Splices = []Splice{sp}
	}
	return loc, true
}

// tryInsert plans e, an empty old text with a line hint, as finder.insert
// does, where the hinted line is one of orig's that no splice touched:
// the text goes before it, with the file's line ending, unless its lines
// stand there already (the plain path's answer, left to it).
func (g *segment) tryInsert(e *edit.Edit) (location, bool) {
	line := e.Hint - 1
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL[j] > line })
	if j > 0 {
		if z := g.zone[j-1]; line <= z.first+g.cumL[j-1]+z.last-z.first+z.dLines {
			return location{}, false // a line a splice made
		}
	}
	L := line - g.cumL[j]
	lines := g.f.lineIndex()
	if L < 0 || L >= len(lines) || g.touched(L, L) {
		return location{}, false // past the end (the plain path's to judge)
	}
	np := newPattern(e.New)
	same := true
	for i, l := range np.lines {
		c, ok := g.currentLine(line + i)
		if !ok || trimRight(c) != trimRight(l) {
			same = false
			break
		}
	}
	if same {
		return location{}, false // already applied
	}
	eol := eolOf(g.mode)
	text := strings.Join(np.lines, eol) + eol
	at := int(lines[L].start)
	sp := Splice{At: at, New: text}
	g.accept(sp, L, L)
	sp.At = at + g.cumB[g.before(at)]
	return location{Splices: []Splice{sp}, Strategy: edit.StrategyLineHint, Status: edit.StatusApplied,
		LineStart: line + 1, LineEnd: line + len(np.lines), Written: text}, true
}

// apart reports whether two occurrences of old that start lines can never
// overlap: it ends a line, and no later line of it is its first.
func apart(old string) bool {
	if !strings.HasSuffix(old, "\n") {
		return false
	}
	first, rest, _ := strings.Cut(old, "\n")
	for rest != "" {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		if l == first {
			return false
		}
	}
	return true
}

// origLine is the orig line that the current content's line c stands on;
// for a line a splice made, the first (lo) or the last orig line of its
// zone.
func (g *segment) origLine(c int, lo bool) int {
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL[j] > c })
	if j > 0 {
		z := g.zone[j-1]
		if c <= z.first+g.cumL[j-1]+z.last-z.first+z.dLines {
			if lo {
				return z.first
			}
			return z.last
		}
	}
	return c - g.cumL[j]
}

// byHint finds the occurrence of needle (one whose occurrences start lines
// and never overlap: apart) that a line hint picks, as the ladder's
// pickByHint does among every place, by looking only at the lines within
// window of the hint: a place farther away is never picked, and only
// matters to tell whether there was a choice (hinted). None there (nil,
// true) leaves the count of places to occurrences; false when the ladder
// would refuse (a tie) or needle is not indexed.
func (g *segment) byHint(needle string, hint, window int) (at []occurrence, keyOff int, hinted, ok bool) {
	best, locs, keyOff, ok := g.indexed(needle, true)
	if !ok {
		return nil, 0, false, false
	}
	kd := strings.Count(needle[:keyOff], "\n") // the key line, in lines after the match's first
	lo, hi := hint-1-window+kd, hint-1+window+kd
	var near []occurrence
	var hits []hit // near's first lines, as the edit sees them; start is the index in near
	others := 0    // places outside the window
	valid := func(x int) bool {
		return x >= 0 && x+len(needle) <= g.size() && g.equalAt(x, needle) && g.startsLine(x)
	}
	consider := func(x, c int, key keyLoc) {
		if !valid(x) {
			return
		}
		if c < lo || c > hi {
			others++
			return
		}
		hits = append(hits, hit{first: c - kd, start: len(near)})
		near = append(near, occurrence{x, key})
	}
	from := sort.Search(len(locs), func(i int) bool { return locs[i].line >= g.origLine(lo, true) })
	to, end := g.origLine(hi, false), from
	for ; end < len(locs) && locs[end].line <= to; end++ {
		kl := locs[end]
		if g.touched(kl.line, kl.line) {
			continue // a zone line now: the zone index has it
		}
		j := g.before(kl.off)
		consider(kl.off+g.cumB[j]-keyOff, kl.line+g.cumL[j], kl)
	}
	for _, z := range g.zones[best] {
		j, ok := g.live(z)
		if !ok {
			continue
		}
		c := g.zone[j].first + g.cumL[j]
		if z.rel > 0 {
			c += strings.Count(g.sp[j].New[:z.rel], "\n")
		}
		consider(g.cStart(j)+z.rel-keyOff, c, keyLoc{line: -1})
	}
	if len(near) == 0 {
		return nil, 0, false, true
	}
	h, ok := pickByHint(hits, hint, window)
	if !ok {
		return nil, 0, false, false // a tie: MULTIPLE_MATCHES, the plain path's to report
	}
	if len(near) == 1 && others == 0 {
		// Whether another place stands anywhere: the nearest ones first.
		for i := from - 1; i >= 0 && others == 0; i-- {
			if kl := locs[i]; !g.touched(kl.line, kl.line) && valid(kl.off+g.cumB[g.before(kl.off)]-keyOff) {
				others++
			}
		}
		for i := end; i < len(locs) && others == 0; i++ {
			if kl := locs[i]; !g.touched(kl.line, kl.line) && valid(kl.off+g.cumB[g.before(kl.off)]-keyOff) {
				others++
			}
		}
	}
	return []occurrence{near[h.start]}, keyOff, len(near) > 1 || others > 0, true
}

// flush returns the content with the accepted splices applied, and
// whether there were any, and forgets them. It ends the stream, if any
// (see endStream).
func (g *segment) flush(runEnds bool) (string, bool) {
	changed := len(g.sp) > 0
	var out string
	if changed {
		out = joined(g.orig, g.sp)
		// The segment ends: its indexes, of orig, go with it, even
		// while something still holds the segment.
		g.sp, g.zone = nil, nil
		g.f, g.keys, g.maybe, g.zones, g.loose, g.ends = nil, nil, nil, nil, nil, nil
	}
	g.endStream(runEnds && changed)
	return out, changed
}

// appendPieces appends the content with the accepted splices applied to
// ps, as its pieces in order, none empty, and adds their length to n.
func (g *segment) appendPieces(ps []string, n int) ([]string, int) {
	add := func(p string) {
		if p != "" {
			ps = append(ps, p)
			n += len(p)
		}
	}
	for p := range pieces(g.orig, g.sp) {
		add(p)
	}
	return ps, n
}

// endStream ends the stream, if any: when made says no edit follows and
// the segment's splices made the content, the stream is fed the rest and
// left for its owner to finish; otherwise it is stopped.
func (g *segment) endStream(made bool) {
	if g.hs == nil {
		return
	}
	if made {
		g.hs.Feed(g.orig[g.fed:])
	} else {
		g.hs.Stop()
	}
	g.hs = nil
}
