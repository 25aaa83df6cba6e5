package apply

import (
	"context"
	"time"

	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/edit"
)

// The library's defaults and bounds.
const (
	// ReadLimit is how many lines a Read window holds at most when its
	// caller names no limit.
	ReadLimit = 2000
	// ReadLineBudget is the most bytes of one line a Read window shows:
	// the rest of a longer line is left out, and the window says where it
	// reads on (Window.Rest), so that no line, however long, makes a
	// window pass its budget by more than this.
	ReadLineBudget = 64 << 10
	// DefaultLockTimeout is how long an Apply or Undo waits for another
	// one working in the same root (see Options.LockTimeout): far longer
	// than any commit takes, short enough that a harness hears of a stuck
	// process.
	DefaultLockTimeout = 30 * time.Second
	// HistorySize is how many journals a root keeps: its last applies,
	// which Undo takes back newest first.
	HistorySize = journal.HistorySize
	// HistoryBytes bounds the journals a root keeps in bytes, most of
	// them the bytes the applies replaced: one older than the newest is
	// dropped, with all before it, once the journals kept would hold more.
	// The newest is kept whatever its size.
	HistoryBytes = journal.HistoryBytes
)

// Options controls Apply.
type Options struct {
	Root           string            // the working tree; every path resolves inside it
	Strict         bool              // exact matching only
	DryRun         bool              // plan and report; write nothing
	Base           map[string]string // path → expected SHA-256 (hex, a prefix of 8+ digits); OUT_OF_DATE on mismatch
	TrimTrailingWS bool              // strip trailing blanks from lines the edits add
	// Encoding, when set, is the encoding of every file the edits touch
	// (--encoding: latin1, cp1251, shift_jis, utf-16le, ...; Apply refuses
	// a name no encoding has with USAGE); without it, a file's encoding is
	// the one the tree's .gitattributes (working-tree-encoding) or
	// .editorconfig (charset) declares for it, or a UTF-16 byte order mark
	// shows, else UTF-8. A file in another encoding is matched and edited
	// as its text, and written back in its encoding; FileResult.Before and
	// After are then that text, in UTF-8, while the hashes are of the bytes.
	Encoding string
	// PathPrefixes are absolute paths at which the model sees the root (a
	// harness's /repo, /workspace): an absolute path under one names the
	// file under Root. Any other absolute path outside Root is OUT_OF_ROOT.
	PathPrefixes []string
	// Verify, when set, is called once the files are written, with the
	// absolute root, to judge them (the command line's --verify runs a
	// command there). When it returns an error, every file is put back and
	// the apply fails with CHECK_FAILED, the error's text its message;
	// output, what the caller keeps of the verification's output, is
	// Result.VerifyOutput either way. It is not called when nothing was
	// written (a dry run, a failed edit). It should return once ctx is
	// done.
	Verify func(ctx context.Context, root string) (output string, err error)
	// LockTimeout is how long to wait for another Apply or Undo in the
	// same root to finish: DefaultLockTimeout when 0, no wait when
	// negative. The lock is held while the files are read and written,
	// not while Verify runs.
	LockTimeout time.Duration
	// ForceReadOnly lets an apply replace a file the user has no write
	// permission for; without it such a file is IO_ERROR.
	ForceReadOnly bool
	// StateDir holds the undo journals, under a subdirectory named by the
	// SHA-256 of the absolute root; inside Root it is an IO_ERROR. ""
	// means the first usable of $XDG_STATE_HOME/edapply, the user cache
	// directory's edapply and $TMPDIR/edapply-<uid> that is outside Root
	// (Undo looks in all of them). When no journal can be written there,
	// the apply goes ahead without undo and Result.NoUndo says why.
	StateDir string
	// NoSync skips every fsync: of the undo journal, of its directory and
	// of each staged file before its rename. Files are still replaced by
	// rename, so a process killed at any point leaves each file old or new
	// and undo works; what is given up is safety against a power cut or an
	// operating system crash, after which a file just written, or the
	// journal, may be empty or short. The default syncs.
	NoSync bool
	// Omit names what the caller does not read of the Result, which Apply
	// then need not make, for what it costs: Hashes leaves every
	// FileResult's BeforeHash and AfterHash empty (SHA-256 of every file
	// before and after is, with reading and writing it, the largest
	// per-byte cost of an apply; Base is checked all the same); After
	// leaves every FileResult's After nil, and an edited file's new
	// content is then written from its pieces, the spans of the file as
	// read and the edits' new text, never held whole beside the old (Op
	// still says what became of each file).
	Omit struct{ Hashes, After bool }
	// Progress, when set, is called as the edits are placed, with the
	// number placed (located and checked, or failed) and the number the
	// reply holds: a caller shows it (the command, on a terminal). Each
	// round of planning counts from the start again. It is called from
	// Apply's goroutine and should return quickly.
	Progress func(done, total int)

	// Repair, when set, is asked once per failed edit (and round, up to
	// RepairAttempts) for replacement edits; they go through the same
	// ladder within the same transaction.
	Repair         func(ctx context.Context, req RepairRequest) ([]edit.Edit, error)
	RepairAttempts int
}

