package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

// maxResponse bounds the model output edapply reads: far beyond any real
// reply, small enough that a runaway pipe cannot exhaust memory. A variable
// only so that tests can lower it.
var maxResponse int64 = 256 << 20 // 256 MiB

// planOptions are what apply and normalize share: where the tree is, how
// to read the response, how to plan it.
type planOptions struct {
	root     string
	format   edit.Format
	base     []string // PATH=HASH, as given
	strict   bool
	trimWS   bool
	prefixes []string // --path-prefix
	response string   // RESPONSE_FILE; "" or "-" for stdin
	// skipped, if set, is told of each edit that --format leaves unread
	// (parse.Options.Skipped).
	skipped func(edit.Edit)
}

// addPlanFlags registers planOptions' flags; baseUsage says what --base
// does for the command.
func addPlanFlags(fs *pflag.FlagSet, opts *planOptions, baseUsage string) {
	fs.StringVarP(&opts.root, "root", "C", ".", "working tree `DIR`; every path resolves inside it")
	fs.VarP(&opts.format, "format", "f", "edit format: "+edit.FormatNames())
	fs.BoolVar(&opts.strict, "strict", false, "exact matching only (no tolerance ladder)")
	fs.StringArrayVar(&opts.base, "base", nil, baseUsage)
	fs.BoolVar(&opts.trimWS, "trim-trailing-ws", false, "strip trailing spaces and tabs from the lines edits add")
	fs.StringArrayVar(&opts.prefixes, "path-prefix", nil, "an absolute path under `P` names the file under the root (where the model sees the tree); repeatable")
}

type applyOptions struct {
	planOptions
	dryRun   bool
	json     bool
	check    string
	repair   string        // --repair CMD
	attempts int           // --repair-attempts
	repairTO time.Duration // --repair-timeout
	checkTO  time.Duration // --check-timeout
	lockTO   time.Duration // --lock-timeout
	forceRO  bool          // --force-readonly
	noSync   bool          // --no-sync
	color    colorMode
}

// newRootCmd builds the edapply command with every subcommand. The root
// is itself `apply`, the default command, so `edapply r.md` and `edapply
// apply r.md` are the same.
func newRootCmd() *cobra.Command {
	root := newApplyRootCmd(cli.Version())
	addSubcommands(root)
	return root
}

// newRootCmdFor builds what args can reach: the root alone, which is
// `apply`, unless an argument names a subcommand, help or completion.
// Most calls apply a reply; building every subcommand's flags for them
// costs more than the rest of the command's start-up.
//
// The build's version is read (debug.ReadBuildInfo parses the module list
// the linker wrote: 0.02 M instructions) only when an argument may print
// it; otherwise a stand-in declares the --version flag, which help lists
// without its value.
func newRootCmdFor(args []string) *cobra.Command {
	version := versionStandIn
	if slices.ContainsFunc(args, mayPrintVersion) {
		version = cli.Version()
	}
	root := newApplyRootCmd(version)
	if slices.ContainsFunc(args, reachesSubcommand) {
		addSubcommands(root)
	}
	return root
}

// reachesSubcommand reports whether the argument a may name a subcommand
// or ask for help, whose text lists them: one of subcommandNames, or the
// help flag given a value or in a cluster of short flags (-nh). In doubt,
// yes: the whole tree then decides, as it always may.
func reachesSubcommand(a string) bool {
	return slices.Contains(subcommandNames, a) || strings.HasPrefix(a, "--help") ||
		len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'h')
}

// versionStandIn is the root's version when no argument may print it.
const versionStandIn = "unread"

// mayPrintVersion reports whether the argument a may be the version flag:
// --version, with a value or not, or a cluster of short flags holding v
// (-nv). In doubt, yes.
func mayPrintVersion(a string) bool {
	return strings.HasPrefix(a, "--version") || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'v')
}

// subcommandNames are the arguments that make newRootCmdFor build every
// subcommand: their names, and what reaches cobra's help and completion
// (TestSubcommandNames keeps them with addSubcommands).
var subcommandNames = []string{
	"apply", "parse", "hash", "read", "mcp", "undo", "lint", "completion", "formats", "normalize",
	"help", "-h", "--help", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd,
}

