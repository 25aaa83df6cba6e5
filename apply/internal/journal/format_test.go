package journal

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
	j := &Journal{Root: "/w/tree", ID: "0123456789abcdef", Time: time.Unix(1700000000, 123).UTC(), PID: 42, Host: "h",
		Temps: []string{"a/.edapply-1.tmp", ".edapply-2.tmp"}, Dirs: []string{"a"},
		Files: []File{
			{Path: "a/x.go", Existed: true, Before: []byte("old\x00\xff bytes\n"), BeforeSum: Sum([]byte("old\x00\xff bytes\n")), Mode: 0o751, Exists: true, AfterLen: 3, AfterSum: Sum([]byte("new"))},
			{Path: "created.txt", Exists: true, BeforeSum: Sum(nil), AfterSum: Sum(nil)},
			{Path: "gone.txt", Existed: true, Before: []byte{}, BeforeSum: Sum(nil), Mode: 0o644},
			// A link moved: its target is its content, either side.
			{Path: "link.txt", Existed: true, Before: []byte("target.txt"), BeforeSum: Sum([]byte("target.txt")), WasLink: true},
			{Path: "moved.txt", Exists: true, IsLink: true, AfterLen: 10, AfterSum: Sum([]byte("target.txt")), BeforeSum: Sum(nil)},
		}}
	data := bytes.Join(j.Pieces(), nil)
	got, err := Decode(data)
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

	name := filepath.Join(t.TempDir(), j.FileName())
	saved, err := fsio.WriteFileAtomic(name, j.Pieces(), true)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeader(name)
	if err != nil || h.Root != j.Root || h.PID != j.PID || h.Host != j.Host || h.Done ||
		!reflect.DeepEqual(h.Temps, j.Temps) || !reflect.DeepEqual(h.Dirs, j.Dirs) || h.Files != nil {
		t.Errorf("header = %+v, %v", h, err)
	}
	// Marked done in place: the header and the whole journal say so, and
	// nothing else changed. Not a journal saved under the name since.
	other := filepath.Join(t.TempDir(), "other")
	if _, err := fsio.WriteFileAtomic(other, j.Pieces(), true); err != nil {
		t.Fatal(err)
	}
	j.saved = saved
	j.MarkDone(other)
	if h, err := ReadHeader(other); err != nil || h.Done {
		t.Errorf("another journal after markDone = %+v, %v; want it under way", h, err)
	}
	j.MarkDone(name)
	if h, err := ReadHeader(name); err != nil || !h.Done {
		t.Errorf("header after markJournalDone = %+v, %v; want done", h, err)
	}
	marked, _ := os.ReadFile(name)
	if got, err := Decode(marked); err != nil || !got.Done || len(got.Files) != len(j.Files) ||
		got.Files[0].AfterSum != j.Files[0].AfterSum || string(got.Files[0].Before) != string(j.Files[0].Before) {
		t.Errorf("journal after markJournalDone = %+v, %v", got, err)
	}

	// Every byte but the status is summed: a flip anywhere else, in the
	// header, a record or an original content, is refused.
	status := len(journalMagic)
	for n := range len(data) {
		if _, err := Decode(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
		for _, bit := range []byte{0x01, 0x80, 0xff} {
			c := bytes.Clone(data)
			c[n] ^= bit
			if _, err := Decode(c); err == nil && n != status {
				t.Errorf("byte %d xor %#x: decoded", n, bit)
			}
			os.WriteFile(name, c, 0o600)
			ReadHeader(name)
		}
	}
	if _, err := Decode([]byte(`{"version":1}`)); err == nil {
		t.Error("a JSON journal decoded")
	}
}

// Sum tells apart what undo must tell apart: a file as the apply
// left it from one changed since, by a byte, a bit, or its length.
func TestContentSum(t *testing.T) {
	after := []byte("package a\n\nfunc F() int { return 1 }\n")
	f := File{Exists: true, AfterLen: uint64(len(after)), AfterSum: Sum(after)}
	if !f.Holds(bytes.Clone(after)) {
		t.Fatal("the same bytes do not hold")
	}
	for _, changed := range [][]byte{
		[]byte("package a\n\nfunc F() int { return 2 }\n"),
		append(bytes.Clone(after), '\n'),
		after[:len(after)-1],
		{},
	} {
		if f.Holds(changed) {
			t.Errorf("%q holds", changed)
		}
	}
	for i := range len(after) * 8 {
		c := bytes.Clone(after)
		c[i/8] ^= 1 << (i % 8)
		if f.Holds(c) {
			t.Errorf("bit %d flipped: holds", i)
		}
	}
	// The two CRCs are the documented ones.
	if got := Sum([]byte("123456789")); got != 0xe3069283_cbf43926 {
		t.Errorf("contentSum(check string) = %#x, want CRC-32C 0xe3069283, CRC-32 0xcbf43926", got)
	}
}

// TestJournalFinished: a saved journal is under way until MarkDone, and a
// file that does not start as a journal never reads as finished.
func TestJournalFinished(t *testing.T) {
	dir := t.TempDir()
	j := New("/root", nil)
	name, err := j.Save([]string{dir}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if Finished(name) {
		t.Errorf("a journal just saved reads as finished")
	}
	j.MarkDone(name)
	if !Finished(name) {
		t.Errorf("a journal marked done reads as under way")
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte(journalMagic[:len(journalMagic)-1]+"X\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	if Finished(other) || Finished(filepath.Join(dir, "missing")) {
		t.Errorf("a file that is not a journal reads as finished")
	}
}
