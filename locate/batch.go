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
//     matched lines alone; a new text that holds the old, only where it
//     stands nowhere around the place (standsAround).
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
//     the same file at each; a one-line quote's count of every place is
//     kept from splice to splice (placesOfLine).

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
	// runB and runL are the bytes and "\n" the splices before this one
	// add to the content, counted from an origin place moves so that a
	// splice placed before the others changes no count after it (see
	// segment.cumB).
	runB, runL int
}

// A zoneLine is a line of the current content that a splice made: it
// starts at the coordinate rel of the text the batch wrote (see chunk),
// which finds the splice whose text holds it now, and where, for as long
// as the line stands.
type zoneLine struct {
	rel int
}

// live returns the splice z is a line of, and whether it still stands:
// false for a line a merge since rewrote.
func (g *segment) live(z zoneLine) (int, bool) {
	root, _, ok := g.standing(z.rel)
	if !ok {
		return 0, false
	}
	at := root.at
	j := g.before(at)
	return j, j < len(g.sp) && g.sp[j].At == at && g.sp[j].New.root == root
}

// zoneStart is where z, a line of sp[j] (live), starts in the current
// content.
func (g *segment) zoneStart(j int, z zoneLine) int {
	_, off, _ := g.standing(z.rel)
	return g.cStart(j) + off
}

// zoneLineOf is the zone line of sp[j] that starts at rel (from the
// splice's start).
func (g *segment) zoneLineOf(j, rel int) zoneLine {
	return zoneLine{rel: coordAt(&g.sp[j].New, rel)}
}

// A held splice is one the segment accepted: Old, orig's bytes at At,
// becomes New.
type held struct {
	At  int
	Old string
	New rope
}

func (x *held) end() int { return x.At + len(x.Old) }

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
	sp     []held                // accepted, of orig, ascending
	zone   []zone                // zone[j] is sp[j]'s
	crlf   int                   // "\r\n" in the current content
	mode   int                   // eolLF or eolCRLF: the mode orig had, and the current content has
	closed bool                  // the last splice changed something the batch assumes: flush before the next edit
	// chunks are the texts the splices wrote, by coordinate (rope.go);
	// coords is the first coordinate none took.
	chunks []*chunk
	coords int
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
	// linesIndexed counts the zone lines the splices' indexing read, and
	// mergeBytes the bytes merges read to make their texts: what a run of
	// merges costs beyond its edits' own bytes (tests hold them).
	linesIndexed, mergeBytes int
	// placeMoves counts the splices and zones place copied and the
	// running counts it changed (tests hold them).
	placeMoves int
	// tallies count the places of the one-line quotes refused with every
	// place at a line start counted (placesOfLine), by their line's hash.
	tallies map[uint64]*lineTally
	// spans count the places of the quotes of several lines refused so
	// (placesOf); spanLines is the most lines one of them has.
	spans     []*spanTally
	spanLines int
	// tallyLines counts the lines the tallies' upkeep read (untally,
	// retally): tests hold it to the lines the splices change.
	tallyLines int
	// visits counts the places the indexes gave that were looked at
	// (Doc.visits).
	visits int
	// skips lets walks of a key line's orig lines pass over those
	// splices touched (untouchedFrom), by the key line's hash.
	skips map[uint64]*[]int32
	// backSkips are skips for the walks towards the file's start
	// (untouchedBefore).
	backSkips map[uint64]*[]int32
	// zruns are the sorted runs of a key's zone lines (zoneRuns) and
	// their skip forest; zoneSkips counts the lines walks found gone
	// (liveFrom), and zoneSorts the lines sorting and merging the runs
	// read (tests hold them).
	zruns                map[uint64]*zoneRuns
	zoneSkips, zoneSorts int
	// next are its key lines in the content its flush made, for the
	// segment after it (carryKeys); keyRead counts the lines of content
	// read to find its own (tests hold them).
	next    *carriedKeys
	keyRead int
	// wins finds the places of quotes whose key line stands too often to
	// walk (windows.go); nil until one needs it. windowed counts the
	// edits whose places it found, and windowReads the lines of the
	// content its upkeep read (tests hold it).
	wins                  *windowIndex
	windowed, windowReads int
	// spq and zoneq hold sp and zone with room at both ends (place);
	// endB and endL are zone.runB and runL past the last splice.
	spq        deque[held]
	zoneq      deque[zone]
	endB, endL int
}

// lineEnds are where the current content holds a line k followed by a
// line ending, starting inside a line: in orig, at lines no splice had
// touched when they were found, ascending; and on zone lines (rel is
// where k starts), as the splices made them.
type lineEnds struct {
	orig  []keyLoc
	zones []zoneLine
	skip  []int32 // the walk's skip forest for orig (untouchedFrom)
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
func newSegment(body string, hasBOM bool, es []*edit.Edit, bes []batchEdit, ck *carriedKeys) *segment {
	g := &segment{orig: body, hasBOM: hasBOM, f: newFinder(body), run: es}
	if ck != nil && ck.body == body {
		g.mode = ck.mode
	} else {
		ck, g.mode = nil, g.f.eolMode()
	}
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
		h := g.maybe.add(line)
		if ck != nil {
			var ok bool
			if g.keys[h], ok = ck.keys[h]; !ok {
				ck = nil // a key line the segment before did not index
			}
		} else {
			g.keys[h] = nil
		}
	}
	if ck != nil {
		g.nl, g.crlf, g.keyRead = ck.nl, ck.crlf, ck.read
		g.zones = map[uint64][]zoneLine{}
		return g
	}
	for h := range g.keys {
		g.keys[h] = nil
	}
	// No index of every line's start: the batch needs only the key
	// lines', and finds the rest of a match's lines next to them.
	g.keyRead = g.keyLinesIn(body, 0, len(body), 0, func(h uint64, kl keyLoc) { g.keys[h] = append(g.keys[h], kl) })
	g.nl = g.keyRead - 1
	if g.mode == eolCRLF {
		g.crlf = g.nl
	}
	g.zones = map[uint64][]zoneLine{}
	return g
}

