// Package gen generates realistic Go source and model-style edits against
// it, for edapply's benchmarks and tests. Everything is a pure function of
// its seed: the same arguments give the same bytes on every platform and Go
// release (math/rand/v2's PCG is specified bit for bit).
package gen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Word lists for identifiers, comments and literals. They are long enough
// that a seven-line window of generated code is almost always unique.
var (
	nouns = strings.Fields(`account address agent alias batch block bucket buffer cache
		channel chunk claim client cluster column commit config conn cursor digest
		domain entry event field file filter frame handler header index item job
		journal key label lease limit link lock manifest member message metric
		mirror node offset order owner packet page partition payload peer plan
		policy pool port prefix query queue quota range reader record region
		replica request response result revision route row rule schema scope
		secret segment selector session shard signal snapshot source span stage
		state stream suffix table target task tenant ticket token topic trace
		tracker update user value vector version volume watcher window worker
		writer zone`)
	verbs = strings.Fields(`acquire apply build check close collect commit compact
		compute decode delete drain encode evict fetch filter find flush format
		index insert load lookup match merge normalize open parse patch probe
		publish read rebuild refresh register release reload remove render
		replay reset resolve restore rotate scan schedule seal send split start
		stop store sync trim update validate verify walk watch write`)
	adjs = strings.Fields(`active base cached current default dirty empty expired
		first global idle initial last local max min next old pending primary
		raw remote retry shared stale total`)
	stdImports = strings.Fields(`bufio bytes context encoding/json errors fmt io
		log os path/filepath sort strconv strings sync time`)
	basicTypes = strings.Fields(`int int64 uint32 string bool float64 []byte
		time.Duration time.Time error []string map[string]int`)
)

// A source builds one Go file line by line.
type source struct {
	r     *rand.Rand
	buf   bytes.Buffer
	lines int
	used  map[string]bool // top-level names, kept unique so the file type-checks by name
	types []string        // struct types declared so far (method receivers)
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Source returns a Go source file for package pkg of at least lines lines:
// a license header, a package comment and clause, an import block, then
// types, constants, variables, functions and methods with bodies and
// comments, until the declaration that reaches lines ends. The file parses
// with go/parser; it is not meant to type-check. It ends with a newline and
// uses LF line endings and tab indentation, as gofmt writes.
func Source(seed uint64, pkg string, lines int) []byte {
	s := &source{r: newRand(seed), used: map[string]bool{}}
	s.header(pkg)
	for s.lines < lines {
		s.line("")
		switch n := s.r.IntN(20); {
		case n < 3:
			s.structType()
		case n < 4:
			s.interfaceType()
		case n < 5:
			s.constBlock()
		case n < 6:
			s.varBlock()
		case n < 12 && len(s.types) > 0:
			s.method()
		default:
			s.function()
		}
	}
	return s.buf.Bytes()
}

func (s *source) line(format string, args ...any) {
	if len(args) == 0 {
		s.buf.WriteString(format)
	} else {
		fmt.Fprintf(&s.buf, format, args...)
	}
	s.buf.WriteByte('\n')
	s.lines++
}

func (s *source) pick(words []string) string { return words[s.r.IntN(len(words))] }

func title(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// name returns a fresh top-level identifier built from words, exported or not.
func (s *source) name(exported bool, parts ...[]string) string {
	for try := 0; ; try++ {
		var b strings.Builder
		for i, p := range parts {
			w := s.pick(p)
			if i > 0 || exported {
				w = title(w)
			}
			b.WriteString(w)
		}
		if try > 3 {
			fmt.Fprintf(&b, "%d", s.r.IntN(1000))
		}
		n := b.String()
		if !s.used[n] && !isKeyword(n) {
			s.used[n] = true
			return n
		}
	}
}

// local returns a local variable name: a noun, sometimes qualified.
func (s *source) local() string {
	switch s.r.IntN(3) {
	case 0:
		return s.pick(adjs) + title(s.pick(nouns))
	default:
		n := s.pick(nouns)
		if isKeyword(n) {
			return n + "s"
		}
		return n
	}
}

func isKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else",
		"fallthrough", "for", "func", "go", "goto", "if", "import", "interface",
		"map", "package", "range", "return", "select", "struct", "switch", "type",
		"var", "nil", "true", "false", "len", "cap", "new", "make", "copy", "append", "string", "error", "close":
		return true
	}
	return false
}

