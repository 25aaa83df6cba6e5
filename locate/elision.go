package locate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Elision placeholders are lines a model writes instead of code it did not
// want to repeat: "...", "// ... existing code ...", "# rest of the file
// unchanged", "/* ... */", "<!-- ... -->", and, without comment markers,
// a line wholly in brackets or emphasis ("(rest of file unchanged)",
// "[...]", "*[…]*"), a JSON member "...": "...", and a shell no-op ": #
// rest unchanged". Only a whole line can be one; "...args" (spread),
// "args..." (variadic) and "x[..., 0]" are code. A bare "..." is Python's
// Ellipsis, not a placeholder, where it is a block's body (after a line
// ending in ":" or a docstring), and YAML's document end before "---".
//
// A whole-file rewrite is judged against the original besides: a
// placeholder the original has is code; a bare "..." it took for an
// Ellipsis elides when the original's code goes missing around it
// (elidedEllipsis); and a rewrite that keeps the original's opening and
// ends early on a note such as "Rest of the document as it was." elides
// even though no list names that note (elidedTail).

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

// splitLF splits s at its line endings, "\r\n" or "\n" (a final one
// leaves an empty last element).
func splitLF(s string) []string { return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") }

// lineSet is the set of a text's lines, trimmed, for judging placeholders
// against the original.
func lineSet(s string) map[string]bool {
	set := make(map[string]bool)
	for l := range strings.SplitSeq(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		set[strings.TrimSpace(l)] = true
	}
	return set
}

// elidedRewrite reports whether rewritten, a whole-file rewrite of original,
// stands in for code of original with a placeholder such as
// "// ... existing code ..."; line is the placeholder's 1-based line in
// rewritten. A placeholder line that original already has is code.
func elidedRewrite(original, rewritten string) (line int, elided bool) {
	p := newPattern(rewritten)
	var orig map[string]bool
	origSet := func() map[string]bool {
		if orig == nil {
			orig = lineSet(original)
		}
		return orig
	}
	if p.phs > 0 {
		for i, l := range p.lines {
			if p.ph[i] && !origSet()[strings.TrimSpace(l)] {
				return i + 1, true
			}
		}
	}
	// A bare "..." taken for code (gap lines that are not placeholders).
	if p.gaps > p.phs && !origSet()["..."] && !origSet()["…"] {
		if line, ok := elidedEllipsis(original, p, origSet()); ok {
			return line, true
		}
	}
	return elidedTail(original, p, origSet)
}

// tailCues are words that, in a short last line, say the rest was left
// out ("Rest of the README as it was", "(the remaining tests stay)");
// tailPhrases are phrases that do. Words common in ordinary comments
// ("existing", "continue", "etc", a trailing "...") are left out: measured
// on real files they name code far more often than they stand for it.
var (
	tailCues = []string{
		"rest", "remaining", "remainder", "unchanged", "untouched", "omitted", "elided",
		"elision", "snip", "snipped", "truncated", "brevity",
	}
	tailPhrases = []string{"as is", "as-is", "same as", "as before", "not shown", "as it was", "as they are", "and so on"}
)

// elidedTail is the structural backstop for a rewrite cut short: it keeps
// the original's opening lines, then ends with a short line that original
// does not have and that reads like a placeholder, a note rather than
// code, while original goes on for many more lines that the rewrite lacks.
func elidedTail(original string, p *pattern, orig func() map[string]bool) (int, bool) {
	last := len(p.lines) - 1
	for last >= 0 && isBlank(p.lines[last]) {
		last--
	}
	if last < 2 {
		return 0, false
	}
	t := strings.TrimSpace(p.lines[last])
	// A bare "..." at the margin ending a rewrite whose original has none
	// is a cut too, whatever the line before it: after a ':' line the body
	// rule calls it Python's Ellipsis, yet as the last line of a file that
	// lost most of its tail (a Markdown "```{toctree}" block, say) it
	// stands for lines. An indented one is a stub's body and stays code.
	cut := onlyDots(t) && p.lines[last] == t
	// With the cut this function demands below, a list's end ("# etc.",
	// "and so on") is a note too, though alone it continues a comment.
	if len(t) > 100 || !tailNote(t) && !cut && !listTail(t) {
		return 0, false
	}
	ol := splitLF(original)
	// A line original has is code; for a "..." at the margin, only one at
	// the margin: an indented "..." in a sample is not the same line.
	if cut && slices.Contains(ol, p.lines[last]) || !cut && orig()[t] {
		return 0, false
	}
	var on, rn []string // non-blank lines, trimmed
	for _, o := range ol {
		if o = strings.TrimSpace(o); o != "" {
			on = append(on, o)
		}
	}
	for _, l := range p.lines[:last] {
		if l = strings.TrimSpace(l); l != "" {
			rn = append(rn, l)
		}
	}
	if len(rn) < 2 || len(on) < len(rn)+10 {
		return 0, false
	}
	// The opening kept: two of the first three lines as in original.
	same := 0
	for k := 0; k < 3 && k < len(rn); k++ {
		if rn[k] == on[k] {
			same++
		}
	}
	if same < 2 {
		return 0, false
	}
	// Many lines of original lost, most of them after what was kept.
	rw := lineSet(p.text)
	lost := 0
	for _, o := range on[len(rn):] {
		if !rw[o] {
			lost++
		}
	}
	if lost < 10 || lost*2 < len(on)-len(rn) {
		return 0, false
	}
	return last + 1, true
}

// listTail reports whether t, a trimmed line, is a list tail
// (isListTail), alone or as a comment or in brackets ("# etc.", "(and so
// on)").
func listTail(t string) bool {
	return isListTail(strings.Trim(strings.ToLower(noteText(t)), phraseTrim))
}

// noteText is what a line says: a comment's text, or what brackets or
// emphasis wrap; else the line.
func noteText(t string) string {
	if c, ok := commentText(t); ok {
		return c
	}
	if w, ok := unwrap(t); ok {
		return w
	}
	return t
}

// tailNote reports whether t, a trimmed line, reads like a note that code
// was left out: short (eight words at most, not ending in a comma), no code punctuation once comment markers, brackets
// and emphasis are removed, and a cue word.
func tailNote(t string) bool {
	u := strings.Trim(noteText(t), "*_ ")
	n := len(strings.Fields(u))
	if n == 0 || n > 8 || n == 1 && u == t || strings.HasSuffix(u, ",") || strings.ContainsAny(u, "=;{}()[]<>$`\"|&") ||
		strings.IndexFunc(u, unicode.IsLetter) < 0 ||
		u == t && (strings.Contains(u, "#") || strings.Contains(u, "//") || strings.Contains(u, "/*")) {
		return false // code (a trailing comment is still code), or no words
	}
	lu := strings.ToLower(u)
	for _, c := range tailPhrases {
		if strings.Contains(lu, c) {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(lu, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if slices.Contains(tailCues, w) {
			return true
		}
	}
	return false
}

// elidedEllipsis finds a bare "..." in a rewrite that IsPlaceholder took
// for Python's Ellipsis (it follows a line ending in ":" or a docstring),
// when original has no such line, yet it stands for code of original: it is
// followed by more statements of its block while lines of original are
// lost, or it is the whole body of a block whose header original has with
// a body the rewrite drops. A stub written anew ("def f(): ...", "class
// P(Protocol):\n    ...") keeps every line of original and is code.
func elidedEllipsis(original string, p *pattern, orig map[string]bool) (int, bool) {
	var ol []string // original's lines, computed on demand
	var rw map[string]bool
	lost := -1 // how many non-blank lines of original the rewrite lacks
	for i, l := range p.lines {
		if t := strings.TrimSpace(l); t != "..." && t != "…" || p.ph[i] {
			continue
		}
		if ol == nil {
			ol = splitLF(original)
			rw = lineSet(p.text)
			lost = 0
			for _, o := range ol {
				if t := strings.TrimSpace(o); t != "" && !rw[t] {
					lost++
				}
			}
		}
		if lost < 2 {
			return 0, false
		}
		ind := leadingWS(l)
		next := i + 1
		for next < len(p.lines) && isBlank(p.lines[next]) {
			next++
		}
		if next < len(p.lines) && leadingWS(p.lines[next]) == ind {
			// More statements of the same block follow: an Ellipsis there
			// does nothing, a placeholder does.
			if lost >= 3 && len(p.lines) < len(ol) {
				return i + 1, true
			}
			continue
		}
		// The block's whole body: judge it against the header's body in
		// original.
		h := i - 1
		for h >= 0 && isBlank(p.lines[h]) {
			h--
		}
		if h < 0 {
			continue
		}
		head := strings.TrimSpace(p.lines[h])
		if !strings.HasSuffix(head, ":") {
			continue
		}
		for j, o := range ol {
			if strings.TrimSpace(o) != head {
				continue
			}
			hind := leadingWS(o)
			body, gone := 0, 0
			for k := j + 1; k < len(ol); k++ {
				if isBlank(ol[k]) {
					continue
				}
				if len(leadingWS(ol[k])) <= len(hind) {
					break
				}
				body++
				if !rw[strings.TrimSpace(ol[k])] {
					gone++
				}
			}
			if gone >= 2 && gone*2 >= body {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// elidedIn reports whether a Replace's new text np drops code with a
// placeholder that its old text op does not have at the same place (the
// same placeholder at the corresponding place in both is the elision
// level's business), and the placeholder's 1-based line in np. A
// placeholder line for which has reports true (the file has it) is code,
// in np and in op: a placeholder of np in the place of such a line of op
// stands for more than that line.
func elidedIn(op, np *pattern, has func(trimmed string) bool) (int, bool) {
	if np.phs == 0 {
		return 0, false
	}
	pairs := pairLines(op, np, false, true)
	for j, l := range np.lines {
		if !np.ph[j] {
			continue
		}
		if i := pairs[j]; i >= 0 && op.gap[i] && !has(strings.TrimSpace(op.lines[i])) {
			continue
		}
		if has(strings.TrimSpace(l)) {
			continue
		}
		return j + 1, true
	}
	return 0, false
}