// keyLinesIn calls add with each line of body equal to a key line, and
// its place, from the line that starts at off up to the one that holds
// stop (a "\n", or len(body): the last line, empty after a final "\n"),
// numbering the first line; it returns how many lines it read.
func (g *segment) keyLinesIn(body string, off, stop, line int, add func(h uint64, kl keyLoc)) int {
	n := 0
	for ; off <= stop; n++ {
		end := len(body)
		if k := strings.IndexByte(body[off:], '\n'); k >= 0 {
			end = off + k
		}
		if g.maybe.may(body[off:end]) {
			h := lineHash(body[off:end])
			if _, ok := g.keys[h]; ok {
				add(h, keyLoc{line + n, off})
			}
		}
		off = end + 1
	}
	return n
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

// runB is zone[j].runB, or endB past the last splice.
func (g *segment) runB(j int) int {
	if j == len(g.zone) {
		return g.endB
	}
	return g.zone[j].runB
}

// runL is zone[j].runL, or endL past the last splice.
func (g *segment) runL(j int) int {
	if j == len(g.zone) {
		return g.endL
	}
	return g.zone[j].runL
}

// cumB is the bytes sp[:j] add to the content.
func (g *segment) cumB(j int) int { return g.runB(j) - g.runB(0) }

// cumL is the "\n" sp[:j] add to the content.
func (g *segment) cumL(j int) int { return g.runL(j) - g.runL(0) }

// size is the current content's length.
func (g *segment) size() int { return len(g.orig) + g.cumB(len(g.sp)) }

// cStart is where sp[j]'s text starts in the current content.
func (g *segment) cStart(j int) int { return g.sp[j].At + g.cumB(j) }

// touched reports whether a splice's zone spans an orig line from first to
// last.
func (g *segment) touched(first, last int) bool {
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].last >= first })
	return j < len(g.zone) && g.zone[j].first <= last
}

// spliceAt returns the first accepted splice whose text ends after x, an
// offset in the current content (len(g.sp) when none does).
func (g *segment) spliceAt(x int) int {
	return sort.Search(len(g.sp), func(j int) bool { return g.cStart(j)+g.sp[j].New.len() > x })
}

