//go:build race

package main

// raceEnabled: the race detector slows the edapply command (the test
// binary) and multiplies its memory; tests of big inputs scale down.
const raceEnabled = true
