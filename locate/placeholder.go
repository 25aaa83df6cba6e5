package locate

// Elision placeholders are lines a model writes instead of code it did not
// want to repeat: "...", "// ... existing code ...", "# rest of the file
// unchanged", "/* ... */", "<!-- ... -->", and, without comment markers,
// a line wholly in brackets or emphasis ("(rest of file unchanged)",
// "[...]", "*[…]*"), a JSON member "...": "...", and a shell no-op ": #
// rest unchanged". Only a whole line can be one; "...args" (spread),
// "args..." (variadic) and "x[..., 0]" are code. A bare "..." is Python's
// Ellipsis, not a placeholder, where it is a block's body (after a line
// ending in ":" or a docstring), and YAML's document end before "---".

import (
	"strings"
	"unicode/utf8"
)

// commentOpeners and commentClosers frame a placeholder comment.
var (
	commentOpeners = []string{"{/*", "<!--", "/*", "//", "--", "#", ";", "%", "*"}
	commentClosers = []string{"*/}", "-->", "*/"}
)

// placeholderFirst holds the bytes a placeholder can start with (past
// its indentation): dots, a JSON key, a shell no-op, a bracket or emphasis,
// a comment opener. Every line of every edit is asked; most lines of code
// are ruled out by their first byte.
var placeholderFirst = func() (set [256]bool) {
	for _, c := range []byte(".\":([{*_") {
		set[c] = true
	}
	set["…"[0]] = true
	for _, o := range commentOpeners {
		set[o[0]] = true
	}
	return set
}()

// mayBePlaceholder rules out a line by its first byte past ASCII blanks,
// before the line is trimmed: one that is not in placeholderFirst cannot
// start a placeholder. (A non-ASCII byte may be a Unicode space, which
// strings.TrimSpace trims too, or "…": those lines are asked in full.)
func mayBePlaceholder(l string) bool {
	for i := 0; i < len(l); i++ {
		switch c := l[i]; c {
		case ' ', '\t', '\v', '\f', '\r', '\n':
		default:
			return c >= utf8.RuneSelf || placeholderFirst[c]
		}
	}
	return false
}

// IsPlaceholder reports whether lines[i] is an elision placeholder: a
// line a model wrote in place of code it left out. It is the one rule for
// the ladder, which must never take code for one (a line it takes skips
// lines of the file), and for package lint, which reports the ones left in
// a file; lines[i]'s neighbours decide a bare "..." and a list's "etc.".
// What only a file's language can tell (a Markdown heading "# ...") is the
// caller's to add.
func IsPlaceholder(lines []string, i int) bool {
	if !mayBePlaceholder(lines[i]) {
		return false
	}
	t := strings.TrimSpace(lines[i])
	if t == "" || len(t) > 120 || !placeholderFirst[t[0]] {
		return false
	}
	if onlyDots(t) {
		if t != "..." && t != "…" {
			return true // ". . ." and longer runs are no code
		}
		return !ellipsisCode(lines, i)
	}
	if jsonDots(t) {
		return true
	}
	// "... existing code ..." without comment markers: dots on both sides
	// and the words mark it; a doctest's "... x = 1" has neither.
	if u, lead, trail := cutDots(t); lead && trail {
		return placeholderPhrase(t, nil) && u != ""
	}
	// A tab after "//" is a code block inside a Go doc comment: an
	// example, which may elide as it likes.
	if strings.HasPrefix(strings.TrimLeft(t, "/"), "\t") && strings.HasPrefix(t, "//") {
		return false
	}
	// A shell no-op holding a comment: ": # rest unchanged".
	if len(t) > 2 && t[0] == ':' && (t[1] == ' ' || t[1] == '\t') {
		if r := strings.TrimSpace(t[1:]); r != "" && r[0] == '#' {
			t = r
		}
	}
	afterComment := func() bool {
		for j := i - 1; j >= 0; j-- {
			if p := strings.TrimSpace(lines[j]); p != "" {
				return isComment(p)
			}
		}
		return false
	}
	// A line wholly in brackets or emphasis: "(rest of file unchanged)",
	// "[...]", "*[…]*".
	if u, ok := unwrap(t); ok && placeholderPhrase(u, afterComment) {
		// "[remaining]" is as likely an INI or TOML section: in square
		// brackets one word is a placeholder only if it says so.
		return t[0] != '[' || strings.ContainsAny(u, " .…") || isBracketWord(strings.ToLower(u))
	}
	u, ok := commentText(t)
	return ok && placeholderPhrase(u, afterComment)
}

