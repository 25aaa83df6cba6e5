package parse

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
)

// envBody is a small envelope the shell tests carry.
const envBody = "*** Begin Patch\n*** Add File: n.txt\n+one\n*** End Patch\n"

func TestShellPatchReads(t *testing.T) {
	tests := map[string]struct {
		script, dir string
	}{
		"bare":               {script: "apply_patch <<'EOF'\n" + envBody + "EOF\n"},
		"applypatch":         {script: "applypatch <<EOF\n" + envBody + "EOF"},
		"doubleQuotedDelim":  {script: "apply_patch <<\"PATCH\"\n" + envBody + "PATCH\n"},
		"spacedOperator":     {script: "apply_patch << 'EOF'\n" + envBody + "EOF\n\n"},
		"cdWord":             {script: "cd web/src && apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "web/src"},
		"cdNoSpaces":         {script: "cd web&&apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "web"},
		"cdSingleQuoted":     {script: "cd 'my app' && apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "my app"},
		"cdDoubleQuoted":     {script: "cd \"my app\" && apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "my app"},
		"cdAbsolute":         {script: "cd /repo/pkg && apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "/repo/pkg"},
		"cdUp":               {script: "cd ../.. && apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "../.."},
		"cdThenLineBreak":    {script: "cd lib &&\n  apply_patch <<'EOF'\n" + envBody + "EOF\n", dir: "lib"},
		"commentAfterDelim":  {script: "apply_patch <<'EOF' # the fix\n" + envBody + "EOF\n"},
		"commentAfterBody":   {script: "apply_patch <<'EOF'\n" + envBody + "EOF\n\n# applied\n"},
		"crlf":               {script: "cd lib && apply_patch <<'EOF'\r\n" + strings.ReplaceAll(envBody, "\n", "\r\n") + "EOF\r\n", dir: "lib"},
		"neverClosed":        {script: "apply_patch <<'EOF'\n" + envBody},
		"dashStripsTabs":     {script: "apply_patch <<-EOF\n\t*** Begin Patch\n\t*** Add File: n.txt\n\t+one\n\t*** End Patch\n\tEOF\n"},
		"leadingBlankScript": {script: "\n  apply_patch <<'EOF'\n" + envBody + "EOF\n"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			env, dir, why := shellPatch(tt.script)
			if why != "" || !opensEnvelope(env) || dir != tt.dir {
				t.Fatalf("shellPatch(%q) = %q, dir %q, refusal %q; want the envelope, dir %q", tt.script, env, dir, why, tt.dir)
			}
			if got := strings.ReplaceAll(env, "\r", ""); got != envBody {
				t.Errorf("envelope = %q, want %q", got, envBody)
			}
		})
	}
}

func TestShellPatchRefuses(t *testing.T) {
	tests := map[string]struct {
		script, why string // why: a part of the refusal
	}{
		"semicolon":        {"cd web; apply_patch <<'EOF'\n" + envBody + "EOF\n", "several commands (;)"},
		"orElse":           {"cd web || apply_patch <<'EOF'\n" + envBody + "EOF\n", "a second command (||)"},
		"pipeBefore":       {"cd web | apply_patch <<'EOF'\n" + envBody + "EOF\n", "a pipe (|)"},
		"echoFirst":        {"echo go && apply_patch <<'EOF'\n" + envBody + "EOF\n", "a command other than apply_patch (echo)"},
		"echoThenCd":       {"echo go; cd web && apply_patch <<'EOF'\n" + envBody + "EOF\n", "(echo)"},
		"twoCds":           {"cd a && cd b && apply_patch <<'EOF'\n" + envBody + "EOF\n", "more than one cd"},
		"cdTwoArgs":        {"cd a b && apply_patch <<'EOF'\n" + envBody + "EOF\n", "cd with more than one argument"},
		"cdOption":         {"cd -P web && apply_patch <<'EOF'\n" + envBody + "EOF\n", "an option to cd"},
		"cdNothing":        {"cd && apply_patch <<'EOF'\n" + envBody + "EOF\n", "cd without a directory"},
		"cdVariable":       {"cd $ROOT/web && apply_patch <<'EOF'\n" + envBody + "EOF\n", "a shell expansion in cd's directory ($ROOT/web)"},
		"cdHome":           {"cd ~/web && apply_patch <<'EOF'\n" + envBody + "EOF\n", "a shell expansion"},
		"cdQuotedVariable": {"cd \"$ROOT\" && apply_patch <<'EOF'\n" + envBody + "EOF\n", "a shell expansion"},
		"cdSubstitution":   {"cd `pwd` && apply_patch <<'EOF'\n" + envBody + "EOF\n", "a shell expansion"},
		"cdLineBreak":      {"cd web\napply_patch <<'EOF'\n" + envBody + "EOF\n", "several commands (a line break)"},
		"andAfterOnLine":   {"apply_patch <<'EOF' && echo done\n" + envBody + "EOF\n", "a command after apply_patch (&&)"},
		"andAfterDelim":    {"cd web && apply_patch <<'EOF'\n" + envBody + "EOF && echo done\n", "a command after the heredoc (&& echo done)"},
		"commandAfter":     {"apply_patch <<'EOF'\n" + envBody + "EOF\n# then\ngit diff\n", "a command after the heredoc (git diff)"},
		"redirection":      {"apply_patch <<'EOF' 2>&1\n" + envBody + "EOF\n", "a redirection (2>&)"},
		"redirectOut":      {"apply_patch <<'EOF' >log\n" + envBody + "EOF\n", "a redirection (>)"},
		"argument":         {"apply_patch -v <<'EOF'\n" + envBody + "EOF\n", "an argument to apply_patch (-v)"},
		"hereString":       {"apply_patch <<< '" + envBody + "'\n", "a here-string (<<<)"},
		"noHeredoc":        {"apply_patch '" + envBody + "'\n", "an argument to apply_patch"},
		"subshell":         {"(cd web && apply_patch <<'EOF'\n" + envBody + "EOF\n)", "a subshell"},
		"background":       {"apply_patch <<'EOF' &\n" + envBody + "EOF\n", "in the background (&)"},
		"unclosedQuote":    {"cd 'web && apply_patch <<'EOF'\n" + envBody + "EOF\n", "an unclosed quote"},
		"expandedDelim":    {"apply_patch <<$END\n" + envBody + "$END\n", "a heredoc delimiter the shell would expand"},
		"proseFirst":       {"apply_patch <<'EOF'\nThe fix:\n" + envBody + "EOF\n", "text before *** Begin Patch"},
		"textAfterEnd":     {"apply_patch <<'EOF'\n" + envBody + "echo done\n", "never closed by EOF, with text after *** End Patch"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			env, _, why := shellPatch(tt.script)
			if env != "" || !strings.Contains(why, tt.why) {
				t.Errorf("shellPatch(%q) = %q, refusal %q; want a refusal with %q", tt.script, env, why, tt.why)
			}
		})
	}
}

// TestShellPatchNotAPatch checks that a script with no envelope in an
// apply_patch heredoc is neither a patch nor a refusal.
func TestShellPatchNotAPatch(t *testing.T) {
	for _, s := range []string{
		"apply_patch <<'EOF'\n--- a/x\n+++ b/x\nEOF\n",
		"ls -la\n",
		"",
	} {
		if env, dir, why := shellPatch(s); env != "" || dir != "" || why != "" && strings.Contains(s, "apply_patch") {
			t.Errorf("shellPatch(%q) = %q, %q, %q; want nothing", s, env, dir, why)
		}
	}
}

func TestShellScriptArg(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"bash", "-lc", "x"}, 2},
		{[]string{"/bin/sh", "-c", "x"}, 2},
		{[]string{"zsh", "-lc", "x"}, 2},
		{[]string{"bash", "-l", "x"}, 0},
		{[]string{"bash", "-lc", "x", "y"}, 0},
		{[]string{"powershell.exe", "-Command", "x"}, 2},
		{[]string{"pwsh", "-NoProfile", "-Command", "x"}, 3},
		{[]string{`C:\Windows\System32\cmd.exe`, "/C", "x"}, 2},
		{[]string{"python", "-c", "x"}, 0},
		{[]string{"bash", "-lc"}, 0},
	}
	for _, tt := range tests {
		if got := shellScriptArg(tt.args); got != tt.want {
			t.Errorf("shellScriptArg(%q) = %d, want %d", tt.args, got, tt.want)
		}
	}
}

func TestUnderDir(t *testing.T) {
	tests := []struct{ dir, p, want string }{
		{"web/src", "app.js", "web/src/app.js"},
		{"web/", "./a/b.js", "web/a/b.js"},
		{".", "a.go", "a.go"},
		{"../..", "x.txt", "../../x.txt"},
		{"web", "../x.txt", "web/../x.txt"},
		{"/repo/pkg", "a.go", "/repo/pkg/a.go"},
		{"web", "/etc/passwd", "/etc/passwd"},
		{"web", `C:\x.txt`, `C:\x.txt`},
	}
	for _, tt := range tests {
		if got := underDir(tt.dir, tt.p); got != tt.want {
			t.Errorf("underDir(%q, %q) = %q, want %q", tt.dir, tt.p, got, tt.want)
		}
	}
}

// TestCodexCallCd checks a whole call: a cd joins every path of the patch,
// and a refused shell is a PARSE_ERROR with the reader's hint, also when
// only codex is asked for, and never "no edits found".
func TestCodexCallCd(t *testing.T) {
	call := `{"command": ["bash", "-lc", "cd pkg && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch\nEOF\n"]}` + "\n"
	for _, f := range []edit.Format{edit.FormatAuto, edit.FormatJSON, edit.FormatCodex} {
		edits, errs := checkParse(t, []byte(call), f)
		if len(errs) != 0 || len(edits) != 2 {
			t.Fatalf("%s: Parse = %+v, %v; want a rename and a replace", f, edits, errs)
		}
		if e := edits[0]; e.Op != edit.Rename || e.Path != "pkg/a.go" || e.New != "pkg/b.go" {
			t.Errorf("%s: edit 0 = %+v, want pkg/a.go renamed to pkg/b.go", f, e)
		}
		if e := edits[1]; e.Path != "pkg/b.go" || e.Format != edit.FormatCodex {
			t.Errorf("%s: edit 1 = %+v, want a codex edit of pkg/b.go", f, e)
		}
	}
	refused := `{"command": ["bash", "-lc", "cd pkg && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch\nEOF\ngo test ./...\n"]}` + "\n"
	for _, f := range []edit.Format{edit.FormatAuto, edit.FormatCodex} {
		edits, errs := checkParse(t, []byte(refused), f)
		if len(edits) != 0 || len(errs) != 1 || errs[0].Code != edit.CodeParse ||
			!strings.Contains(errs[0].Msg, "does more than run apply_patch: a command after the heredoc (go test ./...)") ||
			!strings.Contains(errs[0].Hint, "Send the patch alone") {
			t.Errorf("%s: Parse = %+v, %v; want one PARSE_ERROR naming the command after the heredoc", f, edits, errs)
		}
	}
}

// TestCodexCallArgvRefused checks an argv that runs apply_patch on an
// envelope in a shape edapply does not read.
func TestCodexCallArgvRefused(t *testing.T) {
	src := `{"command": ["apply_patch", "--dry-run", "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"]}` + "\n"
	edits, errs := checkParse(t, []byte(src), edit.FormatAuto)
	if len(edits) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Msg, "runs apply_patch with arguments") {
		t.Errorf("Parse = %+v, %v; want one PARSE_ERROR about the arguments", edits, errs)
	}
	plain := `{"command": ["grep", "-r", "apply_patch", "."]}` + "\n"
	if edits, errs := checkParse(t, []byte(plain), edit.FormatAuto); len(edits) != 0 || len(errs) != 0 {
		t.Errorf("Parse(%q) = %+v, %v; want nothing", plain, edits, errs)
	}
}

