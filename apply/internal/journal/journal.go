package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/txn"
)

// A journal records what the last apply in a root changed, with the bytes it
// replaced, so Undo can put them back. It lives in the state directory,
// outside the tree, keyed by the root. Its file format is in format.go:
// a small header (what apply's cleanStale needs), the file records, then the
// original contents as raw bytes.
type Journal struct {
	Root  string // absolute
	ID    string // random: which apply this is, in its file name too
	Time  time.Time
	Files []File
	Dirs  []string // directories the apply creates, parents first
	// Temps are the temp files the apply stages its new contents in,
	// root-relative; they are named before the journal is saved, so that
	// files left by an apply killed part way can be proven its own and
	// removed (see apply's cleanStale).
	Temps []string
	PID   int    // the applying process, while it runs
	Host  string // the machine it ran on
	// Done says the commit finished: it left no temp file or directory
	// for apply's cleanStale to remove.
	Done bool
	// saved is the journal file Save wrote, for MarkDone.
	saved fs.FileInfo
}

type File struct {
	Path      string // root-relative, resolved
	Existed   bool   // the file existed before
	Before    []byte // its bytes then
	BeforeSum uint64 // their Sum, checked before undo writes them
	Mode      uint32 // its mode then
	Exists    bool   // the file exists after
	AfterLen  uint64 // the length of its bytes after (0 when deleted)
	AfterSum  uint64 // their Sum
	// WasLink and IsLink say the path was, and is after, a symbolic
	// link: its bytes are then the link's target (see fsio.State.Link), and
	// undo puts a link back as a link.
	WasLink, IsLink bool
}

// Sum is how the journal knows a file still holds what the apply
// wrote, so that undo overwrites no change made since: CRC-32C and CRC-32
// (IEEE) of the bytes, 64 bits between them, with the length beside it.
// Not the receipt's SHA-256: the journal is written before the first
// rename, so its check is on the commit's path, and both CRCs run on the
// processor's own CRC instructions, far cheaper than SHA-256. A check
// against chance, which is all undo needs: whoever
// crafts a collision only makes undo put back the file's original bytes.
func Sum(b []byte) uint64 {
	return uint64(crc32c(b))<<32 | uint64(crc32.ChecksumIEEE(b))
}

// TableMin is the fewest bytes for which CRC-32C is worth the tables
// of the hardware's three-way CRC: making them costs as much as a loop
// over a plain table spends on tens of kilobytes. A small apply, most of
// them, never makes them.
const TableMin = 32 << 10

// crc32c is the CRC-32C of b: through the hardware's tables (castagnoli)
// once they are made or when b is large enough to pay for them, else one
// byte at a time through a 256-entry table. Both give the same sum.
func crc32c(b []byte) uint32 { return crc32.Update(0, castagnoliFor(len(b)), b) }

// castagnoliFor is the table crc32c sums n bytes with.
func castagnoliFor(n int) *crc32.Table {
	if n < TableMin && !castagnoliMade.Load() {
		return castagnoliBytewise()
	}
	return castagnoli()
}

// castagnoli is CRC-32C's table from hash/crc32, made on first use rather
// than when the program starts: with SSE 4.2 making it fills the tables of
// the hardware's three-way CRC, which `edapply --version`, a dry run or a
// small apply has no use for. Warm makes it on another core when
// an apply of at least TableMin bytes starts, well before its journal
// needs it.
var castagnoli = sync.OnceValue(func() *crc32.Table {
	t := crc32.MakeTable(crc32.Castagnoli)
	castagnoliMade.Store(true)
	return t
})

var castagnoliMade atomic.Bool