func newApplyRootCmd(version string) *cobra.Command {
	root := newApplyCmd(&applyOptions{})
	root.Use = "edapply [apply] [flags] [RESPONSE_FILE]"
	root.Short = "Apply the edits in an LLM's reply to files, atomically, and print a receipt"
	root.Long = `edapply reads a model's reply (SEARCH/REPLACE blocks, unified diffs,
whole-file fences, Codex patch envelopes or JSON tool calls) from
RESPONSE_FILE, or from stdin when it is absent or "-", applies every edit to
the working tree as one transaction and prints a receipt.

Exit status: 0 every edit applied; 1 an edit failed and nothing was written;
2 usage error or no edit parsed; 3 --check failed and every file was restored.`
	root.Version = version
	root.SilenceErrors = true
	root.SilenceUsage = true
	// newCompletionCmd replaces cobra's default, whose help cannot say how
	// to install edapply's scripts.
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{Err: err, Flags: true} })
	return root
}

func addSubcommands(root *cobra.Command) {
	root.AddCommand(newApplyCmd(&applyOptions{}), newParseCmd(&parseOptions{}), newHashCmd(&hashOptions{}), newReadCmd(&readOptions{}), newMCPCmd(), newUndoCmd(&undoOptions{}),
		newLintCmd(), newCompletionCmd(), newFormatsHelpCmd(), newNormalizeCmd(&normalizeOptions{}))
}

func newApplyCmd(opts *applyOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "apply [flags] [RESPONSE_FILE]",
		Short: "Apply the edits in a model's reply (the default command)",
		Long: `apply reads a model's reply from RESPONSE_FILE, or from stdin when it is
absent or "-", locates every edit in the working tree (tolerating trailing
whitespace, shifted indentation, curly quotes and stale line numbers, never
guessing between two places), writes every file as one transaction and
prints a receipt. An edit that cannot be placed writes nothing; the receipt
names the closest candidates and how to fix the edit.

Exit status: 0 every edit applied; 1 an edit failed and nothing was written;
2 usage error or no edit parsed; 3 --check failed and every file was restored.`,
		Example: applyExample,
		Args:    usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.response = args[0]
			}
			return runApply(cmd.Context(), opts, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
		ValidArgsFunction: completeResponseFile,
	}
	addApplyFlags(cmd.Flags(), opts)
	registerCompletions(cmd)
	return cmd
}

const applyExample = `  # Apply a reply piped from the clipboard (or any command) to the current directory
  pbpaste | edapply

  # Dry run: print the diff that would be written and the receipt; write nothing
  edapply --dry-run reply.md

  # The receipt as one JSON object, for a harness; the tree is another directory
  edapply --json -C ~/src/proj reply.md

  # Refuse (OUT_OF_DATE) if main.go changed since the model saw it
  edapply --base main.go=$(edapply hash main.go | cut -c1-16) reply.md

  # Run the tests after writing; if they fail, restore every file and exit 3
  edapply --check 'go test ./...' reply.md`

func addApplyFlags(fs *pflag.FlagSet, opts *applyOptions) {
	addPlanFlags(fs, &opts.planOptions, "refuse with OUT_OF_DATE unless `PATH=HASH` (SHA-256, 8+ hex digits) matches; repeatable")
	fs.BoolVarP(&opts.dryRun, "dry-run", "n", false, "parse, match and report; write nothing; print the diff")
	fs.BoolVar(&opts.json, "json", false, "print the receipt as one JSON object")
	fs.StringVar(&opts.check, "check", "", "after writing, run `CMD` via sh -c in the root; restore every file and exit 3 if it fails")
	fs.StringVar(&opts.repair, "repair", "", "for each failing edit, run `CMD` via sh -c in the root with the edit, error and file excerpt as JSON on stdin; it prints a corrected edit")
	fs.IntVar(&opts.attempts, "repair-attempts", 1, "at most `N` rounds of --repair")
	fs.DurationVar(&opts.repairTO, "repair-timeout", 60*time.Second, "kill a --repair command (and its process group) after `DURATION`")
	fs.DurationVar(&opts.checkTO, "check-timeout", defaultCheckTimeout, "kill the --check command (and its process group) after `DURATION`, restore every file and exit 3; 0: no limit")
	addLockFlag(fs, &opts.lockTO)
	fs.BoolVar(&opts.forceRO, "force-readonly", false, "replace files the user has no write permission for (refused with IO_ERROR otherwise)")
	addSyncFlag(fs, &opts.noSync)
	opts.color = colorAuto
	fs.Var(&opts.color, "color", "color the receipt: auto, always, never")
}

