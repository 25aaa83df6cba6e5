//go:build race

package mcpcmd

// raceEnabled: the race detector makes each server process slow to start;
// the tests that start many run fewer.
const raceEnabled = true
