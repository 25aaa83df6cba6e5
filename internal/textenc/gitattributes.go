package textenc

import (
	"path"
	"strconv"
	"strings"
)

// Git's limit on an attributes file's lines: a longer one is ignored.
// maxAttrRules is edapply's on the lines of one that say something of
// working-tree-encoding, each matched against every file edited: a file
// of the tree with more (a hostile one) declares nothing.
const (
	maxAttrLine  = 2048
	maxAttrRules = 4096
)

// An attrRule is one line of a gitattributes file that says something of
// working-tree-encoding.
type attrRule struct {
	pattern string
	nodir   bool // the pattern has no slash: it matches a name at any depth
	// value is the encoding named; "" when the line unsets the attribute
	// or makes it unspecified, which decides as much.
	value string
}

// parseAttributes returns the rules of a gitattributes file's text that
// say something of working-tree-encoding, in their order. Lines git
// ignores are ignored: comments, macro definitions ([attr]...), negative
// patterns, patterns that end in a slash (they match only directories)
// and lines longer than git reads.
func parseAttributes(text string) []attrRule {
	var rules []attrRule
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if len(line) > maxAttrLine {
			continue
		}
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "[attr]") {
			continue
		}
		pattern, rest, ok := cutPattern(line)
		if !ok || pattern == "" || pattern[0] == '!' || strings.HasSuffix(pattern, "/") {
			continue
		}
		decided, value := false, ""
		for _, a := range strings.Fields(rest) {
			switch {
			case a == "-working-tree-encoding", a == "!working-tree-encoding", a == "working-tree-encoding":
				// Unset, unspecified, or set without a value (which git
				// refuses as an encoding): no encoding, decided here.
				decided, value = true, ""
			case strings.HasPrefix(a, "working-tree-encoding="):
				decided, value = true, strings.TrimPrefix(a, "working-tree-encoding=")
			}
		}
		if !decided {
			continue
		}
		rules = append(rules, attrRule{pattern: pattern, nodir: !strings.Contains(pattern, "/"), value: value})
		if len(rules) > maxAttrRules {
			return nil
		}
	}
	return rules
}

// cutPattern splits a line into its pattern, C-quoted ("a b.txt") or up
// to the first blank, and the rest.
func cutPattern(line string) (pattern, rest string, ok bool) {
	if line[0] != '"' {
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			return line, "", true
		}
		return line[:i], line[i:], true
	}
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			p, err := strconv.Unquote(line[:i+1])
			return p, line[i+1:], err == nil
		}
	}
	return "", "", false
}

// matches reports whether the rule of the attributes file in dir (""
// for the root's) matches name, a path from the root, as git matches it.
func (r attrRule) matches(dir, name string) bool {
	if r.nodir {
		return wildmatch(r.pattern, path.Base(name))
	}
	if dir != "" {
		if !strings.HasPrefix(name, dir+"/") {
			return false
		}
		name = name[len(dir)+1:]
	}
	return wildmatch(strings.TrimPrefix(r.pattern, "/"), name)
}
