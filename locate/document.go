package locate

import (
	"strings"

	"github.com/edapply/edapply/edit"
)

// The Result of a located Replace.
type Result struct {
	Status    edit.Status // edit.StatusApplied, or edit.StatusAlreadyApplied when the new text stands already
	Strategy  edit.Strategy
	LineStart int // 1-based, of the first match (or of the text already standing)
	LineEnd   int
	// Occurrences are the lines of each place replaced, in the content as
	// the edit saw it, when it replaced several (a replace_all); nil for one.
	Occurrences []edit.LineRange
	Matched     string // the file's text the first match covers
	Written     string // the text written in its place
	Note        string // how rungs 8 to 11 read the edit (rescue.go, blankedges.go, hunkedges.go, spacing.go); "" for the first seven
	// Splices are the splices the edit made, ascending and disjoint, in
	// the content as the edit saw it (the content NewDoc was given, BOM
	// included, as the edits before left it): one per place it replaced
	// (a replace_all makes several); none when already applied. Package
	// apply's check replays them.
	Splices []Splice
	// Read is the edit as a rescue or an edge rung read it (its old and
	// new text: line-number prefixes stripped, escapes undone, blank or
	// context lines at an edge left out), which package apply's check
	// judges the splices against; nil when it was read as written.
	Read *edit.Edit
}

// A Doc is one file's content as the edits given to it so far leave it.
// Replace takes one edit at a time and answers as the ladder would for
// that edit on that content. A run of edits that quote whole lines exactly
// is answered from the batch index (batch.go) where that is provably the
// same answer, without a scan or a copy of the file per edit; Doc decides,
// never its caller. FuzzBatchEquivalence holds the two to the same results.
//
// A Doc reads no file and starts no goroutine. Nothing it returns shares
// memory with the content it was given or with another result: the strings
// of a Result are copies, and Bytes makes new bytes (Pieces, which shares
// them, says so).
type Doc struct {
	opts   Options
	text   string // the content without its BOM (a segment's splices not yet applied)
	hasBOM bool
	moved  bool // the content differs from what NewDoc was given
	// pend are the ladder's splices of the last edit, checked but not yet
	// applied to text: the next edit applies them, and Bytes writes them
	// straight into the bytes, so a file's one edit costs one copy.
	pend []Splice

	binKnown, bin bool // whether text is binary, once asked
	binScanned    int  // the bytes read to judge that, for tests

	// queue are the edits expected, in order (Prepare): the batch indexes
	// them. judged[k] is what the batch makes of queue[k], judged when a
	// segment first needs it; nil until then.
	queue  []*edit.Edit
	judged []batchEdit
	next   int // queue[next] is the next expected
	// scratch is the room judging cuts an edit's lines in.
	scratch lineScratch

	seg *segment
	// keysAt are the key lines of the segment flushed last, in text,
	// for the next segment; nil once text changes otherwise (segcarry.go).
	keysAt *carriedKeys
	// fin is the ladder's finder over text, kept until text changes
	// (setText): what it derives from the content (lines, loose keys) serves
	// every edit that changes nothing, as when a reply is sent twice.
	fin *finder
	// room holds the arrays of the finder before fin, for the next carry
	// to write fin's successor's into (carry.go).
	room carryRoom
	// After the batch failed to help, it waits skip edits before it
	// builds a new segment (a pass over the file); backoff grows.
	skip, backoff int

	// stream, when set, is asked for a Stream as each segment starts;
	// streamWasted counts the bytes fed to the streams it stopped.
	stream       func(size, pieces int) Stream
	streamWasted int

	// disk maps the content's lines back to those of the content NewDoc
	// was given, for the lines an error names (disklines.go).
	disk diskMap
	// keyedLines counts the lines its finders keyed (finder.keyed), and
	// keyLines those its segments read to find their key lines.
	keyedLines, keyLines int
	// fresh makes each content's indexes afresh, none carried or shared
	// (carry.go): the answers a test compares carried indexes' with.
	fresh bool
	// passes counts the passes over the whole content the Doc made: a
	// segment started (its index, and a loose index at most), an edit
	// the ladder located, a segment's splices applied. Tests hold it to
	// a bound that does not grow with the edits (TestDocPasses).
	passes int
	// visits counts the places of an edit's lines the batch's indexes
	// gave that it looked at: held to a bound per edit that does not
	// grow with the places (TestRefusedPlaceVisits); windowed counts the
	// edits whose places a window found (windows.go).
	visits, windowed int
}

