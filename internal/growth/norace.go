//go:build !race

package growth

// Race reports whether the race detector is built in.
const Race = false
