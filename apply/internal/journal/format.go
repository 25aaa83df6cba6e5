package journal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
)

// The journal's file format. It is binary, not JSON with the original
// contents in base64, which would have every apply decode the whole
// previous journal (apply's cleanStale needs only its temp files) and
// encode every replaced byte a third larger. It has six parts:
//
//	magic     "edapply journal 5\n"
//	status    one byte: 0 while the commit is under way (or if it was
//	          killed), 1 once it finished (see Journal.MarkDone)
//	header    uvarint length, then: root, id, time (varint Unix ns), pid,
//	          host, temps (count, then each), dirs (count, then each);
//	          then the header's Sum (8 bytes, big-endian)
//	files     count, then per file: path, flags (1 existed, 2 exists,
//	          4 it was a symlink, its original content the target, 8 it
//	          is a symlink after),
//	          mode, length and Sum of its original content, length
//	          and Sum of its new content; then the Sum of
//	          the count and the records
//	contents  each file's original bytes, raw, in the order of files
//
// Integers are uvarints (the time a varint), strings a uvarint length and
// the bytes, sums 8 bytes big-endian. Every part but the status byte is
// summed, and a reader refuses a journal whose sums disagree: undo writes
// back a journal's bytes, so one damaged on disk must never reach the
// tree. apply's cleanStale reads the magic, status and header and stops there.
const journalMagic = "edapply journal 5\n"

// maxJournalHeader bounds the header a reader accepts, so a corrupt
// length is an error rather than an allocation of any size.
const maxJournalHeader = 64 << 20

// maxJournal bounds the journal a reader loads into memory: beyond any
// apply's originals, short of reading a runaway file until memory ends.
const maxJournal = 4 << 30

var (
	errJournalFormat = errors.New("not an edapply journal, or a damaged one")
	errJournalSum    = errors.New("its checksum does not match: the journal is damaged")
)

