//go:build !race

package mcpcmd

const raceEnabled = false
