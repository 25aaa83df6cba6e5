package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// hunkOf lowers a hunk body (lines prefixed ' ', '-' or '+') to the
// Replace a diff's hunk is, with its edge context counted and its lines'
// marks.
func hunkOf(body string) *edit.Edit {
	e := &edit.Edit{Op: edit.Replace, Count: 1, Format: edit.FormatUDiff}
	var old, nw strings.Builder
	var kinds []byte
	for _, l := range strings.SplitAfter(body, "\n") {
		if l == "" {
			continue
		}
		kind, text := l[0], l[1:]
		kinds = append(kinds, kind)
		if kind != '+' {
			old.WriteString(text)
		}
		if kind != '-' {
			nw.WriteString(text)
		}
	}
	e.Old, e.New, e.Marks = old.String(), nw.String(), string(kinds)
	for e.LeadContext < len(kinds) && kinds[e.LeadContext] == ' ' {
		e.LeadContext++
	}
	if e.LeadContext == len(kinds) {
		e.LeadContext = 0
		return e
	}
	for kinds[len(kinds)-1-e.TrailContext] == ' ' {
		e.TrailContext++
	}
	return e
}

const edgesFile = `import os


def load(path):
    """Load the config."""
    with open(path) as f:
        data = f.read()
    return parse(data)


def save(path, data):
    with open(path, "w") as f:
        f.write(data)
`

