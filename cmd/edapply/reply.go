package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/internal/gctune"
	"github.com/edapply/edapply/parse"
)

// maxResponse bounds the model output edapply reads: far beyond any real
// reply, small enough that a runaway pipe cannot exhaust memory. A variable
// only so that tests can lower it.
var maxResponse int64 = 256 << 20 // 256 MiB

// A loadedReply is a reply read and parsed against the tree, with the
// --base hashes it is to be applied with. When no edit parsed, perrs says
// why (at least "no edits found").
type loadedReply struct {
	base  map[string]string
	src   []byte
	edits []edit.Edit
	perrs edit.ErrorList
}

// loadReply does what apply and normalize share before planning: it
// checks --base and --root, reads the reply and parses it.
func loadReply(opts *planOptions, in io.Reader) (*loadedReply, error) {
	base, err := parseBase(opts.base)
	if err != nil {
		return nil, err
	}
	if err := checkEncoding(opts.encoding); err != nil {
		return nil, err
	}
	if err := cli.CheckRoot(opts.root); err != nil {
		return nil, err
	}
	popts := replyParseOptions(opts.format, opts.file)
	popts.Skipped = opts.skipped
	popts.Strip = opts.strip.value()
	src, edits, perrs, err := readEdits(opts.response, popts, opts.root, in)
	if err != nil {
		return nil, err
	}
	return &loadedReply{base, src, edits, perrs}, nil
}

// errInterruptedRead is loadReplyOrInterrupt's answer to an interrupt that
// came while the reply was still being read.
var errInterruptedRead = errors.New("interrupted while the reply was read; no file was changed")

// loadReplyOrInterrupt is loadReply, given up when ctx is done first. A
// command that catches interrupts (see catchInterrupts) is not ended by
// one, and a read of a pipe its writer keeps open would otherwise hold it
// for ever. The read is left behind; the process ends with the receipt.
func loadReplyOrInterrupt(ctx context.Context, opts *planOptions, in io.Reader) (*loadedReply, error) {
	type loaded struct {
		r   *loadedReply
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		r, err := loadReply(opts, in)
		done <- loaded{r, err}
	}()
	select {
	case l := <-done:
		return l.r, l.err
	case <-ctx.Done():
		return nil, errInterruptedRead
	}
}

// readEdits reads the response and parses it against the tree at root.
// When no edit parsed, errs says why (at least "no edits found").
func readEdits(response string, popts parse.Options, root string, in io.Reader) (src []byte, edits []edit.Edit, errs edit.ErrorList, err error) {
	if src, err = readResponse(response, in, maxResponse); err != nil {
		return nil, nil, nil, err
	}
	gctune.Budget(2 * int64(len(src))) // parsing holds a few times the reply's bytes
	edits, errs = parse.ParseInRoot(replyText(src), popts, root)
	if len(edits) == 0 && len(errs) == 0 {
		errs.Add(noEdits(src))
	}
	return src, edits, errs, nil
}

// replyText is src, a reply readResponse read, as a string that shares its
// bytes: the parser and the edits' texts then hold no second copy of a
// large reply. Sound because the command never writes those bytes after
// reading them.
func replyText(src []byte) string { return unsafe.String(unsafe.SliceData(src), len(src)) }

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
			return nil, &cli.UsageError{Err: err}
		}
		defer f.Close()
		r, label = f, name
	}
	src, err := readAll(r, limit+1)
	if err != nil {
		return nil, cli.Usagef("reading %s: %v", label, err)
	}
	if int64(len(src)) > limit {
		size := fmt.Sprintf("%d MiB", limit>>20)
		if limit%(1<<20) != 0 {
			size = fmt.Sprintf("%d bytes", limit)
		}
		return nil, &cli.UsageError{Err: fmt.Errorf("%s: response larger than %s", label, size),
			Hint: "Send the edits in several smaller replies, each within the limit."}
	}
	return src, nil
}

// readAll reads r up to limit bytes. A regular file is read into a buffer
// of its size, where growing one as it fills would allocate about twice a
// large reply's bytes on the way.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	var buf []byte
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			buf = make([]byte, 0, min(fi.Size(), limit)+bytes.MinRead)
		}
	}
	b := bytes.NewBuffer(buf)
	_, err := b.ReadFrom(io.LimitReader(r, limit))
	return b.Bytes(), err
}
