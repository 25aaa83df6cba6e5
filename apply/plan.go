package apply

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/apply/internal/txn"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
	"github.com/edapply/edapply/internal/textenc"
	"github.com/edapply/edapply/locate"
)

// Apply locates every edit in the files under opts.Root and, unless
// opts.DryRun is set or any edit fails, writes the results as one
// transaction.
//
// It always returns a Result; the error is Result.Errors.Err(). Planning
// happens in memory first: every path is checked (OUT_OF_ROOT is decided
// before any file is read), each file is read once, and the edits for it run
// in order against its in-memory content, so a later edit may quote what an
// earlier one wrote. Every failing edit is reported. If anything failed,
// nothing is written and Result.OK is false. Otherwise the files are
// committed (see package txn), an undo journal is recorded under
// opts.StateDir, and opts.Verify, if set, judges the files written; when it
// fails every file is restored and the error is CHECK_FAILED.
//
// With opts.Repair set, each edit that fails with NO_MATCH,
// MULTIPLE_MATCHES, ELISION, FILE_EXISTS or FILE_NOT_FOUND is handed to it
// (with the file's text around the failure) and its replacement edits are
// planned in its place, for up to opts.RepairAttempts rounds, all before
// anything is written: still one transaction. Their results and errors
// carry the failed edit's index, and EditResult.Repaired.
//
// opts.Base values must be 8 to 64 hex digits; any other value is a
// PARSE_ERROR for that path (the CLI should reject it as a usage error
// first, see [ValidBase]).
//
// Apply catches no signal and runs no command: it stops through ctx
// alone. A program that wants an interrupt to stop it cancels ctx on the
// signal and keeps catching signals until Apply returns, so that none
// ends the process while files are being put back.
func Apply(ctx context.Context, edits []edit.Edit, opts Options) (*Result, error) {
	res := &Result{DryRun: opts.DryRun}
	if opts.Verify != nil {
		// Until it runs: every return before then wrote nothing.
		defer func() {
			if res.Verify == "" {
				res.Verify = "skipped"
			}
		}()
	}
	if opts.Encoding != "" {
		if err := validEncoding(opts.Encoding); err != nil {
			res.Errors.Add(encodingOptionErr(opts.Encoding, err))
			return res, res.Errors.Err()
		}
	}
	root, err := os.OpenRoot(opts.Root)
	if err != nil {
		res.Errors.Add(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot open root " + opts.Root + ": " + errMsg(err), Err: err})
		return res, res.Errors.Err()
	}
	defer root.Close()
	hs := &hasher{}
	defer hs.stop() // last: the receipt's hashes are in by then
	rs, err := paths.NewResolver(root, opts.Root)
	if err != nil {
		res.Errors.Add(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot resolve root " + opts.Root + ": " + errMsg(err), Err: err})
		return res, res.Errors.Err()
	}
	rs.Prefixes = opts.PathPrefixes
	sized := func(n int64) {
		hs.inline = n < hashWorkersMin
		if !opts.DryRun && n >= journal.TableMin {
			journal.Warm() // for the journal's sum
		}
	}
	if e := checkMemory(root, edits, memoryLimit, sized); e != nil {
		res.Errors.Add(e)
		return res, res.Errors.Err()
	}

	// The root's lock is taken before planning reads the files, so that
	// an apply waiting for another plans on what that one wrote. A fixer
	// (Repair) may take minutes: then it is taken after planning, and the
	// commit's re-check of every file refuses what changed meanwhile.
	unlock := func() {}
	defer func() { unlock() }()
	lock := func(ctx context.Context) bool {
		if opts.DryRun {
			return true
		}
		u, e := lockRoot(ctx, opts.Root, opts.LockTimeout)
		if e != nil {
			res.Errors.Add(e)
			return false
		}
		unlock = u
		return true
	}
	if opts.Repair == nil && !lock(ctx) {
		return res, res.Errors.Err()
	}
	var p *planner
	if defect := guarded(func() {
		if opts.Repair == nil {
			p = planReply(ctx, root, rs, hs, edits, opts)
		} else {
			p = repair(ctx, root, rs, hs, edits, opts)
		}
	}); defect != nil {
		res.Errors.Add(defect)
		return res, res.Errors.Err()
	}
	res = p.res
	defer p.dirs.Close()
	p.finish()
	// A file left as it was reports its before hash as its after hash, and
	// its located edits as matched, not applied: the receipt never claims
	// a write that did not happen. A file a rollback did not put back
	// reports what is on disk. This runs after settle (defers run last
	// first). left holds the paths a failed rollback left written.
	written, left := false, map[string]bool{}
	defer func() {
		if !written {
			p.unwritten(left)
			p.leftOnDisk(left)
		}
	}()
	// The receipt's after hashes are waited for when Apply returns: until
	// then they are computed while commit writes the files.
	defer p.settle()
	// Errors by edit, as the receipt lists them; those tied to no edit
	// (--base) first.
	// A plan with no error is checked (audit.go) before anything is
	// written, in a dry run too: INTERNAL refuses it.
	var changes []txn.Change
	if len(res.Errors) == 0 {
		if defect := guarded(func() {
			changes = p.changes()
			res.Errors = append(res.Errors, p.check(changes)...)
		}); defect != nil {
			changes = nil
			res.Errors.Add(defect)
		}
	}
	slices.SortStableFunc(res.Errors, func(a, b *edit.Error) int { return cmp.Compare(a.Edit, b.Edit) })
	if len(res.Errors) > 0 || opts.DryRun {
		res.OK = len(res.Errors) == 0
		return res, res.Errors.Err()
	}

	if opts.Repair != nil && !lock(ctx) {
		return res, res.Errors.Err()
	}
	if !opts.ForceReadOnly {
		if errs := refuseReadOnly(rs.Abs, changes); len(errs) > 0 {
			res.Errors = append(res.Errors, errs...)
			return res, res.Errors.Err()
		}
	}
	tx := &txn.Txn{Root: root, Changes: changes, Dirs: p.dirs, NoSync: opts.NoSync}
	var jdirs, journals []string
	var busy map[string]bool
	if len(changes) > 0 {
		jr := journal.New(rs.Abs, changes)
		var jerr error
		jdirs, jerr = journal.Dirs(opts.StateDir, rs.Abs, rs.Real)
		if jerr == nil {
			var temps []string
			journals, temps = journal.ListFiles(jdirs)
			busy = cleanStale(p.dirs, rs, journals)
			journal.PruneTemps(temps)
		}
		if e := tx.Commit(ctx, func(temps, dirs []string) (func(), error) {
			if jerr != nil {
				return nil, jerr
			}
			jr.Temps, jr.Dirs = temps, dirs
			newest := ""
			if len(journals) > 0 {
				newest = journals[0]
			}
			name, err := jr.Save(jdirs, newest, !opts.NoSync)
			if err != nil {
				// Better the edits without undo than none: the receipt
				// says so.
				res.NoUndo = "cannot record the undo journal: " + errMsg(err)
				return func() {}, nil
			}
			res.Journal = name
			return func() { jr.Remove(name) }, nil
		}); e != nil {
			if !tx.JournalKept() {
				res.Journal = "" // rolled back, and its journal with it
			}
			res.Errors.Add(e)
			res.Errors = append(res.Errors, tx.Left...)
			tx.LeftWritten(left)
			return res, res.Errors.Err()
		}
		jr.MarkDone(res.Journal)
	}
	if opts.Verify != nil {
		// Other applies may go on while the verification runs; the
		// rollback waits for them, and puts back only what still holds
		// what this apply wrote.
		unlock()
		unlock = func() {}
		if e := verify(ctx, opts.Verify, rs.Abs, res); e != nil {
			res.Errors.Add(e)
			// Put back even when ctx is done: it may be what ended the
			// verification.
			if !lock(context.WithoutCancel(ctx)) {
				e.Msg += "; nothing was restored"
				e.Hint = "Undo restores the files once the other edapply has finished."
				remedy.Mark(e, remedy.Undo)
			} else {
				re := tx.Revert()
				if re != nil {
					res.Errors.Add(re)
				}
				res.Errors = append(res.Errors, tx.Left...)
				if re != nil || len(tx.Left) > 0 {
					e.Msg += "; some files were not restored"
				} else {
					e.Msg += "; every file was restored"
				}
			}
			if !tx.JournalKept() {
				res.Journal = ""
			}
			tx.LeftWritten(left)
			return res, res.Errors.Err()
		}
	}
	written = true
	if res.Journal != "" {
		// Without Verify the root stayed locked since the journals were
		// listed: they are those and this apply's, which is the newest.
		names := journals
		if opts.Verify != nil {
			names = journal.List(jdirs)
		} else {
			names = append([]string{res.Journal}, names...)
		}
		journal.Prune(names, busy)
		// Other roots' state, once this root's lock is let go: at most a
		// batch of directories, and a pass a day (see pruneStates).
		unlock()
		unlock = func() {}
		journal.PruneStatesBeside(res.Journal)
	}
	res.OK = true
	return res, nil
}

func newPlanner(root *os.Root, rs *paths.Resolver, opts Options, ws []work, cache map[string]loaded) *planner {
	p := &planner{root: root, rs: rs, dirs: &fsio.Dirs{Root: root}, res: &Result{DryRun: opts.DryRun}, slots: map[string]*slot{},
		mopts: locate.Options{Strict: opts.Strict, TrimTrailingWS: opts.TrimTrailingWS}, noHashes: opts.Omit.Hashes, noAfter: opts.Omit.After,
		encoding: opts.Encoding, progress: opts.Progress}
	p.cache = cache
	if ws != nil {
		p.work = ws
		p.failed, p.excerpts = map[int]*edit.Error{}, map[int]string{}
	}
	return p
}

// A work item is an edit to plan and where it came from: its index in the
// edits given to Apply, and whether a fixer wrote it.
type work struct {
	e        edit.Edit
	index    int
	repaired bool
}

// repair plans edits, then asks opts.Repair to fix each edit that failed in
// a way a corrected edit can fix, replans with the fixes in place of the
// edits they fix, and repeats up to opts.RepairAttempts rounds (at least
// one) or until a round fixes nothing. It returns the last round's
// planner; files are read once over all rounds. A fixer's error, or no
// edits from it, leaves the original edit and its error standing.
func repair(ctx context.Context, root *os.Root, rs *paths.Resolver, hs *hasher, edits []edit.Edit, opts Options) *planner {
	ws := make([]work, len(edits))
	for i, e := range edits {
		ws[i] = work{e: e, index: i}
	}
	cache := map[string]loaded{}
	dirs := &fsio.Dirs{Root: root} // shared by the rounds, closed by Apply
	// The tree for path candidates, shared by the rounds: walked once.
	tree := paths.NewIndex(replySize(edits))
	plan := func(ws []work) *planner {
		es := make([]edit.Edit, len(ws))
		for i, w := range ws {
			es[i] = w.e
		}
		return holdAlready(es, func(force map[int]bool) *planner {
			p := newPlanner(root, rs, opts, ws, cache)
			p.hasher, p.dirs, p.force, p.paths = hs, dirs, force, tree
			p.plan(ctx, es, opts.Base)
			return p
		})
	}
	p := plan(ws)
	// Why the fixer failed, by edit index: the receipt puts it on the
	// error it left standing.
	why := map[int]string{}
	defer func() {
		for _, e := range p.res.Errors {
			if r, ok := why[e.Edit]; ok && e.Edit >= 0 && e.Repair == "" {
				e.Repair = r
			}
		}
	}()
	for round := 0; round < max(1, opts.RepairAttempts) && len(p.res.Errors) > 0; round++ {
		var next []work
		fixed := false
		for i, w := range ws {
			err := p.failed[i]
			if err == nil || !repairable(err.Code) || ctx.Err() != nil {
				next = append(next, w)
				continue
			}
			fixes, ferr := opts.Repair(ctx, RepairRequest{Edit: w.e, Index: w.index, Err: err, FileExcerpt: p.excerpts[i]})
			if ferr != nil || len(fixes) == 0 {
				if ferr == nil {
					ferr = errors.New("the fixer returned no edit")
				}
				why[w.index] = ferr.Error()
				next = append(next, w)
				continue
			}
			delete(why, w.index)
			for _, f := range fixes {
				next = append(next, work{e: f, index: w.index, repaired: true})
			}
			fixed = true
		}
		if !fixed {
			break
		}
		ws = next
		p = plan(ws)
	}
	return p
}

// repairable reports whether an edit failing with c can be fixed by a
// corrected edit. Not OUT_OF_ROOT: a response that reaches outside the tree
// is refused, not helped to a path that works; not OUT_OF_DATE, BINARY_FILE
// or IO_ERROR, which are about the tree, not the edit.
func repairable(c edit.Code) bool {
	switch c {
	case edit.CodeNoMatch, edit.CodeMultipleMatches, edit.CodeElision, edit.CodeFileExists, edit.CodeFileNotFound:
		return true
	}
	return false
}

// excerpt returns the part of text a fixer needs to correct a failed edit:
// the lines around the best candidate, or the head of the file.
func excerpt(text string, err *edit.Error) string {
	const around, head = 5, 60
	lines := strings.SplitAfter(text, "\n")
	from, to := 0, min(len(lines), head)
	if len(err.Candidates) > 0 && err.Candidates[0].Path == "" {
		c := err.Candidates[0]
		from = max(0, c.LineStart-1-around)
		to = min(len(lines), max(c.LineEnd, c.LineStart)+around)
	}
	if from >= to {
		return ""
	}
	return strings.Join(lines[from:to], "")
}

// ValidBase reports whether h can be a --base hash: 8 to 64 hex digits (a
// prefix of the lowercase SHA-256 that HashBytes returns; case is ignored).
func ValidBase(h string) bool {
	if len(h) < 8 || len(h) > 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// A slot is one root-relative path, after symlinks, as planning sees it: what
// was there when it was first read and what the edits so far leave there.
type slot struct {
	path  string // resolved: no symlink in any component
	orig  fsio.State
	cur   fsio.State
	err   *edit.Error // loading failed (a directory, unreadable); every edit on the path fails with it
	owner *file       // the file whose content is at this path now; nil if none
	by    int         // position of the last edit that wrote content here
	// made is one more than the position of the create of this reply
	// whose content is here now (it created the file, or filled it
	// empty); 0 when the content is not the reply's own. A later create
	// of the path is a new version of it (see supersede).
	made int
	// origHash is HashBytes(orig.data), started when it was read; curHash
	// is HashBytes(cur.data) once finish has started it for the receipt,
	// so the journal does not hash the same bytes again.
	origHash *digest
	curHash  *digest
	// streamed is the hash of streamedOf's content, computed as a batch
	// made it (see hashStream); finish takes it when cur still holds it.
	streamed   *digest
	streamedOf fsio.State
	// doc, while only Replace edits have come, holds the content as they
	// leave it (cur is then as it was when doc was made; see sync); hs is
	// the stream its batch feeds.
	doc *locate.Doc
	hs  *hashStream
	// enc, for a file in another encoding than UTF-8, is its bytes and
	// encoding while orig and cur are its text (decode.go).
	enc *encoded
}

// A file is what one FileResult reports: content that starts at one path (or
// nowhere, when created) and may be renamed elsewhere or deleted.
type file struct {
	fr     *FileResult
	origin *slot // where the content was before; nil when the file is new
	at     *slot // where it is now; nil when deleted
	intent edit.Op
	// changes counts the edits applied to the content so far (see
	// heldCheck).
	changes int
	// draft is the place in fr.Edits of the result of the create that
	// made the content the reply's own, while at.made says there is one
	// (see supersede).
	draft int
	// isForeign says the file stood before the reply and is not UTF-8,
	// once foreignKnown (see foreign).
	foreignKnown, isForeign bool
}

type planner struct {
	root  *os.Root
	rs    *paths.Resolver
	rc    paths.Cache
	dirs  *fsio.Dirs   // the directories files are read in, kept open for commit
	paths *paths.Index // the tree, for path candidates; walked on the first failure that wants them
	res   *Result
	mopts locate.Options
	slots map[string]*slot
	order []*slot // slots by first use, the commit order
	files []*file // by first appearance in the edits

	// For repair rounds (nil otherwise): the edits being planned, where
	// each came from; the first error of each position, and the file text
	// around it.
	work     []work
	failed   map[int]*edit.Error
	excerpts map[int]string
	// cache holds the files read in earlier rounds (of repair, or of
	// holdAlready), so that each is read once; nil for a lone plan.
	cache map[string]loaded
	// force holds the positions of the edits that may not be found
	// already applied, and held those that were, to be checked in their
	// file's final content (see holdAlready).
	force map[int]bool
	held  []heldCheck
	// links holds the paths of the symlinks a delete or a rename acts on
	// (read as links: see fsio.State.Link); unlinked, the paths as written of
	// those the plan has deleted or moved away, by the edit's position.
	links    map[string]bool
	unlinked map[string]int
	// unmoved holds the destinations of the renames that failed, by the
	// rename's position: the edits after it that name the destination
	// are written against the file it would have moved there.
	unmoved map[string]int
	// progress is Options.Progress.
	progress func(done, total int)
	// pre holds the files being read ahead while plan runs (see prefetch).
	pre map[string]*fetch

	hasher *hasher // the Apply's; made on first use when a test plans without one
	// noHashes skips the receipt's hashes (Options.Omit.Hashes): hash
	// returns nil, whose get is "".
	noHashes bool
	// noAfter leaves FileResult.After nil (Options.Omit.After), and the
	// content a Doc made as its pieces (see sync).
	noAfter bool

	// restAt[i], for a Replace edit i with an old text, is one more than
	// its place in its path's group; 0 for any other edit (see restOf).
	// Four bytes an edit: a slice of the group for each would take 24.
	restAt []int32
	// groups[path] is every Replace edit to path with an old text, in the
	// order planned.
	groups map[string][]*edit.Edit

	audit auditLog // what the check before commit reads (audit.go)

	// encoding is Options.Encoding; encs says each file's (decode.go).
	encoding string
	encs     *textenc.Resolver
}

type loaded struct {
	st   fsio.State
	err  *edit.Error
	hash *digest // HashBytes(st.data), started when read; nil when there is none
}

// plan runs phase 1: resolve every path, then run every edit in memory.
func (p *planner) plan(ctx context.Context, edits []edit.Edit, base map[string]string) {
	// Every path, of every edit and every --base, is judged before any
	// content is read, so a response that tries to escape learns nothing
	// from the files it names.
	p.rc = paths.Cache{Resolver: p.rs, Dirs: p.dirs}
	rc := &p.rc
	p.audit.edits = edits
	src := make([]string, len(edits))
	// dst, a Rename's destination by edit, is made at the first Rename:
	// most replies have none, and a string for each of their edits would
	// be 16 bytes each held through planning.
	var dst []string
	dstOf := func(i int) string {
		if dst == nil {
			return ""
		}
		return dst[i]
	}
	bad := make([]bool, len(edits))
	// A path's directories are judged once: a reply's edits to one file
	// name it again and again.
	notPlaceholder := ""
	for i := range edits {
		e := &edits[i]
		if !e.Op.Valid() {
			p.fail(i, e, &edit.Error{Code: edit.CodeParse, Msg: fmt.Sprintf("invalid edit operation %v", e.Op), Line: e.Line})
			bad[i] = true
			continue
		}
		var perr *edit.Error
		if src[i], perr = rc.Resolve(e.Path); perr != nil {
			p.fail(i, e, perr)
			bad[i] = true
			continue
		}
		if src[i] != notPlaceholder {
			if perr = p.rc.Placeholder(src[i]); perr != nil {
				p.fail(i, e, perr)
				bad[i] = true
				continue
			}
			notPlaceholder = src[i]
		}
		if e.Op == edit.Delete || e.Op == edit.Rename {
			// A delete or a rename acts on the path named: a symlink
			// there is removed or moved as a link, never its target
			// (which resolve has judged inside the root all the same).
			if ent, perr := rc.Entry(e.Path); perr == nil && ent != src[i] && rc.IsLink(ent) {
				src[i] = ent
				if p.links == nil {
					p.links = map[string]bool{}
				}
				p.links[ent] = true
			}
		}
		if e.Op == edit.Rename {
			if dst == nil {
				dst = make([]string, len(edits))
			}
			if dst[i], perr = rc.Resolve(e.New); perr == nil {
				perr = p.rc.Placeholder(dst[i])
			}
			if perr == nil {
				// A symlink at the destination is an entry there, dangling
				// or not: moving onto it would write its target.
				if ent, eerr := rc.Entry(e.New); eerr == nil && ent != dst[i] && rc.IsLink(ent) {
					perr = &edit.Error{Code: edit.CodeFileExists, Msg: "rename destination already exists (a symlink)",
						Hint: "Rename to a path that does not exist, or delete the destination first."}
				}
			}
			if perr != nil {
				perr.Path = rc.Display(e.New)
				p.fail(i, e, perr)
				bad[i] = true
			}
		}
	}
	type baseCheck struct{ name, rel, want string }
	var bases []baseCheck
	for _, name := range slices.Sorted(maps.Keys(base)) {
		want := base[name]
		if !ValidBase(want) {
			p.res.Errors.Add(remedy.Mark(&edit.Error{Code: edit.CodeParse, Path: name, Edit: -1,
				Msg:  fmt.Sprintf("base hash %q is not 8 to 64 hex digits", want),
				Hint: "Give the file's SHA-256, or a prefix of at least 8 hex digits."}, remedy.Hash))
			continue
		}
		rel, perr := rc.Resolve(name)
		if perr != nil {
			perr.Path, perr.Edit = name, -1
			p.res.Errors.Add(perr)
			continue
		}
		bases = append(bases, baseCheck{name, rel, strings.ToLower(want)})
	}

	defer p.prefetch(src, bad)()
	p.prepare(edits, src, bad)
	defer func() {
		for _, s := range p.order {
			p.sync(s, true)
		}
		p.restAt, p.groups = nil, nil // planning's alone
	}()

	// --base is checked against the files as they are before any edit.
	for _, b := range bases {
		s := p.slot(b.rel)
		var have string
		if s.err == nil && s.orig.Exists {
			have = s.origHash.get()
			if s.origHash == nil {
				have = HashBytes(s.bytesRead().Data)
			}
		}
		switch {
		case s.err != nil:
			e := *s.err
			e.Path, e.Edit = b.name, -1
			p.res.Errors.Add(&e)
		case !s.orig.Exists:
			p.res.Errors.Add(&edit.Error{Code: edit.CodeOutOfDate, Path: b.name, Edit: -1,
				Msg:  "file was removed since its hash was taken",
				Hint: "Re-read the tree and write the edits against the files as they stand now."})
		case !strings.HasPrefix(have, b.want):
			p.res.Errors.Add(&edit.Error{Code: edit.CodeOutOfDate, Path: b.name, Edit: -1,
				Msg:  fmt.Sprintf("file changed since its hash was taken (hash now %.16s, taken %s)", have, b.want),
				Hint: "Re-read the file and write the edits against its current content, with its new hash."})
		}
	}

	// lastUse[path] is the last edit that names path: after it, the
	// path's Doc (its batch index) and its group of edits are done with,
	// and are let go rather than held to the end of planning.
	lastUse := map[string]int{}
	for i := range edits {
		if !bad[i] {
			lastUse[src[i]] = i
			if d := dstOf(i); d != "" {
				lastUse[d] = i
			}
		}
	}
	for i := 0; i < len(edits); i++ {
		if bad[i] {
			if edits[i].Op == edit.Rename {
				p.unmove(dstOf(i), i)
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			p.res.Errors.Add(&edit.Error{Code: edit.CodeIO, Edit: i, Path: p.rc.Display(edits[i].Path), Msg: "interrupted: " + err.Error(), Err: err})
			return
		}
		errs := len(p.res.Errors)
		p.run(i, &edits[i], src[i], dstOf(i))
		if edits[i].Op == edit.Rename && len(p.res.Errors) > errs {
			p.unmove(dstOf(i), i)
		}
		if p.progress != nil {
			p.progress(i+1, len(edits))
		}
		if lastUse[src[i]] == i {
			if s := p.slots[src[i]]; s != nil {
				p.sync(s, true)
			}
			clear(p.groups[src[i]])
		}
	}
	p.checkNesting(edits)
}

// checkNesting fails the response when it leaves a file where another of
// its files needs a directory (a.txt and a.txt/x, both new): the resolver
// catches that against the disk, but not between the response's own new
// files, and commit would make the directory and then find it in the way.
func (p *planner) checkNesting(edits []edit.Edit) {
	files := map[string]bool{}
	for _, s := range p.order {
		if s.cur.Exists {
			files[s.path] = true
		}
	}
	for _, s := range p.order {
		if !s.cur.Exists || s.orig.Exists {
			continue // an existing file's parents are directories already
		}
		for d := path.Dir(s.path); d != "."; d = path.Dir(d) {
			if !files[d] {
				continue
			}
			i := s.by
			p.fail(i, &edits[i], &edit.Error{Code: edit.CodeIO, Path: p.rc.Display(edits[i].Path),
				Msg:  d + " is a file in this response; " + s.path + " needs it to be a directory",
				Hint: "A file stands where the path needs a directory; check the path."})
			if s.owner != nil {
				for k := range s.owner.fr.Edits {
					if er := &s.owner.fr.Edits[k]; er.Index == p.index(i) {
						er.Status = edit.StatusFailed
					}
				}
			}
			break
		}
	}
}

// A fetch is a file being read ahead of planning (see prefetch).
type fetch struct {
	rel  string
	done chan struct{}
	l    loaded
}

// prefetch starts reading the files at paths (those of the edits not bad,
// each once, in the order planning will want them) on a few goroutines,
// for slot to take: with many files, reading them is much of planning
// and the other cores are idle. It returns a function that stops the
// readers and waits for them; files planning did not ask for by then are
// read by slot itself. Nothing is read for a single file, or when the
// repair rounds' cache has it already.
func (p *planner) prefetch(paths []string, bad []bool) (stop func()) {
	var todo []*fetch
	p.pre = map[string]*fetch{}
	for i, rel := range paths {
		if bad[i] || p.pre[rel] != nil || p.links[rel] {
			continue
		}
		if _, ok := p.cache[rel]; ok {
			continue
		}
		f := &fetch{rel: rel, done: make(chan struct{})}
		p.pre[rel] = f
		todo = append(todo, f)
	}
	if len(todo) < 2 {
		p.pre = nil
		return func() {}
	}
	var quit atomic.Bool
	_, wait := spread(lanes(len(todo), 1), len(todo), func(k int) {
		if f := todo[k]; !quit.Load() {
			f.l.st, f.l.err = p.dirs.Load(f.rel)
			close(f.done)
		}
	})
	return func() {
		quit.Store(true) // planning is over (or was cancelled): read no more
		wait()
		p.pre = nil
	}
}

// hash starts HashBytes(b) on the Apply's hashing workers; nil when the
// receipt carries no hashes.
func (p *planner) hash(b []byte) *digest { return p.hashChunks([][]byte{b}) }

// hashChunks starts hashChunks(cs) likewise.
func (p *planner) hashChunks(cs [][]byte) *digest {
	if p.noHashes {
		return nil
	}
	if p.hasher == nil {
		p.hasher = &hasher{}
	}
	return p.hasher.hash(cs)
}

// slot returns the slot for rel, reading the file the first time.
func (p *planner) slot(rel string) *slot {
	if s, ok := p.slots[rel]; ok {
		return s
	}
	s := &slot{path: rel}
	l, ok := p.cache[rel]
	if !ok {
		if f := p.pre[rel]; f != nil {
			<-f.done
			l = f.l
		} else if p.links[rel] {
			l.st, l.err = p.dirs.LoadEntry(rel)
		} else {
			l.st, l.err = p.dirs.Load(rel)
		}
		if l.st.Exists {
			l.hash = p.hash(l.st.Data)
		}
		if p.cache != nil {
			p.cache[rel] = l // repair rounds read and hash each file once
		}
	}
	st := l.st
	if l.err != nil {
		e := *l.err
		s.err = &e
	}
	s.orig, s.cur, s.origHash = st, st, l.hash
	p.decode(s)
	p.slots[rel] = s
	p.order = append(p.order, s)
	return s
}

// fileAt returns the file whose content is at s, making one if none is:
// the path's original content, a file deleted here earlier in the response
// that is now being recreated, or a new file.
func (p *planner) fileAt(s *slot, e *edit.Edit) *file {
	if s.owner != nil {
		return s.owner
	}
	if !s.cur.Exists {
		for _, f := range p.files {
			if f.origin == s && f.at == nil {
				f.at, s.owner = s, f
				return f
			}
		}
	}
	f := &file{fr: &FileResult{Path: p.rc.Display(e.Path)}, at: s, intent: e.Op}
	if n := len(p.groups[s.path]); n > 1 {
		// Room for the result of every edit that quotes the file, which
		// append would grow to up to twice that.
		f.fr.Edits = make([]EditResult, 0, n)
	}
	if s.cur.Exists {
		f.origin = s
	}
	s.owner = f
	p.files = append(p.files, f)
	p.res.Files = append(p.res.Files, f.fr)
	return f
}

// fail records err for edit i. The error's Code, Msg and Hint are kept;
// Path and Edit are set here.
func (p *planner) fail(i int, e *edit.Edit, err *edit.Error) {
	written := err.Path
	if written == "" {
		written = e.Path
		err.Path = p.rc.Display(e.Path)
	}
	if e.Op == edit.Replace {
		p.addPathCandidates(err, written, e.Old)
	} else {
		p.addPathCandidates(err, written, "")
	}
	err.Edit = p.index(i)
	p.res.Errors.Add(err)
	if p.failed != nil && p.failed[i] == nil {
		p.failed[i] = err
	}
}

// failOn records err for edit i and a failed EditResult in f, and for a
// fixer, the file's text around the failure as the edit saw it.
func (p *planner) failOn(f *file, i int, e *edit.Edit, err *edit.Error) {
	p.fail(i, e, err)
	p.record(f, i, EditResult{Status: edit.StatusFailed})
	if p.excerpts != nil && f.at != nil && f.at.cur.Exists && p.excerpts[i] == "" {
		// The error's lines count the content the file's Doc was given.
		text := p.text(f.at)
		if f.at.doc != nil {
			text = f.at.doc.Given()
		}
		p.excerpts[i] = excerpt(text, err)
	}
}

// record adds er, the outcome of the edit at position i, to f's result.
func (p *planner) record(f *file, i int, er EditResult) {
	er.Index = p.index(i)
	if p.work != nil && p.work[i].repaired {
		er.Repaired, er.Fix = true, &p.work[i].e
	}
	if er.Status == edit.StatusApplied {
		f.changes++
	}
	f.fr.Edits = append(f.fr.Edits, er)
	p.logStep(f, i)
}

// index returns the index, in the edits given to Apply, of the edit at
// position i of the list being planned (a fixer's edits take the index of
// the edit they replace).
func (p *planner) index(i int) int {
	if p.work != nil {
		return p.work[i].index
	}
	return i
}

// throughUnlinked is the error of an edit that names a symlink, or a path
// through one, that an earlier edit of the reply deleted or moved away:
// on disk the path still leads to the link's target, which is not what
// the reply means by then. nil for any other edit.
func (p *planner) throughUnlinked(e *edit.Edit) *edit.Error {
	if len(p.unlinked) == 0 {
		return nil
	}
	paths := []string{e.Path}
	if e.Op == edit.Rename {
		paths = append(paths, e.New)
	}
	for _, w := range paths {
		lex := p.rc.Lexical(w)
		for d := lex; d != "." && d != "/" && d != ""; d = path.Dir(d) {
			if k, ok := p.unlinked[d]; ok {
				return &edit.Error{Code: edit.CodeIO, Path: p.rc.Display(w),
					Msg:  fmt.Sprintf("%s is a symlink edit %d of this reply deletes or moves; the path no longer leads where it did", d, p.index(k)),
					Hint: "Name the file the link pointed to by its own path, or make this change in another reply."}
			}
		}
	}
	return nil
}

// unmove records that rename k, to dst (resolved; "" when it could not
// be), failed.
func (p *planner) unmove(dst string, k int) {
	if dst == "" {
		return
	}
	if p.unmoved == nil {
		p.unmoved = map[string]int{}
	}
	if _, ok := p.unmoved[dst]; !ok {
		p.unmoved[dst] = k
	}
}

// notMoved is the error of an edit to src, a path a failed rename of the
// reply was to move a file to: the edit is written against that file (a
// Codex chunk after its "*** Move to:", a hunk after "rename to"), which
// is not there, so it is not located in whatever stands at the path.
// nil for any other edit.
func (p *planner) notMoved(src string) *edit.Error {
	k, ok := p.unmoved[src]
	if !ok {
		return nil
	}
	code := edit.CodeIO
	for _, err := range p.res.Errors {
		if err.Edit == p.index(k) {
			code = err.Code
			break
		}
	}
	return &edit.Error{Code: code,
		Msg:  fmt.Sprintf("not tried: this edit is written against the file edit %d moves to %s, and that move failed", p.index(k), p.rc.Display(src)),
		Hint: fmt.Sprintf("Fix edit %d and send both again: this edit is located in the moved file then.", p.index(k))}
}

// notFound is FILE_NOT_FOUND for e, whose format (or tool) words the
// hint; nil for no edit.
func notFound(e *edit.Edit) *edit.Error {
	whole := " or a whole-file block"
	if e != nil && e.Args != nil {
		whole = ""
		if e.Args.Whole != "" {
			whole = fmt.Sprintf(" or the whole file as %q", e.Args.Whole)
		}
	}
	return &edit.Error{Code: edit.CodeFileNotFound, Msg: "no such file",
		Hint: "Check the path against the tree; to create a new file, use " + createWords(e) + whole + "."}
}

// run applies edit i to the in-memory state.
func (p *planner) run(i int, e *edit.Edit, src, dst string) {
	if err := p.throughUnlinked(e); err != nil {
		p.fail(i, e, err)
		return
	}
	if err := p.notMoved(src); err != nil {
		p.fail(i, e, err)
		return
	}
	s := p.slot(src)
	if s.err != nil {
		err := *s.err
		p.fail(i, e, &err)
		return
	}
	f := p.fileAt(s, e)
	if s.cur.Link && e.Op != edit.Delete && e.Op != edit.Rename {
		// A link this reply moved: its content is its target's path.
		p.failOn(f, i, e, &edit.Error{Code: edit.CodeIO, Msg: p.rc.Display(e.Path) + " is a symlink this reply moved here",
			Hint: "Edit the file the link points to by its own path."})
		return
	}
	if strings.IndexByte(e.New, 0) >= 0 {
		p.failOn(f, i, e, nulErr())
		return
	}
	s.by = i
	if !inBatch(e) {
		p.sync(s, false) // the edit reads or moves the content as a whole
	}
	switch e.Op {
	case edit.Create:
		if e.Format == edit.FormatSearchReplace && s.cur.Exists && len(s.cur.Data) > 0 && s.made == 0 {
			// An empty SEARCH on a file with content appends to it, as
			// Aider reads it; replies rely on that. Not on a file this
			// reply created: a second create of it is its new version.
			p.replace(f, i, e)
			return
		}
		p.create(f, i, e, edit.StrategyCreate)
	case edit.Replace:
		if e.Old == "" && e.Hint == 0 && len(e.Anchors) == 0 && !e.AtEOF &&
			(!s.cur.Exists || len(s.cur.Data) == 0 || !locate.LineOriented(e)) {
			// An empty old text that says nowhere to put its text creates
			// the file, or fills an empty one; a tool call's refuses a file
			// with content (FILE_EXISTS). A block's or a chunk's appends to
			// it; with a line, an anchor or the end of the file it inserts
			// there (the ladder's insert).
			p.create(f, i, e, edit.StrategyCreate)
			return
		}
		p.replace(f, i, e)
	case edit.Rewrite:
		if !s.cur.Exists {
			p.create(f, i, e, edit.StrategyCreate)
			return
		}
		p.rewrite(f, i, e)
	case edit.Delete:
		p.delete(f, i, e)
	case edit.Rename:
		p.rename(f, i, e, dst)
	}
}

func (p *planner) create(f *file, i int, e *edit.Edit, strat edit.Strategy) {
	s := f.at
	text := e.New
	if p.mopts.TrimTrailingWS {
		text = trimAdded(text, "")
	}
	if err := p.unfit(f, text); err != nil {
		p.failOn(f, i, e, err)
		return
	}
	switch {
	case !s.cur.Exists:
		s.cur = fsio.State{Exists: true, Data: p.contentOf(text), Mode: defaultMode}
		s.made, f.draft = i+1, len(f.fr.Edits)
	case len(s.cur.Data) == 0 && text == "" && (e.Mode == 0 || s.cur.Exact && s.cur.Mode == fs.FileMode(e.Mode)&fs.ModePerm):
		// An empty file "filled" with nothing is what it was.
		p.record(f, i, EditResult{Status: edit.StatusAlreadyApplied, Strategy: strat, LineStart: 1})
		return
	case len(s.cur.Data) == 0:
		// An empty file is filled: models create files with an empty
		// SEARCH that a previous turn already touched.
		s.cur.Data = p.contentOf(text)
		s.made, f.draft = i+1, len(f.fr.Edits)
	default:
		body, _ := splitBOM(s.cur.Data)
		if body == strings.TrimPrefix(text, bom) || !isBinary(s.cur.Data) && locate.SameContent(body, strings.TrimPrefix(text, bom)) {
			if p.force[i] {
				p.failOn(f, i, e, unheldWhole(edit.CodeFileExists, "file already exists and holds this text"))
				return
			}
			p.held = append(p.held, heldCheck{i: i, f: f, k: len(f.fr.Edits), changes: f.changes})
			p.record(f, i, EditResult{Status: edit.StatusAlreadyApplied, Strategy: strat,
				LineStart: 1, LineEnd: lineCount(body)})
			return
		}
		if s.made == 0 {
			p.failOn(f, i, e, &edit.Error{Code: edit.CodeFileExists, Msg: "file already exists", Hint: existsHint(e)})
			return
		}
		p.supersede(f, i)
		s.cur.Data, s.cur.Pieces = p.contentOf(text), nil
		s.made, f.draft = i+1, len(f.fr.Edits)
	}
	p.setMode(s, e)
	p.record(f, i, EditResult{Status: edit.StatusApplied, Strategy: strat,
		LineStart: 1, LineEnd: lineCount(text), Written: text})
}

// unheldWhole is the error, code and message what, of a whole-file edit
// that changes nothing (the file holds its text already) when a later
// edit of the reply changes the file: found already applied, it would
// claim a text the file written lacks (see holdAlready), and applied, a
// write it never made. A create is FILE_EXISTS, as on a file with other
// content; a rewrite, NO_MATCH, as a forced edit that changes nothing.
func unheldWhole(code edit.Code, what string) *edit.Error {
	return &edit.Error{Code: code, Msg: what + ", and a later edit of this reply changes it",
		Hint: "Leave this whole-file edit out: the file already holds its text, and the later edits say what it becomes."}
}

// supersede makes edit i, a create of f's path, the new version of f, a
// file this reply created (the draft, then its fix: "Let me fix this"):
// i writes the file whole, never glued to the draft, and the edits that
// made or changed the draft are reported matched, not applied: their text
// is never written. Their note says which edit replaced them.
//
// Only the draft's edits: those from the create that made it on. An
// edit before it (the deletion of the file that stood there) is done all
// the same.
func (p *planner) supersede(f *file, i int) {
	note := fmt.Sprintf("replaced by edit %d, which writes the file whole", p.index(i))
	for k := f.draft; k < len(f.fr.Edits); k++ {
		er := &f.fr.Edits[k]
		if er.Status == edit.StatusApplied || er.Status == edit.StatusAlreadyApplied {
			if p.audit.replaced == nil {
				p.audit.replaced = map[resultKey]replacement{}
			}
			p.audit.replaced[resultKey{f, k}] = replacement{was: er.Status, by: p.index(i)}
			er.Status, er.Note = edit.StatusMatched, note
		}
	}
}

// contentOf is text as a file's content: a copy, which FileResult.After
// hands the caller; with noAfter, which hands nothing, text's own bytes,
// never written (see state): a whole file is not copied out of the reply.
func (p *planner) contentOf(text string) []byte {
	if p.noAfter {
		return readOnlyBytes(text)
	}
	return []byte(text)
}

func (p *planner) setMode(s *slot, e *edit.Edit) {
	if e.Mode != 0 {
		s.cur.Mode = fs.FileMode(e.Mode) & fs.ModePerm
		s.cur.Exact = true
	}
}

func (p *planner) rewrite(f *file, i int, e *edit.Edit) {
	s := f.at
	if _, err := p.fileEncoding(f); err != nil {
		p.failOn(f, i, e, err)
		return
	}
	if isBinary(s.cur.Data) {
		p.failOn(f, i, e, binaryErr())
		return
	}
	body, hadBOM := splitBOM(s.cur.Data)
	text := e.New
	newBOM := false
	for strings.HasPrefix(text, bom) {
		text, newBOM = text[len(bom):], true
	}
	if err := locate.RewriteError(body, text, e.Tentative); err != nil {
		p.failOn(f, i, e, err)
		return
	}
	if hasNonASCII(text) && p.foreign(f) {
		if line, bad := foreignLine(body, text); bad {
			p.failOn(f, i, e, encodingErr(line))
			return
		}
	}
	if err := p.unfit(f, text); err != nil {
		p.failOn(f, i, e, err)
		return
	}
	// The file's conventions win over the model's: its line endings and
	// its final-newline state. A rewrite is sent as a whole file in a fence,
	// which always ends in a newline, so that newline says nothing.
	if body != "" {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		eol := "\n"
		if locate.IsCRLF(body) {
			eol = "\r\n"
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		switch {
		case strings.HasSuffix(body, "\n") && text != "" && !strings.HasSuffix(text, "\n"):
			text += eol
		case !strings.HasSuffix(body, "\n"):
			text = strings.TrimSuffix(text, eol)
		}
	}
	if p.mopts.TrimTrailingWS {
		text = trimAdded(text, body)
	}
	if hadBOM || newBOM {
		text = bom + text
	}
	er := EditResult{Status: edit.StatusApplied, Strategy: edit.StrategyRewrite,
		LineStart: 1, LineEnd: lineCount(text), Written: strings.TrimPrefix(text, bom)}
	if text == string(s.cur.Data) {
		if p.force[i] {
			p.failOn(f, i, e, unheldWhole(edit.CodeNoMatch, "the whole file written is the file as it stands"))
			return
		}
		er.Status = edit.StatusAlreadyApplied
		p.held = append(p.held, heldCheck{i: i, f: f, k: len(f.fr.Edits), changes: f.changes})
	}
	s.cur.Data = p.contentOf(text)
	p.setMode(s, e)
	p.record(f, i, er)
}

func (p *planner) delete(f *file, i int, e *edit.Edit) {
	s := f.at
	if !s.cur.Exists {
		p.failOn(f, i, e, notFound(e))
		return
	}
	if e.Old != "" {
		content := s.cur.Data
		if s.cur.Link {
			content = p.linkedContent(e, s)
		}
		if isBinary(content) {
			p.failOn(f, i, e, binaryErr())
			return
		}
		body, _ := splitBOM(content)
		if !locate.SameContent(body, e.Old) && !(s.cur.Link && locate.SameContent(string(s.cur.Data), e.Old)) {
			p.failOn(f, i, e, &edit.Error{Code: edit.CodeNoMatch, Msg: "file content differs from the deletion's",
				Hint: "A deletion must quote the whole file as it stands; re-read it, or delete it without quoting it."})
			return
		}
	}
	er := EditResult{Status: edit.StatusApplied, Strategy: edit.StrategyDelete, LineStart: 1, LineEnd: lineCount(string(s.cur.Data))}
	if s.cur.Link {
		er.LineStart, er.LineEnd = 0, 0 // a link has no lines
		p.unlink(e, i)
	}
	p.record(f, i, er)
	s.cur, s.made = fsio.State{}, 0
	s.owner, f.at = nil, nil
}

// unlink records that edit i deletes or moves away the symlink e names.
func (p *planner) unlink(e *edit.Edit, i int) {
	if p.unlinked == nil {
		p.unlinked = map[string]int{}
	}
	p.unlinked[p.rc.Lexical(e.Path)] = i
}

// linkedContent is the content of the file the link at s points to, as
// an edit of e's path reads it (a model quotes the file it saw, not the
// link's target path); nil when there is none.
func (p *planner) linkedContent(e *edit.Edit, s *slot) []byte {
	target, err := p.rc.Resolve(e.Path)
	if err != nil || target == s.path {
		return nil
	}
	st, lerr := p.dirs.Load(target)
	if lerr != nil {
		return nil
	}
	if p.audit.linked == nil {
		p.audit.linked = map[string]fsio.State{}
	}
	p.audit.linked[target] = st
	return st.Data
}

func (p *planner) rename(f *file, i int, e *edit.Edit, dst string) {
	s := f.at
	if !s.cur.Exists {
		p.failOn(f, i, e, notFound(e))
		return
	}
	if s.cur.Link && e.Mode != 0 {
		// git would refuse the diff's mode lines for a link (mode
		// 120000); a link has no mode to set.
		p.failOn(f, i, e, &edit.Error{Code: edit.CodeIO, Msg: fmt.Sprintf("%s is a symlink, which has no mode; the rename asks for mode %04o", p.rc.Display(e.Path), e.Mode),
			Hint: "Rename the link without a mode, or set the mode on the file it points to."})
		return
	}
	if s.cur.Link && dst != s.path {
		// A link moved keeps its target as written, as git and mv move
		// it: relative, it is read from the new directory, which must
		// not lead it out of the root.
		if t := string(s.cur.Data); !filepath.IsAbs(t) && paths.Escapes(path.Clean(path.Join(path.Dir(dst), t))) {
			err := paths.OutOfRoot("symlink "+p.rc.Display(e.Path)+", moved to "+p.rc.Display(e.New)+", would point outside the root",
				"A link keeps its target as written, read from its new directory: move it where that target stays inside the working tree, or leave it in place.")
			p.failOn(f, i, e, err)
			return
		}
	}
	if dst == s.path {
		p.record(f, i, EditResult{Status: edit.StatusAlreadyApplied, Strategy: edit.StrategyRename})
		return
	}
	d := p.slot(dst)
	if d.err != nil {
		err := *d.err
		err.Path = p.rc.Display(e.New)
		p.failOn(f, i, e, &err)
		return
	}
	if d.cur.Exists {
		p.failOn(f, i, e, &edit.Error{Code: edit.CodeFileExists, Path: p.rc.Display(e.New), Msg: "rename destination already exists",
			Hint: "Rename to a path that does not exist, or delete the destination first."})
		return
	}
	if d.owner != nil {
		// A file that only failed edits named (it never existed): the
		// renamed content takes the path over.
		d.owner.at = nil
	}
	d.cur, d.made = s.cur, s.made
	d.by = i
	d.cur.Exact = true // a moved file keeps its mode exactly, unless the rename names one
	p.setMode(d, e)
	s.cur, s.made = fsio.State{}, 0
	s.owner = nil
	d.owner, f.at = f, d
	f.fr.NewPath = p.rc.Display(e.New)
	if s.cur.Link || d.cur.Link {
		d.cur.Mode, d.cur.Exact = 0, false // a link has no mode
		p.unlink(e, i)
	}
	p.record(f, i, EditResult{Status: edit.StatusApplied, Strategy: edit.StrategyRename})
}

// finish completes the receipt's file results but for their after hashes,
// which it starts; settle waits for them. In between, commit writes the
// journal while they are computed.
func (p *planner) finish() {
	p.encode()
	for _, f := range p.files {
		switch {
		case f.at == nil || !f.at.cur.Exists:
		case f.origin != nil && f.origin.orig.Exists && fsio.SameRef(f.at.cur, f.origin.orig):
			f.at.curHash = f.origin.origHash // unchanged (failed edits, a rename): hashed already
		case f.at.streamed != nil && fsio.SameRef(f.at.cur, f.at.streamedOf):
			f.at.curHash = f.at.streamed
		default:
			f.at.curHash = p.hashChunks(f.at.cur.Chunks())
		}
	}
	for _, f := range p.files {
		fr := f.fr
		if f.origin != nil && f.origin.orig.Exists {
			before, _ := f.origin.texts()
			fr.Before = before.Data
			fr.BeforeHash = f.origin.origHash.get()
		}
		exists := f.at != nil && f.at.cur.Exists
		if exists && !p.noAfter {
			_, after := f.at.texts()
			fr.After = after.Data
			if fsio.SameBytes(fr.After, fr.Before) {
				fr.After = slices.Clone(fr.After) // the caller's to write, as Before is
			}
		}
		// What the disk sees: a file the reply creates and moves is
		// created where it ends (NewPath), one it moves and deletes is
		// deleted, nothing moved.
		switch {
		case fr.Before == nil && exists:
			fr.Op = "create"
		case fr.Before != nil && !exists:
			fr.Op, fr.NewPath = "delete", ""
		case fr.NewPath != "":
			fr.Op = "rename"
		case fr.Before != nil:
			fr.Op = "modify"
		default:
			// Neither before nor after: only failed edits named it.
			switch f.intent {
			case edit.Create, edit.Rewrite:
				fr.Op = "create"
			case edit.Delete:
				fr.Op = "delete"
			case edit.Rename:
				fr.Op = "rename"
			default:
				fr.Op = "modify"
			}
		}
	}
}

// settle waits for the after hashes finish started and puts them in the
// receipt.
func (p *planner) settle() {
	for _, f := range p.files {
		if f.at != nil && f.at.cur.Exists {
			f.fr.AfterHash = f.at.curHash.get()
		}
	}
}

// unwritten makes the result say what is on disk when the planned content
// was not written, except at the paths in left: each file's after hash is
// its before hash, and each edit located there is matched, not applied.
func (p *planner) unwritten(left map[string]bool) {
	for _, f := range p.files {
		if f.at != nil && left[f.at.path] || f.origin != nil && left[f.origin.path] {
			continue
		}
		f.fr.AfterHash = f.fr.BeforeHash
		for k := range f.fr.Edits {
			if er := &f.fr.Edits[k]; er.Status == edit.StatusApplied {
				er.Status = edit.StatusMatched
			}
		}
	}
}

// leftOnDisk gives each file that a rollback did not put back (a path in
// left) the hash of what is on disk at its path now: what this apply
// wrote, what something else wrote since (the check command, another
// apply), or "" when nothing is there. A file that cannot be read keeps
// the hash of what this apply wrote.
func (p *planner) leftOnDisk(left map[string]bool) {
	if p.noHashes || len(left) == 0 {
		return
	}
	for _, f := range p.files {
		if !(f.at != nil && left[f.at.path] || f.origin != nil && left[f.origin.path]) {
			continue
		}
		at := f.origin // a deletion's: its path is where nothing should be
		if f.at != nil {
			at = f.at
		}
		st, err := fsio.LoadIn(p.root, at.path, at.path)
		switch {
		case err != nil:
		case !st.Exists:
			f.fr.AfterHash = ""
		default:
			f.fr.AfterHash = HashBytes(st.Data)
		}
	}
}

// changes lists what commit must do, in order of first use.
func (p *planner) changes() []txn.Change {
	var cs []txn.Change
	for _, s := range p.order {
		if !s.orig.Equal(s.cur) {
			cs = append(cs, txn.Change{Path: s.path, Orig: s.orig, Final: s.cur})
		}
	}
	return cs
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// trimAdded strips trailing blanks from the lines of text that are not lines
// of orig: those are the lines the edit adds; the others keep their bytes.
func trimAdded(text, orig string) string {
	keep := map[string]bool{}
	for _, l := range strings.SplitAfter(orig, "\n") {
		keep[strings.TrimRight(l, "\r\n")] = true
	}
	lines := strings.SplitAfter(text, "\n")
	for j, l := range lines {
		content := strings.TrimRight(l, "\r\n")
		if keep[content] {
			continue
		}
		lines[j] = strings.TrimRight(content, " \t") + l[len(content):]
	}
	return strings.Join(lines, "")
}