func (s *source) sentence() string {
	switch s.r.IntN(5) {
	case 0:
		return fmt.Sprintf("The %s is %s until the %s is %sed.", s.pick(nouns), s.pick(adjs), s.pick(nouns), strings.TrimSuffix(s.pick(verbs), "e"))
	case 1:
		return fmt.Sprintf("Callers must %s the %s before they %s it.", s.pick(verbs), s.pick(nouns), s.pick(verbs))
	case 2:
		return fmt.Sprintf("TODO: %s %s %s lazily once %s settles.", s.pick(verbs), s.pick(adjs), s.pick(nouns), s.pick(nouns))
	case 3:
		return fmt.Sprintf("A %s %s never outlives its %s.", s.pick(adjs), s.pick(nouns), s.pick(nouns))
	}
	return fmt.Sprintf("Keep the %s sorted by %s so %s can %s it.", s.pick(nouns), s.pick(nouns), s.pick(verbs), s.pick(verbs))
}

func (s *source) header(pkg string) {
	s.line("// Copyright 2026 The Edapply Bench Authors. All rights reserved.")
	s.line("// Use of this source code is governed by a BSD-style")
	s.line("// license that can be found in the LICENSE file.")
	s.line("")
	s.line("// Package %s %ss %s %ss for the %s %s.", pkg, s.pick(verbs), s.pick(adjs), s.pick(nouns), s.pick(nouns), s.pick(nouns))
	s.line("package %s", pkg)
	s.line("")
	s.line("import (")
	for _, imp := range stdImports {
		if s.r.IntN(3) > 0 {
			s.line("\t%q", imp)
		}
	}
	s.line(")")
}

func (s *source) structType() {
	n := s.name(s.r.IntN(2) == 0, adjs, nouns)
	doc := s.sentence()
	s.line("// %s holds %s", n, strings.ToLower(doc[:1])+doc[1:])
	s.line("type %s struct {", n)
	for i, nf := 0, 3+s.r.IntN(7); i < nf; i++ {
		f := title(s.pick(nouns)) + title(s.pick(adjs))
		typ := s.pick(basicTypes)
		switch s.r.IntN(4) {
		case 0:
			s.line("\t%s %s `json:\"%s,omitempty\"`", f, typ, strings.ToLower(f[:1])+f[1:])
		case 1:
			s.line("\t%s %s // %s", f, typ, s.sentence())
		default:
			s.line("\t%s %s", f, typ)
		}
	}
	s.line("}")
	s.types = append(s.types, n)
}

func (s *source) interfaceType() {
	n := s.name(true, nouns) + "er"
	s.line("// %s is implemented by anything that can %s a %s.", n, s.pick(verbs), s.pick(nouns))
	s.line("type %s interface {", n)
	for i, nm := 0, 1+s.r.IntN(4); i < nm; i++ {
		s.line("\t%s%s(ctx context.Context, %s %s) (%s, error)", title(s.pick(verbs)), title(s.pick(nouns)), s.local(), s.pick(basicTypes), s.pick(basicTypes))
	}
	s.line("}")
}

func (s *source) constBlock() {
	typ := s.name(false, nouns) + "Kind"
	s.line("// A %s says which %s a %s holds.", typ, s.pick(nouns), s.pick(nouns))
	s.line("type %s int", typ)
	s.line("")
	s.line("const (")
	for i, nc := 0, 2+s.r.IntN(6); i < nc; i++ {
		c := s.name(false, adjs, nouns)
		if i == 0 {
			s.line("\t%s %s = iota // %s", c, typ, s.sentence())
		} else {
			s.line("\t%s", c)
		}
	}
	s.line(")")
}

func (s *source) varBlock() {
	s.line("var (")
	for i, nv := 0, 1+s.r.IntN(4); i < nv; i++ {
		v := s.name(false, []string{"err"}, adjs, nouns)
		s.line("\t%s = errors.New(\"%s: %s %s\")", v, s.pick(nouns), s.pick(adjs), s.pick(nouns))
	}
	s.line("\tdefault%s = %d", title(s.name(false, nouns, adjs)), s.r.IntN(100000))
	s.line(")")
}

func (s *source) params() (decl string, names []string) {
	var ps []string
	for i, np := 0, s.r.IntN(4); i < np; i++ {
		n := s.local()
		names = append(names, n)
		ps = append(ps, n+" "+s.pick(basicTypes))
	}
	return strings.Join(ps, ", "), names
}

