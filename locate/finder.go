package locate

// A file's content as the rungs read it: its lines, its line endings and
// their LF view, and the places a pattern matched there.

import (
	"math"
	"sort"
	"strings"
)

// bom is UTF-8's byte order mark, which a file's content may start with.
const bom = "\uFEFF"

// splitLF splits s at its line endings, "\r\n" or "\n" (a final one
// leaves an empty last element).
func splitLF(s string) []string { return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") }

// A lineSpan is one line of a file: content[start:end] is its text and
// content[end:next] its terminator ("\n", "\r\n", or "" for a last line
// without one). Offsets are int32, 12 bytes a line rather than 24: the
// line index is the largest array a search holds per line of the file,
// and a Doc refuses a content of more than maxContent bytes (errTooLarge).
type lineSpan struct{ start, end, next int32 }

// maxContent is the largest content whose lines a lineSpan can hold.
var maxContent = math.MaxInt32

func indexLines(s string) []lineSpan {
	lines := make([]lineSpan, 0, strings.Count(s, "\n")+1)
	for off := 0; off < len(s); {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			lines = append(lines, lineSpan{int32(off), int32(len(s)), int32(len(s))})
			break
		}
		end := off + i
		if end > off && s[end-1] == '\r' {
			end--
		}
		lines = append(lines, lineSpan{int32(off), int32(end), int32(off + i + 1)})
		off += i + 1
	}
	return lines
}

// A finder answers searches over one file's content. Everything it derives
// from the content (line index, LF view) is built at most once, on demand.
type finder struct {
	content string
	lines   []lineSpan
	indexed bool

	// The LF view: content with every "\r\n" turned into "\n"; crV holds
	// the view offsets of the dropped "\r"s (the offset of their "\n").
	view  string
	crV   []int
	crC   []int // content offsets of the dropped "\r"s
	hasCR bool
	viewd bool
	mode  int // eolLF, eolCRLF or eolMixed; 0 until known

	keys    []uint64 // looseKey of each line; nil until needed
	loose   []string // looseLine of each line; nil until needed
	keyBits []uint64 // a bit set of keys' values (modulo its size)

	// long are the lines longer than longLine, found once (longKnown);
	// scanned counts the bytes of them candidate searches have read.
	long      []int
	longKnown bool
	scanned   int

	// disk, when set, maps a 0-based line of the content to the line of
	// the file on disk it stands for: the lines errors name.
	disk func(k int) int

	slips *postings // the slip index (slips.go); nil until needed

	// The postings of candidate votes (postings.go), nil until needed:
	// the lines of each loose key, word and trigram, and each line's
	// count of distinct words and trigrams.
	keyPost, wordPost, triPost *postings
	wordCount, triCount        []uint8
	// visits counts the lines (and postings) candidate searches read
	// after the indexes are made: what a test holds linear.
	visits int
	shared []uint8 // a counter per line (postings.go's counts)

	// spacedKeys is each line's spacedKey and spacedOrder the lines by
	// key (spacing.go), nil until a second search at the spacing rung;
	// spacedAsked, that a first ran.
	spacedKeys  []uint64
	spacedOrder []int32
	spacedAsked bool
	// scans counts the searches that read the content from a line on
	// rather than an index: what a test holds to a bound the edits do not
	// raise.
	scans int // a counter per line (postings.go's counts)

	// wordsRemade counts the times the word index carried here was found
	// short by a vote and made afresh (carry.go): a test holds that it
	// happens.
	wordsRemade int
	// triFrom is the trigram index of an earlier content, carried here
	// when asked for (carry.go); nil when there is none.
	triFrom *carrySource

	// keyed counts the lines keyed to make an index (a loose or spaced
	// key, a line's tokens): shared by the finders of one Doc, what a
	// test holds to the lines the edits changed (carry.go).
	keyed *int
	// searches counts the candidate searches made, for tests.
	searches int

	// readAll is set when a located edit's text was written from lines
	// beyond its match (indentStyle's last resort): the batch, which
	// vouches only for the lines it matched, then leaves the edit to the
	// plain path.
	readAll bool

	// lineRoom is the room lineHitsAt prepares a pattern's lines in and
	// pairs a match's lines in, kept from search to search: the batch
	// searches thousands of edits' lines in one finder. It holds nothing
	// between searches.
	lineRoom []string
}

