package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// spacingLine is the line of a spacing-fuzzed file that byte c stands
// for: typoWords joined by punctuation in one of four shapes (a call, an
// assignment, an index, two words before a call), indented when c has
// bit 0x20.
func spacingLine(c byte) string {
	w := func(k int) string { return typoWords[(int(c)+7*k)%len(typoWords)] }
	var l string
	switch c >> 6 {
	case 0:
		l = w(0) + "(" + w(1) + ", " + w(2) + ")"
	case 1:
		l = w(0) + " = " + w(1) + " + " + w(2) + ";"
	case 2:
		l = w(0) + "[" + w(1) + "] = " + w(2)
	default:
		l = w(0) + " " + w(1) + "(" + w(2) + ")"
	}
	if c&0x20 != 0 {
		l = "    " + l
	}
	return l
}

// respace spaces line l as a model might: its indentation kept, zero to
// two blanks at each place beside punctuation, as the bits of seed say
// (used in turn, over and over), one blank between words.
func respace(l string, seed uint32) string {
	form := spacedForm(l)
	var b strings.Builder
	b.WriteString(leadingWS(l))
	bit := 0
	for i := 0; i < len(form); i++ {
		if i > 0 && form[i] != ' ' && form[i-1] != ' ' && (isSpacingPunct(form[i-1]) || isSpacingPunct(form[i])) {
			b.WriteString(strings.Repeat(" ", int(seed>>(bit%31)&3)%3))
			bit += 2
		}
		b.WriteByte(form[i])
	}
	return b.String()
}

// FuzzSpacingTypoNeverApplies checks that the spacing rung keeps the
// ladder's promise that a one-letter typo never succeeds: data builds a
// file and a SEARCH/REPLACE edit whose SEARCH quotes a run of its lines
// spaced otherwise beside punctuation; when that edit applies, every
// SEARCH line gets one letter changed in turn (to a line the file does
// not hold at any spacing, so it is a typo, not another line's quote),
// and the edit must write nothing, whatever the replacement and wherever
// it stands: it fails, or it is already applied because its replacement
// stands in the file (onlyExplanation, as for an edit that changes that
// letter).
func FuzzSpacingTypoNeverApplies(f *testing.F) {
	f.Add([]byte("\x01\x42\x83\xc4\x05\x46"), uint8(1), uint8(2), uint32(0x9e3779b9), []byte("\x03"), uint8(1))
	f.Add([]byte("\x00\x60\xa0\xe0\x00\x61"), uint8(0), uint8(3), uint32(0x12345678), []byte(""), uint8(4))
	f.Add([]byte("\x11\x51\x91\xd1\x11"), uint8(2), uint8(1), uint32(0xffffffff), []byte("\x22\x33"), uint8(9))
	f.Fuzz(func(t *testing.T, fileData []byte, from, n uint8, seed uint32, newData []byte, at uint8) {
		if len(fileData) == 0 || len(fileData) > 64 || len(newData) > 16 {
			return
		}
		var fl []string
		for _, c := range fileData {
			fl = append(fl, spacingLine(c))
		}
		start := int(from) % len(fl)
		end := min(len(fl), start+1+int(n)%4)
		var ol []string
		for i, l := range fl[start:end] {
			ol = append(ol, respace(l, seed*uint32(i+1)))
		}
		var nl []string
		for _, c := range newData {
			nl = append(nl, spacingLine(c^0x5a))
		}
		nw := strings.Join(nl, "\n")
		if nw != "" {
			nw += "\n"
		}
		content := strings.Join(fl, "\n") + "\n"
		e := edit.Edit{Op: edit.Replace, Old: strings.Join(ol, "\n") + "\n", New: nw, Count: 1, Format: edit.FormatSearchReplace}
		loc, err := locate(content, &e, Options{})
		if err != nil || loc.Status != edit.StatusApplied {
			return // the property is about edits that apply
		}
		have := map[string]bool{}
		for _, l := range fl {
			have[spacedForm(l)] = true
		}
		for i, l := range ol {
			var letters []int
			for k := 0; k < len(l); k++ {
				if 'a' <= l[k] && l[k] <= 'z' {
					letters = append(letters, k)
				}
			}
			k := letters[int(at)%len(letters)]
			b := []byte(l)
			b[k] = 'a' + (b[k]-'a'+1+at%25)%26
			typo := string(b)
			if have[spacedForm(typo)] {
				continue
			}
			tl := append(append(append([]string{}, ol[:i]...), typo), ol[i+1:]...)
			te := e
			te.Old = strings.Join(tl, "\n") + "\n"
			if loc, err := locate(content, &te, Options{}); err == nil && loc.Status != edit.StatusAlreadyApplied {
				t.Fatalf("a typo in SEARCH line %d succeeded (%s, %s, %s)\nfile:\n%s\nSEARCH:\n%s\nREPLACE:\n%s",
					i+1, loc.Status, loc.Strategy, loc.Note, content, te.Old, nw)
			}
		}
	})
}
