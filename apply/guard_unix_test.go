//go:build unix

package apply

import (
	"io/fs"
	"syscall"
	"testing"
	"time"
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