// TestCodexCallNotEnvelope: apply_patch reads only Codex envelopes, so a
// call that hands it anything else (a unified diff) is refused, never
// passed over as no edit; its arguments as a JSON document are a wrapper,
// read as ever.
func TestCodexCallNotEnvelope(t *testing.T) {
	diff := `"--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"`
	for _, src := range []string{
		`{"command": ["apply_patch", ` + diff + `]}`,
		`{"type": "custom_tool_call", "name": "apply_patch", "input": ` + diff + `}`,
		`{"name": "applypatch", "patch": ` + diff + `}`,
	} {
		edits, errs := checkParse(t, []byte(src+"\n"), edit.FormatAuto)
		if len(edits) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Msg, "does not open with *** Begin Patch") {
			t.Errorf("Parse(%s) = %+v, %v; want one PARSE_ERROR naming the envelope", src, edits, errs)
		}
		if _, cerrs := checkParse(t, []byte(src+"\n"), edit.FormatCodex); len(cerrs) != 1 {
			t.Errorf("Parse(%s) with --format codex: errors %v, want the refusal", src, cerrs)
		}
	}
	wrapped := `{"name": "apply_patch", "arguments": "{\"input\": \"*** Begin Patch\\n*** Delete File: a.py\\n*** End Patch\\n\"}"}`
	if edits, errs := checkParse(t, []byte(wrapped+"\n"), edit.FormatAuto); len(edits) != 1 || len(errs) != 0 {
		t.Errorf("Parse(%s) = %+v, %v; want the envelope's delete", wrapped, edits, errs)
	}
}

