package textenc

// wildmatch reports whether text matches pattern as git's wildmatch does
// with WM_PATHNAME (gitattributes' patterns): `*` and `?` match no `/`,
// `**` between slashes any number of directories, `[...]` a class
// (`!` or `^` negates, POSIX `[:alpha:]` and the like), `\` quotes.
// It is a port of git's dowild, whose early aborts keep a pattern of
// many stars from taking exponential time.
func wildmatch(pattern, text string) bool { return dowild(pattern, text) == wmMatch }

const (
	wmNoMatch = iota
	wmMatch
	wmAbortAll
	wmAbortToStarStar
)

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

func dowild(p, text string) int {
	pi, ti := 0, 0
	at := func(s string, i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	for ; pi < len(p); ti, pi = ti+1, pi+1 {
		pc := p[pi]
		tc := at(text, ti)
		if tc == 0 && ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			if at(p, pi) != tc || ti >= len(text) {
				return wmNoMatch
			}
			continue
		case '?':
			if tc == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			matchSlash := false
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi >= len(p) || p[pi] == '/' || p[pi] == '\\' && at(p, pi+1) == '/') {
					if at(p, pi) == '/' && pi < len(p) && dowild(p[pi+1:], text[ti:]) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi >= len(p) {
				if !matchSlash && indexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				k := indexByte(text[ti:], '/')
				if k < 0 {
					return wmNoMatch
				}
				// Both stand at a slash, which the loop's step passes.
				ti += k
				continue
			}
			for {
				if ti >= len(text) {
					break
				}
				if !isGlobSpecial(p[pi]) {
					want := p[pi]
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != want {
						ti++
					}
					if ti >= len(text) || text[ti] != want {
						if matchSlash {
							return wmAbortAll
						}
						return wmAbortToStarStar
					}
				}
				m := dowild(p[pi:], text[ti:])
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			if ti >= len(text) {
				return wmAbortAll
			}
			pi++
			c := at(p, pi)
			negated := c == '!' || c == '^'
			if negated {
				pi++
				c = at(p, pi)
			}
			var prev byte
			matched := false
			for first := true; first || c != ']'; first = false {
				if pi >= len(p) {
					return wmAbortAll
				}
				switch {
				case c == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					c = p[pi]
					if tc == c {
						matched = true
					}
				case c == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					c = p[pi]
					if c == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						c = p[pi]
					}
					if prev <= tc && tc <= c {
						matched = true
					}
					c = 0 // prev is then 0: no range starts at a range's end
				case c == '[' && at(p, pi+1) == ':':
					s := pi + 2
					j := s
					for j < len(p) && p[j] != ']' {
						j++
					}
					if j >= len(p) {
						return wmAbortAll
					}
					if j-s-1 < 0 || p[j-1] != ':' {
						// No ":]": a plain '['.
						if tc == '[' {
							matched = true
						}
						c = '['
						break
					}
					ok, known := posixClass(p[s:j-1], tc)
					if !known {
						return wmAbortAll
					}
					if ok {
						matched = true
					}
					pi = j
					c = 0
				default:
					if tc == c {
						matched = true
					}
				}
				prev = c
				pi++
				c = at(p, pi)
			}
			if matched == negated || tc == '/' {
				return wmNoMatch
			}
			continue
		default:
			if tc != pc {
				return wmNoMatch
			}
			continue
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// posixClass reports whether c is in the POSIX class name, and whether
// the class is one git knows.
func posixClass(name string, c byte) (in, known bool) {
	lower := 'a' <= c && c <= 'z'
	upper := 'A' <= c && c <= 'Z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return lower || upper || digit, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return 0x20 < c && c < 0x7f, true
	case "lower":
		return lower, true
	case "print":
		return 0x20 <= c && c < 0x7f, true
	case "punct":
		return 0x20 < c && c < 0x7f && !lower && !upper && !digit, true
	case "space":
		return c == ' ' || '\t' <= c && c <= '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F', true
	}
	return false, false
}
