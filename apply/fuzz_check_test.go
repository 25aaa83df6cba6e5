package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
)

// FuzzCheck holds the whole pipeline to the check before commit: a tree
// of files of awkward bytes (CRLF, mixed endings, a BOM, trailing blanks,
// duplicate lines, typography, bytes that are not UTF-8, no final
// newline), a reply of edits drawn from those files, quoted as each rung
// of the ladder forgives (exact, trailing blanks, indentation, spacing,
// typography, placeholders, blank edges, a read's line numbers, escapes
// sent twice, a misremembered context line) and written in every format
// (SEARCH/REPLACE, unified diff, Codex envelope, tool call, whole file,
// creates, deletes and renames), parsed as the command parses it and
// planned on a temp dir. Whatever the planner makes of it, it must never
// be refused by the check: an INTERNAL is a defect of the planner, the
// ladder or the check.
func FuzzCheck(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		{3, 7, 1, 0, 2, 2, 5, 9, 4, 4, 0, 1, 8, 3},
		{5, 12, 40, 3, 1, 0, 0, 2, 7, 7, 7, 1, 2, 3, 4},
		{9, 200, 17, 33, 2, 4, 6, 8, 10, 12, 14, 16, 18},
		{1, 99, 3, 250, 4, 0, 0, 0, 9, 9, 2, 1, 6, 5, 4, 3, 2, 1},
		{7, 64, 128, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233},
		{2, 0, 6, 1, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15},
		{8, 8, 8, 8, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &pipeRand{data: data}
		files := checkTree(r)
		reply := checkReply(r, files)
		dir := t.TempDir()
		for name, c := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		edits, _ := parse.Parse(reply, parse.Options{Tree: root})
		if len(edits) == 0 {
			return
		}
		opts := testOpts(t, dir)
		opts.DryRun = r.intn(4) != 0
		opts.Omit.After = r.intn(2) == 0
		opts.TrimTrailingWS = r.intn(8) == 0
		res, _ := Apply(context.Background(), edits, opts)
		for _, e := range res.Errors {
			if e.Code == edit.CodeInternal {
				t.Fatalf("INTERNAL: %s\nfiles:\n%s\nreply:\n%s\nedits:\n%s", e.Msg, showFiles(files), reply, showEdits(edits))
			}
		}
	})
}

func showFiles(files map[string]string) string {
	var b strings.Builder
	for name, c := range files {
		fmt.Fprintf(&b, "  %s: %q\n", name, c)
	}
	return b.String()
}

func showEdits(es []edit.Edit) string {
	var b strings.Builder
	for i, e := range es {
		fmt.Fprintf(&b, "  %d: %v %s old=%q new=%q count=%d hint=%d lead=%d trail=%d marks=%q format=%v\n",
			i, e.Op, e.Path, e.Old, e.New, e.Count, e.Hint, e.LeadContext, e.TrailContext, e.Marks, e.Format)
	}
	return b.String()
}

// checkVocab is the lines fuzzed files are made of: code of several
// indentations, duplicates, blank and blank-looking lines, trailing
// blanks, typography, a byte that is not UTF-8, a placeholder-like
// comment.
var checkVocab = []string{
	"package a", "", "func f(a, b int) int {", "\treturn a + b", "}", "\tx := “q”", "\tif err != nil {",
	"\t\treturn err", "\t}", "    y = 'z'  ", "# note", "a\u00a0b — c", "caf\xe9 menu", "x := 1", "x := 1 ",
	"  ", "    def g(self):", "        pass", "\t// keep", "end",
}

var checkNames = []string{"a.go", "b.txt", "d/c.py"}