// NewDoc returns a Doc holding content, a file's text (a UTF-8 BOM
// included, which every edit keeps). The Doc reads content until its last
// call, and never writes it.
func NewDoc(content string, opts Options) *Doc {
	d := &Doc{opts: opts, text: content}
	if strings.HasPrefix(content, bom) {
		d.text, d.hasBOM = content[len(bom):], true
	}
	d.disk.orig = d.text
	return d
}

// Prepare tells d the edits it will be given next, in order, as Replace
// will be given them: the batch index is built for them. An edit not
// prepared is located by the ladder alone. The edits must stay unchanged
// while d is in use.
func (d *Doc) Prepare(es []*edit.Edit) { d.queue, d.judged, d.next = es, nil, 0 }

// judge returns what the batch makes of queue[k], judging it first.
func (d *Doc) judge(k int) *batchEdit {
	if d.judged == nil {
		d.judged = make([]batchEdit, len(d.queue))
	}
	be := &d.judged[k]
	if !be.known {
		*be = batchable(d.queue[k], &d.scratch)
		be.known = true
	}
	return be
}

// StreamTo makes d ask newStream, as each batch segment starts on content
// of size bytes, for a Stream to feed that takes up to pieces pieces; it
// may return nil. The stream of the last segment is fed the whole content
// when Bytes(true) returns what that segment made; any other is stopped.
func (d *Doc) StreamTo(newStream func(size, pieces int) Stream) { d.stream = newStream }

// Replace locates e (a Replace) in the content and applies it. The error
// carries Code, Msg, Hint and Candidates; the caller sets Path and Edit.
// The content changes only when the edit is applied. The lines an error
// names (its candidates' and its hint's) are those of the content NewDoc
// was given: the file on disk, when the edits before were never written
// since this one failed.
func (d *Doc) Replace(e *edit.Edit) (Result, *edit.Error) {
	r, err := d.replace(e)
	d.logged(r, err)
	return r, err
}

func (d *Doc) replace(e *edit.Edit) (Result, *edit.Error) {
	d.settle()
	k := -1
	for j := d.next; j < len(d.queue); j++ {
		// The next expected, unless edits were not given (the caller
		// took them elsewhere): then the batch skips them.
		if d.queue[j] == e {
			k, d.next = j, j+1
			break
		}
	}
	expected := k >= 0
	if d.seg == nil && len(d.text) > maxContent && !d.binary() {
		return Result{}, errTooLarge(len(d.text))
	}
	if d.seg != nil && d.seg.closed {
		d.flush()
		d.seg = nil
	}
	// The batch pays for a pass over the file once per segment: only for
	// an edit with at least one more to come.
	if expected && d.seg == nil && d.skip == 0 && d.next < len(d.queue) && d.judge(k).ok {
		if d.binary() {
			d.skip, d.backoff = nextBackoff(d.backoff)
		} else if d.seg = d.newSegment(k); d.seg == nil {
			// Mixed line endings: the ladder's business, until an edit
			// changes that.
			d.skip, d.backoff = nextBackoff(d.backoff)
		} else {
			d.startStream()
		}
	}
	if d.skip > 0 {
		d.skip--
	}
	if expected && d.seg != nil && d.judge(k).ok {
		var disk func(off int) int
		if len(d.disk.log) > 0 {
			disk = d.segmentDiskLine
		}
		scans := d.seg.scans
		visits, windowed := d.seg.visits, d.seg.windowed
		loc, err, ok := d.seg.try(e, d.judge(k), d.opts, disk)
		d.passes += d.seg.scans - scans
		d.visits += d.seg.visits - visits
		d.windowed += d.seg.windowed - windowed
		if ok {
			if err != nil {
				return Result{}, err
			}
			d.backoff = 0
			d.moved = d.moved || loc.Status != edit.StatusAlreadyApplied
			r := resultOf(loc, e)
			if loc.Status != edit.StatusAlreadyApplied {
				// try gives the splice in the current content's offsets,
				// over bytes of the segment's content no splice touched:
				// those it matched.
				x := loc.Splices[0]
				r.Splices = []Splice{{At: d.bomLen() + x.At, Old: r.Matched, New: r.Written}}
			}
			return r, nil
		}
	}
	// The ladder, on the content as the edits so far left it. A segment
	// that accepted splices ends with the flush, before the ladder
	// indexes the new content.
	hadSeg := d.seg != nil
	accepted := hadSeg && len(d.seg.sp) > 0
	d.flush()
	r, err := d.ladder(e)
	if hadSeg && (accepted || err == nil && r.Status != edit.StatusAlreadyApplied) {
		// The content moved on from the segment's. Rebuilding the segment
		// costs a pass over the file; after segments that accepted
		// nothing, wait a growing number of edits first.
		if !accepted {
			d.skip, d.backoff = nextBackoff(d.backoff)
		}
		d.seg = nil
	}
	return r, err
}