// FuzzShellPatch checks that any script reads as a patch, a refusal or
// nothing, never two of them, and that a patch read has an envelope and a
// directory that is not an option to cd.
func FuzzShellPatch(f *testing.F) {
	f.Add("cd web && apply_patch <<'EOF'\n" + envBody + "EOF\n")
	f.Add("apply_patch <<-EOF\n\t" + envBody + "\tEOF && x\n")
	f.Add("cd \"a b\" &&\napply_patch 2>&1 <<EOF\n" + envBody)
	f.Fuzz(func(t *testing.T, script string) {
		env, dir, why := shellPatch(script)
		if env != "" && (why != "" || !opensEnvelope(env)) {
			t.Fatalf("shellPatch(%q) = %q, %q, %q", script, env, dir, why)
		}
		if env == "" && dir != "" {
			t.Fatalf("shellPatch(%q): a directory %q without a patch", script, dir)
		}
		if strings.HasPrefix(dir, "-") {
			t.Fatalf("shellPatch(%q): directory %q is an option to cd", script, dir)
		}
	})
}

// TestCodexCallWorkdir checks that the directory a call runs in joins the
// patch's paths, before a cd's directory, as Codex joins them; "." and an
// absent workdir leave them as written.
func TestCodexCallWorkdir(t *testing.T) {
	patch := `"*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n*** End Patch\n"`
	shell := func(script string) string {
		return `["bash", "-lc", "` + script + `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n*** End Patch\nEOF\n"]`
	}
	tests := []struct{ call, from, to string }{
		{`{"command": ["apply_patch", ` + patch + `], "workdir": "svc"}`, "svc/a.go", "svc/b.go"},
		{`{"command": ` + shell("") + `, "workdir": "svc/"}`, "svc/a.go", "svc/b.go"},
		{`{"command": ` + shell("cd api && ") + `, "workdir": "svc"}`, "svc/api/a.go", "svc/api/b.go"},
		{`{"command": ` + shell("cd /srv/api && ") + `, "workdir": "svc"}`, "/srv/api/a.go", "/srv/api/b.go"},
		{`{"command": ` + shell("cd .. && ") + `, "workdir": "svc"}`, "svc/../a.go", "svc/../b.go"},
		{`{"command": ` + shell("") + `, "workdir": "/repo/svc"}`, "/repo/svc/a.go", "/repo/svc/b.go"},
		{`{"type": "local_shell_call", "action": {"command": ` + shell("") + `, "working_directory": "svc"}}`, "svc/a.go", "svc/b.go"},
		{`{"command": ` + shell("") + `, "workdir": "."}`, "a.go", "b.go"},
		{`{"command": ` + shell("") + `}`, "a.go", "b.go"},
	}
	for _, tt := range tests {
		edits, errs := checkParse(t, []byte(tt.call+"\n"), edit.FormatAuto)
		if len(errs) != 0 || len(edits) != 1 || edits[0].Path != tt.from || edits[0].New != tt.to {
			t.Errorf("Parse(%s) = %+v, %v; want %s renamed to %s", tt.call, edits, errs, tt.from, tt.to)
		}
	}
}

