package apply

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"time"
)

// The journal's file format. JSON with the original contents in base64
// made every apply decode the whole previous journal (cleanStale needs
// only its temp files) and encode every replaced byte a third larger, so
// the format is binary and in four parts:
//
//	magic     "edapply journal 4\n"
//	status    one byte: 0 while the commit is under way (or if it was
//	          killed), 1 once it finished (see journal.markDone)
//	header    uvarint length, then: root, time (varint Unix ns), pid,
//	          host, temps (count, then each), dirs (count, then each)
//	files     count, then per file: path, flags (1 existed, 2 exists),
//	          mode, length of its original content, length and contentSum
//	          of its new content (8 bytes, big-endian)
//	contents  each file's original bytes, raw, in the order of files
//
// Integers are uvarints (the time a varint), strings a uvarint length and
// the bytes. cleanStale reads the magic, status and header and stops
// there. (Version 3 held each new content's SHA-256 instead of its
// contentSum; its journals, like version 2's, are refused as damaged.)
const journalMagic = "edapply journal 4\n"

// maxJournalHeader bounds the header a reader accepts, so a corrupt
// length is an error rather than an allocation of any size.
const maxJournalHeader = 64 << 20

var errJournalFormat = errors.New("not an edapply journal, or a damaged one")

// pieces returns j as the byte slices to write, in order: the magic,
// header and file records in one, then each original content as it is in
// memory, never copied.
func (j *journal) pieces() [][]byte {
	var h []byte
	h = appendString(h, j.Root)
	h = binary.AppendVarint(h, j.Time.UnixNano())
	h = binary.AppendUvarint(h, uint64(j.PID))
	h = appendString(h, j.Host)
	h = appendStrings(h, j.Temps)
	h = appendStrings(h, j.Dirs)

	b := make([]byte, 0, len(journalMagic)+binary.MaxVarintLen64+len(h)+len(j.Files)*32)
	b = append(b, journalMagic...)
	b = append(b, journalStatus(j.Done))
	b = binary.AppendUvarint(b, uint64(len(h)))
	b = append(b, h...)
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
		b = append(b, flags)
		b = binary.AppendUvarint(b, uint64(f.Mode))
		b = binary.AppendUvarint(b, uint64(len(f.Before)))
		b = binary.AppendUvarint(b, f.AfterLen)
		b = binary.BigEndian.AppendUint64(b, f.AfterSum)
	}
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

// decodeJournal parses a whole journal. The original contents it returns
// are slices of data.
func decodeJournal(data []byte) (*journal, error) {
	done, ok := prelude(data)
	if !ok {
		return nil, errJournalFormat
	}
	d := decoder{b: data[len(journalMagic)+1:]}
	n := d.uvarint()
	if d.bad || n > uint64(len(d.b)) {
		return nil, errJournalFormat
	}
	j, err := decodeHeader(d.b[:n])
	if err != nil {
		return nil, err
	}
	j.Done = done
	d.b = d.b[n:]
	count := d.uvarint()
	if count > uint64(len(d.b)) { // every record takes more than a byte
		return nil, errJournalFormat
	}
	j.Files = make([]journalFile, 0, count)
	sizes := make([]uint64, 0, count)
	for range count {
		var f journalFile
		f.Path = d.str()
		flags := d.byte()
		f.Existed, f.Exists = flags&1 != 0, flags&2 != 0
		f.Mode = uint32(d.uvarint())
		sizes = append(sizes, d.uvarint())
		f.AfterLen = d.uvarint()
		f.AfterSum = d.uint64()
		j.Files = append(j.Files, f)
	}
	for k, size := range sizes {
		j.Files[k].Before = d.bytes(size)
	}
	if d.bad || len(d.b) != 0 {
		return nil, errJournalFormat
	}
	return j, nil
}

// readJournalHeader reads only the magic and the header of the journal in
// the file name: what cleanStale needs, without the original contents.
func readJournalHeader(name string) (*journal, error) {
	f, err := os.Open(name)
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
	h := make([]byte, n)
	if _, err := io.ReadFull(r, h); err != nil {
		return nil, errJournalFormat
	}
	j, err := decodeHeader(h)
	if err != nil {
		return nil, err
	}
	j.Done = done
	return j, nil
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

// markDone sets the status of j's journal, saved as name, to done, in
// place: its commit finished, so the next apply need not look for its
// temp files (a thousand lstats after a thousand-file apply). Only the
// file save wrote is marked, not one another apply saved under the name
// since. Not synced, and errors are ignored: a status that is lost leaves
// the journal under way, and the next apply looks, as it would have.
func (j *journal) markDone(name string) {
	if j.saved == nil {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && os.SameFile(fi, j.saved) {
		f.WriteAt([]byte{journalDone}, int64(len(journalMagic)))
	}
}

func decodeHeader(h []byte) (*journal, error) {
	d := decoder{b: h}
	j := &journal{}
	j.Root = d.str()
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
