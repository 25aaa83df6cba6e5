package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"sync"
)

// HashBytes returns the lowercase hex SHA-256 of b, as sha256sum prints it.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// A digest is HashBytes of some bytes, computed by a hashing worker: the
// receipt's hashes cost as much CPU as locating the edits, so they run on
// the other cores while planning and commit go on.
type digest struct {
	b    []byte
	done chan struct{}
	sum  string
}

// hashQueue feeds the hashing workers, one fewer than the cores (at least
// one), started on first use and then idle between Applies. Workers rather
// than a goroutine per hash: for a thousand small files, starting and
// waking goroutines costs as much as hashing.
var hashQueue = sync.OnceValue(func() chan *digest {
	q := make(chan *digest, 1024)
	for range max(runtime.GOMAXPROCS(0)-1, 1) {
		go func() {
			for d := range q {
				d.sum = HashBytes(d.b)
				d.b = nil
				close(d.done)
			}
		}()
	}
	return q
})

// hashAsync starts hashing b, which must not change afterwards.
func hashAsync(b []byte) *digest {
	d := &digest{b: b, done: make(chan struct{})}
	hashQueue() <- d
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