// TestCodexCallScriptString checks a shell script sent as a string, as a
// command or as a tool's input: the cd form is read, more shell refused.
func TestCodexCallScriptString(t *testing.T) {
	script := `cd svc && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: old.go\n*** End Patch\nEOF\n`
	for _, call := range []string{
		`{"command": "` + script + `"}`,
		`{"type": "custom_tool_call", "name": "apply_patch", "input": "` + script + `"}`,
	} {
		edits, errs := checkParse(t, []byte(call+"\n"), edit.FormatAuto)
		if len(errs) != 0 || len(edits) != 1 || edits[0].Op != edit.Delete || edits[0].Path != "svc/old.go" {
			t.Errorf("Parse(%s) = %+v, %v; want svc/old.go deleted", call, edits, errs)
		}
		more := strings.Replace(call, `EOF\n"`, `EOF\nls\n"`, 1)
		edits, errs = checkParse(t, []byte(more+"\n"), edit.FormatAuto)
		if len(edits) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Msg, "a command after the heredoc (ls)") {
			t.Errorf("Parse(%s) = %+v, %v; want a PARSE_ERROR for the command after the heredoc", more, edits, errs)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 30)
	if got := clip(long); !utf8.ValidString(got) || len(got) > 40 || !strings.HasSuffix(got, "...") {
		t.Errorf("clip(%q) = %q, want valid UTF-8 of at most 40 bytes ending in ...", long, got)
	}
	if got := clip("a\nb"); got != "a" {
		t.Errorf("clip(a\\nb) = %q, want its first line", got)
	}
}

