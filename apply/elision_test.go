package apply

import "testing"

func TestElidedRewrite(t *testing.T) {
	orig := "package p\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n}\n"
	for name, c := range map[string]struct {
		original, rewritten string
		line                int // 0: not elided
	}{
		"full":           {orig, orig + "\nfunc c() {}\n", 0},
		"existingCode":   {orig, "package p\n\n// ... existing code ...\n\nfunc b() {\n\ty(1)\n}\n", 3},
		"restOfFile":     {orig, "package p\n\nfunc a() {\n\tx(1)\n}\n\n// (rest of file unchanged)\n", 7},
		"bareDots":       {orig, "package p\n\nfunc a() {\n\tx(1)\n}\n...\n", 6},
		"dotsComment":    {orig, "package p\n\nfunc a() {\n\t// ...\n}\n", 4},
		"blockComment":   {orig, "package p\n/* ... */\n", 2},
		"html":           {"<p>a</p>\n<p>b</p>\n", "<p>a</p>\n<!-- ... rest unchanged ... -->\n", 2},
		"hash":           {"a = 1\nb = 2\n", "a = 2\n# ... rest of the file unchanged ...\n", 2},
		"inOriginal":     {"a()\n// ...\nb()\n", "a(1)\n// ...\nb()\n", 0},
		"pyEllipsis":     {"def f(): ...\n", "def f(): ...\n\ndef g(): ...\n", 0},
		"pyEllipsisBody": {"class P:\n    pass\n", "class P:\n    def f(self) -> int:\n        ...\n", 0},
		"pyStubDoc":      {"x = 1\n", "def f():\n    \"\"\"Doc.\"\"\"\n    ...\n", 0},
		"pySlice":        {"x = a[0]\n", "x = a[..., 0]\n", 0},
		"jsSpread":       {"f(a)\n", "f(...args)\nconst o = {...rest};\n", 0},
		"goVariadic":     {"f(a)\n", "f(args...)\nfunc g(xs ...int) {}\n", 0},
		"proseDots":      {"x\n", "// wait for it...\nx\n", 0},
		"realComment":    {"x\n", "// The rest of the buffer is zeroed by the caller so that reads stay cheap.\nx\n", 0},
	} {
		line, elided := elidedRewrite(c.original, c.rewritten)
		if elided != (c.line > 0) || line != c.line {
			t.Errorf("%s: elidedRewrite = %d, %v, want line %d", name, line, elided, c.line)
		}
	}
}

func TestElidedReplacement(t *testing.T) {
	for name, c := range map[string]struct {
		old, new string
		line     int
	}{
		"plain":            {"a\nb\n", "a\nc\n", 0},
		"dropsCode":        {"a\nb\nc\nd\n", "a\nB\n// ... rest of the code unchanged ...\n", 3},
		"samePlace":        {"a\n// ... existing code ...\nd\n", "a\n// ... existing code ...\nD\n", 0},
		"otherWording":     {"a\n// ...\nd\n", "a\n    # ... existing code ...\nD\n", 0},
		"movedPlaceholder": {"a\n// ...\nd\n", "a\nd\n// ...\n", 3},
		"spread":           {"f(a)\n", "f(...a)\n", 0},
		"variadic":         {"f(a)\n", "f(a...)\n", 0},
		"pyBody":           {"def f():\n    pass\n", "def f():\n    ...\n", 0},
		"bare":             {"a\nb\nc\n", "a\n...\n", 2},
	} {
		line, elided := elidedReplacement(c.old, c.new)
		if elided != (c.line > 0) || line != c.line {
			t.Errorf("%s: elidedReplacement = %d, %v, want line %d", name, line, elided, c.line)
		}
	}
}

func TestIsPlaceholder(t *testing.T) {
	yes := []string{"...", "…", "// ...", "  // ... existing code ...", "# ... rest unchanged ...", "/* ... */",
		"<!-- ... -->", "// (rest of file unchanged)", "// ... rest of the code unchanged ...", "{/* ... */}",
		"-- ...", "// rest of the function", "# existing code", "// … unchanged …", "// . . ."}
	no := []string{"x...", "...args", "f(a, ...)", "// wait...", "// TODO", "return ...", "// see above", "x[..., 0]",
		"# comment", "// Copyright 2009 The Go Authors. All rights reserved.",
		"// Handles a, b, c, etc...", "// Retry with the previous value...", "// existing users ... are migrated below by the loop that follows here"}
	for _, l := range yes {
		if !isPlaceholder([]string{l}, 0) {
			t.Errorf("isPlaceholder(%q) = false", l)
		}
	}
	for _, l := range no {
		if isPlaceholder([]string{l}, 0) {
			t.Errorf("isPlaceholder(%q) = true", l)
		}
	}
}