// equalAt reports whether the current content holds s at offset x (x and
// x+len(s) within it).
func (g *segment) equalAt(x int, s string) bool {
	j := g.spliceAt(x)
	for s != "" {
		if j < len(g.sp) && x >= g.cStart(j) {
			t, r := &g.sp[j].New, x-g.cStart(j)
			n := min(t.len()-r, len(s))
			if !t.equalAt(r, s[:n]) {
				return false
			}
			s, x, j = s[n:], x+n, j+1
			continue
		}
		o := x - g.cumB(j)
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

// origPlace returns x, where the place of needle whose key line, keyOff
// bytes in, is orig's line kl starts in the current content. Where no
// splice lies within the place or right before it (plain), its bytes and
// the one before them are orig's, moved by the splices before them: it
// also says whether needle stands there (at a line start, with
// lineStart) and gives its line, kl's so many lines up (keyLines,
// needle's lines before its key line). Elsewhere the caller reads the
// current content at x.
func (g *segment) origPlace(kl keyLoc, needle string, keyOff, keyLines int, lineStart bool) (x, c int, ok, plain bool) {
	j := g.before(kl.off)
	o := kl.off - keyOff
	x = o + g.cumB(j)
	if o < 0 || o+len(needle) > len(g.orig) || j > 0 && g.sp[j-1].end() >= o || j < len(g.sp) && g.sp[j].At < o+len(needle) {
		return x, 0, false, false
	}
	ok = g.orig[o:o+len(needle)] == needle && (!lineStart || o == 0 || g.orig[o-1] == '\n')
	return x, kl.line - keyLines + g.cumL(j), ok, true
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
		g.visits++
		if x < 0 || x+len(needle) > g.size() || !g.equalAt(x, needle) || lineStart && !g.startsLine(x) ||
			slices.ContainsFunc(at, func(o occurrence) bool { return o.x == x }) {
			return
		}
		at = append(at, occurrence{x, key})
	}
	// A quote whose key line stands too often to walk at each edit is
	// found by its window (windows.go), once a walk read a few places
	// without finding two (a quote refused for its many places finds
	// them at once, and needs no window).
	walked, noWindow := 0, len(g.keys[best])+len(g.zones[best]) <= walkPlaces
	byWindow := func() bool {
		if noWindow {
			return false
		}
		noWindow = true // asked once
		lines, off := wholeLines(needle, lineStart)
		if lines == nil {
			return false
		}
		w, h := g.windows(), hashLines(lines)
		if !w.want[len(lines)][h] {
			return false // not a quote of the run as judged: its windows are not made
		}
		at = at[:0]
		g.windowed++
		locs := g.keys[best]
		g.windowOccurrences(w, h, len(lines), off, func(x int) bool {
			n := len(at)
			if add(x, keyLoc{}); len(at) > n {
				at[n].key = g.keyLocAt(x+keyOff, locs)
			}
			return len(at) > 1
		})
		return true
	}
	for _, kl := range g.keys[best] {
		if g.touched(kl.line, kl.line) {
			continue // a zone line now; the zone index has it
		}
		if walked++; walked > walkFirst && byWindow() {
			return at, keyOff, true
		}
		add(kl.off+g.cumB(g.before(kl.off))-keyOff, kl)
		if len(at) > 1 {
			return at, keyOff, true
		}
	}
	for _, r := range g.zoneRuns(best) {
		for i, j := g.nextLive(r, 0); i < len(r.zs); i, j = g.nextLive(r, i+1) {
			if walked++; walked > walkFirst && byWindow() {
				return at, keyOff, true
			}
			if add(g.zoneStart(j, r.zs[i])-keyOff, keyLoc{line: -1}); len(at) > 1 {
				return at, keyOff, true
			}
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
			loc, ok := g.tryFound(e, be, opts)
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
	if o < 0 || j > 0 && g.sp[j-1].end() > o || j < len(g.sp) && g.sp[j].At < o+len(needle) || x != o+g.cumB(j) {
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
	line := first + g.cumL(j)
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
	if be.kind == kindHoldsOld && g.standsAround(e, be, line, last+g.cumL(j)) {
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
	tallied := -1 // the count of every place, where the segment keeps it
	// near, when not nil, are the places nearest the line hint, in the
	// order of the answer, and ends the first two places and the last:
	// what the answer needs of places the segment counts.
	var near []hit
	var ends [3]hit
	if ok && len(xs) >= maxListed {
		// The ladder stops at the first maxListed places, mid-line ones
		// among them (matcher.hitLimit), and then filters: without a
		// line hint, and where no place it stopped at starts inside a
		// line, it lists those and counts no more. Otherwise it finds
		// every place, keeps those at line starts, and counts them: the
		// places the index has, every one.
		every := e.Hint > 0
		starts := true // xs are places at line starts alone
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
				starts = !every
			}
			counted = false
		}
		if every && lineStart && (oneLine(needle) || spanTallied(needle)) && g.countable(needle) {
			// The count alone is needed beyond the first places at line
			// starts, or, with a line hint, those nearest it: the
			// segment keeps it. Such a quote's places never overlap.
			if tallied, ok = g.placesOf(needle); !ok {
				return nil, false
			}
			if e.Hint > 0 {
				if near, ends[0], ends[1], ends[2], ok = g.hintedPlaces(needle, e.Hint, maxListed, be.lastLine); !ok {
					return nil, false
				}
			} else if !starts {
				if xs, ok = g.firstLineStarts(needle, maxListed); !ok {
					return nil, false
				}
			}
		} else if every {
			xs, ok = g.allOccurrences(needle, lineStart, math.MaxInt)
			counted = e.Hint > 0
		}
	}
	if !ok || len(xs) < 2 {
		return nil, false
	}
	total := len(xs)
	if tallied >= 0 {
		total = tallied
	}
	overlaps := false
	for i := 1; i < len(xs) && near == nil; i++ {
		overlaps = overlaps || xs[i] < xs[i-1]+len(needle) // overlapping
	}
	if e.Hint == 0 {
		// Without a line hint the answer names the first places alone,
		// and counts the rest (errMultipleOf).
		xs = xs[:min(total, maxListed)]
	}
	hits := near
	if near == nil {
		hits = make([]hit, len(xs))
		for i, x := range xs {
			c := g.lineAt(x)
			hits[i] = hit{start: x, end: x + len(needle), first: c, last: be.lastLine(c), cmp: levelExact}
		}
		ends = [3]hit{hits[0], hits[1], hits[len(hits)-1]}
	}
	if !overlaps && e.Hint > 0 {
		if _, ok := pickByHint(hits, e.Hint, hintWindow(int(be.oldLines))); ok {
			return nil, false // written at the place it picks
		}
	}
	if counted && !overlaps && old != nw && ends[2].end-ends[0].start <= maxSameSpan {
		// sameEverywhere writes the edit at each place; written as sent
		// (finder.writesAsSent), the first two must make different files.
		// Elsewhere the ladder writes each place from its lines, asked
		// over them alone (ladderAt); a place where it writes nothing
		// fails sameEverywhere too.
		a, b := ends[0], ends[1]
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
	if e.Hint > 0 && near == nil {
		// The model's own retry most likely goes to the line it named
		// (hintedPlaces gives them so already).
		hits = nearestFirst(hits, e.Hint)
	}
	excerpt := func(first, last int) string {
		return excerptOf(first, min(last, g.lineCount()-1), func(c int) string {
			l, _ := g.currentLine(c)
			return l
		})
	}
	if lineStart && strings.HasSuffix(needle, "\n") {
		// Every place listed holds needle's lines whole, from a line
		// start: one excerpt stands for them all.
		whole, read := "", false
		lines := excerpt
		excerpt = func(first, last int) string {
			if !read {
				whole, read = lines(first, last), true
			}
			return whole
		}
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
		g.visits++
		return x >= 0 && x+len(needle) <= g.size() && g.equalAt(x, needle) && (!onlyLineStarts || g.startsLine(x))
	}
	var xs []int
	// The zone lines' first places: the sorted runs merged, each read
	// from its head in turn, so that the answer reads the first lines
	// and one more a run, not the first of every run.
	runs := g.zoneRuns(best)
	heads := make([]struct{ i, at int }, len(runs)) // a run's next line and its start, -1 past its end
	load := func(k int) {
		r, h := runs[k], &heads[k]
		var j int
		if h.i, j = g.nextLive(r, h.i); h.i == len(r.zs) {
			h.at = -1
		} else {
			h.at = g.zoneStart(j, r.zs[h.i])
		}
	}
	for k := range runs {
		load(k)
	}
	for len(xs) < limit {
		next := -1
		for k, h := range heads {
			if h.at >= 0 && (next < 0 || h.at < heads[next].at) {
				next = k
			}
		}
		if next < 0 {
			break
		}
		if x := heads[next].at - keyOff; valid(x) {
			xs = append(xs, x)
		}
		heads[next].i++
		load(next)
	}
	fromOrig := 0
	skip := g.keySkip(best)
	for i := g.untouchedFrom(skip, locs, 0); i < len(locs) && fromOrig < limit; i = g.untouchedFrom(skip, locs, i+1) {
		kl := locs[i]
		if x := kl.off + g.cumB(g.before(kl.off)) - keyOff; valid(x) {
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
	for i := g.untouchedFrom(&le.skip, le.orig, 0); i < len(le.orig); i = g.untouchedFrom(&le.skip, le.orig, i+1) {
		// A touched line is a zone line now: le.zones has it.
		kl := le.orig[i]
		o := kl.off + g.cumB(g.before(kl.off))
		if o >= x {
			break
		}
		if g.equalAt(o, needle) {
			return true
		}
	}
	for _, z := range le.zones {
		g.visits++
		if j, ok := g.live(z); ok {
			if o := g.zoneStart(j, z); o < x && o+len(needle) <= g.size() && g.equalAt(o, needle) {
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
	for j := range g.sp {
		g.forZoneLines(&g.sp[j], func(l string, rel int) {
			if len(l) > len(k) && strings.HasSuffix(l, k) {
				le.zones = append(le.zones, g.zoneLineOf(j, rel+len(l)-len(k)))
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
		g.visits++
		if x >= 0 && x+len(needle) <= g.size() && g.equalAt(x, needle) && (!lineStart || g.startsLine(x)) {
			xs = append(xs, x)
		}
		return len(xs) < limit
	}
	keyLines := strings.Count(needle[:keyOff], "\n")
	skip := g.keySkip(best)
	for i := g.untouchedFrom(skip, locs, 0); i < len(locs); i = g.untouchedFrom(skip, locs, i+1) {
		x, _, ok, plain := g.origPlace(locs[i], needle, keyOff, keyLines, lineStart)
		if !plain {
			if !add(x) {
				return xs, true
			}
			continue
		}
		g.visits++
		if ok {
			if xs = append(xs, x); len(xs) >= limit {
				return xs, true
			}
		}
	}
	for _, r := range g.zoneRuns(best) {
		for i, j := g.nextLive(r, 0); i < len(r.zs); i, j = g.nextLive(r, i+1) {
			if !add(g.zoneStart(j, r.zs[i]) - keyOff) {
				return xs, true
			}
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs), true
}

// lineCount is the current content's number of lines, as indexLines
// counts them.
func (g *segment) lineCount() int {
	n := g.nl + g.cumL(len(g.sp))
	if g.size() > 0 && !g.endsWith("\n") {
		n++
	}
	return n
}

// currentLineStart is the offset of the current content's line c (one
// of its lines).
func (g *segment) currentLineStart(c int) int {
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL(j) > c })
	if j > 0 {
		z, cs := g.zone[j-1], g.zone[j-1].first+g.cumL(j-1)
		if c <= cs+z.last-z.first+z.dLines {
			_, at := g.zoneLineAt(j-1, c-cs, false)
			return g.cStart(j-1) + at
		}
	}
	return int(g.f.lineIndex()[c-g.cumL(j)].start) + g.cumB(j)
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
	g.untally(j, j, start, end, keepNone)
	x := start + g.cumB(j) // in the current content
	from := g.untallySpans(x, x+len(sp.Old))
	n := g.newChunk(text, start-lineStartAt(g.orig, start), lineEndAt(g.orig, end)-end)
	g.place(j, j, held{At: sp.At, Old: sp.Old, New: rope{root: n}}, placing{
		zone:  zone{first: first, last: last, dLines: strings.Count(text, "\n") - strings.Count(sp.Old, "\n")},
		dCRLF: dCRLF, at: start, nul: strings.IndexByte(text, 0) >= 0,
		chunk: n, from: math.MinInt, to: math.MaxInt,
	})
	g.retallySpans(from, x+len(text))
}

// replaceCurrent writes text for the current content's bytes x to y,
// which may lie on lines accepted splices made or cut through: the
// splices whose zones share a line with them are merged with it into
// one splice of orig, whose zone is theirs and the lines x to y stand
// on. The merged splice keeps, as they are, the text of the first of
// them before the line x is on and that of the last after the line y is
// on, with their lines and the coordinates they are indexed by; only the
// lines from the one of x to the one of y are written anew (a chunk) and
// indexed. So a merge costs its edit's lines, wherever in a long merged
// splice it lands.
func (g *segment) replaceCurrent(x, y int, text string) {
	from := g.untallySpans(x, y)
	lo, hi := g.origLine(g.lineAt(x), true), g.origLine(g.lineAt(y), false)
	jlo := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].last >= lo })
	jhi := jlo
	for jhi < len(g.zone) && g.zone[jhi].first <= hi {
		jhi++
	}
	// The merged splice covers orig from S to E, and starts at cs of
	// the current content. Outside the merged splices' texts, x and y lie
	// on orig's bytes: a byte of a splice's text stands on a line of its
	// zone.
	S, cs := g.origAt(x), x
	E := g.origAt(y)
	inFirst, inLast := false, false
	if jlo < jhi {
		if x >= g.cStart(jlo) {
			S, cs, inFirst = g.sp[jlo].At, g.cStart(jlo), true
		}
		if y <= g.cStart(jhi-1)+g.sp[jhi-1].New.len() {
			E, inLast = g.sp[jhi-1].end(), true
		}
	}
	// Line endings, as accept counts them, in the current content.
	dCRLF := crlfJoined(g.read(max(x-1, 0), x), text, g.read(y, min(y+1, g.size()))) -
		strings.Count(g.read(max(x-1, 0), min(y+1, g.size())), "\r\n")
	// The merged zone adds the "\n" its splices added, and text's in
	// place of the bytes x to y.
	dNL := g.cumL(jhi) - g.cumL(jlo) + strings.Count(text, "\n") - g.countNL(x, y)
	pl := placing{dCRLF: dCRLF, at: min(S, x), zone: zone{first: g.lineOf(S), last: g.lineOf(E), dLines: dNL}}
	// What is kept: sp[jlo]'s text before a, the start of the line x is
	// on, and sp[jhi-1]'s from b, the start of the line after y's; the
	// chunk is the content from L to R with text for x to y.
	a, b := 0, -1
	L, R := x, y
	if inFirst {
		t := &g.sp[jlo].New
		if k := t.nlBefore(min(x-cs, t.len())); k > 0 {
			a = t.nthNL(k) + 1
		}
		L = cs + a
	}
	if inLast {
		ts, t := g.cStart(jhi-1), &g.sp[jhi-1].New
		R = ts + t.len()
		if q := t.indexNL(max(y-ts, 0)); q >= 0 && q+1 < t.len() {
			b = q + 1
			R = ts + b
		}
	}
	var cb strings.Builder
	cb.Grow(x - L + len(text) + R - y)
	g.each(L, x, func(t string) { cb.WriteString(t) })
	cb.WriteString(text)
	g.each(y, R, func(t string) { cb.WriteString(t) })
	written := cb.String()
	g.mergeBytes += len(written)
	// The tallies lose the lines the merge rewrites, before the trees
	// the merged text keeps are cut.
	kept := keepNone
	if a > 0 {
		kept.before = a
	}
	if b >= 0 {
		kept.from = b
	}
	g.untally(jlo, jhi, S, E, kept)
	head, tail := 0, 0
	if a == 0 {
		head = S - lineStartAt(g.orig, S)
	}
	if b < 0 {
		tail = lineEndAt(g.orig, E) - E
	}
	n := g.newChunk(written, head, tail)
	var left, right *rnode
	for q := jlo; q < jhi; q++ {
		t := g.sp[q].New.root
		if q == jhi-1 && b >= 0 {
			t, right = splitAt(t, b)
		}
		if q == jlo && a > 0 {
			left, t = splitAt(t, a)
		}
		drop(t)
	}
	pl.chunk, pl.from, pl.to = n, math.MinInt, math.MaxInt
	if left != nil {
		pl.from = left.size
	}
	if right != nil {
		pl.to = size(left) + len(written)
	}
	pl.nul = strings.IndexByte(written, 0) >= 0
	g.place(jlo, jhi, held{At: S, Old: g.orig[S:E], New: rope{root: join(join(left, n), right)}}, pl)
	g.retallySpans(from, x+len(text))
}

// countNL is the number of "\n" in the current content's bytes x to y.
func (g *segment) countNL(x, y int) int {
	n := 0
	g.each(x, y, func(t string) { n += strings.Count(t, "\n") })
	return n
}

// origAt is the orig offset of the current content's offset x, one on
// no splice's text (but at its ends).
func (g *segment) origAt(x int) int { return x - g.cumB(g.spliceAt(x)) }

// lineAt is the current content's 0-based line that holds offset x.
func (g *segment) lineAt(x int) int {
	j := g.spliceAt(x)
	if j < len(g.sp) && x >= g.cStart(j) {
		return g.zone[j].first + g.cumL(j) + g.sp[j].New.nlBefore(x-g.cStart(j))
	}
	return g.lineOf(x-g.cumB(j)) + g.cumL(j)
}

// read is the current content's bytes x to y.
func (g *segment) read(x, y int) string {
	var b strings.Builder
	b.Grow(max(y-x, 0))
	g.each(x, y, func(t string) { b.WriteString(t) })
	return b.String()
}

// each calls fn with the current content's bytes x to y, as spans of
// orig and of the splices' texts, in order.
func (g *segment) each(x, y int, fn func(string)) {
	for j := g.spliceAt(x); x < y; j++ {
		if j < len(g.sp) && x >= g.cStart(j) {
			t := &g.sp[j].New
			n := min(t.len()-(x-g.cStart(j)), y-x)
			t.each(x-g.cStart(j), x-g.cStart(j)+n, fn)
			x += n
			continue
		}
		o := x - g.cumB(j)
		lim := len(g.orig)
		if j < len(g.sp) {
			lim = g.sp[j].At
		}
		n := min(lim-o, y-x)
		fn(g.orig[o : o+n])
		x += n
		j--
	}
}

// A placing is what place needs of a splice beside the splice itself:
// its zone's lines and "\n" (zone.first, last and dLines), what it
// changes of the content's "\r\n" count (dCRLF), its first byte in orig
// or in the current content, the lower (at), whether it brings a NUL
// into the content (nul), and the chunk of its text the batch wrote for
// it, whose lines are indexed: those that start at from or after it and
// before to (offsets of the text, see forZoneLinesIn).
type placing struct {
	zone      zone
	dCRLF, at int
	nul       bool
	chunk     *rnode
	from, to  int
}

// place puts sp, a splice of orig, in place of the splices sp[jlo:jhi]
// (none when equal), which it covers.
func (g *segment) place(jlo, jhi int, sp held, pl placing) {
	start, end := sp.At, sp.end()
	if g.hs != nil {
		// The stream has the content up to orig[fed]: a splice before that
		// (edits out of file order), or at it after another, ends it.
		if start < g.fed || start == g.fed && g.fed > 0 {
			g.hs.Stop()
			g.hs = nil
		} else {
			g.hs.Feed(g.orig[g.fed:start])
			sp.New.each(0, sp.New.len(), g.hs.Feed)
			g.fed = end
		}
	}
	z := pl.zone
	sp.New.root.at = start
	// The splices on the shorter side of jlo:jhi move, and only their
	// running counts change: those before it, counted down, when it
	// lies nearer the front.
	front := jlo < len(g.sp)-jhi
	adds := sp.New.len() - len(sp.Old)
	dB := adds - (g.runB(jhi) - g.runB(jlo))
	dL := z.dLines - (g.runL(jhi) - g.runL(jlo))
	if front {
		z.runB, z.runL = g.runB(jhi)-adds, g.runL(jhi)-z.dLines
		for q := range jlo {
			g.zone[q].runB -= dB
			g.zone[q].runL -= dL
		}
		g.placeMoves += jlo
	} else {
		z.runB, z.runL = g.runB(jlo), g.runL(jlo)
		for q := jhi; q < len(g.zone); q++ {
			g.zone[q].runB += dB
			g.zone[q].runL += dL
		}
		g.placeMoves += len(g.zone) - jhi
		g.endB += dB
		g.endL += dL
	}
	var moved, zmoved int
	g.sp, moved = g.spq.replace(jlo, jhi, sp, front)
	g.zone, zmoved = g.zoneq.replace(jlo, jhi, z, front)
	g.placeMoves += moved + zmoved
	g.crlf += pl.dCRLF
	mode := eolLF
	if g.crlf > 0 {
		mode = eolMixed
		if nl := g.nl + g.cumL(len(g.sp)); g.crlf == nl {
			mode = eolCRLF
		}
	}
	// The zone's lines: what the splice's text makes of orig's lines first
	// to last, the lines of head+text+tail; of a merged splice, those of
	// the chunk it wrote. Each is indexed by the coordinate of its start,
	// one of the chunk's.
	base := pl.chunk.v // less the chunk's offset in the text
	if pl.from != math.MinInt {
		base -= pl.from
	}
	g.retally(&g.sp[jlo], pl.from, pl.to)
	var written zoneLines // for the window index, when made
	g.forZoneLinesIn(&g.sp[jlo], pl.from, pl.to, func(l string, rel int) {
		g.linesIndexed++
		zl := zoneLine{rel: base + rel}
		if g.wins != nil {
			written.add(zl, l)
		}
		// Only a key line is ever looked up (occurrences).
		if g.maybe.may(l) {
			h := lineHash(l)
			if _, key := g.keys[h]; key {
				g.zones[h] = append(g.zones[h], zl)
			}
		}
		if g.loose != nil {
			g.loose.addZone(l, zl)
		}
		for k, le := range g.ends {
			if len(l) > len(k) && strings.HasSuffix(l, k) {
				le.zones = append(le.zones, zoneLine{rel: zl.rel + len(l) - len(k)})
			}
		}
	})
	g.addZoneWindows(jlo, &written)
	// A change of line-ending mode changes the needles; a NUL, or new first
	// bytes without a BOM before them, may make the content binary: the
	// plain path judges what follows.
	if mode != g.mode || pl.nul || !g.hasBOM && pl.at < 2 {
		g.closed = true
	}
}

// zoneLineAt returns the k-th line (from 0) of the zone of sp[j], read
// when read is set, and where it starts relative to the splice's start,
// as forZoneLines gives them: the text's lines are found by its "\n"
// counts, not read up to there.
func (g *segment) zoneLineAt(j, k int, read bool) (line string, rel int) {
	sp := &g.sp[j]
	t := &sp.New
	head := g.orig[lineStartAt(g.orig, sp.At):sp.At]
	p := 0
	rel = -len(head)
	if k > 0 {
		p = t.nthNL(k) + 1
		rel = p
	}
	if !read {
		return "", rel
	}
	if q := t.indexNL(p); q >= 0 {
		line = t.slice(p, q)
	} else {
		line = t.slice(p, t.len())
		if end := sp.end(); end < lineEndAt(g.orig, end) {
			line += g.orig[end:lineEndAt(g.orig, end)]
		}
	}
	if k == 0 && head != "" {
		line = head + line
	}
	return line, rel
}

// forZoneLines calls fn with each line of the zone of sp, a splice of
// orig, and where it starts relative to the splice's start (negative for
// the part of orig's line before it): the lines of head+text+tail, where
// head and tail are the rest of orig's lines the splice starts and ends
// in. Only the first and the last join orig's bytes to the text's, and
// only they are joined, when there is something to join: a splice of
// whole lines joins nothing.
func (g *segment) forZoneLines(sp *held, fn func(line string, rel int)) {
	g.forZoneLinesIn(sp, math.MinInt, math.MaxInt, fn)
}

// forZoneLinesIn is forZoneLines for the lines that start at from or
// after it and before to (from is a line's start, relative to the
// splice's).
func (g *segment) forZoneLinesIn(sp *held, from, to int, fn func(line string, rel int)) {
	start, end := sp.At, sp.end()
	ls := lineStartAt(g.orig, start)
	head, tail := g.orig[ls:start], g.orig[end:lineEndAt(g.orig, end)]
	t := &sp.New
	p := max(from, 0) // where the line under way starts in the text
	if from > -len(head) && p == 0 {
		// The first line, from orig's line the splice starts in, is not
		// asked for: the lines start after the text's first "\n".
		if p = t.indexNL(0) + 1; p == 0 {
			return
		}
	}
	for {
		rel := p
		if p == 0 {
			rel = -len(head)
		}
		if rel >= to {
			return
		}
		q := t.indexNL(p)
		var l string
		if q >= 0 {
			l = t.slice(p, q)
		} else if l = t.slice(p, t.len()); tail != "" {
			l += tail
		}
		if p == 0 && head != "" {
			l = head + l
		}
		fn(l, rel)
		if q < 0 {
			break
		}
		p = q + 1
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
	// byKey, when set, are orig's lines by loose key (the finder's
	// keyPostings): lines holds a key's lines once asked for (of), and
	// zone every zone line, whatever its key.
	byKey *postings
}

// of returns orig's lines with the telling key k, ascending, and whether
// k is indexed.
func (lx *looseIndex) of(k uint64) ([]int32, bool) {
	ls, ok := lx.lines[k]
	if ok || lx.byKey == nil {
		return ls, ok
	}
	ls = slices.Clone(lx.byKey.get(k))
	lx.lines[k] = ls
	return ls, true
}

// addZone records z, a line a splice made whose text is l, if its key
// may be looked up.
func (lx *looseIndex) addZone(l string, z zoneLine) {
	k := looseKey(strings.TrimSuffix(l, "\r"))
	if lx.byKey != nil {
		lx.zone[k] = append(lx.zone[k], z)
		return
	}
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
// line sp[j] made (live), is.
func (g *segment) zoneLineNumber(j int, z zoneLine) int {
	c := g.zone[j].first + g.cumL(j)
	if _, rel, _ := g.standing(z.rel); rel > 0 {
		c += g.sp[j].New.nlBefore(rel)
	}
	return c
}

// currentLine is the current content's 0-based line c, without its line
// ending; false past the last line.
func (g *segment) currentLine(c int) (string, bool) {
	if c < 0 {
		return "", false
	}
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL(j) > c })
	if j > 0 {
		z, cs := g.zone[j-1], g.zone[j-1].first+g.cumL(j-1)
		if c <= cs+z.last-z.first+z.dLines {
			line, _ := g.zoneLineAt(j-1, c-cs, true)
			return strings.TrimSuffix(line, "\r"), true
		}
	}
	lines := g.f.lineIndex()
	L := c - g.cumL(j)
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
	if g.f.keyPost != nil {
		// The finder has its lines by key already (carried past the
		// splices before, when a failure between landings made them):
		// each key's lines are read when tryFound asks, rather than
		// every line's key and every edit's telling line, a pass over
		// the file and the run's edits per segment.
		lx.byKey = g.f.keyPost
	} else {
		g.indexTelling(lx)
	}
	for j := range g.sp {
		g.forZoneLines(&g.sp[j], func(l string, rel int) { lx.addZone(l, g.zoneLineOf(j, rel)) })
	}
	g.loose = lx
	return lx
}

// indexTelling puts in lx orig's lines with the telling key of an edit of
// the run.
func (g *segment) indexTelling(lx *looseIndex) {
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
}

// lineOf is the orig line that holds offset o (the line after the last
// for the end of an orig that ends with a newline).
func (g *segment) lineOf(o int) int {
	lines := g.f.lineIndex()
	return min(sort.Search(len(lines), func(i int) bool { return int(lines[i].next) > o }), g.nl)
}

// foundPattern is the pattern of an old text for tryFound, judged only as
// far as the ladder reads it when given the places a line rung before
// elision found (locateFound), which compares every line with the file's
// and takes none for a gap: whether it is blank, every line blank or a
// placeholder, which a line that is neither decides. Its lines are not
// judged one by one (no gap or placeholder flags): most of a pattern's
// cost, for a text the batch finds in one place.
func foundPattern(old string) *pattern {
	op := splitPattern(old)
	op.blank = true
	for i, l := range op.lines {
		if !isBlank(l) && !IsPlaceholder(op.lines, i) {
			op.blank = false
			break
		}
	}
	return op
}

// tryFound plans e, whose old text the exact rung finds nowhere in the
// current content, at the first tolerant rung that finds it, where that
// is provably the plain path's answer: every line that could start a
// match at a line rung (by its telling line's looseKey, as finder.starts
// finds them) is a line of orig that no splice touched, as are the lines
// a match there would span, so the rungs find in orig exactly what they
// would in the current content; and they find one place. The file is
// indexed once per segment, not scanned once per edit.
func (g *segment) tryFound(e *edit.Edit, be *batchEdit, opts matchOptions) (location, bool) {
	if opts.Strict {
		return location{}, false
	}
	op := foundPattern(e.Old)
	if op.blank || len(op.lines) == 0 || len(g.f.lineIndex()) > math.MaxInt32 {
		return location{}, false
	}
	ni := tellingLine(op, false, 0)
	lx := g.looseIndex()
	key := looseKey(op.lines[ni])
	orig, indexed := lx.of(key)
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
			mixed = append(mixed, int(L)+g.cumL(g.before(int(lines[L].start)))-ni)
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
		if j, ok := g.live(z); ok {
			mixed = append(mixed, g.zoneLineNumber(j, z)-ni)
		}
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
	if d := g.cumL(g.before(h.start)); be.kind == kindHoldsOld && g.standsAround(e, be, h.first+d, last+d) {
		// A new text that holds the old: the ladder looks for it in
		// the whole content, and would take one standing around the
		// place for the edit made (matcher.places).
		return location{}, false
	}
	g.f.readAll = false
	// batchable found no placeholder in the new text, and the ladder,
	// given the places of a line rung before elision, reads none of its
	// lines' judgement (foundPattern). batchable also found whether the
	// new text holds the old, and where it does, it stands nowhere around
	// the place: the ladder's look for it, which would read orig, finds
	// none that holds the place.
	np := splitPattern(e.New)
	op.insNew, op.ins = np, false
	loc, err := locateFound(g.f, e, op, np, opts, lv, hits)
	if err != nil || g.f.readAll || loc.Note != "" || loc.Read != nil {
		return location{}, false
	}
	// The lines as the edit sees them.
	j := g.before(h.start)
	loc.LineStart += g.cumL(j)
	loc.LineEnd += g.cumL(j)
	if loc.Status != edit.StatusAlreadyApplied {
		if len(loc.Splices) != 1 || loc.Splices[0].At != h.start || loc.Splices[0].end() != h.end {
			return location{}, false
		}
		sp := loc.Splices[0]
		g.accept(sp, h.first, last)
		sp.At = h.start + g.cumB(j)
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
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL(j) > line })
	if j > 0 {
		if z := g.zone[j-1]; line <= z.first+g.cumL(j-1)+z.last-z.first+z.dLines {
			return location{}, false // a line a splice made
		}
	}
	L := line - g.cumL(j)
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
	sp.At = at + g.cumB(g.before(at))
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
	j := sort.Search(len(g.zone), func(j int) bool { return g.zone[j].first+g.cumL(j) > c })
	if j > 0 {
		z := g.zone[j-1]
		if c <= z.first+g.cumL(j-1)+z.last-z.first+z.dLines {
			if lo {
				return z.first
			}
			return z.last
		}
	}
	return c - g.cumL(j)
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
		g.visits++
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
		consider(kl.off+g.cumB(j)-keyOff, kl.line+g.cumL(j), kl)
	}
	// The zone lines in the window, found in each sorted run by a
	// search, so that a run of hinted edits does not read every line the
	// ones before it wrote.
	type zoneWindow struct {
		run      zoneRun
		from, to int
	}
	lineFrom := func(c int) func(j int, z zoneLine) bool {
		return func(j int, z zoneLine) bool { return g.zoneLineNumber(j, z) >= c }
	}
	runs := g.zoneRuns(best)
	windows := make([]zoneWindow, len(runs))
	for k, r := range runs {
		w := zoneWindow{r, g.zoneFrom(r, lineFrom(lo)), g.zoneFrom(r, lineFrom(hi+1))}
		for i, j := g.nextLive(r, w.from); i < w.to; i, j = g.nextLive(r, i+1) {
			consider(g.zoneStart(j, r.zs[i])-keyOff, g.zoneLineNumber(j, r.zs[i]), keyLoc{line: -1})
		}
		windows[k] = w
	}
	if len(near) == 0 {
		return nil, 0, false, true
	}
	h, ok := pickByHint(hits, hint, window)
	if !ok {
		return nil, 0, false, false // a tie: MULTIPLE_MATCHES, the plain path's to report
	}
	// Whether a zone line outside the window holds a place: the nearest
	// ones first.
	for _, w := range windows {
		zs := w.run.zs
		for i, j := g.prevLive(w.run, w.from-1); i >= 0 && len(near) == 1 && others == 0; i, j = g.prevLive(w.run, i-1) {
			if valid(g.zoneStart(j, zs[i]) - keyOff) {
				others++
			}
		}
		for i, j := g.nextLive(w.run, w.to); i < len(zs) && len(near) == 1 && others == 0; i, j = g.nextLive(w.run, i+1) {
			if valid(g.zoneStart(j, zs[i]) - keyOff) {
				others++
			}
		}
	}
	if len(near) == 1 && others == 0 {
		// Whether another place stands anywhere: the nearest ones first.
		for i := from - 1; i >= 0 && others == 0; i-- {
			if kl := locs[i]; !g.touched(kl.line, kl.line) && valid(kl.off+g.cumB(g.before(kl.off))-keyOff) {
				others++
			}
		}
		for i := end; i < len(locs) && others == 0; i++ {
			if kl := locs[i]; !g.touched(kl.line, kl.line) && valid(kl.off+g.cumB(g.before(kl.off))-keyOff) {
				others++
			}
		}
	}
	return []occurrence{near[h.start]}, keyOff, len(near) > 1 || others > 0, true
}

// flush returns the content with the accepted splices applied, and
// whether there were any, and forgets them. It stops the stream, if
// any: only Doc.Pieces feeds one to its end, where the segment's splices
// make the last content.
func (g *segment) flush() (string, bool) {
	changed := len(g.sp) > 0
	var out string
	if changed {
		var b strings.Builder
		b.Grow(g.size())
		g.each(0, g.size(), func(p string) { b.WriteString(p) })
		out = b.String()
		g.next = g.carryKeys(out)
		// The segment ends: its indexes, of orig, go with it, even
		// while something still holds the segment.
		g.sp, g.zone = nil, nil
		g.f, g.keys, g.maybe, g.zones, g.loose, g.ends, g.wins = nil, nil, nil, nil, nil, nil, nil
	}
	g.endStream(false)
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
	g.each(0, g.size(), add)
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

// A deque is a slice with room before it as well as after, so that
// replacing elements near either end moves only those between them and
// that end.
type deque[T any] struct {
	buf []T // buf[off:] is the slice
	off int
}

// replace replaces the slice's elements i to j by v and returns the
// slice, and how many elements it copied. It moves the elements before
// i when front is set, else those from j on.
func (q *deque[T]) replace(i, j int, v T, front bool) ([]T, int) {
	// Room made at an end is as much as the slice takes: growing there
	// costs a copy of the slice at most, amortized.
	n := len(q.buf) - q.off
	if !front {
		copied := n - j
		if i == j && len(q.buf) == cap(q.buf) {
			buf := make([]T, len(q.buf), len(q.buf)+n+4)
			copy(buf[q.off:], q.buf[q.off:])
			q.buf = buf
			copied += n
		}
		q.buf = slices.Replace(q.buf, q.off+i, q.off+j, v)
		return q.buf[q.off:], copied
	}
	copied := i
	if i == j && q.off == 0 {
		buf := make([]T, n+4+n, n+4+2*n+4)
		copy(buf[n+4:], q.buf)
		q.buf, q.off = buf, n+4
		copied += n
	}
	at := q.off + j - i - 1 // where the slice starts after
	copy(q.buf[at:at+i], q.buf[q.off:q.off+i])
	q.buf[at+i] = v
	if at > q.off {
		clear(q.buf[q.off:at]) // what the slice no longer holds, for the collector
	}
	q.off = at
	return q.buf[q.off:], copied
}
