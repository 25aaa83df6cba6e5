package locate

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// batchFile builds a file from data: lines from fuzzVocab and a few
// numbered ones (so some old texts are unique and most lines repeat), with
// LF, CRLF, or no final line ending; a BOM when bom is set.
func batchFile(data []byte, bom bool) string {
	var b strings.Builder
	if bom {
		b.WriteString("\uFEFF")
	}
	for i, c := range data {
		if c&0x20 != 0 {
			fmt.Fprintf(&b, "\tv%d := %d", c%11, i%3)
		} else {
			b.WriteString(fuzzVocab[int(c)%len(fuzzVocab)])
		}
		switch {
		case i == len(data)-1 && c&0x40 != 0:
		case c&0x80 != 0:
			b.WriteString("\r\n")
		default:
			b.WriteString("\n")
		}
	}
	return b.String()
}

// batchEdits turns prog into Replace edits (and now and then another op)
// against the files: exact quotes of the original lines, with LF or the
// file's line endings, drifted ones, ones starting inside a line, quotes of
// an earlier edit's new text, new texts that repeat other lines of the file
// (a second occurrence of a later edit's old text), insertions, deletions,
// no-ops, hints, counts and anchors.
func batchEdits(files map[string]string, prog []byte) []edit.Edit {
	var es []edit.Edit
	everyOcc := 0
	prevAt, prevCnt := 0, 0 // the last edit's quote, in the original lines
	for len(prog) >= 6 && len(es) < 24 {
		kind, a, n, mod, hint, extra := prog[0], prog[1], prog[2], prog[3], prog[4], prog[5]
		prog = prog[6:]
		path := "a.txt"
		if extra&0x80 != 0 {
			path = "b.txt"
		}
		lines := strings.SplitAfter(strings.TrimPrefix(files[path], "\uFEFF"), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 {
			lines = []string{"x\n"}
		}
		at := int(a) % len(lines)
		cnt := 1 + int(n)%4
		switch (extra >> 1) % 8 {
		case 2: // the lines right after the last edit's quote, which its splice's zone takes in
			at = prevAt + prevCnt
		case 6: // the lines right before it
			at = max(prevAt-cnt, 0)
		}
		at = min(at, len(lines)-1) // the last edit may be another file's
		lastAt, lastCnt := at, cnt
		pick := func(at, cnt int) string {
			return strings.Join(lines[at:min(at+cnt, len(lines))], "")
		}
		old := pick(at, cnt)
		switch kind % 8 {
		case 1: // as a model writes it: LF
			old = strings.ReplaceAll(old, "\r\n", "\n")
		case 2: // drifted: one more tab of indentation, trailing blanks
			var b strings.Builder
			for _, l := range strings.SplitAfter(old, "\n") {
				if l == "" {
					continue
				}
				if mod&1 != 0 {
					b.WriteString("\t")
				}
				t := strings.TrimRight(l, "\r\n")
				b.WriteString(t)
				if mod&2 != 0 {
					b.WriteString("  ")
				}
				b.WriteString(l[len(t):])
			}
			old = b.String()
		case 3: // quotes an earlier edit's new text, with a line after it, or its last line and lines after it
			if len(es) > 0 {
				prev := es[len(es)-1-int(n)%len(es)]
				if prev.Op == edit.Replace && prev.New != "" {
					old = prev.New
					if mod&1 != 0 {
						old += pick(at, 1)
					}
					if pl := strings.SplitAfter(strings.TrimSuffix(prev.New, "\n"), "\n"); mod&2 != 0 && len(pl) > 1 {
						old = pl[len(pl)-1] + "\n" + pick(at, cnt)
					}
				}
			}
		case 4: // starts inside a line
			if k := int(mod) % 4; k < len(old) && !strings.Contains(old[:k], "\n") {
				old = old[k:]
			}
		case 5: // lines that may be anywhere, or nowhere
			old = fuzzVocab[int(a)%len(fuzzVocab)] + "\n" + fuzzVocab[int(n)%len(fuzzVocab)] + "\n" + fuzzVocab[int(mod)%len(fuzzVocab)] + "\n"
		case 6: // without its final line ending
			old = strings.TrimRight(old, "\r\n")
		case 7: // without its final "\n" only: a CRLF file's "\r" stays
			old = strings.TrimSuffix(old, "\n")
		}
		var nw string
		ol := strings.SplitAfter(old, "\n")
		switch (mod >> 2) % 9 {
		case 0: // one line changed
			k := int(hint) % len(ol)
			ol[k] = strings.TrimRight(ol[k], "\r\n") + fmt.Sprintf(" // e%d", len(es)) + ol[k][len(strings.TrimRight(ol[k], "\r\n")):]
			if !strings.HasSuffix(ol[k], "\n") && k < len(ol)-1 {
				ol[k] += "\n"
			}
			nw = strings.Join(ol, "")
		case 1: // one line dropped
			k := int(hint) % len(ol)
			nw = strings.Join(append(ol[:k:k], ol[k+1:]...), "")
		case 2: // an insertion after it
			nw = old + fmt.Sprintf("added%d\n", len(es))
		case 3: // repeats other lines of the file: a later quote may now match twice
			nw = pick(int(hint)%len(lines), 1+int(extra)%3) + fmt.Sprintf("// e%d\n", len(es))
		case 4:
			nw = ""
		case 5: // already applied
			nw = old
		case 6: // a placeholder
			nw = "// ... existing code ...\n" + old
		case 7: // lines that stand elsewhere in the file
			nw = pick(int(hint)%len(lines), 2)
		case 8: // a stray "\r" before a line ending: the file's endings change
			nw = strings.Replace(old, "\n", "\r\r\n", 1) + "x\r"
		}
		e := edit.Edit{Op: edit.Replace, Path: path, Old: old, New: nw, Count: 1}
		if hint&1 != 0 {
			e.Format = edit.FormatSearchReplace // quotes whole lines: matches at line starts only
		}
		switch (extra >> 1) % 8 {
		case 0:
			// Every occurrence; not too often, or a file that doubles
			// with every edit grows past what a fuzzer can wait for.
			if everyOcc < 3 {
				e.Count = 0
				everyOcc++
			}
		case 1:
			e.Count = 2
		}
		if extra&1 != 0 {
			e.Hint = int(hint) % (len(lines) + 2)
		}
		switch (extra >> 4) % 8 {
		case 1:
			e.Anchors = []string{strings.TrimRight(lines[int(hint)%len(lines)], "\r\n")}
		case 2:
			e.AtEOF = true
		}
		if kind>>3 == 31 {
			// Now and then a whole-file op between the Replace runs.
			switch extra % 5 {
			case 0:
				e = edit.Edit{Op: edit.Rewrite, Path: path, New: pick(0, 5)}
			case 1:
				e = edit.Edit{Op: edit.Replace, Path: "c.txt", New: old}
			case 2:
				e = edit.Edit{Op: edit.Rename, Path: path, New: "d.txt"}
			case 3: // every line removed, while the file is as it was
				e = edit.Edit{Op: edit.Replace, Path: path, Old: strings.Join(lines, ""), New: "", Count: 1}
			case 4: // lines written from nothing: into a file emptied before
				e = edit.Edit{Op: edit.Replace, Path: path, New: pick(int(hint)%len(lines), 3), Count: 1}
			}
		}
		es = append(es, e)
		prevAt, prevCnt = lastAt, lastCnt
	}
	return es
}

// checkBatch gives each file's edits to a Doc, one at a time, and to the
// ladder alone, edit by edit, and fails unless every result, error and
// content is the same. A rewrite starts a new Doc from its text and a
// rename ends the file's edits, as they do in a plan; now and then the
// Doc is asked for its text midway, as a fixer's excerpt does, which
// flushes its batch. A Doc's content is asked for as bytes or, after an
// even number of edits, as the pieces a commit writes.
func checkBatch(t *testing.T, files map[string]string, edits []edit.Edit, opts Options) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		var es []edit.Edit
		for _, e := range edits {
			if e.Path == name {
				es = append(es, e)
			}
		}
		ps := pointers(es)
		var log strings.Builder
		fmt.Fprintf(&log, "file %s: %q\n", name, files[name])
		fail := func(format string, args ...any) {
			t.Helper()
			for k, e := range es {
				fmt.Fprintf(&log, "edit %d: %v old=%q new=%q count=%d hint=%d anchors=%q eof=%v\n", k, e.Op, e.Old, e.New, e.Count, e.Hint, e.Anchors, e.AtEOF)
			}
			t.Fatalf("%s"+format, append([]any{log.String()}, args...)...)
		}
		content, ref := files[name], files[name]
		var d, lone *Doc
		check := func(k int) {
			t.Helper()
			got := content
			if k%2 == 0 {
				// The pieces a commit writes, joined, are the bytes.
				ps, n, changed := d.Pieces(k == len(es))
				if changed {
					got = strings.Join(ps, "")
				}
				if len(got) != n && changed || slices.Contains(ps, "") || !changed && ps != nil {
					fail("before edit %d: pieces %q, %d bytes, changed %v", k, ps, n, changed)
				}
			} else if b, changed := d.Bytes(k == len(es)); changed {
				got = string(b)
			}
			if got != ref {
				fail("before edit %d: the Doc holds\n  %q\nthe ladder\n  %q", k, got, ref)
			}
		}
	edits:
		for k := range es {
			e := &es[k]
			switch {
			case e.Op == edit.Rename:
				break edits
			case e.Op == edit.Rewrite:
				if d != nil {
					check(k)
					d = nil
				}
				content, ref = e.New, e.New
				continue
			case e.Op != edit.Replace || e.Old == "" && e.Hint == 0 && len(e.Anchors) == 0 && !e.AtEOF:
				continue // creates the file
			}
			if d == nil {
				d = NewDoc(content, opts)
				d.Prepare(ps[k:])
				// Not prepared: the ladder alone, whose errors count
				// lines as the Doc's do, in the content it was given.
				lone = NewDoc(content, opts)
			}
			r, err := d.Replace(e)
			want, werr := replaceByLadder(&ref, e, opts)
			_, lerr := lone.Replace(e)
			if werr != nil && lerr != nil && werr.Code == lerr.Code && werr.Msg == lerr.Msg {
				werr = lerr
			}
			if !reflect.DeepEqual(r, want) || !reflect.DeepEqual(err, werr) {
				fail("edit %d: the Doc gives\n  %+v %v\nthe ladder\n  %+v %v", k, r, err, want, werr)
			}
			if e.Hint%3 == 2 {
				if got, want := d.Text(), strings.TrimPrefix(ref, bom); got != want {
					fail("after edit %d: the Doc's text\n  %q\nthe ladder's\n  %q", k, got, want)
				}
			}
		}
		if d != nil {
			check(len(es))
		}
	}
}

