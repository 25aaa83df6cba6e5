package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// typoWords are the words typo-fuzzed files are built from: few enough
// that lines repeat, each three letters or more.
var typoWords = []string{"alpha", "beta", "gamma", "sum", "total", "item", "return", "value", "self", "count"}

// typoLine is the line of a typo-fuzzed file that byte c stands for: one
// to three typoWords, indented when c has bit 0x20.
func typoLine(c byte) string {
	var ws []string
	for k := 0; k <= int(c>>6)%3; k++ {
		ws = append(ws, typoWords[(int(c)+7*k)%len(typoWords)])
	}
	indent := ""
	if c&0x20 != 0 {
		indent = "    "
	}
	return indent + strings.Join(ws, " ")
}

// FuzzTypoNeverApplies checks the promise that a one-letter typo in a
// SEARCH never succeeds: data builds a file and a SEARCH/REPLACE edit that
// applies to it, then every SEARCH line gets one letter changed (to a line
// the file does not hold, so it is a typo, not another line's quote), and
// the edit must fail, whatever the replacement and wherever it stands.
func FuzzTypoNeverApplies(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08"), uint8(2), uint8(2), []byte("\x03\x04"), uint8(1))
	f.Add([]byte("\x00\x10\x20\x00\x10\x21"), uint8(1), uint8(2), []byte("\x10\x20"), uint8(0))
	f.Add([]byte("\x05\x15\x25\x35\x05\x15"), uint8(0), uint8(1), []byte(""), uint8(7))
	f.Add([]byte("\x11\x22\x33\x11\x44"), uint8(3), uint8(1), []byte("\x22\x33"), uint8(3))
	f.Fuzz(func(t *testing.T, fileData []byte, from, n uint8, newData []byte, at uint8) {
		if len(fileData) == 0 || len(fileData) > 64 || len(newData) > 16 {
			return
		}
		var fl []string
		for _, c := range fileData {
			fl = append(fl, typoLine(c))
		}
		start := int(from) % len(fl)
		end := min(len(fl), start+1+int(n)%4)
		old := strings.Join(fl[start:end], "\n") + "\n"
		var nl []string
		for _, c := range newData {
			nl = append(nl, typoLine(c^0x5a))
		}
		nw := strings.Join(nl, "\n")
		if nw != "" {
			nw += "\n"
		}
		content := strings.Join(fl, "\n") + "\n"
		e := edit.Edit{Op: edit.Replace, Old: old, New: nw, Count: 1, Format: edit.FormatSearchReplace}
		loc, err := locate(content, &e, Options{})
		if err != nil || loc.Status != edit.StatusApplied {
			return // the property is about edits that apply
		}
		have := map[string]bool{}
		for _, l := range fl {
			have[strings.TrimSpace(l)] = true
		}
		ol := fl[start:end]
		for i := range ol {
			// Change one letter of line i, at a position at picks.
			l := ol[i]
			letters := []int{}
			for k := 0; k < len(l); k++ {
				if 'a' <= l[k] && l[k] <= 'z' {
					letters = append(letters, k)
				}
			}
			if len(letters) == 0 {
				continue
			}
			k := letters[int(at)%len(letters)]
			b := []byte(l)
			b[k] = 'a' + (b[k]-'a'+1+at%25)%26
			typo := string(b)
			if have[strings.TrimSpace(typo)] {
				continue
			}
			tl := append(append(append([]string{}, ol[:i]...), typo), ol[i+1:]...)
			te := e
			te.Old = strings.Join(tl, "\n") + "\n"
			if loc, err := locate(content, &te, Options{}); err == nil {
				t.Fatalf("a typo in SEARCH line %d succeeded (%s, %s)\nfile:\n%s\nSEARCH:\n%s\nREPLACE:\n%s",
					i+1, loc.Status, loc.Strategy, content, te.Old, nw)
			}
		}
	})
}