// TestHunkEdges: a hunk whose context the model edited or dropped at one
// edge lands where its '-' lines and the rest of its context are, keeping
// the file's lines; everything else stays refused.
func TestHunkEdges(t *testing.T) {
	strip := strings.Replace(edgesFile, "data = f.read()\n", "data = f.read().strip()\n", 1)
	cases := map[string]struct {
		file, hunk string
		format     edit.Format // FormatAuto: FormatUDiff
		strict     bool
		want       string
		status     edit.Status
		note       string // a word the note must hold
		lines      [2]int
		code       edit.Code
	}{
		"editedTop": {hunk: " def load(path):\n" +
			"     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n" +
			"     return parse(data)\n",
			want: strip, note: "line 5", lines: [2]int{6, 8}},
		"editedBottom": {hunk: "     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n" +
			"     return parse(data.strip())\n",
			want: strip, note: "bottom"},
		"editedOutermostAlone": {hunk: " def loader(path):\n" +
			"     \"\"\"Load the config.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			want: strip, note: "differs"},
		"droppedTop": {hunk: " def load(path):\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			want: strip, note: "leaves out the file's line 5"},
		"droppedBottom": {hunk: "-    with open(path, \"w\") as f:\n" +
			"-        f.write(data)\n" +
			"+    with open(path, \"w\") as f:\n" +
			"+        f.write(data + \"\\n\")\n" +
			" \n" +
			" def save(path, data):\n",
			file: "def save(path, data):\n    with open(path, \"w\") as f:\n        f.write(data)\n\n\ndef save(path, data):\n",
			want: "def save(path, data):\n    with open(path, \"w\") as f:\n        f.write(data + \"\\n\")\n\n\ndef save(path, data):\n",
			note: "leaves out"},
		"addedBlank": {hunk: " def load(path):\n" +
			" \n" +
			"     \"\"\"Load the config.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			want: strip, note: "blank line"},
		"addedBlankAndEdited": {hunk: " def load(path):\n" +
			" \n" +
			"     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			code: edit.CodeNoMatch},
		"twoEditedOneEdge": {hunk: " def load(pth):\n" +
			"     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			code: edit.CodeNoMatch},
		"editedBothEdges": {hunk: "     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n" +
			"     return parse(data.strip())\n",
			code: edit.CodeNoMatch},
		"notANearMiss": {hunk: " class Loader:\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			code: edit.CodeNoMatch},
		"typoInRemoved": {hunk: "     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.reed()\n" +
			"+        data = f.read().strip()\n",
			code: edit.CodeNoMatch},
		"addsOnly": {hunk: "     \"\"\"Load the configuration file.\"\"\"\n" +
			"+    print(path)\n" +
			"     with open(path) as f:\n",
			code: edit.CodeNoMatch},
		"innerContextEdited": {hunk: "-    \"\"\"Load the config.\"\"\"\n" +
			"+    \"\"\"Load it.\"\"\"\n" +
			"     with open(path) as file:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			code: edit.CodeNoMatch},
		"removesOnlyBlank": {hunk: " a = 11\n-\n+x = 0\n",
			file: "a = 1\n\nb = 2\n", code: edit.CodeNoMatch},
		"pastTheStart": {hunk: " #!/usr/bin/env python\n" +
			"-import os\n" +
			"+import sys\n",
			code: edit.CodeNoMatch},
		"ambiguous": {hunk: " def lode(path):\n" +
			"     with open(path) as f:\n" +
			"-        f.write(data)\n" +
			"+        f.write(data + \"\\n\")\n",
			file: "def load(path):\n    with open(path) as f:\n        f.write(data)\n" +
				"def load(path):\n    with open(path) as f:\n        f.write(data)\n",
			code: edit.CodeMultipleMatches},
		"otherEdgeFindsElsewhere": {hunk: " def lode(path):\n" +
			"-    return 1\n" +
			"+    return 2\n" +
			" # the ends\n",
			file: "def load(path):\n    return 1\n# the ends\n\ndef lode(path):\n    return 1\n# the end\n",
			code: edit.CodeMultipleMatches},
		"searchReplaceQuotesLiterally": {hunk: "     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			format: edit.FormatSearchReplace, code: edit.CodeNoMatch},
		"strict": {hunk: "     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			strict: true, code: edit.CodeNoMatch},
		"alreadyApplied": {hunk: "     \"\"\"Load the configuration file.\"\"\"\n" +
			"     with open(path) as f:\n" +
			"-        data = f.read()\n" +
			"+        data = f.read().strip()\n",
			file: strip, want: strip, status: edit.StatusAlreadyApplied},
		"crlf": {hunk: " a = 1\n b = 22\n-c = 3\n+c = 4\n d = 5\n",
			file: "a = 1\r\nb = 2\r\nc = 3\r\nd = 5\r\n", want: "a = 1\r\nb = 2\r\nc = 4\r\nd = 5\r\n", note: "`b = 2`"},
	}
	for name, c := range cases {
		file := c.file
		if file == "" {
			file = edgesFile
		}
		e := hunkOf(c.hunk)
		if c.format != edit.FormatAuto {
			e.Format = c.format
		}
		loc, err := locate(file, e, matchOptions{Strict: c.strict})
		if c.code != "" {
			switch {
			case err == nil:
				t.Errorf("%s: located %s (%s) as %q, want %s", name, loc.Strategy, loc.Note, spliced(t, file, loc), c.code)
			case err.Code != c.code:
				t.Errorf("%s: error %s (%s), want %s", name, err.Code, err.Msg, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: error %s: %s (hint %q)", name, err.Code, err.Msg, err.Hint)
			continue
		}
		if want := cmpOr(c.status, edit.StatusApplied); loc.Status != want {
			t.Errorf("%s: status %s, want %s", name, loc.Status, want)
		}
		if got := spliced(t, file, loc); got != c.want {
			t.Errorf("%s: result\n got %q\nwant %q", name, got, c.want)
		}
		if c.status == "" && (loc.Note == "" || !strings.Contains(loc.Note, c.note)) {
			t.Errorf("%s: note %q, want one saying %q", name, loc.Note, c.note)
		}
		if c.lines != [2]int{} && (loc.LineStart != c.lines[0] || loc.LineEnd != c.lines[1]) {
			t.Errorf("%s: lines %d-%d, want %d-%d", name, loc.LineStart, loc.LineEnd, c.lines[0], c.lines[1])
		}
	}
}

func cmpOr(s, def edit.Status) edit.Status {
	if s == "" {
		return def
	}
	return s
}

// TestHunkEdgesManyPlaces: what is left once more lines are left out may
// stand at more places than an error lists; the hunk still lands where
// the only fitting place is, and is refused when two fit.
func TestHunkEdgesManyPlaces(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "func f%d() error {\n\treturn nil\n}\n", i)
	}
	funcs := b.String()
	target := "func target() error {\n\tx := compute()\n\treturn nil\n}\n"
	hunk := hunkOf(" func target() (err error) {\n \tx := compute()\n-\treturn nil\n+\treturn check(x)\n }\n")
	file := funcs + target
	loc, err := locate(file, hunk, matchOptions{})
	if err != nil {
		t.Fatalf("error %s: %s", err.Code, err.Msg)
	}
	if got, want := spliced(t, file, loc), funcs+strings.Replace(target, "return nil", "return check(x)", 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A second target whose first line is as near: two places fit.
	file = funcs + target + strings.Replace(target, "target", "targets", 1)
	if loc, err := locate(file, hunk, matchOptions{}); err == nil || err.Code != edit.CodeMultipleMatches {
		t.Errorf("two fitting places: located %q (%v), want MULTIPLE_MATCHES", spliced(t, file, loc), err)
	} else if len(err.Candidates) != 2 {
		t.Errorf("two fitting places: %d candidates, want 2", len(err.Candidates))
	}
}

// TestHunkEdgesExactWins: a hunk whose context matches as written is the
// ladder's, with no note, even where leaving out an edge would find
// another place.
func TestHunkEdgesExactWins(t *testing.T) {
	file := "x = 0\nb = 2\nc = 3\na = 1\nb = 2\nc = 3\n"
	e := hunkOf(" a = 1\n b = 2\n-c = 3\n+c = 4\n")
	loc, err := locate(file, e, matchOptions{})
	if err != nil {
		t.Fatalf("error %s: %s", err.Code, err.Msg)
	}
	if got, want := spliced(t, file, loc), "x = 0\nb = 2\nc = 3\na = 1\nb = 2\nc = 4\n"; got != want || loc.Note != "" || loc.Strategy != edit.StrategyExact {
		t.Errorf("got %q (%s, note %q), want %q exact without a note", got, loc.Strategy, loc.Note, want)
	}
}
