package locate

// Rung 2, trailing-ws: lines equal once the blanks that end them are
// dropped.

// trimRight is s without the blanks (isSpace) that end it.
func trimRight(s string) string {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return s[:i]
}

// isBlank reports whether s holds blanks only.
func isBlank(s string) bool { return trimRight(s) == "" }

// isSpace reports whether c is an ASCII blank other than "\n".
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }
