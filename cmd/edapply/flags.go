package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/internal/textenc"
	"github.com/edapply/edapply/parse"
)

// planOptions are what apply and normalize share: where the tree is, how
// to read the response, how to plan it.
type planOptions struct {
	root     string
	format   edit.Format
	base     []string // PATH=HASH, as given
	strict   bool
	trimWS   bool
	prefixes []string  // --path-prefix
	encoding string    // --encoding
	response string    // RESPONSE_FILE; "" or "-" for stdin
	file     string    // --file: the file of edits that name none
	strip    stripFlag // -p
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
	addPrefixFlag(fs, &opts.prefixes)
	addFileFlag(fs, &opts.file)
	addStripFlag(fs, &opts.strip)
	addEncodingFlag(fs, &opts.encoding)
}

// fileFlag is how the hint of an edit that names no file names --file.
const fileFlag = "--file PATH"

// addFileFlag registers --file, which every command that parses a reply
// takes.
func addFileFlag(fs *pflag.FlagSet, file *string) {
	fs.StringVar(file, "file", "", "the file of edits that name none (a bare SEARCH/REPLACE block or hunk, Zed's <old_text> pairs, a tool call without a path), `PATH` relative to the root, as patch FILE takes it")
}

// replyParseOptions is how a command reads a reply in format f with --file
// file: a path as the reply would write it, relative to the root.
func replyParseOptions(f edit.Format, file string) parse.Options {
	if file != "" {
		file = filepath.ToSlash(file)
	}
	return parse.Options{Format: f, File: file, FileArg: fileFlag}
}

// addEncodingFlag registers --encoding, which apply, normalize and read
// share: what the edits match and write is the file's text in it.
func addEncodingFlag(fs *pflag.FlagSet, name *string) {
	fs.StringVar(name, "encoding", "", "the encoding of the files edited (`NAME`: latin1, cp1251, shift_jis, utf-16le, ...); "+
		"default: what .gitattributes (working-tree-encoding) or .editorconfig (charset) declares, or a UTF-16 byte order mark shows, else UTF-8")
}

// checkEncoding makes an --encoding no encoding has a usage error.
func checkEncoding(name string) error {
	if name == "" {
		return nil
	}
	if _, err := textenc.Lookup(name, "--encoding"); err != nil {
		return cli.Usagef("--encoding %q: %v", name, err)
	}
	return nil
}

// addStripFlag registers -p, which every command that reads diffs takes.
func addStripFlag(fs *pflag.FlagSet, s *stripFlag) {
	fs.VarP(s, "strip", "p", "strip `N` leading components from a diff's file names, as patch -pN and git apply -pN (default: git's a/ and b/; of other diffs' two names, the one that exists)")
}

// A stripFlag is the value of -p: a count of components, once given.
type stripFlag struct {
	n   int
	set bool
}

func (s *stripFlag) String() string {
	if !s.set {
		return ""
	}
	return strconv.Itoa(s.n)
}

func (s *stripFlag) Type() string { return "int" }

func (s *stripFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("-p takes a count of components, 0 or more, not %q", v)
	}
	s.n, s.set = n, true
	return nil
}

// value is the flag as parse.Options.Strip wants it: nil when not given.
func (s *stripFlag) value() *int {
	if !s.set {
		return nil
	}
	n := s.n
	return &n
}

// addPrefixFlag registers --path-prefix, which every command that
// resolves a model's paths takes.
func addPrefixFlag(fs *pflag.FlagSet, prefixes *[]string) {
	fs.StringArrayVar(prefixes, "path-prefix", nil, "an absolute path under `P` names the file under the root (where the model sees the tree); repeatable")
}

// addLockFlag registers --lock-timeout, which apply and undo share.
func addLockFlag(fs *pflag.FlagSet, d *time.Duration) {
	fs.DurationVar(d, "lock-timeout", apply.DefaultLockTimeout,
		"wait at most `DURATION` for another edapply writing in the root, then fail with IO_ERROR; 0: do not wait")
}

// lockTimeout is --lock-timeout as apply.Options wants it, where 0 means
// the default wait and a negative value none.
func lockTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// noSyncEnv names the environment variable that sets --no-sync's default
// (true, 1: skip the syncs), for a harness that runs edapply many times.
const noSyncEnv = "EDAPPLY_NO_SYNC"

// addSyncFlag registers --no-sync, which apply and undo share; its default
// is EDAPPLY_NO_SYNC's, false when unset or not a boolean.
func addSyncFlag(fs *pflag.FlagSet, noSync *bool) {
	def, _ := strconv.ParseBool(os.Getenv(noSyncEnv))
	fs.BoolVar(noSync, "no-sync", def,
		"do not fsync the written files or the undo journal: faster on slow disks; still safe if edapply is killed, not if the machine loses power ($"+noSyncEnv+")")
}

// addColorFlag registers --color, which apply and undo share.
func addColorFlag(fs *pflag.FlagSet, m *colorMode) {
	*m = colorAuto
	fs.Var(m, "color", "color the receipt: auto, always, never")
}

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
			return nil, cli.Usagef("--base %q: want PATH=HASH", v)
		}
		p, h := path.Clean(filepath.ToSlash(v[:i])), strings.ToLower(v[i+1:])
		if !apply.ValidBase(h) {
			return nil, cli.Usagef("--base %q: HASH must be 8 to 64 hex digits of a SHA-256", v)
		}
		m[p] = h
	}
	return m, nil
}

// registerCompletions tells cobra what the flags of cmd that exist take:
// --root a directory, --format and --color their values, and --verify,
// --base and the --repair flags nothing a shell could guess. It panics on a
// programming error (a completion registered twice), as cobra's own
// registration does.
func registerCompletions(cmd *cobra.Command) {
	fs := cmd.Flags()
	funcs := map[string]cobra.CompletionFunc{
		"format": completeFormat,
		"color":  completeColor,
		"verify": cobra.NoFileCompletions,
		"base":   cobra.NoFileCompletions,
		// A command, a count and durations: nothing to complete.
		"repair":          cobra.NoFileCompletions,
		"repair-attempts": cobra.NoFileCompletions,
		"repair-timeout":  cobra.NoFileCompletions,
		"verify-timeout":  cobra.NoFileCompletions,
	}
	for name, f := range funcs {
		if fs.Lookup(name) == nil {
			continue
		}
		if err := cmd.RegisterFlagCompletionFunc(name, f); err != nil {
			panic(fmt.Sprintf("edapply: completion for --%s: %v", name, err))
		}
	}
	if fs.Lookup("root") != nil {
		if err := cmd.MarkFlagDirname("root"); err != nil {
			panic(fmt.Sprintf("edapply: completion for --root: %v", err))
		}
	}
}