// Force is Replace for e, an edit that may not be found already applied:
// its new text standing, or an old text equal to it, is no answer, and it
// applies as its old text says or fails (NO_MATCH). A caller forces an
// edit whose text, found standing, a later edit of the same reply moves
// away or changes: only applied for real does it hold in the content the
// whole reply leaves. The ladder alone locates it, as an edit not
// expected.
func (d *Doc) Force(e *edit.Edit) (Result, *edit.Error) {
	d.settle()
	d.flush()
	d.seg = nil
	opts := d.opts
	opts.noAlready = true
	r, err := d.ladderWith(e, opts)
	d.logged(r, err)
	return r, err
}

// newSegment starts a segment for queue[k:] on the content: a pass. The
// segment and the ladder share one finder over the content, so that its
// indexes are built and held once.
func (d *Doc) newSegment(k int) *segment {
	d.passes++
	g := newSegment(d.text, d.hasBOM, d.queue[k:], d.judgeFrom(k), d.keysAt)
	d.keysAt = nil
	if g != nil {
		d.keyLines += g.keyRead
		d.disk.segFrom = len(d.disk.log)
		if d.fin != nil {
			g.f = d.fin
		} else {
			g.f.keyed = &d.keyedLines
			d.fin = g.f
		}
	}
	return g
}

// judgeFrom judges queue[k:] and returns what the batch makes of them.
func (d *Doc) judgeFrom(k int) []batchEdit {
	for j := k; j < len(d.queue); j++ {
		d.judge(j)
	}
	return d.judged[k:]
}

// ladder locates e by the ladder alone and applies it.
func (d *Doc) ladder(e *edit.Edit) (Result, *edit.Error) { return d.ladderWith(e, d.opts) }

// ladderWith is ladder with opts for the Doc's.
func (d *Doc) ladderWith(e *edit.Edit, opts Options) (Result, *edit.Error) {
	d.passes++
	if d.binary() {
		return Result{}, errBinary()
	}
	if len(d.text) > maxContent {
		return Result{}, errTooLarge(len(d.text))
	}
	if d.fin == nil {
		d.fin = newFinder(d.text)
		d.fin.keyed = &d.keyedLines
	}
	d.fin.disk = nil
	if len(d.disk.log) > 0 {
		d.fin.disk = d.diskLine
	}
	loc, err := locateIn(d.fin, e, newPattern(e.Old), newPattern(e.New), opts, nil)
	if err != nil {
		return Result{}, err
	}
	r := resultOf(loc, e)
	if loc.Status != edit.StatusAlreadyApplied {
		if serr := checkSplices(d.text, loc.Splices); serr != nil {
			return Result{}, serr
		}
		r.Splices = d.ownSplices(loc.Splices, r)
		d.pend, d.moved = loc.Splices, true
	}
	return r, nil
}

// ownSplices reports sp, the ladder's splices of d.text, as r's Splices:
// at their offsets in the content with its BOM, their old texts r's
// Matched where equal, else copies: as substrings they would keep every
// content the edits went through alive.
func (d *Doc) ownSplices(sp []Splice, r Result) []Splice {
	cs := make([]Splice, len(sp))
	for k, x := range sp {
		old := x.Old
		if old == r.Matched {
			old = r.Matched
		} else {
			old = strings.Clone(old)
		}
		// A splice's new text is built for it, never a substring of the
		// content.
		cs[k] = Splice{At: d.bomLen() + x.At, Old: old, New: x.New}
	}
	return cs
}