// checkTree makes one to three files of checkVocab's lines, each with its
// line endings (LF, CRLF or mixed), maybe a BOM, maybe no final newline.
func checkTree(r *pipeRand) map[string]string {
	files := map[string]string{}
	for range 1 + r.intn(3) {
		name := checkNames[r.intn(len(checkNames))]
		var b strings.Builder
		if r.intn(6) == 0 {
			b.WriteString(bom)
		}
		style := r.intn(4) // 0, 1: LF; 2: CRLF; 3: mixed
		n := 1 + r.intn(12)
		for i := range n {
			b.WriteString(checkVocab[r.intn(len(checkVocab))])
			if i == n-1 && r.intn(4) == 0 {
				break
			}
			if style == 2 || style == 3 && r.intn(2) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		files[name] = b.String()
	}
	return files
}

// checkReply writes one to four edits of files, each in a format and a
// rung's quoting.
func checkReply(r *pipeRand, files map[string]string) string {
	var names []string
	for _, n := range checkNames {
		if _, ok := files[n]; ok {
			names = append(names, n)
		}
	}
	var b strings.Builder
	for range 1 + r.intn(4) {
		if b.Len() > 0 && r.intn(3) == 0 {
			b.WriteString("\nLet me fix this:\n\n")
		}
		name := names[r.intn(len(names))]
		body := strings.TrimPrefix(files[name], bom)
		switch k := r.intn(16); {
		case k == 0:
			// A new file, or an existing one named again.
			path := []string{"new.txt", name}[r.intn(2)]
			text := strings.Join(drawLines(r, 1+r.intn(4)), "\n") + "\n"
			if r.intn(2) == 0 {
				fmt.Fprintf(&b, "%s\n```\n<<<<<<< SEARCH\n=======\n%s>>>>>>> REPLACE\n```\n", path, text)
			} else {
				fmt.Fprintf(&b, "*** Begin Patch\n*** Add File: %s\n%s*** End Patch\n", path, prefixed("+", strings.Split(strings.TrimSuffix(text, "\n"), "\n")))
			}
		case k == 1:
			fmt.Fprintf(&b, "*** Begin Patch\n*** Delete File: %s\n*** End Patch\n", name)
		case k == 2:
			fmt.Fprintf(&b, "*** Begin Patch\n*** Update File: %s\n*** Move to: moved/%s\n*** End Patch\n", name, name)
		case k == 3:
			// The whole file again, edited.
			ls := contentLines(body)
			_, nw := mutate(r, ls)
			fmt.Fprintf(&b, "%s\n```\n%s\n```\n", name, strings.Join(nw, "\n"))
		default:
			b.WriteString(checkEdit(r, name, body))
		}
	}
	return b.String()
}

// contentLines is a content's lines without their endings.
func contentLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func drawLines(r *pipeRand, n int) []string {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = checkVocab[r.intn(len(checkVocab))]
	}
	return ls
}

// mutate returns old, and a new text made of it: lines kept, changed,
// dropped and added.
func mutate(r *pipeRand, old []string) ([]string, []string) {
	var nw []string
	for _, l := range old {
		switch r.intn(6) {
		case 0:
			nw = append(nw, l+" // changed")
		case 1: // dropped
		case 2:
			nw = append(nw, checkVocab[r.intn(len(checkVocab))], l)
		default:
			nw = append(nw, l)
		}
	}
	if r.intn(3) == 0 {
		nw = append(nw, checkVocab[r.intn(len(checkVocab))])
	}
	return old, nw
}

// The ways a model quotes lines, one rung of the ladder each.
const (
	quoteExact = iota
	quoteTrailing
	quoteIndent
	quoteSpacing
	quoteTypography
	quoteElision
	quoteBlankEdges
	quoteContext
	quoteCRLF
	quoteNumbered
	quoteEscaped
	quoteCutFirst
	quoteKinds
)

// quote rewrites lines as a model's memory of them drifts, for one rung.
func quote(r *pipeRand, kind int, ls []string) []string {
	out := make([]string, len(ls))
	copy(out, ls)
	switch kind {
	case quoteTrailing:
		for i := range out {
			if r.intn(2) == 0 {
				out[i] = strings.TrimRight(out[i], " \t")
			} else {
				out[i] += " "
			}
		}
	case quoteIndent:
		pre := []string{"  ", "\t", "    "}[r.intn(3)]
		for i := range out {
			if strings.TrimSpace(out[i]) != "" {
				out[i] = pre + strings.ReplaceAll(out[i], "\t", "    ")
			}
		}
	case quoteSpacing:
		for i := range out {
			out[i] = strings.NewReplacer("(", "( ", ")", " )", ",", " ,", " := ", "  :=  ").Replace(out[i])
		}
	case quoteTypography:
		for i := range out {
			out[i] = strings.NewReplacer("“", "\"", "”", "\"", "'", "’", "\u00a0", " ", "—", "--").Replace(out[i])
		}
	}
	return out
}

