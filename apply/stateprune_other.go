//go:build !linux

package apply

// stateNames: see stateNamesSorted.
func stateNames(base, cursor string, batch int) (names, at []string, next string, more bool, err error) {
	return stateNamesSorted(base, cursor, batch)
}