// replaceByLadder is what a Doc does without its batch: edit e located by
// the ladder alone in *content, a file's bytes, and applied there.
func replaceByLadder(content *string, e *edit.Edit, opts Options) (Result, *edit.Error) {
	if isBinary(*content) {
		return Result{}, errBinary()
	}
	body, hasBOM := strings.CutPrefix(*content, bom)
	loc, err := locate(body, e, opts)
	if err != nil {
		return Result{}, err
	}
	r := resultOf(loc, e)
	if loc.Status != edit.StatusAlreadyApplied {
		if serr := checkSplices(body, loc.Splices); serr != nil {
			return Result{}, serr
		}
		out := joined(body, loc.Splices)
		at := 0
		if hasBOM {
			out, at = bom+out, len(bom)
		}
		// Every splice, in the content as the edit saw it.
		for _, x := range loc.Splices {
			r.Splices = append(r.Splices, Splice{At: at + x.At, Old: x.Old, New: x.New})
		}
		*content = out
	}
	return r, nil
}

// batchFiles makes a.txt and b.txt from data; flags picks BOMs, and
// line endings all LF or all CRLF rather than mixed.
func batchFiles(data []byte, flags byte) map[string]string {
	half := len(data) / 2
	files := map[string]string{
		"a.txt": batchFile(data, flags&1 != 0),
		"b.txt": batchFile(data[half:], flags&2 != 0),
	}
	for name, s := range files {
		switch {
		case flags&0x10 != 0:
			files[name] = strings.ReplaceAll(s, "\r\n", "\n")
		case flags&0x20 != 0:
			files[name] = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
		}
	}
	return files
}

