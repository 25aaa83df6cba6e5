package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
)

// HashBytes returns the lowercase hex SHA-256 of b, as sha256sum prints it.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// A digest is HashBytes of some bytes, computed on another goroutine: the
// receipt's hashes cost as much CPU as locating the edits, so they run on
// the other cores while planning and commit go on.
type digest struct {
	done chan struct{}
	sum  string
}

// hashSlots bounds the hashes running at once to the cores there are.
var hashSlots = make(chan struct{}, max(runtime.GOMAXPROCS(0)-1, 1))

// hashAsync starts hashing b, which must not change afterwards.
func hashAsync(b []byte) *digest {
	d := &digest{done: make(chan struct{})}
	go func() {
		hashSlots <- struct{}{}
		d.sum = HashBytes(b)
		<-hashSlots
		close(d.done)
	}()
	return d
}

// get waits for the hash. A nil digest is the empty string.
func (d *digest) get() string {
	if d == nil {
		return ""
	}
	<-d.done
	return d.sum
}
