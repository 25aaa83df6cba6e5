package apply

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
)

// TestJournalFormat: a journal reads back as written, its header alone
// reads back without its contents, and every truncation or flipped byte is
// an error or a journal, never a panic.
func TestJournalFormat(t *testing.T) {
	j := &journal{Root: "/w/tree", ID: "0123456789abcdef", Time: time.Unix(1700000000, 123).UTC(), PID: 42, Host: "h",
		Temps: []string{"a/.edapply-1.tmp", ".edapply-2.tmp"}, Dirs: []string{"a"},
		Files: []journalFile{
			{Path: "a/x.go", Existed: true, Before: []byte("old\x00\xff bytes\n"), BeforeSum: contentSum([]byte("old\x00\xff bytes\n")), Mode: 0o751, Exists: true, AfterLen: 3, AfterSum: contentSum([]byte("new"))},
			{Path: "created.txt", Exists: true, BeforeSum: contentSum(nil), AfterSum: contentSum(nil)},
			{Path: "gone.txt", Existed: true, Before: []byte{}, BeforeSum: contentSum(nil), Mode: 0o644},
			// A link moved: its target is its content, either side.
			{Path: "link.txt", Existed: true, Before: []byte("target.txt"), BeforeSum: contentSum([]byte("target.txt")), WasLink: true},
			{Path: "moved.txt", Exists: true, IsLink: true, AfterLen: 10, AfterSum: contentSum([]byte("target.txt")), BeforeSum: contentSum(nil)},
		}}
	data := bytes.Join(j.pieces(), nil)
	got, err := decodeJournal(data)
	if err != nil {
		t.Fatal(err)
	}
	for k := range got.Files {
		if len(got.Files[k].Before) == 0 {
			got.Files[k].Before = j.Files[k].Before // nil and empty are the same here
		}
	}
	if !reflect.DeepEqual(got, j) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, j)
	}

	name := filepath.Join(t.TempDir(), j.fileName())
	saved, err := fsio.WriteFileAtomic(name, j.pieces(), true)
	if err != nil {
		t.Fatal(err)
	}
	h, err := readJournalHeader(name)
	if err != nil || h.Root != j.Root || h.PID != j.PID || h.Host != j.Host || h.Done ||
		!reflect.DeepEqual(h.Temps, j.Temps) || !reflect.DeepEqual(h.Dirs, j.Dirs) || h.Files != nil {
		t.Errorf("header = %+v, %v", h, err)
	}
	// Marked done in place: the header and the whole journal say so, and
	// nothing else changed. Not a journal saved under the name since.
	other := filepath.Join(t.TempDir(), "other")
	if _, err := fsio.WriteFileAtomic(other, j.pieces(), true); err != nil {
		t.Fatal(err)
	}
	j.saved = saved
	j.markDone(other)
	if h, err := readJournalHeader(other); err != nil || h.Done {
		t.Errorf("another journal after markDone = %+v, %v; want it under way", h, err)
	}
	j.markDone(name)
	if h, err := readJournalHeader(name); err != nil || !h.Done {
		t.Errorf("header after markJournalDone = %+v, %v; want done", h, err)
	}
	marked, _ := os.ReadFile(name)
	if got, err := decodeJournal(marked); err != nil || !got.Done || len(got.Files) != len(j.Files) ||
		got.Files[0].AfterSum != j.Files[0].AfterSum || string(got.Files[0].Before) != string(j.Files[0].Before) {
		t.Errorf("journal after markJournalDone = %+v, %v", got, err)
	}

	// Every byte but the status is summed: a flip anywhere else, in the
	// header, a record or an original content, is refused.
	status := len(journalMagic)
	for n := range len(data) {
		if _, err := decodeJournal(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
		for _, bit := range []byte{0x01, 0x80, 0xff} {
			c := bytes.Clone(data)
			c[n] ^= bit
			if _, err := decodeJournal(c); err == nil && n != status {
				t.Errorf("byte %d xor %#x: decoded", n, bit)
			}
			os.WriteFile(name, c, 0o600)
			readJournalHeader(name)
		}
	}
	if _, err := decodeJournal([]byte(`{"version":1}`)); err == nil {
		t.Error("a JSON journal decoded")
	}
}

// contentSum tells apart what undo must tell apart: a file as the apply
// left it from one changed since, by a byte, a bit, or its length.
func TestContentSum(t *testing.T) {
	after := []byte("package a\n\nfunc F() int { return 1 }\n")
	f := journalFile{Exists: true, AfterLen: uint64(len(after)), AfterSum: contentSum(after)}
	if !f.holds(bytes.Clone(after)) {
		t.Fatal("the same bytes do not hold")
	}
	for _, changed := range [][]byte{
		[]byte("package a\n\nfunc F() int { return 2 }\n"),
		append(bytes.Clone(after), '\n'),
		after[:len(after)-1],
		{},
	} {
		if f.holds(changed) {
			t.Errorf("%q holds", changed)
		}
	}
	for i := range len(after) * 8 {
		c := bytes.Clone(after)
		c[i/8] ^= 1 << (i % 8)
		if f.holds(c) {
			t.Errorf("bit %d flipped: holds", i)
		}
	}
	// The two CRCs are the documented ones.
	if got := contentSum([]byte("123456789")); got != 0xe3069283_cbf43926 {
		t.Errorf("contentSum(check string) = %#x, want CRC-32C 0xe3069283, CRC-32 0xcbf43926", got)
	}
}

// TestJournalFinished: a saved journal is under way until markDone, and a
// file that does not start as a journal never reads as finished.
func TestJournalFinished(t *testing.T) {
	dir := t.TempDir()
	j := newJournal("/root", nil)
	name, err := j.save([]string{dir}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if journalFinished(name) {
		t.Errorf("a journal just saved reads as finished")
	}
	j.markDone(name)
	if !journalFinished(name) {
		t.Errorf("a journal marked done reads as under way")
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte(journalMagic[:len(journalMagic)-1]+"X\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	if journalFinished(other) || journalFinished(filepath.Join(dir, "missing")) {
		t.Errorf("a file that is not a journal reads as finished")
	}
}