// bomLen is the length of the BOM the content starts with, which the
// offsets of a Result's Splices count.
func (d *Doc) bomLen() int {
	if d.hasBOM {
		return len(bom)
	}
	return 0
}

// resultOf is the Result of locating e. Matched and Written are copied:
// as substrings they would share the content's memory, and keep every
// intermediate content alive as long as the Result. Text equal to the
// edit's own Old or New is that string instead, which the caller holds
// anyway: an exact edit written as sent costs no copy.
func resultOf(loc location, e *edit.Edit) Result {
	return Result{Status: loc.Status, Strategy: loc.Strategy, LineStart: loc.LineStart, LineEnd: loc.LineEnd,
		Occurrences: loc.Occurrences, Matched: ownText(loc.Matched, e.Old, e.New), Written: ownText(loc.Written, e.New, e.Old), Note: loc.Note, Read: loc.Read}
}

// ownText is s, as one of the edit's strings when it equals one, else as
// a copy.
func ownText(s string, edits ...string) string {
	for _, t := range edits {
		if s == t {
			return t
		}
	}
	return strings.Clone(s)
}

// setText makes text, the content with the splices sp applied, the
// content. The finder's indexes are carried across sp rather than made
// again: a failing edit after edits that landed then keys only the
// lines those changed (carry.go).
func (d *Doc) setText(text string, sp []resize) {
	if d.fin != nil && !d.fresh {
		d.fin = d.room.carry(d.fin, sp, text)
	} else {
		d.fin, d.room = nil, carryRoom{}
	}
	d.binKnown = d.binKnown && !d.bin && !d.writesBinary(text, sp)
	d.text, d.moved = text, true
	d.keysAt = nil
}

// writesBinary reports whether the splices sp, which made text from a
// content known not to be binary, made it binary: only the bytes they
// wrote can hold a NUL, and only the first two a UTF-16 BOM. Asking that
// of the whole content cost a pass over the file per failure between
// landings.
func (d *Doc) writesBinary(text string, sp []resize) bool {
	if !d.hasBOM && (strings.HasPrefix(text, "\xFF\xFE") || strings.HasPrefix(text, "\xFE\xFF")) {
		return true
	}
	grown := 0 // the bytes the splices before added
	for _, x := range sp {
		at := x.at + grown
		if strings.IndexByte(text[at:at+x.new], 0) >= 0 {
			return true
		}
		grown += x.new - x.old
	}
	return false
}

// flush applies a segment's accepted splices to the content. A segment
// that had none stays for the edits to come; one that had is done: its
// index is of the content before them.
func (d *Doc) flush() {
	if d.seg == nil {
		return
	}
	g := d.seg
	sp := make([]resize, len(g.sp))
	for i, x := range g.sp {
		sp[i] = resize{x.At, len(x.Old), x.New.len()}
	}
	if text, ok := g.flush(); ok {
		d.passes++
		d.setText(text, sp)
		if !d.fresh {
			d.keysAt = g.next
		}
		g.next = nil
		d.seg = nil
	}
}

func (d *Doc) startStream() {
	// What a stopped stream was fed is hashed for nothing, and a new
	// segment's stream starts again at the content's first byte: in a
	// reply whose failures end segment after segment, a pass over the file
	// each. Once the streams stopped have been fed as much as the content
	// holds, the Doc starts no more, and its owner hashes the content made.
	if d.stream == nil || d.streamWasted >= len(d.text) {
		return
	}
	// Two pieces per splice, and the BOM and the rest.
	if s := d.stream(len(d.text), 2*(len(d.queue)-d.next+1)+2); s != nil {
		ws := &wasteStream{Stream: s, wasted: &d.streamWasted}
		d.seg.hs = ws
		if d.hasBOM {
			ws.Feed(bom)
		}
	}
}

// A wasteStream adds to *wasted the bytes it was fed when it is stopped.
type wasteStream struct {
	Stream
	fed    int
	wasted *int
}

