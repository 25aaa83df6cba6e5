//go:build unix

package apply

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edapply/edapply/internal/remedy"
)

type statInfo struct {
	mode fs.FileMode
	st   *syscall.Stat_t
}

func (s statInfo) Name() string       { return "f" }
func (s statInfo) Size() int64        { return 0 }
func (s statInfo) Mode() fs.FileMode  { return s.mode }
func (s statInfo) ModTime() time.Time { return time.Time{} }
func (s statInfo) IsDir() bool        { return false }
func (s statInfo) Sys() any           { return s.st }

// TestWritableBy: the class the user is in decides which write bit counts,
// and the superuser may write every file.
func TestWritableBy(t *testing.T) {
	owned := &syscall.Stat_t{Uid: 1000, Gid: 100}
	inStaff := func(gid int) bool { return gid == 100 }
	notInStaff := func(int) bool { return false }
	tests := []struct {
		name   string
		mode   fs.FileMode
		uid    int
		member func(int) bool
		want   bool
	}{
		{"owner, 0644", 0o644, 1000, notInStaff, true},
		{"owner, 0444", 0o444, 1000, notInStaff, false},
		{"owner, 0464: the group's bit is not the owner's", 0o464, 1000, inStaff, false},
		{"group member, 0664", 0o664, 2000, inStaff, true},
		{"group member, 0646: the others' bit is not the group's", 0o646, 2000, inStaff, false},
		{"other, 0666", 0o666, 2000, notInStaff, true},
		{"other, 0664", 0o664, 2000, notInStaff, false},
		{"superuser, 0444", 0o444, 0, notInStaff, true},
		{"superuser, 0000", 0, 0, notInStaff, true},
	}
	for _, tt := range tests {
		if got := writableBy(statInfo{tt.mode, owned}, tt.uid, tt.member); got != tt.want {
			t.Errorf("%s: writableBy = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestNotWritableWords: a file this user may not write is called so, with
// its owner when its mode lets someone write it (0644 another user owns
// is not read-only), and its hint names no command-line flag: the caller
// words the way past it (remedy.ForceReadOnly).
func TestNotWritableWords(t *testing.T) {
	tests := []struct {
		mode fs.FileMode
		want string
	}{
		{0o644, "a.txt is not writable by this user (mode 0644, owned by uid 0)"},
		{0o444, "a.txt is not writable by this user (mode 0444)"},
	}
	for _, tt := range tests {
		e := notWritable("a.txt", statInfo{tt.mode, &syscall.Stat_t{Uid: 0}})
		if !strings.HasPrefix(e.Msg, tt.want+":") || strings.Contains(e.Msg, "read-only") {
			t.Errorf("mode %#o: Msg = %q, want it to begin %q", tt.mode, e.Msg, tt.want)
		}
		if strings.Contains(e.Hint, "--") || remedy.Of(e) != remedy.ForceReadOnly {
			t.Errorf("mode %#o: Hint = %q, remedy %v; want no flag, remedy ForceReadOnly", tt.mode, e.Hint, remedy.Of(e))
		}
	}
}
