package apply

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestJournalFormat: a journal reads back as written, its header alone
// reads back without its contents, and every truncation or flipped byte is
// an error or a journal, never a panic.
func TestJournalFormat(t *testing.T) {
	j := &journal{Root: "/w/tree", Time: time.Unix(1700000000, 123).UTC(), PID: 42, Host: "h",
		Temps: []string{"a/.edapply-1.tmp", ".edapply-2.tmp"}, Dirs: []string{"a"},
		Files: []journalFile{
			{Path: "a/x.go", Existed: true, Before: []byte("old\x00\xff bytes\n"), Mode: 0o751, Exists: true, AfterHash: HashBytes([]byte("new"))},
			{Path: "created.txt", Exists: true, AfterHash: HashBytes(nil)},
			{Path: "gone.txt", Existed: true, Before: []byte{}, Mode: 0o644},
		}}
	var buf bytes.Buffer
	if err := j.writeTo(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	got, err := decodeJournal(data)
	if err != nil {
		t.Fatal(err)
	}
	for k := range got.Files {
		if got.Files[k].Before == nil || len(got.Files[k].Before) == 0 {
			got.Files[k].Before = j.Files[k].Before // nil and empty are the same here
		}
	}
	if !reflect.DeepEqual(got, j) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, j)
	}

	name := filepath.Join(t.TempDir(), journalName)
	saved, err := writeFileAtomic(name, j.writeTo)
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
	if _, err := writeFileAtomic(other, j.writeTo); err != nil {
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
		got.Files[0].AfterHash != j.Files[0].AfterHash || string(got.Files[0].Before) != string(j.Files[0].Before) {
		t.Errorf("journal after markJournalDone = %+v, %v", got, err)
	}

	for n := range len(data) {
		if _, err := decodeJournal(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
		c := bytes.Clone(data)
		c[n] ^= 0xff
		decodeJournal(c)
		os.WriteFile(name, c, 0o600)
		readJournalHeader(name)
	}
	if _, err := decodeJournal([]byte(`{"version":1}`)); err == nil {
		t.Error("a JSON journal decoded")
	}
}