// ellipsisCode reports whether lines[i], a bare "...", is code: Python's
// Ellipsis as a block's body (after a line ending in ":" or a docstring),
// or YAML's document end (followed, past blanks and comments, by the next
// document's "---" or a directive).
func ellipsisCode(lines []string, i int) bool {
	prev := ""
	for j := i - 1; j >= 0; j-- {
		if prev = strings.TrimSpace(lines[j]); prev != "" {
			break
		}
	}
	if strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, `"""`) || strings.HasSuffix(prev, "'''") {
		return true
	}
	// YAML's document end: at the margin, after YAML content ("key: v",
	// "- item"; a Markdown rule "---" after prose is no document).
	if lines[i] != "..." || !strings.Contains(prev, ": ") && !strings.HasPrefix(prev, "- ") {
		return false
	}
	for j := i + 1; j < len(lines); j++ {
		n := strings.TrimSpace(lines[j])
		if n == "" || n[0] == '#' {
			continue
		}
		return n == "---" || strings.HasPrefix(n, "--- ") || strings.HasPrefix(n, "%YAML") || strings.HasPrefix(n, "%TAG")
	}
	return false
}

// jsonDots reports whether t is a JSON member whose key and value are only
// dots: "...": "..." (a trailing comma allowed).
func jsonDots(t string) bool {
	t = strings.TrimSuffix(t, ",")
	k, v, ok := strings.Cut(t, ":")
	if !ok {
		return false
	}
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	quotedDots := func(s string) bool {
		return len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && onlyDots(s[1:len(s)-1])
	}
	return quotedDots(k) && (quotedDots(v) || onlyDots(v))
}

// unwrap returns the inside of a line wholly wrapped in one pair of (),
// [], {}, or emphasis (*, **, _, __), unwrapping up to three layers
// ("*(rest unchanged)*").
func unwrap(t string) (string, bool) {
	ok := false
	for k := 0; k < 3 && len(t) >= 2; k++ {
		a, z := t[0], t[len(t)-1]
		if !(a == '(' && z == ')' || a == '[' && z == ']' || a == '{' && z == '}' || (a == '*' || a == '_') && z == a) {
			break
		}
		t, ok = strings.TrimSpace(t[1:len(t)-1]), true
		if a == '*' || a == '_' {
			t = strings.TrimSpace(strings.Trim(t, string(a)))
		}
	}
	return t, ok
}

// placeholderWords mark a short comment that opens or closes with "..."
// as a placeholder.
var placeholderWords = []string{
	"existing", "unchanged", "rest of", "remaining", "remains", "remainder",
	"omitted", "elided", "snip", "same as", "as before", "other code",
	"more code", "code here", "truncated", "skipped", "no changes", "not changed",
	"other methods", "other functions", "other fields", "other cases",
	"brevity",
}

// isPlaceholderPhrase reports whether s is one of the short phrases that
// alone are a placeholder.
func isPlaceholderPhrase(s string) bool {
	switch s {
	case "snip", "snipped", "omitted", "elided", "truncated", "unchanged",
		"no changes", "remaining", "the rest", "as before", "same as above",
		"same as before", "existing", "existing content", "existing code",
		"remaining content", "content omitted", "for brevity",
		"omitted for brevity", "keep existing code":
		return true
	}
	return false
}

// isBracketWord reports whether w is one of the single words that, in
// square brackets, are a placeholder rather than a section header.
func isBracketWord(w string) bool {
	switch w {
	case "snip", "snipped", "omitted", "elided", "truncated":
		return true
	}
	return false
}

// phraseTrim is what a short placeholder phrase is trimmed of before it is
// looked up: brackets, punctuation, emphasis, dashes and blanks.
const phraseTrim = "()[]{}<>:.!-–—*_ "

// isListTail reports whether s is a placeholder that also ends a list in
// prose: after a comment line it continues that comment.
func isListTail(s string) bool {
	switch s {
	case "etc", "etc etc", "and so on", "and so forth":
		return true
	}
	return false
}

// placeholderPrefixes open a short placeholder phrase.
var placeholderPrefixes = []string{
	"rest of", "remainder of", "existing code", "other code", "remaining code",
	"code omitted", "content omitted", "omitted", "unchanged",
}

// placeholderSuffixes close a short placeholder phrase.
var placeholderSuffixes = []string{
	"remains the same", "stays the same", "omitted for brevity", "for brevity",
}

// labelSuffixes close a placeholder phrase when what comes before them is
// a short label ("rest unchanged", "imports unchanged", "tests as
// before") rather than a sentence ("return the path unchanged").
var labelSuffixes = []string{" unchanged", " omitted", " elided", " truncated", " as before", " same as above", " same as before"}

// isVerbish reports whether w is one of the words that make a phrase a
// sentence about code rather than a label for code left out.
func isVerbish(w string) bool {
	switch w {
	case "is", "are", "was", "were", "be", "been", "being", "remain",
		"remains", "leave", "leaves", "left", "stay", "stays", "return",
		"returns", "returned", "pass", "passes", "passed", "keep", "keeps", "go",
		"goes", "through", "if", "when", "should", "must", "will", "would",
		"can", "may", "might", "not", "didn't", "don't", "doesn't", "usually",
		"often", "always", "it", "them", "this", "that", "to", "from", "and",
		"or", "as", "even", "apart", "rather", "otherwise", "save", "test",
		"check", "ensure", "get", "gets", "got", "with", "by", "than":
		return true
	}
	return false
}

