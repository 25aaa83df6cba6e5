package syntax

import "strings"

// A Fence is a Markdown code fence line: at most three spaces, then three
// or more backticks or tildes, then an optional info string.
type Fence struct {
	Char   byte // '`' or '~'
	N      int  // the run's length
	Indent int  // the spaces before it
	Info   string
}

// ParseFence reports whether s is a fence line, and reads it.
func ParseFence(s string) (Fence, bool) {
	var f Fence
	for f.Indent < 3 && f.Indent < len(s) && s[f.Indent] == ' ' {
		f.Indent++
	}
	s = s[f.Indent:]
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return Fence{}, false
	}
	f.Char = s[0]
	for f.N < len(s) && s[f.N] == f.Char {
		f.N++
	}
	if f.N < 3 {
		return Fence{}, false
	}
	f.Info = strings.TrimSpace(s[f.N:])
	if f.Char == '`' && strings.Contains(f.Info, "`") {
		return Fence{}, false // inline code such as ```x``` on one line
	}
	return f, true
}

// Closes reports whether g can close a fence opened by f.
func (g Fence) Closes(f Fence) bool { return g.Info == "" && g.Char == f.Char && g.N >= f.N }

// Lang returns the fence's language, the first word of its info string
// unless that word is a path, lowercased.
func (f Fence) Lang() string {
	w, _, _ := strings.Cut(f.Info, " ")
	w, _, _ = strings.Cut(w, ":")
	if _, ok := FilePath(w); ok {
		return ""
	}
	return strings.ToLower(w)
}

// InfoPath finds a path in the info string: "```path/x.go", "```go x.go",
// "```python:src/x.py", "```yaml title="x.yaml"".
func (f Fence) InfoPath() (string, bool) {
	for _, w := range strings.Fields(f.Info) {
		if k := strings.IndexByte(w, '='); k >= 0 {
			switch strings.ToLower(w[:k]) {
			case "title", "file", "filename", "path", "name":
				w = w[k+1:]
			default:
				continue
			}
		} else if lang, rest, ok := strings.Cut(w, ":"); ok && lang != "" && !strings.ContainsAny(lang, "./") {
			w = rest
		}
		if pth, ok := FilePath(strings.Trim(w, `"'`)); ok {
			return pth, true
		}
	}
	return "", false
}

// FenceNear returns the fence a block starting at line i of lines opens
// with: line i itself, or the next line, or the one after a blank next
// line.
func FenceNear(lines []Line, i int) (int, Fence, bool) {
	if f, ok := ParseFence(lines[i].Text); ok {
		return i, f, true
	}
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		if f, ok := ParseFence(lines[j].Text); ok {
			return j, f, true
		}
		if strings.TrimSpace(lines[j].Text) != "" {
			break
		}
	}
	return 0, Fence{}, false
}

// FencePath is the path that names the block starting at line i of lines
// whose opening fence f is at line open (FenceNear): the fence's info
// string when the block starts with the fence, else line i as a path line
// (inTree as for PathLineAt).
func FencePath(lines []Line, i, open int, f Fence, inTree func(name string) bool) (string, bool) {
	if open == i {
		return f.InfoPath()
	}
	return PathLineAt(lines[i].Text, false, inTree)
}