// TestCodexCallImplicit: an argv that is nothing but an envelope is read
// as apply_patch, in the formats that read calls' patches; one that is
// anything else is no patch.
func TestCodexCallImplicit(t *testing.T) {
	call := `{"command": ["*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch\n"], "workdir": "svc"}` + "\n"
	for _, f := range []edit.Format{edit.FormatAuto, edit.FormatJSON, edit.FormatCodex} {
		edits, errs := checkParse(t, []byte(call), f)
		if len(errs) != 0 || len(edits) != 1 || edits[0].Path != "svc/a.go" || edits[0].Old != "x\n" || edits[0].New != "y\n" || edits[0].Format != edit.FormatCodex {
			t.Errorf("%s: Parse = %+v, %v; want the envelope's replace of svc/a.go", f, edits, errs)
		}
	}
	for _, src := range []string{
		`{"command": ["ls"]}`,
		`{"command": ["echo *** Begin Patch"]}`,
	} {
		if edits, errs := checkParse(t, []byte(src+"\n"), edit.FormatAuto); len(edits) != 0 || len(errs) != 0 {
			t.Errorf("Parse(%s) = %+v, %v; want nothing", src, edits, errs)
		}
	}
	// A truncated envelope is the patch's error, never a silent no-op.
	cut := `{"command": ["*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n"]}` + "\n"
	if edits, errs := checkParse(t, []byte(cut), edit.FormatAuto); len(edits) != 0 || len(errs) != 1 {
		t.Errorf("Parse(%s) = %+v, %v; want one PARSE_ERROR", cut, edits, errs)
	}
}