func batchOpts(flags byte) Options {
	return Options{Strict: flags&4 != 0, TrimTrailingWS: flags&8 != 0}
}

// FuzzBatchEquivalence checks that a Doc answers exactly as the ladder
// alone, edit by edit: contents, and every edit's status, strategy, lines,
// matched and written text and errors, whether its batch index answered
// or not.
func FuzzBatchEquivalence(f *testing.F) {
	f.Add([]byte{32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43}, []byte{0, 0, 2, 0, 0, 4, 0, 5, 2, 0, 1, 4, 0, 9, 2, 0, 0, 4}, byte(0))
	f.Add([]byte{0, 1, 2, 32, 33, 0, 1, 2, 34}, []byte{1, 3, 2, 12, 0, 4, 3, 0, 1, 1, 0, 4}, byte(1))
	f.Add([]byte{160, 161, 162, 163, 164, 165, 166, 167, 232}, []byte{0, 0, 2, 0, 0, 4, 0, 4, 2, 0, 0, 4, 4, 6, 1, 3, 5, 4}, byte(2))
	f.Add([]byte{32, 33, 34, 33, 34, 35, 36}, []byte{0, 0, 1, 12, 3, 4, 0, 4, 1, 0, 0, 5}, byte(8))
	f.Fuzz(func(t *testing.T, data, prog []byte, flags byte) {
		if len(data) > 200 || len(prog) > 6*24 {
			return
		}
		files := batchFiles(data, flags)
		checkBatch(t, files, batchEdits(files, prog), batchOpts(flags))
	})
}

