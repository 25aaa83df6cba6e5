package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// FuzzKeptLinesByMarks checks that a hunk's kept lines keep the bytes of
// the file's lines its marks name, on files of few words (so that lines
// repeat) with mixed line endings and trailing blanks the hunk leaves out:
// data builds the file, and a hunk over a run of its lines, each kept,
// removed, or removed with a line added after it. Wherever the ladder
// lands the hunk in one splice, each line of the text written for a kept
// line is the file's line at that place, its ending and blanks included.
func FuzzKeptLinesByMarks(f *testing.F) {
	f.Add([]byte("\x01\x01\x02\x01"), []byte("\x00\x01\x00\x02"), uint8(0), uint8(0x5))
	f.Add([]byte("\x03\x43\x03\x83\x03"), []byte("\x01\x00\x02\x00\x01"), uint8(0), uint8(0x1b))
	f.Add([]byte("\x11\x11\x11"), []byte("\x01\x00\x00"), uint8(0), uint8(0x22))
	f.Fuzz(func(t *testing.T, fileData, kinds []byte, from, endings uint8) {
		if len(fileData) < 2 || len(fileData) > 24 || len(kinds) == 0 {
			return
		}
		// Few distinct lines: the low two bits pick the words.
		var fl, eol, blank []string
		for k, c := range fileData {
			fl = append(fl, typoLine(c&0x03|c&0x20))
			e := "\n"
			if (int(endings)>>(k%8))&1 != 0 {
				e = "\r\n"
			}
			b := ""
			if c&0x40 != 0 {
				b = " "
			}
			eol, blank = append(eol, e), append(blank, b)
		}
		start := int(from) % len(fl)
		n := min(len(kinds), len(fl)-start)
		var content strings.Builder
		for k := range fl {
			content.WriteString(fl[k] + blank[k] + eol[k])
		}
		var old, nw strings.Builder
		var marks []byte
		for k := 0; k < n; k++ {
			l := fl[start+k] + "\n"
			switch kinds[k] % 3 {
			case 0:
				old.WriteString(l)
				nw.WriteString(l)
				marks = append(marks, ' ')
			case 1:
				old.WriteString(l)
				marks = append(marks, '-')
			case 2:
				old.WriteString(l)
				nw.WriteString("added line\n")
				marks = append(marks, '-', '+')
			}
		}
		e := &edit.Edit{Op: edit.Replace, Old: old.String(), New: nw.String(), Count: 1, Format: edit.FormatCodex, Marks: string(marks)}
		file := content.String()
		loc, err := locate(file, e, matchOptions{})
		if err != nil || loc.Status != edit.StatusApplied || len(loc.Splices) != 1 {
			return
		}
		// The file's line where the hunk's first line stands.
		first := strings.Count(file[:loc.Splices[0].At], "\n")
		written := strings.SplitAfter(loc.Splices[0].New, "\n")
		i, j := 0, 0 // the hunk's next old and new line
		for _, m := range marks {
			switch m {
			case ' ':
				k := first + i
				if want := fl[k] + blank[k] + eol[k]; j >= len(written) || written[j] != want {
					got := ""
					if j < len(written) {
						got = written[j]
					}
					t.Fatalf("kept line %d of %q wrote %q, want the file's line %d, %q (file %q)", j, e.New, got, k+1, want, file)
				}
				i++
				j++
			case '-':
				i++
			case '+':
				j++
			}
		}
	})
}
