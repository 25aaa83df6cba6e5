package apply

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/locate"
)

// fuzzVocab is the lines batchFile draws from, as FuzzMatch's in package
// locate: some blank, indented, typographic or not UTF-8.
var fuzzVocab = []string{
	"func f() {", "\treturn nil", "}", "", "\tx := 1", "    x := 1", "\tx := 1  ", "x = “a”",
	"x = \"a\"", "// ...", "\t\tif err != nil {", "\t\t\treturn err", "\t\t}", "  ", "a\u00a0b", "caf\xe9",
}

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
		case 3: // quotes an earlier edit's new text, with a line after it
			if len(es) > 0 {
				prev := es[len(es)-1-int(n)%len(es)]
				if prev.Op == edit.Replace && prev.New != "" {
					old = prev.New
					if mod&1 != 0 {
						old += pick(at, 1)
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
			e.Format = "search-replace" // quotes whole lines: matches at line starts only
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
			switch extra % 3 {
			case 0:
				e = edit.Edit{Op: edit.Rewrite, Path: path, New: pick(0, 5)}
			case 1:
				e = edit.Edit{Op: edit.Replace, Path: "c.txt", New: old}
			case 2:
				e = edit.Edit{Op: edit.Rename, Path: path, New: "d.txt"}
			}
		}
		es = append(es, e)
	}
	return es
}

// checkBatch plans edits against files both ways, batched and plain, and
// fails unless every result is the same.
func checkBatch(t *testing.T, dir string, files map[string]string, edits []edit.Edit, opts Options) {
	t.Helper()
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		os.Remove(filepath.Join(dir, name))
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts.Root, opts.DryRun = dir, true
	got, _ := Apply(context.Background(), edits, opts)
	opts.sequential = true
	want, _ := Apply(context.Background(), edits, opts)
	if !reflect.DeepEqual(got, want) {
		var b strings.Builder
		fmt.Fprintf(&b, "batched and plain planning differ\nfiles:\n")
		for name, s := range files {
			fmt.Fprintf(&b, "  %s: %q\n", name, s)
		}
		for i, e := range edits {
			fmt.Fprintf(&b, "edit %d: %v %s old=%q new=%q count=%d hint=%d anchors=%q eof=%v\n", i, e.Op, e.Path, e.Old, e.New, e.Count, e.Hint, e.Anchors, e.AtEOF)
		}
		for k := range max(len(got.Files), len(want.Files)) {
			if k < len(got.Files) && k < len(want.Files) && reflect.DeepEqual(got.Files[k], want.Files[k]) {
				continue
			}
			if k < len(got.Files) {
				fmt.Fprintf(&b, "batched %s: %q\n  %+v\n", got.Files[k].Path, got.Files[k].After, got.Files[k].Edits)
			}
			if k < len(want.Files) {
				fmt.Fprintf(&b, "plain   %s: %q\n  %+v\n", want.Files[k].Path, want.Files[k].After, want.Files[k].Edits)
			}
		}
		if !reflect.DeepEqual(got.Errors, want.Errors) {
			fmt.Fprintf(&b, "batched errors: %v\nplain errors:   %v\n", got.Errors, want.Errors)
		}
		t.Fatal(b.String())
	}
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

// FuzzBatchEquivalence checks that batchplan.go plans exactly as the plain
// sequential path: contents, and every edit's status, strategy, lines,
// matched and written text and errors.
func FuzzBatchEquivalence(f *testing.F) {
	f.Add([]byte{32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43}, []byte{0, 0, 2, 0, 0, 4, 0, 5, 2, 0, 1, 4, 0, 9, 2, 0, 0, 4}, byte(0))
	f.Add([]byte{0, 1, 2, 32, 33, 0, 1, 2, 34}, []byte{1, 3, 2, 12, 0, 4, 3, 0, 1, 1, 0, 4}, byte(1))
	f.Add([]byte{160, 161, 162, 163, 164, 165, 166, 167, 232}, []byte{0, 0, 2, 0, 0, 4, 0, 4, 2, 0, 0, 4, 4, 6, 1, 3, 5, 4}, byte(2))
	f.Add([]byte{32, 33, 34, 33, 34, 35, 36}, []byte{0, 0, 1, 12, 3, 4, 0, 4, 1, 0, 0, 5}, byte(8))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data, prog []byte, flags byte) {
		if len(data) > 200 || len(prog) > 6*24 {
			return
		}
		files := batchFiles(data, flags)
		checkBatch(t, dir, files, batchEdits(files, prog), batchOpts(flags))
	})
}

// TestBatchEquivalence is FuzzBatchEquivalence over random inputs, for
// every test run.
func TestBatchEquivalence(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	dir := t.TempDir()
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
		checkBatch(t, dir, files, batchEdits(files, prog), batchOpts(byte(r.IntN(16))))
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
	checkBatch(t, t.TempDir(), map[string]string{"a.txt": src}, edits, Options{})
}

