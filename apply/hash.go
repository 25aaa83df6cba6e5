package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"sync"
	"sync/atomic"
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

// A hashStream hashes a content that planning is still making, from its
// pieces in order, so that the receipt's after hash is mostly done when
// the content is: on a large file the hash otherwise starts only then and
// outlasts the commit. It runs on a goroutine of its own rather than a
// hashing worker, which it would hold while it waits for pieces. Only
// the goroutine that made it feeds, stops or finishes it.
type hashStream struct {
	pieces  chan string
	ended   bool        // pieces is closed
	stopped atomic.Bool // no hash wanted: the goroutine skips what is left
	d       *digest
}

// newHashStream starts a stream that takes up to n pieces.
func newHashStream(n int) *hashStream {
	hs := &hashStream{pieces: make(chan string, n), d: &digest{done: make(chan struct{})}}
	go func() {
		h := sha256.New()
		for p := range hs.pieces {
			if !hs.stopped.Load() {
				h.Write(readOnlyBytes(p))
			}
		}
		if !hs.stopped.Load() {
			hs.d.sum = hex.EncodeToString(h.Sum(nil))
			close(hs.d.done)
		}
	}()
	return hs
}

// Feed adds the next piece. A stream given more than n pieces stops.
func (hs *hashStream) Feed(p string) {
	if hs.ended {
		return
	}
	select {
	case hs.pieces <- p:
	default:
		hs.Stop()
	}
}

// Stop ends the stream without a hash.
func (hs *hashStream) Stop() {
	if !hs.ended {
		hs.stopped.Store(true)
		hs.ended = true
		close(hs.pieces)
	}
}

// finish ends the stream and returns the hash of its pieces; nil when it
// was stopped.
func (hs *hashStream) finish() *digest {
	if hs.ended {
		return nil
	}
	hs.ended = true
	close(hs.pieces)
	return hs.d
}