// loadResponse does what apply and normalize share before planning: it
// checks --base and --root, reads the response and parses it against the
// tree. When no edit parsed, perrs says why (at least "no edits found").
func loadResponse(opts *planOptions, in io.Reader) (base map[string]string, src []byte, edits []edit.Edit, perrs edit.ErrorList, err error) {
	if base, err = parseBase(opts.base); err != nil {
		return nil, nil, nil, nil, err
	}
	if err = checkRoot(opts.root); err != nil {
		return nil, nil, nil, nil, err
	}
	src, edits, perrs, err = readEdits(opts.response, parse.Options{Format: opts.format, Skipped: opts.skipped}, opts.root, in)
	return base, src, edits, perrs, err
}

// errInterruptedRead is loadResponseOrInterrupt's answer to an interrupt
// that came while the reply was still being read.
var errInterruptedRead = errors.New("interrupted while the reply was read")

// loadResponseOrInterrupt is loadResponse, given up when ctx is cancelled
// first in a --json run. Such a run catches SIGINT and SIGTERM from its
// start (it owes its reader a receipt), so an interrupt does not end it,
// and a read of a pipe its writer keeps open would otherwise hold it for
// ever: a harness's SIGTERM would go unanswered. The read is left
// behind; the process ends with the receipt. Other runs are ended by the
// signal itself while they read.
func loadResponseOrInterrupt(ctx context.Context, opts *applyOptions, in io.Reader) (map[string]string, []byte, []edit.Edit, edit.ErrorList, error) {
	if !opts.json {
		return loadResponse(&opts.planOptions, in)
	}
	type loaded struct {
		base  map[string]string
		src   []byte
		edits []edit.Edit
		perrs edit.ErrorList
		err   error
	}
	done := make(chan loaded, 1)
	go func() {
		var l loaded
		l.base, l.src, l.edits, l.perrs, l.err = loadResponse(&opts.planOptions, in)
		done <- l
	}()
	select {
	case l := <-done:
		return l.base, l.src, l.edits, l.perrs, l.err
	case <-ctx.Done():
		return nil, nil, nil, nil, errInterruptedRead
	}
}

// reserveStack grows the calling goroutine's stack to 64 KiB while it
// holds few frames. An apply's ladder and commit run deep enough that
// the stack grows three times on the way, each growth copying and
// adjusting every frame then on it: 0.07 M instructions of a one-line
// apply (callgrind), where one growth here copies the few frames above
// runApply. Its array, with those frames, is past 32 KiB, so the stack
// doubles to 64 KiB; i keeps the compiler from dropping it.
//
//go:noinline
func reserveStack(i int) byte {
	var b [40 << 10]byte
	b[i%len(b)] = 1
	return b[(i/2)%len(b)]
}

