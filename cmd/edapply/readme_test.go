package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeTour runs the README's tour as a user pastes it: every `$ `
// command of its console blocks, in order, in one bash session started at
// the repository's root (the first command builds bin/edapply), and
// compares what each prints with what the README shows. A shown line "[…]"
// stands for any run of lines. With -update the README's shown output is
// rewritten from what the commands print.
func TestReadmeTour(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not found")
	}
	const path = "../../README.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tour, err := parseTour(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	if len(tour.steps) < 5 {
		t.Fatalf("the README's tour has %d commands; want the whole tour", len(tour.steps))
	}
	outs := runTour(t, tour.steps)
	var fixed strings.Builder
	last := 0
	for i, st := range tour.steps {
		got := outs[i]
		if *update {
			fixed.WriteString(string(readme[last:st.outStart]))
			fixed.WriteString(keepElisions(st.want, got))
			last = st.outEnd
			continue
		}
		if !matchShown(st.want, got) {
			t.Errorf("README tour command\n\t$ %s\nprints\n%s\nbut the README shows\n%s", st.cmd, indent(got), indent(st.want))
		}
	}
	if *update {
		fixed.WriteString(string(readme[last:]))
		if err := os.WriteFile(path, []byte(fixed.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type tourStep struct {
	cmd              string // as shown, continuation lines included, without "$ "
	want             string // the lines shown after it, each ending in "\n"
	outStart, outEnd int    // the byte span of want in the README
}

type tour struct{ steps []tourStep }

// parseTour reads the console blocks of the README's "Tour" section.
func parseTour(readme string) (tour, error) {
	start := strings.Index(readme, "\n## Tour")
	if start < 0 {
		return tour{}, fmt.Errorf(`README.md has no "## Tour" section`)
	}
	end := strings.Index(readme[start+1:], "\n## ")
	if end < 0 {
		end = len(readme) - start - 1
	}
	end += start + 1
	var tr tour
	pos := start
	for {
		open := strings.Index(readme[pos:end], "```console\n")
		if open < 0 {
			return tr, nil
		}
		body := pos + open + len("```console\n")
		close := strings.Index(readme[body:end], "\n```")
		if close < 0 {
			return tr, fmt.Errorf("README.md: a console block of the tour is not closed")
		}
		blockEnd := body + close + 1
		tr.steps = append(tr.steps, parseBlock(readme, body, blockEnd)...)
		pos = blockEnd + 3
	}
}

var heredoc = regexp.MustCompile(`<<-?'?([A-Z]+)'?`)

// parseBlock splits readme[from:to], a console block's lines, into commands
// and the output shown after each.
func parseBlock(readme string, from, to int) []tourStep {
	var steps []tourStep
	i := from
	for i < to {
		line, next := lineAt(readme, i, to)
		if !strings.HasPrefix(line, "$ ") {
			i = next
			continue
		}
		cmd := strings.TrimPrefix(line, "$ ")
		i = next
		// A command goes on over a trailing backslash, a trailing pipe, or a here-document.
		for i < to && (strings.HasSuffix(cmd, "\\") || strings.HasSuffix(cmd, "|")) {
			line, next = lineAt(readme, i, to)
			cmd += "\n" + line
			i = next
		}
		if m := heredoc.FindStringSubmatch(cmd); m != nil {
			for i < to {
				line, next = lineAt(readme, i, to)
				cmd += "\n" + line
				i = next
				if line == m[1] {
					break
				}
			}
		}
		st := tourStep{cmd: cmd, outStart: i}
		for i < to {
			line, next = lineAt(readme, i, to)
			if strings.HasPrefix(line, "$ ") {
				break
			}
			i = next
		}
		st.outEnd = i
		st.want = readme[st.outStart:st.outEnd]
		steps = append(steps, st)
	}
	return steps
}

func lineAt(s string, i, to int) (string, int) {
	j := strings.IndexByte(s[i:to], '\n')
	if j < 0 {
		return s[i:to], to
	}
	return s[i : i+j], i + j + 1
}

// runTour runs the steps in one bash session and returns each one's output
// (stdout and stderr interleaved).
func runTour(t *testing.T, steps []tourStep) []string {
	var script strings.Builder
	script.WriteString("set +e\n")
	for i, st := range steps {
		// The marker keeps $? as the previous command left it, for a
		// step that shows it.
		fmt.Fprintf(&script, "tour_status=$?; echo '::tour-step %d::'; (exit $tour_status)\n%s\n", i, st.cmd)
	}
	fmt.Fprintf(&script, "echo '::tour-step %d::'\n", len(steps))
	cmd := exec.Command("bash", "--noprofile", "--norc")
	cmd.Dir = "../.."
	cmd.Stdin = strings.NewReader(script.String())
	// A user's terminal-less paste: no colour, no journal in their real
	// state directory, and the tour's scratch directory (mktemp -d) among
	// the test's own, which are removed with it.
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "XDG_STATE_HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the tour's shell failed: %v\n%s", err, out.String())
	}
	outs := make([]string, len(steps))
	rest := out.String()
	for i := range steps {
		open := fmt.Sprintf("::tour-step %d::\n", i)
		close := fmt.Sprintf("::tour-step %d::\n", i+1)
		a := strings.Index(rest, open)
		b := strings.Index(rest, close)
		if a < 0 || b < a {
			t.Fatalf("the tour stopped at command %d (%q):\n%s", i, steps[i].cmd, rest)
		}
		outs[i] = rest[a+len(open) : b]
		rest = rest[b:]
	}
	return outs
}

const elided = "[…]"

// matchShown reports whether got holds the shown lines, where a shown line
// "[…]" (alone, or at the start of a line) matches any run of lines.
func matchShown(shown, got string) bool {
	return matchLines(splitLines(shown), splitLines(got))
}

func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.HasPrefix(want[0], elided) {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchLines(want[1:], got[1:])
}

// keepElisions returns got, except that where the shown output elides
// lines with "[…]" and the rest still matches, the shown text is kept.
func keepElisions(shown, got string) string {
	if strings.Contains(shown, elided) && matchShown(shown, got) {
		return shown
	}
	if got != "" && !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	return got
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n\t")
}

func TestMatchShown(t *testing.T) {
	tests := []struct {
		shown, got string
		want       bool
	}{
		{"a\nb\n", "a\nb\n", true},
		{"a\nb\n", "a\nc\n", false},
		{"a\n[…]\nd\n", "a\nb\nc\nd\n", true},
		{"a\n[…] the rest\n", "a\n", true},
		{"a\n[…]\nd\n", "a\nb\nc\n", false},
		{"", "x\n", false},
	}
	for _, tt := range tests {
		if got := matchShown(tt.shown, tt.got); got != tt.want {
			t.Errorf("matchShown(%q, %q) = %v, want %v", tt.shown, tt.got, got, tt.want)
		}
	}
}
