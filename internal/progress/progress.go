// Package progress shows how far a long run of the command has come, on
// one line of a terminal that it rewrites in place ("lint: 4,096/10,000
// files checked").
//
// A run that ends quickly shows nothing: a line that flashes and goes is
// noise, so a Meter stays silent for its first Delay. To says whether
// there is a terminal to show it on (never for --json, never when stderr
// is not one); the libraries only report counts, through a callback the
// command points at Update.
package progress

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Delay is how long a run goes before New's meter shows anything.
const Delay = 2 * time.Second

// every is the least time between two lines: a terminal redrawn more often
// flickers, and each line costs a write.
const every = 100 * time.Millisecond

// A Meter rewrites one line of its writer with a count of work done. A nil
// Meter shows nothing, so a caller need not ask whether there is a
// terminal at every step. A Meter is not safe for concurrent use.
type Meter struct {
	out   io.Writer
	what  string // the line's prefix: the command's name
	unit  string // what is counted: "files checked"
	now   func() time.Time
	next  time.Time // no line before this
	width int       // the bytes of the line shown last; 0 when none is
	buf   []byte
}

// New returns a Meter that writes to out, starting now and silent for
// the first Delay, or nil when out is nil. what names the command, unit
// what it counts.
func New(out io.Writer, what, unit string) *Meter {
	return NewClock(out, what, unit, time.Now, Delay)
}

// NewClock is New with the clock and the silent delay given: a test's, or
// a command's that started its run before it made its meter.
func NewClock(out io.Writer, what, unit string, now func() time.Time, delay time.Duration) *Meter {
	if out == nil {
		return nil
	}
	return &Meter{out: out, what: what, unit: unit, now: now, next: now().Add(delay)}
}

// Update reports done items of total (total 0 when unknown). It draws the
// line only once the delay has passed, and then at most once every tenth
// of a second.
func (m *Meter) Update(done, total int) {
	if m == nil {
		return
	}
	t := m.now()
	if t.Before(m.next) {
		return
	}
	m.next = t.Add(every)
	m.draw(done, total)
}

// Done erases the line, if one was drawn, so what the command prints next
// starts on a clean line.
func (m *Meter) Done() {
	if m == nil || m.width == 0 {
		return
	}
	fmt.Fprintf(m.out, "\r%s\r", strings.Repeat(" ", m.width))
	m.width = 0
}

func (m *Meter) draw(done, total int) {
	b := append(m.buf[:0], '\r')
	b = append(b, m.what...)
	b = append(b, ": "...)
	b = appendCount(b, done)
	if total > 0 {
		b = append(b, '/')
		b = appendCount(b, total)
	}
	b = append(b, ' ')
	b = append(b, m.unit...)
	if total > 0 {
		b = append(b, " ("...)
		b = strconv.AppendInt(b, int64(100*done/total), 10)
		b = append(b, "%)"...)
	}
	// A shorter line than the last leaves its tail on screen unless blanked.
	n := len(b) - 1
	for k := n; k < m.width; k++ {
		b = append(b, ' ')
	}
	m.buf = b
	if _, err := m.out.Write(b); err != nil {
		m.out = io.Discard // a terminal gone is no reason to stop the work
	}
	m.width = max(n, m.width)
}

// appendCount appends n with a comma between each group of three digits,
// which reads at a glance where 100000 does not.
func appendCount(b []byte, n int) []byte {
	s := strconv.Itoa(n)
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}
