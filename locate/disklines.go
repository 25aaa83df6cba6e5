package locate

import (
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// An edit fails after others to its file were planned: nothing is
// written, so the lines its error names must be the file's on disk, not
// those of the content the edits before it left, or a model that re-reads
// the file finds other lines there (a docstring added above made "lines
// 6-7" of what stands at lines 5-6).

// A change is one splice a Doc applied, in the offsets of the content
// before it.
type change struct{ at, old, new int }

// A diskMap maps the content's offsets back to the content a Doc was
// given, through the changes applied since, in order.
type diskMap struct {
	orig string
	log  []change
	nl   []int32 // offsets of orig's "\n"s; nil until a line is mapped
	// seen keeps the lines of offsets mapped before (see diskLineAt).
	seen map[int]diskSeen
	// segFrom is how many changes were logged when the segment began;
	// segSeen keeps the lines of its content's offsets mapped through
	// them (segmentDiskLine), logged being segFrom then.
	segFrom int
	segSeen map[int]diskSeen
}

// A diskSeen is the line on disk an offset was mapped to, when the log
// held logged changes.
type diskSeen struct{ line, logged int }

// logged records the splices of r, an edit applied (err nil), as changes.
// Its splices are in the content before it, ascending: applied last to
// first, each leaves the offsets of those before it as they were.
func (d *Doc) logged(r Result, err *edit.Error) {
	if err != nil || r.Status == edit.StatusAlreadyApplied {
		return
	}
	for k := len(r.Splices) - 1; k >= 0; k-- {
		x := r.Splices[k]
		d.disk.log = append(d.disk.log, change{at: x.At - d.bomLen(), old: len(x.Old), new: len(x.New)})
	}
}

// diskLine maps the finder's 0-based line k to the 0-based line of the
// content the Doc was given that it stands for: a line inside text an
// edit wrote stands for the first line that edit replaced.
func (d *Doc) diskLine(k int) int {
	lines := d.fin.lineIndex()
	if k >= len(lines) {
		return k
	}
	return d.diskLineAt(int(lines[k].start))
}

// diskLineAt is diskLine of the line that starts at offset off of the
// content. Mapping an offset walks back through every change logged, and
// the same few offsets are named again and again (a run of refused quotes
// lists the same first places): an offset mapped before keeps its line
// while every change logged since starts after it, which leaves it where
// it was, so only those are read.
func (d *Doc) diskLineAt(off int) int {
	m := &d.disk
	s, ok := m.seen[off]
	for ok && s.logged < len(m.log) {
		ok = m.log[s.logged].at > off
		s.logged++
	}
	if !ok {
		s.line = d.mapToDisk(off)
	}
	if m.seen == nil {
		m.seen = map[int]diskSeen{}
	} else if !ok && len(m.seen) >= 1<<12 {
		clear(m.seen) // a bound on what is kept; only a speed-up is lost
	}
	s.logged = len(m.log)
	m.seen[off] = s
	return s.line
}

// segmentDiskLine is diskLineAt for off, a line start of the segment's
// current content. Where a byte of the segment's own content stands at
// off, which no splice wrote, the segment maps off to it (origAt), as
// the changes its splices were logged as would, and only the changes
// logged before it began are walked, once for each offset: a run of
// refused quotes after many landed edits would otherwise walk every
// change for each line it names.
func (d *Doc) segmentDiskLine(off int) int {
	g, m := d.seg, &d.disk
	if j := g.spliceAt(off); j < len(g.sp) && off >= g.cStart(j) {
		// In or at the start of a text the splices wrote, which the
		// changes logged in order may map elsewhere than the splice's
		// start (a deletion, then an insertion at its place).
		return d.diskLineAt(off)
	}
	o := g.origAt(off)
	if s, ok := m.segSeen[o]; ok && s.logged == m.segFrom {
		return s.line
	}
	if m.segSeen == nil || len(m.segSeen) >= 1<<12 {
		m.segSeen = map[int]diskSeen{} // a bound on what is kept; only a speed-up is lost
	}
	line := d.mapThrough(o, m.segFrom)
	m.segSeen[o] = diskSeen{line, m.segFrom}
	return line
}

// mapToDisk is diskLineAt, walked through the whole log.
func (d *Doc) mapToDisk(off int) int { return d.mapThrough(off, len(d.disk.log)) }

// mapThrough is the line on disk of off, an offset of the content the
// first n changes logged left, walked back through them.
func (d *Doc) mapThrough(off, n int) int {
	for i := n - 1; i >= 0; i-- {
		c := d.disk.log[i]
		switch {
		case off < c.at:
		case off >= c.at+c.new:
			off += c.old - c.new
		default:
			off = c.at
		}
	}
	m := &d.disk
	if m.nl == nil {
		m.nl = make([]int32, 0, strings.Count(m.orig, "\n"))
		for i := 0; ; {
			j := strings.IndexByte(m.orig[i:], '\n')
			if j < 0 {
				break
			}
			m.nl = append(m.nl, int32(i+j))
			i += j + 1
		}
	}
	line, _ := slices.BinarySearch(m.nl, int32(off))
	return line
}

// shownLine is the 1-based line an error names for the content's 0-based
// line k.
func (f *finder) shownLine(k int) int {
	if f.disk != nil {
		return f.disk(k) + 1
	}
	return k + 1
}

// shownWindow is w with the lines an error names: its start and length
// those of the lines on disk it stands for.
func (f *finder) shownWindow(w window) window {
	if f.disk == nil {
		return w
	}
	s, e := f.disk(w.start), f.disk(w.start+w.n-1)
	w.start, w.n = s, max(e-s+1, 1)
	return w
}

// shownHits is hits with the lines an error names.
func (f *finder) shownHits(hits []hit) []hit { return shownHitsBy(hits, f.disk) }

// shownHitsBy is shownHits, disk mapping a line to the one on disk (nil:
// the same).
func shownHitsBy(hits []hit, disk func(k int) int) []hit {
	if disk == nil {
		return hits
	}
	hs := make([]hit, len(hits))
	for i, h := range hits {
		hs[i] = hit{first: disk(h.first), last: disk(h.last)}
	}
	return hs
}

// Given is the content NewDoc was given, without its BOM: the text whose
// lines an error of d's counts.
func (d *Doc) Given() string { return d.disk.orig }