// TestBatchEquivalence is FuzzBatchEquivalence over random inputs, for
// every test run.
func TestBatchEquivalence(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		data := make([]byte, 4+r.IntN(60))
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		prog := make([]byte, 6*(2+r.IntN(10)))
		for i := range prog {
			prog[i] = byte(r.IntN(256))
			if i%6 == 0 && r.IntN(3) > 0 {
				prog[i] %= 2 // mostly exact quotes: the batch's case
			}
			if i%6 == 5 && r.IntN(2) > 0 {
				prog[i] &= 0x0c // mostly one file, count 1, no anchors
			}
		}
		files := batchFiles(data, byte(r.IntN(64)))
		checkBatch(t, files, batchEdits(files, prog), batchOpts(byte(r.IntN(16))))
	}
}

// TestBatchLarge plans many exact edits to a large file both ways: the
// batch must accept them (and agree).
func TestBatchLarge(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "func f%d() {\n\treturn %d\n}\n\n", i, i%7)
	}
	src := b.String()
	var edits []edit.Edit
	for i := 0; i < 3000; i += 37 {
		old := fmt.Sprintf("func f%d() {\n\treturn %d\n}\n", i, i%7)
		edits = append(edits, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: old, New: strings.Replace(old, "return", "return 1 +", 1), Count: 1})
	}
	// One that quotes an earlier edit's new text, and one made ambiguous by
	// an earlier edit.
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "func f37() {\n\treturn 1 + 2\n}\n", New: "gone\n", Count: 1})
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "func f40() {\n\treturn 5\n}\n", New: "func f40() {\n\treturn 5\n}\nfunc f41() {\n\treturn 6\n}\n", Count: 1})
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "func f41() {\n\treturn 6\n}\n", New: "x\n", Count: 1})
	checkBatch(t, map[string]string{"a.txt": src}, edits, Options{})
}

// TestBatchEndings: edits that change a file's line endings from one kind
// to mixed, before edits that quote the file with "\n".
func TestBatchEndings(t *testing.T) {
	lf := "a1\na2\na3\na4\na5\na6\na7\na8\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	for _, c := range []struct {
		file  string
		edits []edit.Edit
	}{
		{lf, []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\n", New: "b1\r\r\nb2\nb3\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "a5\na6\na7\n", New: "c5\nc6\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "b2\nb3\na4\n", New: "d\n", Count: 1},
		}},
		{crlf, []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\r", New: "b1\nb2\nb3", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "a5\na6\na7\n", New: "c5\nc6\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "a6\na7\na8\n", New: "e\n", Count: 1},
		}},
		{"\xff\xfea1\na2\na3\na4\n", []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a2\na3\na4\n", New: "x\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\n", New: "y\n", Count: 1},
		}},
		{"a1\na2\na3\na4\na5\n", []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\n", New: "\xff\xfez\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "a3\na4\na5\n", New: "w\x00\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "a4\na5\n", New: "v\n", Count: 1},
		}},
	} {
		checkBatch(t, map[string]string{"a.txt": c.file}, c.edits, Options{})
	}
}

