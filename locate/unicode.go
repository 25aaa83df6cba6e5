package locate

// Rung 5, unicode: typography folded to ASCII, on top of rung 4.

import (
	"strings"
	"unicode/utf8"
)

// foldPunct folds typographic punctuation to ASCII: curly quotes, primes,
// no-break and thin spaces, dashes (a run of them, ASCII ones included, to
// one "-") and the ellipsis. Only valid UTF-8 sequences fold; other bytes
// are kept as they are. ASCII input without "--" is returned as it is.
func foldPunct(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && !(s[i] == '-' && i+1 < len(s) && s[i+1] == '-') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	dash := func() { // a run of dashes folds to one: "--" is how "—" is typed
		if b.Len() == 0 || b.String()[b.Len()-1] != '-' {
			b.WriteByte('-')
		}
	}
	for i < len(s) {
		c := s[i]
		if c == '-' {
			dash()
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			b.WriteByte(c)
			i++
			continue
		}
		switch r {
		case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u00B4', '\u02BC':
			b.WriteByte('\'')
		case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u00AB', '\u00BB':
			b.WriteByte('"')
		case '\u00A0', '\u2002', '\u2003', '\u2007', '\u2009', '\u200A', '\u202F', '\u3000':
			b.WriteByte(' ')
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			dash()
		case '\u2026':
			b.WriteString("...")
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// typography returns how to write the model's typographic punctuation on
// the lines an edit changes, when its old text matched the file only with
// punctuation folded: a model that renders the file's ' as ’ in the text
// it quotes renders it so in the text it sends, and ’ written into code
// breaks it. Each class of punctuation (single quotes, double quotes,
// spaces, dashes, the ellipsis) that the old text writes typographically,
// where the file's matched text writes that class only in ASCII, maps to
// its ASCII. A class the file also writes typographically maps to nothing,
// since which spelling a new line means is then a guess; so do dashes
// where the file writes "--", since a dash run folds to one "-". nil when
// nothing maps.
func typography(old []string, us []unit) *strings.Replacer {
	inFile := map[string]bool{}
	for _, u := range us {
		for _, r := range u.text {
			if r >= utf8.RuneSelf {
				if c := foldPunct(string(r)); c != string(r) {
					inFile[c] = true
				}
			}
		}
		if strings.Contains(u.text, "--") {
			inFile["-"] = true
		}
	}
	var pairs []string
	seen := map[rune]bool{}
	for i, l := range old {
		if i < len(us) && us[i].gap {
			continue
		}
		for _, r := range l {
			if r < utf8.RuneSelf || seen[r] {
				continue
			}
			seen[r] = true
			if c := foldPunct(string(r)); c != string(r) && !inFile[c] {
				pairs = append(pairs, string(r), c)
			}
		}
	}
	if pairs == nil {
		return nil
	}
	return strings.NewReplacer(pairs...)
}