// pieces returns j as the byte slices to write, in order: the magic,
// header and file records in one, then each original content as it is in
// memory, never copied.
func (j *Journal) Pieces() [][]byte {
	var h []byte
	h = appendString(h, j.Root)
	h = appendString(h, j.ID)
	h = binary.AppendVarint(h, j.Time.UnixNano())
	h = binary.AppendUvarint(h, uint64(j.PID))
	h = appendString(h, j.Host)
	h = appendStrings(h, j.Temps)
	h = appendStrings(h, j.Dirs)

	b := make([]byte, 0, len(journalMagic)+2*binary.MaxVarintLen64+len(h)+16+len(j.Files)*48)
	b = append(b, journalMagic...)
	b = append(b, journalStatus(j.Done))
	b = binary.AppendUvarint(b, uint64(len(h)))
	b = append(b, h...)
	b = binary.BigEndian.AppendUint64(b, Sum(h))
	start := len(b)
	b = binary.AppendUvarint(b, uint64(len(j.Files)))
	for _, f := range j.Files {
		b = appendString(b, f.Path)
		var flags byte
		if f.Existed {
			flags |= 1
		}
		if f.Exists {
			flags |= 2
		}
		if f.WasLink {
			flags |= 4
		}
		if f.IsLink {
			flags |= 8
		}
		b = append(b, flags)
		b = binary.AppendUvarint(b, uint64(f.Mode))
		b = binary.AppendUvarint(b, uint64(len(f.Before)))
		b = binary.BigEndian.AppendUint64(b, f.BeforeSum)
		b = binary.AppendUvarint(b, f.AfterLen)
		b = binary.BigEndian.AppendUint64(b, f.AfterSum)
	}
	b = binary.BigEndian.AppendUint64(b, Sum(b[start:]))
	ps := [][]byte{b}
	for _, f := range j.Files {
		if len(f.Before) > 0 {
			ps = append(ps, f.Before)
		}
	}
	return ps
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// Decode parses a whole journal and checks its sums: a damaged
// journal is an error (errJournalSum), never a journal. The original
// contents it returns are slices of data.
func Decode(data []byte) (*Journal, error) {
	done, ok := prelude(data)
	if !ok {
		return nil, errJournalFormat
	}
	d := decoder{b: data[len(journalMagic)+1:]}
	n := d.uvarint()
	if d.bad || n > uint64(len(d.b)) {
		return nil, errJournalFormat
	}
	h := d.bytes(n)
	if d.uint64() != Sum(h) || d.bad {
		return nil, errJournalSum
	}
	j, err := decodeHeader(h)
	if err != nil {
		return nil, err
	}
	j.Done = done
	records := d.b
	count := d.uvarint()
	if count > uint64(len(d.b)) { // every record takes more than a byte
		return nil, errJournalFormat
	}
	j.Files = make([]File, 0, count)
	sizes := make([]uint64, 0, count)
	for range count {
		var f File
		f.Path = d.str()
		flags := d.byte()
		f.Existed, f.Exists = flags&1 != 0, flags&2 != 0
		f.WasLink, f.IsLink = flags&4 != 0, flags&8 != 0
		if flags > 15 || f.WasLink && !f.Existed || f.IsLink && !f.Exists {
			d.bad = true
		}
		f.Mode = uint32(d.uvarint())
		sizes = append(sizes, d.uvarint())
		f.BeforeSum = d.uint64()
		f.AfterLen = d.uvarint()
		f.AfterSum = d.uint64()
		j.Files = append(j.Files, f)
	}
	if d.bad {
		return nil, errJournalFormat
	}
	records = records[:len(records)-len(d.b)]
	if d.uint64() != Sum(records) || d.bad {
		return nil, errJournalSum
	}
	for k, size := range sizes {
		j.Files[k].Before = d.bytes(size)
	}
	if d.bad || len(d.b) != 0 {
		return nil, errJournalFormat
	}
	for _, f := range j.Files {
		if Sum(f.Before) != f.BeforeSum {
			return nil, errJournalSum
		}
	}
	return j, nil
}

// ReadHeader reads only the magic and the header of the journal in
// the file name: what apply's cleanStale needs, without the original contents.
func ReadHeader(name string) (*Journal, error) {
	f, err := openJournal(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 4096)
	start := make([]byte, len(journalMagic)+1)
	if _, err := io.ReadFull(r, start); err != nil {
		return nil, errJournalFormat
	}
	done, ok := prelude(start)
	n, err := binary.ReadUvarint(r)
	if !ok || err != nil || n > maxJournalHeader {
		return nil, errJournalFormat
	}
	h := make([]byte, n+8)
	if _, err := io.ReadFull(r, h); err != nil {
		return nil, errJournalFormat
	}
	if binary.BigEndian.Uint64(h[n:]) != Sum(h[:n]) {
		return nil, errJournalSum
	}
	j, err := decodeHeader(h[:n])
	if err != nil {
		return nil, err
	}
	j.Done = done
	return j, nil
}

// ReadFile reads the journal in the file name whole: a regular
// file (see openJournal) of at most maxJournal bytes.
func ReadFile(name string) ([]byte, error) {
	f, err := openJournal(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxJournal {
		return nil, fmt.Errorf("%s is larger than any journal (%d bytes)", name, fi.Size())
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("%s grew while it was read", name)
	}
	return data, nil
}

// openJournal opens the file name for reading when it is a regular file,
// without following a symlink or waiting on a FIFO (journalOpenFlags),
// and checks what it opened: a journal read from a FIFO, a device or
// /dev/zero would block or never end.
func openJournal(name string) (*os.File, error) {
	f, err := os.OpenFile(name, journalOpenFlags, 0)
	if err != nil {
		if isSymlinkErr(err) {
			return nil, fmt.Errorf("%s is a symlink, not a journal", name)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%s)", name, fsio.Kind(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// prelude reads the magic and the status byte at the start of b: whether
// the journal is done, and false when b starts with neither.
func prelude(b []byte) (done, ok bool) {
	if len(b) <= len(journalMagic) || string(b[:len(journalMagic)]) != journalMagic || b[len(journalMagic)] > journalDone {
		return false, false
	}
	return b[len(journalMagic)] == journalDone, true
}

// The journal's status byte.
const (
	journalUnderWay byte = 0
	journalDone     byte = 1
)

func journalStatus(done bool) byte {
	if done {
		return journalDone
	}
	return journalUnderWay
}

// MarkDone sets the status of j's journal, saved as name, to done, in
// place: its commit finished, so the next apply need not look for its
// temp files (a thousand lstats after a thousand-file apply). Only the
// file Save wrote is marked, not one another apply saved under the name
// since. Not synced, and errors are ignored: a status that is lost leaves
// the journal under way, and the next apply looks, as it would have.
func (j *Journal) MarkDone(name string) {
	if j.saved != nil {
		markJournalDone(name, j.saved)
	}
}

func decodeHeader(h []byte) (*Journal, error) {
	d := decoder{b: h}
	j := &Journal{}
	j.Root = d.str()
	j.ID = d.str()
	j.Time = time.Unix(0, d.varint()).UTC()
	j.PID = int(d.uvarint())
	j.Host = d.str()
	j.Temps = d.strs()
	j.Dirs = d.strs()
	if d.bad || len(d.b) != 0 {
		return nil, errJournalFormat
	}
	return j, nil
}

// A decoder reads the journal's fields from b; the first malformed one
// sets bad, and everything after it reads as zero.
type decoder struct {
	b   []byte
	bad bool
}

// uvarint and varint return 0 on a malformed value, as binary's do.
func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	d.skip(n)
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	d.skip(n)
	return v
}

// skip consumes the n bytes a varint took; n <= 0 (too short, or an
// overflow) makes d bad.
func (d *decoder) skip(n int) {
	if n <= 0 {
		d.bad, d.b = true, nil
		return
	}
	d.b = d.b[n:]
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uint64() uint64 {
	b := d.bytes(8)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func (d *decoder) bytes(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string { return string(d.bytes(d.uvarint())) }

func (d *decoder) strs() []string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return nil
	}
	var ss []string
	for range n {
		ss = append(ss, d.str())
	}
	return ss
}