// TestBatchables: judging a run's edits on several goroutines judges each
// edit once, in its place, as judging them one by one does.
func TestBatchables(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var edits []edit.Edit
	for i := range 300 {
		e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: fmt.Sprintf("a%d\nb\nc\n", i), New: fmt.Sprintf("x%d\n", i), Count: 1}
		switch i % 5 {
		case 1:
			e.Old = fmt.Sprintf("one line %d\n", i) // no whole line between two "\n"
		case 2:
			e.New = "// ... existing code ...\n" + e.New // a placeholder
		case 3:
			e.Anchors = []string{"func f"}
		}
		edits = append(edits, e)
	}
	for _, n := range []int{0, 1, judgeSplit - 1, 2 * judgeSplit, 2*judgeSplit + 1, 131, 300} {
		got := batchables(edits[:n])
		if len(got) != n {
			t.Fatalf("batchables of %d edits: %d results", n, len(got))
		}
		for k := range n {
			if want := locate.Batchable(&edits[k]); !reflect.DeepEqual(got[k], want) {
				t.Fatalf("batchables of %d edits: edit %d judged %+v, want %+v", n, k, got[k], want)
			}
			if got[k].OK() != (k%5 == 0 || k%5 == 4) {
				t.Fatalf("edit %d (%q → %q): ok = %v", k, edits[k].Old, edits[k].New, got[k].OK())
			}
		}
	}
}

// TestBatchHashStream: on a file large enough for the batch to hash the
// new content as it makes it (hashStream), the receipt's after hash is
// the content's, whatever stops the stream on the way (edits out of file
// order, an edit the plain path takes, a closed segment), and the stream
// gives it when the run's last segment streamed to the end.
func TestBatchHashStream(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < streamMin+streamMin/2; i++ {
		fmt.Fprintf(&b, "func f%d() {\n\treturn %d\n}\n\n", i, i%7)
	}
	src := b.String()
	fn := func(i int) string { return fmt.Sprintf("func f%d() {\n\treturn %d\n}\n", i, i%7) }
	edit1 := func(i int, nw string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: "a.txt", Old: fn(i), New: nw, Count: 1}
	}
	var inOrder, outOfOrder []edit.Edit
	for i := 10; i < 4000; i += 97 {
		inOrder = append(inOrder, edit1(i, strings.Replace(fn(i), "return", "return 1 +", 1)))
		outOfOrder = append([]edit.Edit{edit1(i, "gone\n")}, outOfOrder...)
	}
	plainMid := slices.Clone(inOrder)
	plainMid[3] = edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "func f20() {\n", New: "func f20() { // one line\n", Count: 1}
	plainLast := append(slices.Clone(inOrder), plainMid[3])
	// An edit at the file's first bytes closes its segment (a BOM may
	// appear): the rest take a new one.
	closeFirst := append([]edit.Edit{edit1(0, "// f0 gone\n")}, inOrder...)
	for _, c := range []struct {
		name     string
		file     string
		edits    []edit.Edit
		streamed bool
	}{
		{"in order", src, inOrder, true},
		{"in order, BOM", "\uFEFF" + src, inOrder, true},
		{"in order, CRLF", strings.ReplaceAll(src, "\n", "\r\n"), inOrder, true},
		{"out of order", src, outOfOrder, false},
		{"plain path mid-run", src, plainMid, true},
		{"plain path last", src, plainLast, false},
		{"segment closed by the first edit", src, closeFirst, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			checkBatch(t, dir, map[string]string{"a.txt": c.file}, c.edits, Options{})
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			rs, err := newResolver(root, dir)
			if err != nil {
				t.Fatal(err)
			}
			p := newPlanner(root, rs, Options{Root: dir, DryRun: true}, nil, nil)
			p.plan(context.Background(), c.edits, nil)
			defer p.dirs.close()
			p.finish()
			p.settle()
			if len(p.res.Errors) > 0 || len(p.res.Files) != 1 {
				t.Fatalf("errors %v, %d files", p.res.Errors, len(p.res.Files))
			}
			fr := p.res.Files[0]
			if want := HashBytes(fr.After); fr.AfterHash != want {
				t.Errorf("after hash %s, want %s", fr.AfterHash, want)
			}
			s := p.slots["a.txt"]
			if used := s.curHash != nil && s.curHash == s.streamed; used != c.streamed {
				t.Errorf("after hash from the stream: %v, want %v", used, c.streamed)
			}
		})
	}
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
		checkBatch(t, t.TempDir(), map[string]string{"a.txt": c.file}, c.edits, Options{})
	}
}

// sharesMemory tells a substring from an equal copy.
func TestSharesMemory(t *testing.T) {
	s := strings.Repeat("abc", 10)
	b := readOnlyBytes(s)
	cp := strings.Clone(s)
	for _, c := range []struct {
		sub  string
		want bool
	}{{s[3:9], true}, {s, true}, {s[29:], true}, {"", true}, {cp[3:9], false}, {cp, false}} {
		if got := sharesMemory(c.sub, b); got != c.want {
			t.Errorf("sharesMemory(%q) = %v, want %v", c.sub, got, c.want)
		}
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
			checkBatch(t, t.TempDir(), map[string]string{"a.txt": c.file}, c.edits, Options{})
		})
	}
}