// The batch planner must see what the exact rung now refuses (a match in a
// line's indentation) and takes (the end of a file for a line end), as the
// plain path does.
func TestBatchLadderFixes(t *testing.T) {
	for _, c := range []struct {
		name  string
		file  string
		edits []edit.Edit
	}{
		{"inIndent", "a1\na2\na3\nb\n    p\n  q\nc\n", []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\n", New: "A\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "  p\n  q\nc\n", New: "  p\n  q\n  r\nc\n", Count: 1},
		}},
		{"endOfFileTie", "a1\na2\na3\nx\ny\nx\ny", []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\n", New: "A\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "b\nx\ny\n", New: "z\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "x\ny\n", New: "z\n", Count: 1},
		}},
		{"endOfFile", "a1\na2\na3\nx\ny\nz", []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\n", New: "A\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "x\ny\nz\n", New: "x\nY\nz\n", Count: 1},
		}},
		{"looseInsertion", "a1\na2\na3\nx\ny\nadded\nz\n", []edit.Edit{
			{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\na3\n", New: "A\n", Count: 1},
			{Op: edit.Replace, Path: "a.txt", Old: "x\ny\n", New: "x \ny\nadded\n", Count: 1},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkBatch(t, map[string]string{"a.txt": c.file}, c.edits, Options{})
		})
	}
}

// tolerantRun is a file of short, much repeated, tab-indented lines and a
// run of edits to it that the batch's tolerant and hinted paths take: old
// texts with their tabs written as spaces or with trailing blanks, one-line
// quotes with a line hint near (or not near) their place, new texts that
// repeat lines of the file (a later quote may then stand on a line an
// earlier edit wrote), and now and then an exact quote.
func tolerantRun(r *rand.Rand) (string, []edit.Edit) {
	vocab := []string{"}", "\treturn nil", "\tif err != nil {", "\t\treturn err", "\tx := f()", "\t\ty++", "\t// note", "", "func g() {"}
	var lines []string
	for i := range 20 + r.IntN(120) {
		if r.IntN(4) == 0 {
			lines = append(lines, fmt.Sprintf("\tv%d := %d", r.IntN(12), i%3))
		} else {
			lines = append(lines, vocab[r.IntN(len(vocab))])
		}
	}
	file := strings.Join(lines, "\n") + "\n"
	if r.IntN(6) == 0 {
		file = strings.TrimSuffix(file, "\n")
	}
	if r.IntN(5) == 0 {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	cur := slices.Clone(lines) // roughly the content as the edits leave it
	var es []edit.Edit
	for k := range 4 + r.IntN(30) {
		at := r.IntN(len(cur))
		n := 1 + r.IntN(3)
		if at+n > len(cur) {
			n = len(cur) - at
		}
		quoted := slices.Clone(cur[at : at+n])
		switch r.IntN(4) {
		case 0, 1: // a tab written as four spaces
			for i, l := range quoted {
				body := strings.TrimLeft(l, "\t")
				quoted[i] = strings.Repeat("    ", len(l)-len(body)) + body
			}
		case 2: // trailing blanks
			for i := range quoted {
				quoted[i] += " "
			}
		}
		old := strings.Join(quoted, "\n") + "\n"
		added := []string{fmt.Sprintf("\tz%d()", k)}
		switch r.IntN(3) {
		case 0: // lines that stand elsewhere
			added = append(added, vocab[r.IntN(len(vocab))], cur[r.IntN(len(cur))])
		case 1:
			added = nil
		}
		newLines := append(slices.Clone(quoted[:len(quoted)/2]), added...)
		newLines = append(newLines, quoted[len(quoted)/2:]...)
		e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: old, New: strings.Join(newLines, "\n") + "\n", Count: 1, Format: edit.FormatSearchReplace}
		if r.IntN(5) == 0 {
			// A hunk of added lines only, before the hinted line.
			old, newLines, n = "", added, 0
			if len(added) == 0 {
				newLines = []string{cur[r.IntN(len(cur))]} // perhaps the line that stands there
			}
			e = edit.Edit{Op: edit.Replace, Path: "a.txt", New: strings.Join(newLines, "\n") + "\n", Count: 1, Format: edit.FormatUDiff,
				Hint: 1 + r.IntN(len(cur)+2)}
		}
		if r.IntN(2) == 0 && e.Old != "" {
			e.Format = edit.FormatUDiff
			e.Hint = max(1, at+1+r.IntN(5)-2)
			if r.IntN(8) == 0 {
				e.Hint = 1 + r.IntN(len(cur)+4)
			}
		}
		if r.IntN(10) == 0 && e.Old != "" {
			e.Format = edit.FormatJSON
		}
		es = append(es, e)
		cur = append(cur[:at:at], append(newLines, cur[at+n:]...)...)
	}
	return file, es
}

