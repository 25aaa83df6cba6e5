package lint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// A blobReader reads committed versions of files from one git cat-file
// --batch: it is sent every object's name at once, on a goroutine of its
// own, and answers in that order while the files are linted, so the
// process costs the bytes of the objects and no start per file. Only one
// answer is held at a time.
type blobReader struct {
	cancel context.CancelFunc
	cmd    *exec.Cmd
	out    *bufio.Reader
	stderr bytes.Buffer
	sent   sync.WaitGroup // the goroutine writing the names
	left   int            // answers not yet read
	buf    []byte         // the last answer's bytes
	line   []byte         // a header longer than out's buffer
}

// startBlobs starts a reader for the non-empty names of objects, which
// next then answers in order; with none it starts nothing, and the
// reader it returns is nil.
func startBlobs(ctx context.Context, objects []string) (*blobReader, error) {
	var want []string
	for _, o := range objects {
		if o != "" {
			want = append(want, o)
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &blobReader{cancel: cancel, left: len(want), buf: make([]byte, 0, 64<<10)}
	// --buffer: answers are flushed when the output buffer fills, not one
	// write each; the names all arrive before the first is read here.
	r.cmd = exec.CommandContext(ctx, "git", "cat-file", "--batch", "--buffer")
	r.cmd.Stderr = &r.stderr
	in, err := r.cmd.StdinPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := r.cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	r.out = bufio.NewReaderSize(out, 64<<10)
	r.sent.Add(1)
	go func() {
		defer r.sent.Done()
		w := bufio.NewWriterSize(in, 64<<10)
		for _, o := range want {
			w.WriteString(o)
			if w.WriteByte('\n') != nil {
				break // git ended; next reports why
			}
		}
		w.Flush()
		in.Close()
	}()
	return r, nil
}

// next returns the next object's content, or nil when it has none (not
// at HEAD, or not a file's blob). The bytes are valid until the next call.
func (r *blobReader) next() ([]byte, error) {
	if r == nil || r.left == 0 {
		return nil, errors.New("git cat-file: no object was asked for")
	}
	r.left--
	head, err := r.header()
	if err != nil {
		return nil, r.fail(err)
	}
	// "NAME missing" or "OID TYPE SIZE"; a name never has a newline here,
	// and a header ends in a number.
	if bytes.HasSuffix(head, []byte(" missing")) || bytes.HasSuffix(head, []byte(" ambiguous")) {
		return nil, nil
	}
	f := strings.Fields(string(head))
	if len(f) != 3 {
		return nil, r.fail(fmt.Errorf("unexpected answer %q", truncate(head)))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 || int64(int(size)) != size {
		return nil, r.fail(fmt.Errorf("unexpected answer %q", truncate(head)))
	}
	if f[1] != "blob" {
		// A tree where a file is now, say: no version of this file.
		if _, err := r.out.Discard(int(size) + 1); err != nil {
			return nil, r.fail(err)
		}
		return nil, nil
	}
	r.buf = r.buf[:0]
	if cap(r.buf) < int(size)+1 {
		r.buf = make([]byte, 0, int(size)+1)
	}
	b := r.buf[:size+1] // the content and its newline
	if _, err := io.ReadFull(r.out, b); err != nil {
		return nil, r.fail(err)
	}
	if b[size] != '\n' {
		return nil, r.fail(errors.New("answer not ended by a newline"))
	}
	return b[:size:size], nil
}

// header reads the answer's first line, without its newline.
func (r *blobReader) header() ([]byte, error) {
	l, err := r.out.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.line = append(r.line[:0], l...)
		for errors.Is(err, bufio.ErrBufferFull) {
			l, err = r.out.ReadSlice('\n')
			r.line = append(r.line, l...)
		}
		l = r.line
	}
	if err != nil {
		return nil, err
	}
	return l[:len(l)-1], nil
}

// fail makes err of reading git's answers an error that says why git
// stopped, when it said.
func (r *blobReader) fail(err error) error {
	r.close()
	if msg := strings.TrimSpace(r.stderr.String()); msg != "" {
		return fmt.Errorf("git cat-file: %s", msg)
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("git cat-file: %w", err)
}

// close ends the process, killing it if answers are left unread, and
// waits for it and the goroutine that writes to it.
func (r *blobReader) close() {
	if r == nil || r.cmd == nil {
		return
	}
	if r.left > 0 {
		r.cancel()
	}
	r.cmd.Wait() // its stdout closes; the writer's next write fails
	r.sent.Wait()
	r.cancel()
	r.cmd = nil
}