// runApply parses the response, applies its edits and prints the receipt.
// Everything that goes wrong with an edit is in the receipt; the returned
// error only carries the exit status, or a usage error.
func runApply(ctx context.Context, opts *applyOptions, in io.Reader, out, errOut io.Writer) error {
	reserveStack(len(opts.response))
	if opts.attempts < 1 {
		return usagef("--repair-attempts must be at least 1")
	}
	if opts.response == "" || opts.response == "-" {
		if f, ok := in.(*os.File); ok && isTerminal(f) {
			// Otherwise a user who forgot the file sees nothing happen.
			fmt.Fprintln(errOut, "edapply: reading the reply from stdin; end it with Ctrl-D (or pass RESPONSE_FILE)")
		}
	}
	var ignored []edit.Edit
	if opts.format != edit.FormatAuto {
		opts.skipped = func(e edit.Edit) { ignored = append(ignored, e) }
	}
	base, src, edits, perrs, err := loadResponseOrInterrupt(ctx, opts, in)
	if errors.Is(err, errInterruptedRead) {
		res := &apply.Result{Errors: edit.ErrorList{{Code: edit.CodeIO, Edit: -1,
			Msg: "interrupted while the reply was read; no file was changed", Err: ctx.Err()}}}
		if err := writeReceipt(out, res, opts.json, opts.color, ""); err != nil {
			return err
		}
		return resultStatus(res)
	}
	if err != nil {
		return err
	}
	if opts.format != edit.FormatAuto {
		if n, formats := ignoredRegions(ignored); n > 0 {
			fmt.Fprintf(errOut, "edapply: -f %s ignored %d %s in other formats (%s)\n",
				opts.format, n, map[bool]string{true: "region", false: "regions"}[n == 1], strings.Join(formats, ", "))
		}
	}
	if len(edits) == 0 {
		res := &apply.Result{DryRun: opts.dryRun, Errors: perrs}
		if err := writeReceipt(out, res, opts.json, opts.color, ""); err != nil {
			return err
		}
		return exitStatus(exitUsage)
	}
	var repair func(context.Context, apply.RepairRequest) ([]edit.Edit, error)
	if opts.repair != "" {
		repair = repairFunc(opts.repair, opts.root, opts.repairTO)
	}
	// Apply always returns a Result; its error is Result.Errors.Err(), which
	// the receipt reports, so only the Result is kept.
	res, _ := apply.Apply(ctx, edits, apply.Options{
		Root:   opts.root,
		Strict: opts.strict,
		// A response with a region that did not parse is refused whole, but
		// its parsed edits are still planned so the receipt reports their
		// errors too: one round trip to the model fixes them all.
		DryRun:         opts.dryRun || len(perrs) > 0,
		Base:           base,
		TrimTrailingWS: opts.trimWS,
		PathPrefixes:   opts.prefixes,
		Check:          opts.check,
		CheckTimeout:   opts.checkTO,
		LockTimeout:    lockTimeout(opts.lockTO),
		ForceReadOnly:  opts.forceRO,
		NoSync:         opts.noSync,
		NoHashes:       !opts.json, // the human receipt shows none
		// Only a dry run's diff, and the human receipt's word on what a
		// failed check put back, read the new content.
		NoAfter:        !opts.dryRun && opts.check == "",
		Repair:         repair,
		RepairAttempts: opts.attempts,
		Sized:          budgetApply(src, edits),
	})
	if len(perrs) > 0 {
		res.OK, res.DryRun = false, opts.dryRun
		res.Errors = append(perrs, res.Errors...)
	}
	// The JSON receipt carries the response as applied, for the history
	// the model sees next, when it differs from the response as sent; an
	// edit that cannot be rewritten stays as the model wrote it.
	var norm string
	if opts.json {
		norm = report.ChangedNormalized(src, edits, res)
	}
	// The status is taken before the receipt is written, so that the
	// Result, and the files and texts it holds, need not outlive the
	// receipt's own records while a --json receipt is encoded.
	status := resultStatus(res)
	if err := writeReceipt(out, res, opts.json, opts.color, norm); err != nil {
		return err
	}
	return status
}

// ignoredRegions counts the regions of the edits -f left unread, which
// --format auto reads, and names their formats.
func ignoredRegions(ignored []edit.Edit) (int, []string) {
	regions := map[int]bool{}
	var formats []string
	for _, e := range ignored {
		if regions[e.Start] {
			continue
		}
		regions[e.Start] = true
		if name := e.Format.String(); !slices.Contains(formats, name) {
			formats = append(formats, name)
		}
	}
	slices.Sort(formats)
	return len(regions), formats
}

// isTerminal reports whether f is a terminal: a character device other
// than the null device, which is one too.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// checkRoot makes a missing or non-directory --root a usage error rather
// than an error for every edit.
func checkRoot(root string) error { return cli.CheckRoot(root) }

// writeReceipt prints res as --json and --color ask, the JSON one with
// normalized (omitted when ""); a successful dry run shows the diff that
// would be written above the human receipt.
func writeReceipt(out io.Writer, res *apply.Result, asJSON bool, color colorMode, normalized string) error {
	if asJSON {
		r := report.NewReceipt(res)
		r.Normalized = normalized
		return report.WriteReceipt(out, r)
	}
	if res.DryRun && res.OK {
		var d bytes.Buffer
		if err := report.Diff(&d, res); err != nil {
			return err
		}
		if d.Len() > 0 {
			d.WriteString("\n")
			if _, err := out.Write(d.Bytes()); err != nil {
				return err
			}
		}
	}
	return report.Human(out, res, color.enabled(out))
}

