//go:build race

package growth

// Race reports whether the race detector is built in. It instruments
// allocations too, so a test that bounds a count of bytes by what the code
// itself needs runs without it (make check runs every test without it
// first).
const Race = true