// TestBatchTolerantEquivalence holds the batch's tolerant rungs and line
// hints to the ladder's answers on runs made for them.
func TestBatchTolerantEquivalence(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewPCG(35, 1))
	for range n {
		file, es := tolerantRun(r)
		checkBatch(t, map[string]string{"a.txt": file}, es, Options{TrimTrailingWS: r.IntN(4) == 0})
	}
}

// insertionRun is a file of short, much repeated lines and a run of edits
// to it whose new text holds the old: lines added after or before the
// quote, the same edit sent again once it applied, added lines that stand
// next to the place already (as written, or indented otherwise) or
// elsewhere in the file, and an old text the new one holds only line by
// line, its blanks changed.
func insertionRun(r *rand.Rand) (string, []edit.Edit) {
	vocab := []string{"}", "\treturn nil", "\tif err != nil {", "\t\treturn err", "\tx := f()", "\t\ty++", "", "func g() {", "\tz1()", "    z2()"}
	var lines []string
	for i := range 10 + r.IntN(60) {
		if r.IntN(3) == 0 {
			lines = append(lines, fmt.Sprintf("\tv%d := %d", r.IntN(20), i%3))
		} else {
			lines = append(lines, vocab[r.IntN(len(vocab))])
		}
	}
	file := strings.Join(lines, "\n") + "\n"
	if r.IntN(8) == 0 {
		file = strings.TrimSuffix(file, "\n")
	}
	if r.IntN(8) == 0 {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	cur := slices.Clone(lines)
	var es []edit.Edit
	for k := range 4 + r.IntN(30) {
		if len(es) > 0 && r.IntN(6) == 0 {
			es = append(es, es[r.IntN(len(es))]) // sent again
			continue
		}
		at := r.IntN(len(cur))
		n := min(1+r.IntN(3), len(cur)-at)
		quoted := slices.Clone(cur[at : at+n])
		var added []string
		switch r.IntN(4) {
		case 0: // what stands after the place already, perhaps indented otherwise
			if at+n < len(cur) {
				added = []string{cur[at+n]}
				if r.IntN(2) == 0 {
					added[0] = "  " + strings.TrimLeft(added[0], "\t ")
				}
			}
		case 1: // lines that stand elsewhere
			added = []string{cur[r.IntN(len(cur))], vocab[r.IntN(len(vocab))]}
		}
		if len(added) == 0 {
			added = []string{fmt.Sprintf("\tadded%d()", k)}
		}
		old := strings.Join(quoted, "\n") + "\n"
		newLines := append(slices.Clone(quoted), added...)
		if r.IntN(4) == 0 {
			newLines = append(slices.Clone(added), quoted...)
		}
		nw := strings.Join(newLines, "\n") + "\n"
		if r.IntN(6) == 0 {
			nw = strings.ReplaceAll(nw, "\t", "  ") // holds the old text line by line only
		}
		e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: old, New: nw, Count: 1, Format: edit.FormatSearchReplace}
		if r.IntN(4) == 0 {
			e.Format, e.Hint = edit.FormatUDiff, max(1, at+1+r.IntN(5)-2)
		}
		es = append(es, e)
		cur = append(cur[:at:at], append(newLines, cur[at+n:]...)...)
	}
	return file, es
}

// TestBatchInsertionEquivalence holds the batch's answers to edits whose
// new text holds the old, resent or standing nearby included, to the
// ladder's.
func TestBatchInsertionEquivalence(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewPCG(35, 4))
	for range n {
		file, es := insertionRun(r)
		checkBatch(t, map[string]string{"a.txt": file}, es, Options{TrimTrailingWS: r.IntN(4) == 0})
	}
}

