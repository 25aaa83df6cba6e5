package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/edit"
)

// formatsDocPath is the Markdown copy of `edapply help formats`, which the
// README links.
const formatsDocPath = "../../docs/formats.md"

// formatsDoc is what docs/formats.md must hold: a title, then the topic.
func formatsDoc() string {
	return "# Edit formats\n\n" +
		"<!-- This page is the text of `edapply help formats` (cmd/edapply/formats.go); TestFormatsDoc keeps the two equal. -->\n\n" +
		formatsHelp()
}

// TestFormatsDoc fails when docs/formats.md and the help topic drift apart.
// With -update (defined by this package's script test) it rewrites the doc.
func TestFormatsDoc(t *testing.T) {
	want := formatsDoc()
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(formatsDocPath, []byte(want), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(formatsDocPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s differs from `edapply help formats`; run go test ./cmd/edapply -run TestFormatsDoc -update", formatsDocPath)
	}
}

// TestFormatsHelp runs the topic through cobra as `edapply help formats`
// and checks that every format and field the parser accepts is named.
func TestFormatsHelp(t *testing.T) {
	root := &cobra.Command{Use: "edapply", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(newFormatsHelpCmd())
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs([]string{"help", "formats"})
	if err := root.Execute(); err != nil {
		t.Fatalf("edapply help formats: %v", err)
	}
	got := out.String()
	for _, s := range []string{
		"search-replace", "udiff", "whole", "codex", "json", "diff-fenced",
		"<<<<<<< SEARCH", ">>>>>>> REPLACE", "@@ ... @@", "/dev/null",
		"------- SEARCH", "+++++++ REPLACE", ":start_line:", "<source>", `"insert_line"`, `"undo_edit"`,
		"*** Begin Patch", "*** Add File:", "*** Delete File:", "*** Update File:", "*** Move to:", "*** End of File", "*** End Patch",
		`"path"`, `"file_path"`, `"old_string"`, `"old_str"`, `"new_string"`, `"new_str"`, `"replace_all"`,
		"```", "--strict", "MULTIPLE_MATCHES", "already_applied",
		`"create"`, `"write"`, `"diff"`, "FILE_EXISTS", "the diff looks truncated", "No newline at end of file",
	} {
		if !strings.Contains(got, s) {
			t.Errorf("edapply help formats does not mention %q", s)
		}
	}
	// parse's table of formats names each one and heads its section.
	for _, f := range edit.Formats() {
		if !strings.Contains(got, " - "+f.String()+": "+f.About()+"\n") {
			t.Errorf("edapply help formats does not list %s with what it reads", f)
		}
		h := f.String() + ": " + f.About() + "\n"
		if f != edit.FormatAuto && !strings.Contains(got, "\n"+h+strings.Repeat("-", len(h)-1)+"\n") {
			t.Errorf("edapply help formats has no section headed %q", h)
		}
	}
	if strings.Contains(got, "§") {
		t.Errorf("edapply help formats shows an unexpanded § line")
	}
	if strings.Contains(got, "'''") {
		t.Errorf("edapply help formats shows ''' where a fence belongs")
	}
	// A topic, not a command: cobra lists it under "Additional help topics".
	if !newFormatsHelpCmd().IsAdditionalHelpTopicCommand() {
		t.Errorf("formats is not a help topic")
	}
}
