package syntax

import "testing"

func TestCleanPath(t *testing.T) {
	tests := map[string]struct {
		in   string
		want string
		ok   bool
	}{
		"plain":     {"src/a.go", "src/a.go", true},
		"dotSlash":  {"./src/a.go", "src/a.go", true},
		"backticks": {"`src/a.go`", "src/a.go", true},
		"bold":      {"**src/a.go**", "src/a.go", true},
		"boldTick":  {"**`src/a.go`**:", "src/a.go", true},
		"colon":     {"src/a.go:", "src/a.go", true},
		"quoted":    {`"a b.go"`, "", false},
		"prose":     {"Here is the change", "", false},
		"empty":     {"``", "", false},
		"dir":       {"src/", "", false},
		"escape":    {"../../etc/passwd", "../../etc/passwd", true},
	}
	for name, tt := range tests {
		got, ok := CleanPath(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: CleanPath(%q) = %q, %v; want %q, %v", name, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCleanDelimitedPath(t *testing.T) {
	for in, want := range map[string]string{
		"docs/My File.md":   "docs/My File.md",
		" `a b/c.txt` ":     "a b/c.txt",
		"./x y.go":          "x y.go",
		"src/a.go":          "src/a.go",
		"bad\x00name":       "",
		"line\nbreak/x.txt": "",
	} {
		got, ok := CleanDelimitedPath(in)
		if got != want || ok != (want != "") {
			t.Errorf("CleanDelimitedPath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestPathLine(t *testing.T) {
	tests := map[string]struct {
		in   string
		want string
	}{
		"plain":      {"src/a.go", "src/a.go"},
		"dot":        {"./a.go", "a.go"},
		"ticks":      {"`a/b.py`", "a/b.py"},
		"bold":       {"**a.md**", "a.md"},
		"colon":      {"a.yaml:", "a.yaml"},
		"heading":    {"## src/a.go", "src/a.go"},
		"list":       {"- src/a.go", "src/a.go"},
		"file":       {"File: src/a.go", "src/a.go"},
		"numbered":   {"2. `src/a.go`", "src/a.go"},
		"boldLabel":  {"**File:** `src/a.go`", "src/a.go"},
		"heading2":   {"#### `src/a.go` (modified)", "src/a.go"},
		"note":       {"**src/new.go** (new file)", "src/new.go"},
		"noteProse":  {"Update the handler (twice)", ""},
		"makefile":   {"Makefile", "Makefile"},
		"dotfile":    {".gitignore", ".gitignore"},
		"extless":    {"bin/run", "bin/run"},
		"explicit":   {"./run", "run"},
		"innerDot":   {"a/./b.go", "a/b.go"},
		"escape":     {"../x.go", "../x.go"},
		"nextJS":     {"app/(auth)/page.tsx", "app/(auth)/page.tsx"},
		"prose":      {"Here is the fix.", ""},
		"word":       {"Next:", ""},
		"done":       {"Done.", ""},
		"eg":         {"e.g.", ""},
		"version":    {"1.2", ""},
		"call":       {"fmt.Println()", ""},
		"url":        {"https://go.dev/x", ""},
		"fence":      {"```go", ""},
		"infoFence":  {"```a.go", ""},
		"marker":     {"=======", ""},
		"assignment": {"x=y.go", ""},
		"empty":      {"", ""},
	}
	for name, tt := range tests {
		got, ok := PathLine(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: PathLine(%q) = %q, %v; want %q", name, tt.in, got, ok, tt.want)
		}
	}
}