// noEdits is the PARSE_ERROR for a response in which no reader found an
// edit; binary input gets its own message, since the fix differs.
func noEdits(src []byte) *edit.Error {
	e := &edit.Error{Code: edit.CodeParse, Edit: -1, Msg: "no edits found in the response",
		Hint: "Write each change as a SEARCH/REPLACE block, a unified diff, a whole-file fence, a *** Begin Patch envelope or a JSON tool call."}
	switch {
	case len(bytes.TrimSpace(src)) == 0:
		e.Msg = "no edits found: the response is empty"
	case bytes.IndexByte(src, 0) >= 0:
		e.Msg = "no edits found: the response is binary (it holds NUL bytes)"
		e.Hint = "Send the model's reply as text."
	}
	return e
}

// readResponse reads the model output from name, or from stdin when name
// is "" or "-", refusing more than limit bytes.
func readResponse(name string, stdin io.Reader, limit int64) ([]byte, error) {
	r, label := stdin, "stdin"
	if name != "" && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, &usageError{Err: err}
		}
		defer f.Close()
		r, label = f, name
	}
	src, err := readAll(r, limit+1)
	if err != nil {
		return nil, usagef("reading %s: %v", label, err)
	}
	if int64(len(src)) > limit {
		size := fmt.Sprintf("%d MiB", limit>>20)
		if limit%(1<<20) != 0 {
			size = fmt.Sprintf("%d bytes", limit)
		}
		return nil, usagef("%s: response larger than %s", label, size)
	}
	return src, nil
}

// readAll reads r up to limit bytes. A regular file is read into a buffer
// of its size, where io.ReadAll's doubling would allocate about twice a
// large reply's bytes on the way.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit)
	if f, ok := r.(*io.LimitedReader).R.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			// One byte of room past the size: a read that finds the end
			// of the file then needs no larger buffer.
			b := make([]byte, 0, min(fi.Size(), limit)+1)
			for {
				n, err := r.Read(b[len(b):cap(b)])
				b = b[:len(b)+n]
				if err == io.EOF {
					return b, nil
				}
				if err != nil {
					return b, err
				}
				if len(b) == cap(b) {
					b = append(b, 0)[:len(b)] // the file grew while read
				}
			}
		}
	}
	return io.ReadAll(r)
}

// parseBase turns --base PATH=HASH values into apply's map. PATH is as the
// response writes it (relative to the root); HASH must be 8 to 64 hex
// digits, a prefix of the file's SHA-256.
func parseBase(vals []string) (map[string]string, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	m := make(map[string]string, len(vals))
	for _, v := range vals {
		// The last "=" splits: a hash never holds one, a path may.
		i := strings.LastIndexByte(v, '=')
		if i <= 0 {
			return nil, usagef("--base %q: want PATH=HASH", v)
		}
		p, h := path.Clean(filepath.ToSlash(v[:i])), strings.ToLower(v[i+1:])
		if !apply.ValidBase(h) {
			return nil, usagef("--base %q: HASH must be 8 to 64 hex digits of a SHA-256", v)
		}
		m[p] = h
	}
	return m, nil
}

// usageArgs makes a positional-argument check's failure a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs { return cli.UsageArgs(check) }

// A colorMode is the value of --color.
type colorMode string

const (
	colorAuto   colorMode = "auto"
	colorAlways colorMode = "always"
	colorNever  colorMode = "never"
)

func (m *colorMode) String() string { return string(*m) }
func (m *colorMode) Type() string   { return "when" }

func (m *colorMode) Set(s string) error {
	switch colorMode(s) {
	case colorAuto, colorAlways, colorNever:
		*m = colorMode(s)
		return nil
	}
	return fmt.Errorf("unknown color mode %q (want auto, always or never)", s)
}

// enabled decides color once for the receipt written to w: auto colors only
// a terminal, and only when NO_COLOR (https://no-color.org) is unset or empty.
func (m colorMode) enabled(w io.Writer) bool {
	switch m {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