// castagnoliBytewise is CRC-32C's 256-entry table, built here because
// crc32.MakeTable(crc32.Castagnoli) makes the hardware's tables too; a
// table that is not the package's own makes crc32.Update sum bytewise.
var castagnoliBytewise = sync.OnceValue(func() *crc32.Table {
	t := new(crc32.Table)
	for i := range t {
		crc := uint32(i)
		for range 8 {
			if crc&1 == 1 {
				crc = crc>>1 ^ crc32.Castagnoli
			} else {
				crc >>= 1
			}
		}
		t[i] = crc
	}
	return t
})

var warmed sync.Once

func Warm() { warmed.Do(func() { go castagnoli() }) }

// holds reports whether b is the content f was left with.
func (f *File) Holds(b []byte) bool {
	return uint64(len(b)) == f.AfterLen && Sum(b) == f.AfterSum
}

// HistorySize is how many journals a root keeps: its last applies, which
// Undo takes back newest first.
const HistorySize = 10

// journalPrefix starts the file name of every journal in a state
// directory: journalPrefix, the time as 20 decimal digits of Unix
// nanoseconds, "-" and the 16 hex digits of its id, so that names sort
// as the journals' times do, in whichever directory each lies.
const journalPrefix = "j-"

func New(root string, cs []txn.Change) *Journal {
	j := &Journal{Root: root, ID: fsio.RandomID(), Time: time.Now().UTC(), PID: os.Getpid()}
	j.Host, _ = os.Hostname()
	for _, c := range cs {
		jf := File{Path: c.Path, Existed: c.Orig.Exists, Before: c.Orig.Data, Mode: uint32(c.Orig.Mode), Exists: c.Final.Exists,
			WasLink: c.Orig.Link, IsLink: c.Final.Link}
		jf.BeforeSum = Sum(jf.Before)
		if c.Final.Exists {
			jf.AfterLen, jf.AfterSum = uint64(c.Final.Size()), SumChunks(c.Final.Chunks())
		}
		j.Files = append(j.Files, jf)
	}
	return j
}

// fileName is j's name in its state directory (see journalPrefix).
func (j *Journal) FileName() string {
	return fmt.Sprintf("%s%020d-%s", journalPrefix, j.Time.UnixNano(), j.ID)
}

// IsName reports whether base is a name fileName makes.
func IsName(base string) bool {
	rest, ok := strings.CutPrefix(base, journalPrefix)
	if !ok || len(rest) != 20+1+16 || rest[20] != '-' {
		return false
	}
	for i, c := range []byte(rest) {
		if i != 20 && !('0' <= c && c <= '9' || i > 20 && 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// List returns the file names of the root's journals in every
// state directory of dirs, newest first: apply and undo look in all of
// them, so that whichever the environment made the first usable, the
// newest journal is the one found. A directory that is not one (a
// symlink put there) is passed over.
func List(dirs []string) []string {
	names, _ := ListFiles(dirs)
	return names
}

// ListFiles returns List' names and, apart, the paths of
// the journal temp files the same directories hold (see
// pruneJournalTemps), in the order listed.
func ListFiles(dirs []string) (names, temps []string) {
	for _, dir := range dirs {
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			continue
		}
		ents, err := readDirNames(dir)
		if err != nil {
			continue
		}
		// Each name is one path element: joined to dir by concatenation,
		// not by a filepath.Join that would clean the whole path again.
		in := filepath.Join(dir, "_")
		in = in[:len(in)-1]
		for _, n := range ents {
			switch {
			case IsName(n):
				names = append(names, in+n)
			case isJournalTemp(n):
				temps = append(temps, in+n)
			}
		}
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(lastElem(b), lastElem(a)) })
	return names, temps
}

// lastElem is filepath.Base of a path that does not end in a separator.
func lastElem(p string) string { return p[strings.LastIndexByte(p, filepath.Separator)+1:] }

// readDirNames returns the names dir holds, sorted as os.ReadDir sorts
// them, with dir opened by fsio.OpenDir.
func readDirNames(dir string) ([]string, error) {
	d, err := fsio.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	slices.Sort(names)
	return names, err
}

// TimeOf is the time in a journal's file name.
func TimeOf(name string) int64 {
	var ns int64
	fmt.Sscanf(filepath.Base(name)[len(journalPrefix):][:20], "%d", &ns)
	return ns
}

// Dirs returns where the journal for the root may live (abs is its
// absolute path, real the same with its symlinks evaluated), in
// order of preference: <state>/<SHA-256 of the absolute root>, where <state>
// is dir if set; else $XDG_STATE_HOME/edapply, the user cache directory's
// edapply, and the system temp directory's edapply-<uid>, skipping any that
// lies inside the root (a tree that holds the user's home, or a test's
// TMPDIR): the tree never gains edapply's files. An explicit dir inside the
// root is an error.
func Dirs(dir, abs, real string) ([]string, error) {
	key := hashHex([]byte(abs))
	if dir != "" {
		d, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		if insideRoot(d, abs, real) {
			return nil, fmt.Errorf("state directory %s is inside the root", d)
		}
		return []string{filepath.Join(d, key)}, nil
	}
	var bases []string
	if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		bases = append(bases, filepath.Join(x, "edapply"))
	}
	if c, err := os.UserCacheDir(); err == nil && filepath.IsAbs(c) {
		bases = append(bases, filepath.Join(c, "edapply"))
	}
	bases = append(bases, filepath.Join(os.TempDir(), fmt.Sprintf("edapply-%d", os.Getuid())))
	var dirs []string
	for _, b := range bases {
		if d, err := filepath.Abs(b); err == nil && !insideRoot(d, abs, real) {
			dirs = append(dirs, filepath.Join(d, key))
		}
	}
	return dirs, nil
}

