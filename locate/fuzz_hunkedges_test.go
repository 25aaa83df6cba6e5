package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// FuzzHunkEdges checks the hunk-edges rung's promises on files built of
// few words, so that lines repeat: data builds a file and a hunk that
// applies to it (context, '-' lines, context), then damages it one way:
//
//   - mode 0: one edge context line gets a letter changed (to a line the
//     file does not hold). When what is left without that edge's lines
//     up to the damaged one stands once in the file (and its new text
//     nowhere, which would read as a resent edit), the hunk lands as
//     the undamaged hunk does, or is refused as ambiguous (another
//     reading fits elsewhere); when it stands more often, it is never
//     applied;
//   - mode 1: one context line at an edge, next to another, is left out.
//     When the rung lands the hunk, it lands as the undamaged hunk does;
//   - mode 4: a blank line is added between two context lines at an edge.
//     When the rung lands the hunk, it lands as the undamaged hunk does;
//   - mode 2: a '-' line gets a letter changed, and an edge context line
//     too when the hunk has one. It is never applied (its new text may
//     stand already: a resent edit);
//   - mode 3: a context line at each edge gets a letter changed. It is
//     never applied.
func FuzzHunkEdges(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08"), uint8(1), uint8(0x25), []byte("\x03\x04"), uint8(0), uint8(1))
	f.Add([]byte("\x00\x10\x20\x00\x10\x21\x30\x31"), uint8(2), uint8(0x16), []byte("\x10"), uint8(1), uint8(3))
	f.Add([]byte("\x05\x15\x25\x35\x05\x15\x44\x45\x46"), uint8(0), uint8(0x33), []byte(""), uint8(2), uint8(7))
	f.Add([]byte("\x11\x22\x33\x11\x44\x55\x66"), uint8(3), uint8(0x12), []byte("\x22\x33"), uint8(3), uint8(2))
	f.Add([]byte("\x01\x41\x81\x02\x42\x82\x01\x41\x81"), uint8(0), uint8(0x31), []byte("\x07"), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, fileData []byte, from, shape uint8, newData []byte, mode, at uint8) {
		if len(fileData) < 3 || len(fileData) > 48 || len(newData) > 8 {
			return
		}
		var fl []string
		for _, c := range fileData {
			fl = append(fl, typoLine(c))
		}
		have := map[string]bool{}
		for _, l := range fl {
			have[strings.TrimSpace(l)] = true
		}
		// The hunk: lead context, '-' lines, trail context, cut at start.
		lead, minus, trail := int(shape)%4, 1+int(shape>>2)%2, int(shape>>3)%4
		start := int(from) % len(fl)
		if start+lead+minus+trail > len(fl) {
			return
		}
		ctx := func(ls []string) []string {
			out := make([]string, len(ls))
			for i, l := range ls {
				out[i] = " " + l
			}
			return out
		}
		pre := ctx(fl[start : start+lead])
		var mid []string
		for _, l := range fl[start+lead : start+lead+minus] {
			mid = append(mid, "-"+l)
		}
		for _, c := range newData {
			mid = append(mid, "+"+typoLine(c^0x5a))
		}
		post := ctx(fl[start+lead+minus : start+lead+minus+trail])
		content := strings.Join(fl, "\n") + "\n"

		// typo changes one letter of l, at a position at picks; ok is false
		// when that gives a line the file holds (a quote of another line).
		typo := func(l string, at uint8) (string, bool) {
			var letters []int
			for k := 1; k < len(l); k++ {
				if 'a' <= l[k] && l[k] <= 'z' {
					letters = append(letters, k)
				}
			}
			if len(letters) == 0 {
				return "", false
			}
			k := letters[int(at)%len(letters)]
			b := []byte(l)
			b[k] = 'a' + (b[k]-'a'+1+at%25)%26
			return string(b), !have[strings.TrimSpace(string(b[1:]))]
		}
		body := func(parts ...[]string) string {
			var all []string
			for _, p := range parts {
				all = append(all, p...)
			}
			return strings.Join(all, "\n") + "\n"
		}
		run := func(h string) (location, *edit.Error) {
			return locate(content, hunkOf(h), matchOptions{})
		}
		// stands counts where text stands at line starts in content.
		stands := func(text string) int {
			n := 0
			for off := 0; ; {
				i := strings.Index(content[off:], text)
				if i < 0 {
					return n
				}
				if off+i == 0 || content[off+i-1] == '\n' {
					n++
				}
				off += i + 1
			}
		}
		// side is the hunk lines' old text (without '+' lines), or new.
		side := func(ls []string, drop byte) string {
			out := make([]string, 0, len(ls))
			for _, l := range ls {
				if l[0] != drop {
					out = append(out, l[1:])
				}
			}
			return strings.Join(out, "\n") + "\n"
		}
		// What the undamaged hunk does, which the damaged one may only
		// do too when it writes (a change the ladder reads as made
		// already, such as a re-indentation, it may call so).
		whole, err := run(body(pre, mid, post))
		if err != nil {
			return
		}
		want := spliced(t, content, whole)
		switch mode % 5 {
		case 0: // an edited edge context line
			if lead+trail == 0 {
				return
			}
			i := int(at) % (lead + trail)
			p, q := append([]string{}, pre...), append([]string{}, post...)
			var rest []string // the hunk without the damaged edge up to the damaged line
			var ok bool
			if i < lead {
				if p[i], ok = typo(p[i], at); !ok {
					return
				}
				rest = append(append(append([]string{}, p[i+1:]...), mid...), q...)
			} else {
				i -= lead
				if q[i], ok = typo(q[i], at); !ok {
					return
				}
				rest = append(append(append([]string{}, p...), mid...), q[:i]...)
			}
			loc, err := run(body(p, mid, q))
			restOld, restNew := stands(side(rest, '+')), stands(side(rest, '-'))
			// The rest's new text standing already, as the ladder reads
			// it (through its tolerant rungs, not only byte for byte),
			// reads as a resent edit, which the left-out lines may not fit.
			_, newErr := locate(content, &edit.Edit{Op: edit.Replace, Count: 1, Old: side(rest, '-'), New: "\x00\n"}, matchOptions{})
			newStands := restNew > 0 || newErr == nil || newErr.Code == edit.CodeMultipleMatches
			if restOld == 1 && !newStands && err != nil && err.Code != edit.CodeMultipleMatches {
				// Another reading of the hunk, without more of an edge, may
				// fit elsewhere too: then it is ambiguous, and refused so.
				t.Fatalf("an edited edge line was refused (%s: %s)\nfile:\n%s\nhunk:\n%s", err.Code, err.Msg, content, body(p, mid, q))
			}
			if err == nil && loc.Status == edit.StatusApplied {
				if restOld != 1 {
					t.Fatalf("an edited edge line was applied although the rest stands %d times\nfile:\n%s\nhunk:\n%s", restOld, content, body(p, mid, q))
				}
				if got := spliced(t, content, loc); got != want {
					t.Fatalf("an edited edge line landed elsewhere\nfile:\n%s\nhunk:\n%s\ngot:\n%s\nwant:\n%s", content, body(p, mid, q), got, want)
				}
			}
		case 4: // a blank line added between two edge context lines
			p, q := pre, post
			switch {
			case lead >= 2 && (at&1 == 0 || trail < 2):
				j := 1 + int(at)%(lead-1)
				p = append(append(append([]string{}, pre[:j]...), " "), pre[j:]...)
			case trail >= 2:
				j := 1 + int(at)%(trail-1)
				q = append(append(append([]string{}, post[:j]...), " "), post[j:]...)
			default:
				return
			}
			loc, err := run(body(p, mid, q))
			if err == nil && loc.Note != "" && loc.Status == edit.StatusApplied {
				if got := spliced(t, content, loc); got != want {
					t.Fatalf("a hunk with an added blank context line landed elsewhere\nfile:\n%s\nhunk:\n%s\ngot:\n%s\nwant:\n%s", content, body(p, mid, q), got, want)
				}
			}
		case 1: // a dropped context line between two others
			p, q := pre, post
			switch {
			case lead >= 2 && (at&1 == 0 || trail < 2):
				j := 1 + int(at)%(lead-1)
				p = append(append([]string{}, pre[:j]...), pre[j+1:]...)
			case trail >= 2:
				j := int(at) % (trail - 1)
				q = append(append([]string{}, post[:j]...), post[j+1:]...)
			default:
				return
			}
			// The hunk as sent may stand elsewhere, and the ladder finds
			// it there first (exact always wins); the rung's landing, with
			// its note, must be the undamaged hunk's.
			loc, err := run(body(p, mid, q))
			if err == nil && loc.Note != "" && loc.Status == edit.StatusApplied {
				if got := spliced(t, content, loc); got != want {
					t.Fatalf("a hunk with a dropped context line landed elsewhere\nfile:\n%s\nhunk:\n%s\ngot:\n%s\nwant:\n%s", content, body(p, mid, q), got, want)
				}
			}
		case 2: // a typo in a '-' line, and one in the context
			m := append([]string{}, mid...)
			j := int(at) % minus
			var ok bool
			if m[j], ok = typo(m[j], at); !ok {
				return
			}
			p, q := append([]string{}, pre...), append([]string{}, post...)
			switch {
			case lead > 0:
				p[0], _ = typo(p[0], at+1)
			case trail > 0:
				q[trail-1], _ = typo(q[trail-1], at+1)
			}
			if loc, err := run(body(p, m, q)); err == nil && loc.Status == edit.StatusApplied {
				t.Fatalf("a typo in a '-' line landed (%s, %s, %q)\nfile:\n%s\nhunk:\n%s", loc.Status, loc.Strategy, loc.Note, content, body(p, m, q))
			}
		case 3: // an edited line at both edges
			if lead == 0 || trail == 0 {
				return
			}
			p, q := append([]string{}, pre...), append([]string{}, post...)
			var ok1, ok2 bool
			p[int(at)%lead], ok1 = typo(p[int(at)%lead], at)
			q[int(at>>2)%trail], ok2 = typo(q[int(at>>2)%trail], at+3)
			if !ok1 || !ok2 {
				return
			}
			if loc, err := run(body(p, mid, q)); err == nil && loc.Status == edit.StatusApplied {
				t.Fatalf("a hunk whose edges disagree in two places landed (%s, %s, %q)\nfile:\n%s\nhunk:\n%s", loc.Status, loc.Strategy, loc.Note, content, body(p, mid, q))
			}
		}
	})
}