func (s *source) function() {
	n := s.name(s.r.IntN(2) == 0, verbs, adjs, nouns)
	decl, vars := s.params()
	s.line("// %s %ss the %s %s. %s", n, s.pick(verbs), s.pick(adjs), s.pick(nouns), s.sentence())
	s.line("func %s(ctx context.Context, %s) (%s, error) {", n, decl, s.pick(basicTypes))
	s.body(1, append(vars, "ctx"), 4+s.r.IntN(20))
	s.line("}")
}

func (s *source) method() {
	t := s.types[s.r.IntN(len(s.types))]
	recv := strings.ToLower(t[:1])
	n := s.name(true, verbs, nouns)
	decl, vars := s.params()
	s.line("// %s %ss %s's %s. %s", n, s.pick(verbs), t, s.pick(nouns), s.sentence())
	s.line("func (%s *%s) %s(%s) error {", recv, t, n, decl)
	s.body(1, append(vars, recv), 3+s.r.IntN(16))
	s.line("}")
}

// body writes n statements at the given depth; vars are the names in scope.
func (s *source) body(depth int, vars []string, n int) {
	ind := strings.Repeat("\t", depth)
	v := func() string {
		if len(vars) == 0 {
			return "nil"
		}
		return vars[s.r.IntN(len(vars))]
	}
	for i := 0; i < n; i++ {
		k := s.r.IntN(14)
		if depth >= 3 && k >= 9 {
			k = s.r.IntN(9) // no deeper nesting
		}
		switch k {
		case 0, 1:
			x := s.local()
			s.line("%s%s, err := %s%s(%s, %s)", ind, x, s.pick(verbs), title(s.pick(nouns)), v(), v())
			s.line("%sif err != nil {", ind)
			s.line("%s\treturn fmt.Errorf(\"%s %s %%q: %%w\", %s, err)", ind, s.pick(verbs), s.pick(nouns), x)
			s.line("%s}", ind)
			vars = append(vars, x)
		case 2:
			x := s.local()
			s.line("%s%s := %s.%s%s(%s)", ind, x, v(), title(s.pick(verbs)), title(s.pick(nouns)), v())
			vars = append(vars, x)
		case 3:
			s.line("%s// %s", ind, s.sentence())
		case 4:
			s.line("%s%s += len(%s) * %d", ind, v(), v(), 1+s.r.IntN(64))
		case 5:
			s.line("%slog.Printf(\"%s: %s %%v (%s=%%d)\", %s, %s)", ind, s.pick(verbs), s.pick(nouns), s.pick(adjs), v(), v())
		case 6:
			s.line("%sdefer %s.%s()", ind, v(), title(s.pick(verbs)))
		case 7:
			s.line("%s%s.%s = append(%s.%s, %s)", ind, v(), title(s.pick(nouns)), v(), title(s.pick(nouns)), v())
		case 8:
			s.line("%sif %s == nil {", ind, v())
			s.line("%s\treturn %s", ind, s.pick([]string{"nil", "err" + title(s.pick(adjs)) + title(s.pick(nouns)), "io.EOF", "ctx.Err()"}))
			s.line("%s}", ind)
		case 9, 10:
			it := s.local()
			s.line("%sfor _, %s := range %s.%s {", ind, it, v(), title(s.pick(nouns)))
			s.body(depth+1, append(vars, it), 1+s.r.IntN(4))
			s.line("%s}", ind)
		case 11:
			s.line("%sif %s > %d && %s != \"%s\" {", ind, v(), s.r.IntN(4096), v(), s.pick(nouns))
			s.body(depth+1, vars, 1+s.r.IntN(3))
			if s.r.IntN(2) == 0 {
				s.line("%s} else {", ind)
				s.body(depth+1, vars, 1+s.r.IntN(3))
			}
			s.line("%s}", ind)
		case 12:
			s.line("%sswitch %s.%s {", ind, v(), title(s.pick(nouns)))
			for j, nc := 0, 2+s.r.IntN(3); j < nc; j++ {
				s.line("%scase %q:", ind, s.pick(adjs)+"-"+s.pick(nouns))
				s.body(depth+1, vars, 1+s.r.IntN(2))
			}
			s.line("%sdefault:", ind)
			s.line("%s\treturn fmt.Errorf(\"unknown %s %%v\", %s)", ind, s.pick(nouns), v())
			s.line("%s}", ind)
		case 13:
			m := s.local()
			s.line("%s%s := make(map[string]%s, %d)", ind, m, s.pick(basicTypes), s.r.IntN(256))
			vars = append(vars, m)
		}
	}
	if depth == 1 {
		s.line("\treturn %s", s.pick([]string{"nil", v(), "err" + title(s.pick(adjs)) + title(s.pick(nouns))}))
	}
}