// insideRoot reports whether dir is the root or under it, judged on the
// nearest existing ancestor with its symlinks evaluated.
func insideRoot(dir, abs, real string) bool {
	d, rest := dir, ""
	for {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		rest = filepath.Join(filepath.Base(d), rest)
		d = parent
	}
	for _, base := range []string{abs, real} {
		if rel, err := filepath.Rel(base, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// SaveHook, when set (by tests), is called by save with the state
// directory it is about to write the journal in.
var SaveHook func(dir string)

// save writes j atomically in the first of the state directories dirs
// that can be made and written, and returns its file name. newest is the
// root's newest journal so far (List), which j's time is put
// after should the clock have gone back, so that undo takes j first.
// With no directory usable, it returns the last error: the caller goes
// on without undo, and says so.
func (j *Journal) Save(dirs []string, newest string, sync bool) (string, error) {
	if newest != "" && TimeOf(newest) >= j.Time.UnixNano() {
		j.Time = time.Unix(0, TimeOf(newest)+1).UTC()
	}
	lastErr := errors.New("no state directory outside the root")
	for _, dir := range dirs {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			lastErr = fmt.Errorf("%s: %s", dir, fsio.ErrMsg(err))
			continue
		}
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			lastErr = fmt.Errorf("%s is not a directory", dir)
			continue
		}
		name := filepath.Join(dir, j.FileName())
		if SaveHook != nil {
			SaveHook(dir)
		}
		var err error
		j.saved, err = fsio.WriteFileAtomic(name, j.Pieces(), sync)
		if errors.Is(err, fs.ErrNotExist) && os.Mkdir(dir, 0o700) == nil {
			// Another process's pruneStates removed the directory, empty
			// and old, since it was made.
			j.saved, err = fsio.WriteFileAtomic(name, j.Pieces(), sync)
		}
		if err == nil {
			return name, nil
		}
		lastErr = fmt.Errorf("%s: %s", dir, fsio.ErrMsg(err))
	}
	return "", lastErr
}

// remove removes j's journal, saved as name, when it is still the file
// save wrote: a rolled-back apply takes its own journal back, and no
// other.
func (j *Journal) Remove(name string) {
	if j.saved == nil {
		return
	}
	if fi, err := os.Lstat(name); err == nil && os.SameFile(fi, j.saved) {
		os.Remove(name)
	}
}

// HistoryBytes bounds the bytes of a root's history: a journal older than
// the newest is kept only while the journals kept, it included, hold at
// most HistoryBytes, so that a few edits to a large file do not each leave
// a copy of it. The newest is kept whatever its size, so the last apply
// can always be undone.
const HistoryBytes = 128 << 20

// historyBytes is HistoryBytes, lowered by tests.
var historyBytes int64 = HistoryBytes

// Prune removes the root's journals beyond the newest HistorySize, and
// those older than the first that takes the history past HistoryBytes,
// except one whose apply may still be under way (its check running).
// names are the root's journals, newest first (see List); busy is what
// apply's cleanStale learned of them in this apply, so that none is read
// twice: a name it holds is removed unless true, and only a name it does
// not hold (one listed since) is read here. A journal that cannot be
// stat'ed counts as empty.
func Prune(names []string, busy map[string]bool) {
	keep, total := min(len(names), HistorySize), int64(0)
	for i, name := range names[:keep] {
		if fi, err := os.Lstat(name); err == nil {
			total += fi.Size()
		}
		if i > 0 && total > historyBytes {
			keep = i
			break
		}
	}
	for _, name := range names[keep:] {
		b, seen := busy[name]
		if !seen {
			b = journalBusy(name)
		}
		if !b {
			os.Remove(name)
		}
	}
}

// journalBusy reports whether the apply that wrote the journal name may
// still be under way: its commit did not finish and its process may be
// running. A journal that cannot be read is not busy.
func journalBusy(name string) bool {
	if Finished(name) {
		return false
	}
	j, err := ReadHeader(name)
	return err == nil && !j.Done && j.Running()
}

// running reports whether the process that wrote j may still be
// committing: it ran on another machine, or a process with its PID exists
// (perhaps another one, after reuse: then the leftovers wait for a later
// run, which is the safe way to be wrong). This process's own journal is
// from a commit that has returned, having removed its temp files itself.
func (j *Journal) Running() bool {
	if j.PID == 0 || j.PID == os.Getpid() {
		return false
	}
	if host, _ := os.Hostname(); j.Host != host {
		return true
	}
	p, err := os.FindProcess(j.PID)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// SumChunks is Sum of the chunks' bytes in order. CRC-32C's table
// (see crc32c) is chosen once, by the whole length: the sum is the same
// either way, but a large file cut in short pieces would otherwise be
// summed a byte at a time.
func SumChunks(cs [][]byte) uint64 {
	if len(cs) == 1 {
		return Sum(cs[0])
	}
	tab := castagnoliFor(fsio.ChunksLen(cs))
	var c, ieee uint32
	sum := func(b []byte) {
		c = crc32.Update(c, tab, b)
		ieee = crc32.Update(ieee, crc32.IEEETable, b)
	}
	// Each call sets up for alignment and for its three-way loop, which
	// costs more than copying a short piece: pieces are summed in blocks.
	buf := sumBlocks.Get().(*[16 << 10]byte)
	defer sumBlocks.Put(buf)
	k := 0
	for _, b := range cs {
		if k+len(b) > len(buf) {
			sum(buf[:k])
			k = 0
		}
		if len(b) >= len(buf) {
			sum(b)
			continue
		}
		k += copy(buf[k:], b)
	}
	sum(buf[:k])
	return uint64(c)<<32 | uint64(ieee)
}

// sumBlocks holds SumChunks's blocks.
var sumBlocks = sync.Pool{New: func() any { return new([16 << 10]byte) }}

// hashHex is the hex SHA-256 of b, as the receipt spells a file's hash:
// a state directory's name, from its root's path.
func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TablesMade reports whether CRC-32C's hardware tables have been made in
// this process (see castagnoli): only an apply large enough to pay for
// them makes them.
func TablesMade() bool { return castagnoliMade.Load() }