// A RepairRequest describes one failed edit to a fixer.
type RepairRequest struct {
	Edit        edit.Edit
	Index       int
	Err         *edit.Error
	FileExcerpt string // the region around the best candidate, or the file's head
}

// A Result is the outcome of Apply: what happened to every file and edit.
type Result struct {
	OK     bool
	DryRun bool
	Files  []*FileResult // in order of first appearance in the edits
	Errors edit.ErrorList
	// Verify is what became of Options.Verify: "" when it is nil;
	// "passed"; "failed", when it returned an error and the files were
	// put back (CHECK_FAILED); or "skipped", when nothing was written for
	// it to judge.
	Verify       string
	VerifyOutput string // what Options.Verify returned as its output, when it ran
	// Journal is the undo journal this apply wrote (see Undo); "" when it
	// wrote none: a dry run, a failure, nothing to change, or no usable
	// default state directory (the apply then has no undo).
	Journal string
	// NoUndo says why an apply that wrote files has no undo journal: its
	// state directories could not be written. "" otherwise.
	NoUndo string
}

// A FileResult is what happened (or would happen) to one file.
type FileResult struct {
	Path       string // root-relative, slash-separated
	NewPath    string // rename destination, if renamed
	Op         string // "create", "modify", "delete", "rename"
	BeforeHash string // hex SHA-256 of the bytes before; "" when the file did not exist
	// AfterHash is the hex SHA-256 of what is at the path when Apply
	// returns: After's when it was written, BeforeHash when nothing was
	// (a dry run, a failure); "" when absent.
	AfterHash string
	// Before and After are the caller's: they share no memory with each
	// other, with the strings of Edits or with anything Apply keeps.
	Before []byte // content before (nil when absent)
	After  []byte // content the edits make, written or not (nil when deleted, or with Options.Omit.After)
	Edits  []EditResult
}

// An EditResult is one edit's outcome.
type EditResult struct {
	Index     int // index into the edits given to Apply
	Status    edit.Status
	Strategy  edit.Strategy
	LineStart int // 1-based lines of the located region in the file as the edit saw it
	LineEnd   int // inclusive
	// Occurrences are the lines of each place an edit that replaced
	// several changed (a replace_all); nil for one.
	Occurrences []edit.LineRange
	Matched     string // the file's text the edit located (for normalize)
	Written     string // the text written in its place
	Note        string // how a rescue of a tool call or an edge rung read the edit (see locate.Result), for the model's next call
	Repaired    bool   // the edit was replaced by a fixer's
	// Fix is, when Repaired, the fixer's edit that was planned in the
	// given edit's place (one of possibly several with the same Index).
	Fix *edit.Edit
}
