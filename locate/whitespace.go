package locate

// Rung 4, whitespace: lines equal once runs of blanks are collapsed.

// eqFields reports whether a and b are equal once leading and trailing
// whitespace is dropped and inner runs of it are collapsed to one space.
func eqFields(a, b string) bool {
	i, j := skipSpace(a, 0), skipSpace(b, 0)
	for i < len(a) && j < len(b) {
		if isSpace(a[i]) && isSpace(b[j]) {
			i, j = skipSpace(a, i), skipSpace(b, j)
			continue
		}
		// A blank against a non-blank differs: inner, it separates words
		// the other side joins; trailing, the other side goes on.
		if a[i] != b[j] {
			return false
		}
		i++
		j++
	}
	return skipSpace(a, i) == len(a) && skipSpace(b, j) == len(b)
}

// skipSpace returns the offset of the first byte of s from i on that is
// not a blank (isSpace), or len(s).
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}