func newFinder(content string) *finder { return &finder{content: content, keyed: new(int)} }

func (f *finder) lineIndex() []lineSpan {
	if !f.indexed {
		f.lines, f.indexed = indexLines(f.content), true
	}
	return f.lines
}

func (f *finder) lfView() string {
	if f.viewd {
		return f.view
	}
	f.viewd = true
	if !strings.Contains(f.content, "\r\n") {
		f.view = f.content
		return f.view
	}
	f.hasCR = true
	var b strings.Builder
	b.Grow(len(f.content))
	s := f.content
	for off := 0; ; {
		i := strings.Index(s[off:], "\r\n")
		if i < 0 {
			b.WriteString(s[off:])
			break
		}
		b.WriteString(s[off : off+i])
		f.crC = append(f.crC, off+i)
		f.crV = append(f.crV, b.Len())
		off += i + 1
	}
	f.view = b.String()
	return f.view
}

// toContent maps an offset of the LF view to one of the content.
func (f *finder) toContent(v int) int {
	if !f.hasCR {
		return v
	}
	return v + sort.SearchInts(f.crV, v)
}

// toView maps an offset of the content to one of the LF view.
func (f *finder) toView(c int) int {
	if !f.hasCR {
		return c
	}
	return c - sort.SearchInts(f.crC, c)
}

// dominantEOL is the line ending new lines get when nothing nearer decides.
func (f *finder) dominantEOL() string {
	if m := f.eolMode(); m != eolMixed {
		return eolOf(m)
	}
	if IsCRLF(f.content) {
		return "\r\n"
	}
	return "\n"
}

// eolOf is the line ending of mode eolLF or eolCRLF (and of the LF view
// a mixed file is searched in).
func eolOf(mode int) string {
	if mode == eolCRLF {
		return "\r\n"
	}
	return "\n"
}

// A hit is one place a pattern matched.
type hit struct {
	start, end  int   // content byte offsets of the matched region
	first, last int   // 0-based lines of the region (last inclusive)
	lineMode    bool  // matched whole lines (every rung but exact)
	openEnd     bool  // exact: the old text's final line ending matched the end of a file without one
	gapMode     bool  // placeholders matched runs of lines (levelElision)
	runs        []int // gapMode: the length of each placeholder's run
	sh          shift // the indentation shift (rungs from indent on)
	cut         bool  // the first line was quoted without its indentation (rescue 1): the shift leaves it out
	cmp         level // the comparison that matched (at the elision rung, the one its lines needed)
}

// The line endings of a file, for the exact rung.
const (
	eolLF    = 1 // no "\r\n"
	eolCRLF  = 2 // every "\n" is part of a "\r\n"
	eolMixed = 3
)

func (f *finder) eolMode() int {
	if f.mode != 0 {
		return f.mode
	}
	f.mode = eolLF
	if strings.Contains(f.content, "\r\n") {
		f.mode = eolCRLF
		for off := 0; ; {
			i := strings.IndexByte(f.content[off:], '\n')
			if i < 0 {
				break
			}
			if off+i == 0 || f.content[off+i-1] != '\r' {
				f.mode = eolMixed
				break
			}
			off += i + 1
		}
	}
	return f.mode
}

// lineStartAt returns the start of the line of s that holds offset o.
func lineStartAt(s string, o int) int {
	return strings.LastIndexByte(s[:o], '\n') + 1
}

// lineEndAt returns the end, before its "\n", of the line of s that holds
// offset o.
func lineEndAt(s string, o int) int {
	if k := strings.IndexByte(s[o:], '\n'); k >= 0 {
		return o + k
	}
	return len(s)
}

// atLineStart reports whether off starts a line.
func (f *finder) atLineStart(off int) bool { return off == 0 || f.content[off-1] == '\n' }

// endsNoNL reports whether off is the end of a file without a final newline.
func (f *finder) endsNoNL(off int) bool {
	return off == len(f.content) && !strings.HasSuffix(f.content, "\n")
}

// atLineEnd reports whether off ends a line, before its line ending.
func (f *finder) atLineEnd(off int) bool {
	return off == len(f.content) || f.content[off] == '\n' || strings.HasPrefix(f.content[off:], "\r\n")
}
