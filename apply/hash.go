package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// HashBytes returns the lowercase hex SHA-256 of b, as sha256sum prints it.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// HashReader returns HashBytes of what r holds, read through to its end
// in a fixed buffer: a stream of any size costs no memory for its bytes.
func HashReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// A digest is HashBytes of some bytes, computed by a hashing worker: the
// receipt's hashes cost as much CPU as locating the edits, so they run on
// the other cores while planning and commit go on.
type digest struct {
	cs   [][]byte // the bytes, in chunks
	done chan struct{}
	sum  string
}

// A hasher runs one Apply's hashing workers: started on first use, one
// fewer than the cores (at least one, at most maxLanes), and stopped when
// the Apply returns. Workers rather than a goroutine per hash: for a
// thousand small files, starting and waking goroutines costs as much as
// hashing. Only the planner's goroutine asks for hashes.
type hasher struct {
	q       chan *digest
	stopped atomic.Bool // the Apply returned: a hash still queued is not wanted
	workers sync.WaitGroup
	// inline hashes on the caller's goroutine and starts no worker: set
	// for an apply of fewer than hashWorkersMin bytes.
	inline bool
}

// hashWorkersMin is the fewest bytes an apply must work on (its files and
// edits, as checkMemory counts them) for its hashes to run on workers. Below it
// they take less CPU than starting a goroutine and waking a thread for it
// (docs/performance.md, "Figures behind the code"), and the receipt of a
// small apply waits for them anyway.
const hashWorkersMin = 64 << 10

// hash starts hashChunks(cs) on a worker, or computes it now when
// h.inline.
func (h *hasher) hash(cs [][]byte) *digest {
	if h.inline {
		return &digest{sum: hashChunks(cs), done: closedChan}
	}
	if h.q == nil {
		q := make(chan *digest, 1024)
		h.q = q
		for range max(min(runtime.GOMAXPROCS(0)-1, maxLanes), 1) {
			h.workers.Go(func() {
				for d := range q {
					if !h.stopped.Load() {
						d.sum = hashChunks(d.cs)
					}
					d.cs = nil
					close(d.done)
				}
			})
		}
	}
	d := &digest{cs: cs, done: make(chan struct{})}
	h.q <- d
	return d
}

// stop ends the workers: they skip the hashes still queued, which nothing
// will ask for, and stop returns when they have (a hash under way ends
// first).
func (h *hasher) stop() {
	if h.q != nil {
		h.stopped.Store(true)
		close(h.q)
		h.q = nil
		h.workers.Wait()
	}
}

// closedChan is the done channel of a digest computed when asked for.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

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

// hashChunks is HashBytes of the chunks' bytes in order.
func hashChunks(cs [][]byte) string {
	if len(cs) == 1 {
		return HashBytes(cs[0])
	}
	h := sha256.New()
	for _, b := range cs {
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