// neighbourRun is a file of unique and much repeated lines and a run of
// edits to it that quote the lines right after or before the last edit's
// new text, or that text's last line and the lines after it (places that
// cross a line an earlier edit wrote), and lines that stand at several
// places, with or without a line hint, some far apart, some next to each
// other; now and then as a tool call's text, which matches inside lines.
func neighbourRun(r *rand.Rand) (string, []edit.Edit) {
	vocab := []string{"}", "\t}", "\treturn nil", "\t\treturn nil", "\tif err != nil {", "\t\treturn err", "", "func g() {"}
	var lines []string
	for i := range 10 + r.IntN(80) {
		if r.IntN(2) == 0 {
			lines = append(lines, fmt.Sprintf("\tu%d()", i))
		} else {
			lines = append(lines, vocab[r.IntN(len(vocab))])
		}
	}
	if r.IntN(3) == 0 {
		// A block that stands twice, apart or side by side.
		at, n := r.IntN(len(lines)), 2+r.IntN(3)
		block := slices.Clone(lines[at:min(at+n, len(lines))])
		to := r.IntN(len(lines) + 1)
		lines = slices.Insert(lines, to, block...)
	}
	var many []string
	if r.IntN(3) == 0 {
		// Two lines of the vocabulary that stand twenty times and more,
		// at line starts and, after a line that ends as the first does,
		// inside lines too.
		block := []string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]}
		if r.IntN(2) == 0 {
			block = block[:1] // a one-line quote, whose key line is its first
		}
		many = block
		for range 18 + r.IntN(8) {
			lines = slices.Insert(lines, r.IntN(len(lines)+1), block...)
		}
	}
	file := strings.Join(lines, "\n") + "\n"
	if r.IntN(8) == 0 {
		file = strings.TrimSuffix(file, "\n")
	}
	if r.IntN(8) == 0 {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	cur := slices.Clone(lines)
	last, lastN := 0, 0 // the last edit's new lines in cur
	var es []edit.Edit
	for k := range 4 + r.IntN(30) {
		at, n := r.IntN(len(cur)), 1+r.IntN(3)
		switch r.IntN(5) {
		case 0, 1: // right after the last edit's new text
			at = last + lastN
		case 2: // right before it
			at = last - n
		case 3: // its last line and after
			at = last + lastN - 1
		}
		at = min(max(at, 0), len(cur)-1)
		n = min(n, len(cur)-at)
		quoted := slices.Clone(cur[at : at+n])
		if r.IntN(6) == 0 {
			quoted = []string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]} // likely at several places
		}
		if many != nil && r.IntN(5) == 0 {
			quoted = slices.Clone(many)
		}
		newLines := slices.Clone(quoted)
		switch r.IntN(4) {
		case 0:
			newLines = append(newLines, fmt.Sprintf("\tadded%d()", k))
		case 1:
			newLines = newLines[:len(newLines)-1]
		case 2:
			newLines = append([]string{cur[r.IntN(len(cur))]}, newLines[1:]...) // a line that stands elsewhere
		default:
			newLines[0] += fmt.Sprintf(" // e%d", k)
		}
		e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: strings.Join(quoted, "\n") + "\n", New: strings.Join(newLines, "\n") + "\n",
			Count: 1, Format: edit.FormatSearchReplace}
		if len(newLines) == 0 {
			e.New = ""
		}
		switch r.IntN(6) {
		case 0:
			e.Format, e.Hint = edit.FormatUDiff, max(1, at+1+r.IntN(5)-2)
		case 1:
			e.Format, e.Hint = edit.FormatUDiff, 1+r.IntN(len(cur)+2)
		case 2:
			e.Format = edit.FormatJSON
			if r.IntN(2) == 0 {
				e.EveryKey = "replace_all"
			}
		}
		es = append(es, e)
		cur = append(cur[:at:at], append(newLines, cur[at+n:]...)...)
		last, lastN = at, len(newLines)
	}
	return file, es
}