// placeholderPhrase reports whether u, the text of a whole-line comment or
// wrapped line with its markers removed, says that code was left out;
// afterComment reports whether the line follows a comment line.
func placeholderPhrase(u string, afterComment func() bool) bool {
	if u == "" {
		return false
	}
	if onlyDots(u) {
		// A comment of a long run of dots is a ruler.
		return strings.Count(u, ".")+3*strings.Count(u, "…") <= maxPlaceholderDots
	}
	// More than eight words is a sentence, with dots or without; lowering
	// changes no word's bounds, so the words are counted before it.
	if moreFields(u, 8) {
		return false
	}
	lu := strings.ToLower(u)
	if strings.Contains(u, "...") || strings.Contains(u, "…") {
		inner, lead, trail := cutDots(lu)
		if !lead && !trail {
			return false
		}
		// Dots that only close a phrase also end a sentence trailing off
		// ("// handle the remaining lines..."): the phrase must open with
		// what was left out ("// existing code...").
		contains := strings.Contains
		if trail && !lead {
			contains = strings.HasPrefix
		}
		for _, w := range placeholderWords {
			if contains(inner, w) {
				return true
			}
		}
		// "... more tests", "... other handlers": after dots, two words
		// naming more of the same.
		if lead {
			words := strings.Fields(inner)
			return len(words) >= 1 && len(words) <= 2 && (words[0] == "more" || words[0] == "other")
		}
		return false
	}
	// Without dots only a short, unmistakable phrase counts.
	lu = strings.Trim(lu, phraseTrim)
	if isPlaceholderPhrase(lu) {
		return true
	}
	if isListTail(lu) {
		return !afterComment()
	}
	for _, p := range placeholderPrefixes {
		if strings.HasPrefix(lu, p) {
			return true
		}
	}
	for _, s := range placeholderSuffixes {
		if strings.HasSuffix(lu, s) {
			return true
		}
	}
	for _, s := range labelSuffixes {
		if rest, ok := strings.CutSuffix(lu, s); ok {
			words := strings.Fields(rest)
			if len(words) > 4 {
				return false
			}
			for _, w := range words {
				if isVerbish(strings.Trim(w, ",;:()")) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// maxPlaceholderDots is the longest run of dots a placeholder comment
// holds; a longer one is a ruler.
const maxPlaceholderDots = 8

// cutDots returns s without the dots ("." and "…") and blanks at its
// ends, and whether each end had three dots or more.
func cutDots(s string) (inner string, lead, trail bool) {
	const dots = ".… \t"
	inner = strings.TrimLeft(s, dots)
	lead = onlyDots(strings.TrimSpace(s[:len(s)-len(inner)]))
	t := strings.TrimRight(inner, dots)
	trail = onlyDots(strings.TrimSpace(inner[len(t):]))
	return strings.TrimSpace(t), lead, trail
}

// moreFields reports whether s has more than n fields, as strings.Fields
// splits it, without the split: every comment line of every edit is asked.
func moreFields(s string, n int) bool {
	k, in := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return len(strings.Fields(s)) > n // Unicode blanks
		}
		blank := c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
		if !blank && !in {
			if k++; k > n {
				return true
			}
		}
		in = !blank
	}
	return false
}

// isComment reports whether t, a trimmed line, is a comment.
func isComment(t string) bool {
	_, ok := commentText(t)
	return ok
}

// commentText returns the text of a whole-line comment, without its
// markers and surrounding blanks, brackets and dots kept.
func commentText(t string) (string, bool) {
	opened := false
	for _, o := range commentOpeners {
		if strings.HasPrefix(t, o) {
			t, opened = t[len(o):], true
			if o == "//" || o == "#" {
				t = strings.TrimLeft(t, o[:1]) // "/// ...", "## ..."
			}
			break
		}
	}
	if !opened {
		return "", false
	}
	for _, c := range commentClosers {
		if strings.HasSuffix(t, c) {
			t = t[:len(t)-len(c)]
			break
		}
	}
	t = strings.TrimSpace(t)
	if u, ok := unwrap(t); ok {
		t = u
	}
	return t, true
}

// onlyDots reports whether s is three dots or more ("…" counting three)
// and blanks (' '), and nothing else. It is asked of every line of every
// edit, so it does not allocate.
func onlyDots(s string) bool {
	n := 0
	for i := 0; i < len(s); {
		switch {
		case s[i] == '.':
			n++
			i++
		case s[i] == ' ':
			i++
		case strings.HasPrefix(s[i:], "…"):
			n += 3
			i += len("…")
		default:
			return false
		}
	}
	return n >= 3
}