// checkEdit writes an edit of a run of body's lines, quoted one way, in
// one format.
func checkEdit(r *pipeRand, name, body string) string {
	ls := contentLines(body)
	if len(ls) == 0 {
		ls = []string{""}
	}
	a := r.intn(len(ls))
	n := 1 + r.intn(min(4, len(ls)-a))
	old, nw := mutate(r, ls[a:a+n])
	kind := r.intn(quoteKinds)
	qo, qn := quote(r, kind, old), quote(r, kind, nw)
	switch kind {
	case quoteElision:
		if len(qo) >= 3 {
			qo = append([]string{qo[0], "// ... existing code ..."}, qo[len(qo)-1])
			qn = append([]string{qn[0], "// ... existing code ..."}, qn[len(qn)-1:]...)
		}
	case quoteBlankEdges:
		qo = append([]string{""}, qo...)
		qn = append([]string{""}, qn...)
	case quoteContext:
		if len(qo) > 1 {
			qo[0] += " x"
		}
	}
	oldText, newText := strings.Join(qo, "\n")+"\n", strings.Join(qn, "\n")+"\n"
	if kind == quoteCRLF {
		oldText, newText = strings.ReplaceAll(oldText, "\n", "\r\n"), strings.ReplaceAll(newText, "\n", "\r\n")
	}
	switch format := r.intn(5); {
	case format == 0 || kind == quoteNumbered || kind == quoteEscaped || kind == quoteCutFirst:
		o, nt := strings.TrimSuffix(oldText, "\n"), strings.TrimSuffix(newText, "\n")
		switch kind {
		case quoteNumbered:
			o = numbered(a+1, qo)
			if r.intn(2) == 0 {
				nt = numbered(a+1, qn)
			}
		case quoteEscaped:
			esc := strings.NewReplacer("\n", `\n`, "\t", `\t`, `"`, `\"`)
			o, nt = esc.Replace(o), esc.Replace(nt)
		case quoteCutFirst:
			o, nt = strings.TrimLeft(o, " \t"), strings.TrimLeft(nt, " \t")
		}
		// One text ending a line and the other not: str_replace's
		// literal reading (see locate's TestToolCallReplacesLiterally).
		switch r.intn(8) {
		case 0:
			o += "\n"
		case 1:
			nt += "\n"
		}
		call := map[string]any{"path": name, "old_string": o, "new_string": nt}
		if r.intn(6) == 0 {
			call["replace_all"] = true
		}
		js, _ := json.Marshal(call)
		return string(js) + "\n"
	case format == 1:
		return fmt.Sprintf("%s\n```\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n```\n", name, oldText, newText)
	case format == 2:
		return "*** Begin Patch\n*** Update File: " + name + "\n@@\n" + hunkLines(qo, qn) + "*** End Patch\n"
	default:
		return fmt.Sprintf("--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n%s", name, name, a+1, len(qo), a+1, len(qn), hunkLines(qo, qn))
	}
}

// hunkLines writes old becoming new as a hunk's lines: their common head
// and tail as context, the rest removed and added.
func hunkLines(old, nw []string) string {
	p := 0
	for p < len(old) && p < len(nw) && old[p] == nw[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(nw)-p && old[len(old)-1-s] == nw[len(nw)-1-s] {
		s++
	}
	return prefixed(" ", old[:p]) + prefixed("-", old[p:len(old)-s]) + prefixed("+", nw[p:len(nw)-s]) + prefixed(" ", old[len(old)-s:])
}

func prefixed(mark string, ls []string) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(mark + l + "\n")
	}
	return b.String()
}

// numbered is ls as a read prints them, from line first.
func numbered(first int, ls []string) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%6d\t%s", first+i, l)
	}
	return strings.Join(out, "\n")
}
