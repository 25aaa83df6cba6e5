//go:build !linux

package journal

// stateNames: see stateNamesSorted.
func stateNames(base, cursor string, batch int) (names, at []string, next string, more bool, err error) {
	return stateNamesSorted(base, cursor, batch)
}
