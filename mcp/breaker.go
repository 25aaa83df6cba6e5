package mcp

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// A model that does not read its receipt sends the same failing call
// again, and again. The second time, the call gets the same error, as it
// must, with a hint that says it is the same call and what to do instead:
// read the lines in question. A breaker remembers the calls that failed in
// each session to tell.

// maxFailures bounds the failed calls a server remembers, over all its
// sessions: a retry loop repeats one of its last few.
const maxFailures = 64

type breaker struct {
	mu     sync.Mutex
	failed map[callKey]failure
	order  []callKey // oldest first
}

// A callKey is a call of a session: its tool and a digest of its
// arguments as read, whatever names they were sent under. A dry run and
// a write of the same edits are the same call.
type callKey struct {
	session *sdk.ServerSession
	digest  [sha256.Size]byte
}

// A failure is what a failed call met: its errors, each as code, path and
// edit, and the hash of each file it looked at (its content when the call
// came).
type failure struct {
	errors string
	files  map[string]string
}

func failureOf(res *apply.Result) failure {
	var b strings.Builder
	for _, e := range res.Errors {
		fmt.Fprintf(&b, "%s %q %d\n", e.Code, e.Path, e.Edit)
	}
	f := failure{errors: b.String(), files: map[string]string{}}
	for _, fr := range res.Files {
		f.files[fr.Path] = fr.BeforeHash
	}
	return f
}

// keyOf is the key of a call of tool with the arguments parts, as read.
func keyOf(ss *sdk.ServerSession, tool string, parts ...any) callKey {
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.Encode(tool)
	for _, p := range parts {
		enc.Encode(p) // strings, bools and maps of strings: never an error
	}
	k := callKey{session: ss}
	h.Sum(k.digest[:0])
	return k
}

// repeated records the outcome res of the call k and reports whether it
// failed as the same call did last time, on files as they were then.
func (b *breaker) repeated(k callKey, res *apply.Result) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	prev, seen := b.failed[k]
	if res.OK {
		delete(b.failed, k) // its order entry goes when it comes first
		return false
	}
	f := failureOf(res)
	if seen {
		same := prev.errors == f.errors && maps.Equal(prev.files, f.files)
		b.failed[k] = f
		return same
	}
	if b.failed == nil {
		b.failed = map[callKey]failure{}
	}
	for len(b.order) >= maxFailures {
		delete(b.failed, b.order[0])
		b.order = b.order[1:]
	}
	b.failed[k] = f
	b.order = append(b.order, k)
	return false
}

// markRepeated tells each error of res about a file that this is the
// same call again, and which read_file to make instead; quote says what
// to do with what it shows.
func markRepeated(res *apply.Result, quote string) {
	for _, e := range res.Errors {
		if e.Path == "" {
			continue
		}
		e.Hint = fmt.Sprintf("This is the same call as one that already failed on %s as it stands, and it fails the same way: do not send it again. Re-read %s and %s. %s",
			e.Path, readFirst(e), quote, e.Hint)
	}
}

// readFirst names the read_file calls that show what e is about: the
// lines of its line candidates, the file a path candidate names, or the
// file itself.
func readFirst(e *edit.Error) string {
	var spans [][2]int
	// The weak candidates, when there are others, are not in question.
	strong := slices.ContainsFunc(e.Candidates, func(c edit.Candidate) bool { return c.Path == "" && c.LineStart > 0 && !c.Weak })
	for _, c := range e.Candidates {
		if c.Path == "" && c.LineStart > 0 && !(strong && c.Weak) {
			spans = append(spans, [2]int{c.LineStart, max(c.LineEnd, c.LineStart)})
		}
	}
	if len(spans) > 0 {
		// Candidates a few lines apart are read as one window; all of
		// them are in question, the best no more than the others.
		slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
		merged := spans[:1]
		for _, sp := range spans[1:] {
			last := &merged[len(merged)-1]
			if sp[0] <= last[1]+readGap {
				last[1] = max(last[1], sp[1])
				continue
			}
			merged = append(merged, sp)
		}
		var reads []string
		for _, sp := range merged {
			lines := fmt.Sprintf("lines %d-%d", sp[0], sp[1])
			if sp[0] == sp[1] {
				lines = fmt.Sprintf("line %d", sp[0])
			}
			reads = append(reads, fmt.Sprintf("%s with read_file {\"path\": %s, \"offset\": %d, \"limit\": %d}", lines, quoted(e.Path), sp[0], sp[1]-sp[0]+1))
		}
		return strings.Join(reads, ", and ")
	}
	for _, c := range e.Candidates {
		if c.Path != "" {
			return fmt.Sprintf("the file it probably means with read_file {\"path\": %s}", quoted(c.Path))
		}
	}
	return fmt.Sprintf("the file with read_file {\"path\": %s}", quoted(e.Path))
}

// readGap is the most lines between two candidates that one read_file
// window shows with both.
const readGap = 10

func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
