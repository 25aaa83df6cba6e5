package syntax

import "testing"

func TestParseFence(t *testing.T) {
	tests := map[string]struct {
		in    string
		ok    bool
		char  byte
		n     int
		info  string
		path  string
		lang  string
		close bool
	}{
		"bare":     {"```", true, '`', 3, "", "", "", true},
		"lang":     {"```go", true, '`', 3, "go", "", "go", false},
		"tilde":    {"~~~~ yaml", true, '~', 4, "yaml", "", "yaml", false},
		"indent":   {"   ```", true, '`', 3, "", "", "", true},
		"deep":     {"    ```", false, 0, 0, "", "", "", false},
		"two":      {"``", false, 0, 0, "", "", "", false},
		"inline":   {"```x```", false, 0, 0, "", "", "", false},
		"pathOnly": {"```src/a.go", true, '`', 3, "src/a.go", "src/a.go", "", false},
		"langPath": {"```python path/to/x.py", true, '`', 3, "python path/to/x.py", "path/to/x.py", "python", false},
		"colon":    {"```js:web/z.js", true, '`', 3, "js:web/z.js", "web/z.js", "js", false},
		"title":    {`~~~yaml title="ci.yml"`, true, '~', 3, `yaml title="ci.yml"`, "ci.yml", "yaml", false},
		"noPath":   {"```go {linenos=true}", true, '`', 3, "go {linenos=true}", "", "go", false},
	}
	for name, tt := range tests {
		f, ok := ParseFence(tt.in)
		if ok != tt.ok || f.Char != tt.char || f.N != tt.n || f.Info != tt.info {
			t.Errorf("%s: ParseFence(%q) = %+v, %v; want %q×%d %q, %v", name, tt.in, f, ok, tt.char, tt.n, tt.info, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if p, _ := f.InfoPath(); p != tt.path {
			t.Errorf("%s: InfoPath = %q; want %q", name, p, tt.path)
		}
		if l := f.Lang(); l != tt.lang {
			t.Errorf("%s: lang = %q; want %q", name, l, tt.lang)
		}
		if c := f.Closes(Fence{Char: '`', N: 3}); c != (tt.close && f.Char == '`') {
			t.Errorf("%s: Closes(```) = %v", name, c)
		}
	}
}