// TestBatchNeighbourEquivalence holds the batch's answers to edits that
// cross lines earlier edits wrote, and to old texts found at several
// places, to the ladder's.
func TestBatchNeighbourEquivalence(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(35, 7))
	for range n {
		file, es := neighbourRun(r)
		checkBatch(t, map[string]string{"a.txt": file}, es, Options{TrimTrailingWS: r.IntN(4) == 0})
	}
}

// TestBatchAmbiguousCases: old texts at several places after an edit
// landed, answered as the ladder answers them: refused, with the lines
// on disk, or applied where the edit gives the same file at each place
// (two identical blocks side by side, one deleted), in "\n" and CRLF
// files; and at twenty places and more, one of them inside a line.
func TestBatchAmbiguousCases(t *testing.T) {
	first := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "a1\na2\n", New: "A1\nA1b\nA2\n", Count: 1, Format: edit.FormatSearchReplace}
	many := strings.Repeat("p\nq\nr\n", 25)
	for _, c := range []struct {
		name, file string
		e          edit.Edit
		want       edit.Code // "" for applied
		line       int       // the first candidate's, when not 0
	}{
		{"apart", "a1\na2\nx\ny\nb\nx\ny\n", edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "x\ny\n", New: "z\n", Count: 1, Format: edit.FormatSearchReplace}, edit.CodeMultipleMatches, 3},
		{"sameEverywhere", "a1\na2\nx\ny\nx\ny\nc\n", edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "x\ny\n", New: "", Count: 1, Format: edit.FormatSearchReplace}, "", 0},
		{"sameEverywhereCRLF", "a1\r\na2\r\nx\r\ny\r\nx\r\ny\r\nc\r\n", edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "x\ny\n", New: "", Count: 1, Format: edit.FormatSearchReplace}, "", 0},
		{"apartCRLF", "a1\r\na2\r\nx\r\ny\r\nb\r\nx\r\ny\r\n", edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "x\ny\n", New: "z\n", Count: 1, Format: edit.FormatSearchReplace}, edit.CodeMultipleMatches, 3},
		{"twentyAndMore", "a1\na2\n" + many, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "r\np\nq\n", New: "s\n", Count: 1, Format: edit.FormatSearchReplace}, edit.CodeMultipleMatches, 5},
		{"twentyOneInsideALine", "a1\na2\nxr\np\nq\n" + many, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "r\np\nq\n", New: "s\n", Count: 1, Format: edit.FormatSearchReplace}, edit.CodeMultipleMatches, 0},
		{"oneLineTwentyAndMore", "a1\na2\n" + many + "xr\n", edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "r\n", New: "s\n", Count: 1, Format: edit.FormatSearchReplace}, edit.CodeMultipleMatches, 5},
		{"oneLineInsideALineFirst", "a1\na2\nxr\n" + many, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "r\n", New: "s\n", Count: 1, Format: edit.FormatSearchReplace}, edit.CodeMultipleMatches, 6},
		{"oneLineHintPicksNone", "a1\na2\n" + many, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "q\n", New: "s\n", Count: 1, Hint: 200, Format: edit.FormatUDiff}, edit.CodeMultipleMatches, 0},
		{"twoLinesHintPicksNone", "a1\na2\n" + many, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "q\nr\n", New: "s\n", Count: 1, Hint: 300, Format: edit.FormatUDiff}, edit.CodeMultipleMatches, 0},
		{"toolCallInsideLines", "a1\na2\n" + many, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "q\nr\np", New: "s", Count: 1, Format: edit.FormatJSON}, edit.CodeMultipleMatches, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			es := []edit.Edit{first, c.e}
			checkBatch(t, map[string]string{"a.txt": c.file}, es, Options{})
			d := NewDoc(c.file, Options{})
			d.Prepare(pointers(es))
			if _, err := d.Replace(&es[0]); err != nil {
				t.Fatal(err)
			}
			_, err := d.Replace(&es[1])
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("%v, want applied", err)
			case c.want != "" && (err == nil || err.Code != c.want):
				t.Fatalf("%v, want %s", err, c.want)
			case c.line > 0 && (len(err.Candidates) < 2 || err.Candidates[0].LineStart != c.line):
				// The file on disk has no line the first edit added.
				t.Fatalf("candidates %+v, want the first at line %d", err.Candidates, c.line)
			}
		})
	}
}
