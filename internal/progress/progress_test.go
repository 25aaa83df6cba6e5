package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A clock is a test's time, moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestMeterWaitsForDelay: nothing is drawn before the delay, whatever the
// count, and a run that ends then leaves no trace.
func TestMeterWaitsForDelay(t *testing.T) {
	var out bytes.Buffer
	c := &clock{t: time.Unix(1000, 0)}
	m := NewClock(&out, "lint", "files checked", c.now, 2*time.Second)
	for i := 1; i <= 1000; i++ {
		m.Update(i, 5000)
		c.advance(time.Millisecond) // one second in all
	}
	m.Done()
	if out.Len() > 0 {
		t.Errorf("a run shorter than the delay wrote %q", out.String())
	}
}

// TestMeterDrawsAfterDelay: once the delay has passed the line shows the
// count, redrawn in place at most once per interval, and Done blanks it.
func TestMeterDrawsAfterDelay(t *testing.T) {
	var out bytes.Buffer
	c := &clock{t: time.Unix(1000, 0)}
	m := NewClock(&out, "lint", "files checked", c.now, 2*time.Second)
	m.Update(1, 12345)
	c.advance(2 * time.Second)
	m.Update(1234, 12345)
	if got, want := out.String(), "\rlint: 1,234/12,345 files checked (9%)"; got != want {
		t.Fatalf("first line %q, want %q", got, want)
	}
	out.Reset()
	m.Update(1235, 12345) // within the interval: not drawn
	if out.Len() > 0 {
		t.Errorf("redrawn within the interval: %q", out.String())
	}
	c.advance(every)
	m.Update(12345, 12345)
	if got, want := out.String(), "\rlint: 12,345/12,345 files checked (100%)"; got != want {
		t.Errorf("second line %q, want %q", got, want)
	}
	out.Reset()
	m.Done()
	if got, want := out.String(), "\r"+strings.Repeat(" ", len("lint: 12,345/12,345 files checked (100%)"))+"\r"; got != want {
		t.Errorf("Done wrote %q, want %q", got, want)
	}
}

// TestMeterBlanksShorterLine: a line shorter than the one before covers
// all of it, and an unknown total shows the count alone.
func TestMeterBlanksShorterLine(t *testing.T) {
	var out bytes.Buffer
	c := &clock{t: time.Unix(1000, 0)}
	m := NewClock(&out, "apply", "edits placed", c.now, 0)
	m.Update(1000, 1000)
	out.Reset()
	c.advance(every)
	m.Update(7, 0)
	long := len("apply: 1,000/1,000 edits placed (100%)")
	if got, want := out.String(), "\rapply: 7 edits placed"+strings.Repeat(" ", long-len("apply: 7 edits placed")); got != want {
		t.Errorf("shorter line %q, want %q", got, want)
	}
}

// TestNilMeter: without a writer there is no meter, and using it is safe.
func TestNilMeter(t *testing.T) {
	m := New(nil, "lint", "files checked")
	if m != nil {
		t.Fatalf("New(nil) = %v, want nil", m)
	}
	m.Update(1, 2)
	m.Done()
}

func TestAppendCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := string(appendCount(nil, n)); got != want {
			t.Errorf("appendCount(%d) = %q, want %q", n, got, want)
		}
	}
}