func (s *wasteStream) Feed(piece string) {
	s.fed += len(piece)
	s.Stream.Feed(piece)
}

func (s *wasteStream) Stop() {
	*s.wasted += s.fed
	s.fed = 0
	s.Stream.Stop()
}

// binary reports whether the content is one edapply refuses to edit as
// text (see isBinary).
func (d *Doc) binary() bool {
	if !d.binKnown {
		d.binScanned += len(d.text)
		d.bin, d.binKnown = d.hasBOM && strings.IndexByte(d.text, 0) >= 0 || !d.hasBOM && isBinary(d.text), true
	}
	return d.bin
}

// Bytes returns the content, BOM included, and whether any edit changed
// it since NewDoc; the bytes are new, nil when unchanged. It ends d: no
// edit may follow. final says the plan ends too: the last segment's
// stream, if it made the content, is then fed all of it.
func (d *Doc) Bytes(final bool) ([]byte, bool) {
	ps, n, changed := d.Pieces(final)
	if ps == nil {
		return nil, changed
	}
	b := make([]byte, 0, n)
	for _, p := range ps {
		b = append(b, p...)
	}
	return b, changed
}

// Pieces is Bytes without the copy: the content as its pieces in order,
// none empty, and their total length n; nil when unchanged. The pieces
// are spans of the content NewDoc was given, of the edits' new texts and
// of the content between edits, shared, not copied: a caller that writes
// them to a file need not hold the new content whole beside the old. It
// ends d as Bytes does.
func (d *Doc) Pieces(final bool) (ps []string, n int, changed bool) {
	add := func(p string) {
		if p != "" {
			ps = append(ps, p)
			n += len(p)
		}
	}
	start := func(pieces int) {
		ps = make([]string, 0, pieces+2)
		if d.hasBOM {
			add(bom)
		}
	}
	made := false // the segment's splices made the bytes
	switch g := d.seg; {
	case d.pend != nil:
		// The splices go straight into the pieces: no string between.
		start(2 * len(d.pend))
		for p := range pieces(d.text, d.pend) {
			add(p)
		}
		d.pend = nil
	case g != nil && len(g.sp) > 0:
		start(2 * len(g.sp))
		ps, n = g.appendPieces(ps, n)
		d.moved, made = true, true
	case d.moved:
		start(1)
		add(d.text)
	}
	if d.seg != nil {
		d.seg.endStream(final && made)
		d.seg = nil
	}
	d.room = carryRoom{} // no carry follows
	return ps, n, d.moved
}

// Text returns the content without its BOM.
func (d *Doc) Text() string {
	d.settle()
	d.flush()
	return d.text
}

// isBinary reports whether content is a file edapply refuses to edit as
// text: one with a NUL byte anywhere, or a UTF-16 (or UTF-32) byte order
// mark. Bytes that are merely not UTF-8 are text (Windows-1252 and the
// like) and are edited byte for byte. The whole file is scanned, not a
// prefix: a NUL past the first 8 KiB still means a splice could cut
// through binary data.
func isBinary(content string) bool {
	return strings.HasPrefix(content, "\xFF\xFE") || strings.HasPrefix(content, "\xFE\xFF") || strings.IndexByte(content, 0) >= 0
}

func nextBackoff(b int) (skip, next int) {
	next = min(2*b+1, 64)
	return next, next
}

// settle applies the pending splices to the text.
func (d *Doc) settle() {
	if d.pend == nil {
		return
	}
	text := joined(d.text, d.pend)
	sp := resizesOf(d.pend)
	d.pend = nil
	d.setText(text, sp)
}

// checkSplices checks that every splice is in bounds of src, ascending and
// disjoint, as x/tools' diff.Apply does: a bad splice from the ladder is
// reported, never written.
func checkSplices(src string, sp []Splice) *edit.Error {
	last := 0
	for _, x := range sp {
		if x.At < last || x.end() > len(src) {
			return errBadSplice(x, last, len(src))
		}
		last = x.end()
	}
	return nil
}

// A Stream is fed a batch's content in order as its splices make it (the
// receipt's hash, computed while the edits are planned): substrings of the
// content, which it must not keep past Stop. Stop ends the stream without
// a result.
type Stream interface {
	Feed(piece string)
	Stop()
}
