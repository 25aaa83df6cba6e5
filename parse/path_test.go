package parse

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
		got, ok := cleanPath(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: cleanPath(%q) = %q, %v; want %q, %v", name, tt.in, got, ok, tt.want, tt.ok)
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
		got, ok := cleanDelimitedPath(in)
		if got != want || ok != (want != "") {
			t.Errorf("cleanDelimitedPath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
