package main

import (
	_ "embed"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/edit"
)

// newFormatsHelpCmd returns the "formats" help topic: a command with no Run,
// which cobra lists under "Additional help topics" and prints for
// `edapply help formats`. docs/formats.md holds the same text
// (TestFormatsDoc keeps them equal).
func newFormatsHelpCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "formats",
		Short: "The edit formats edapply reads, with an example of each",
	}
	// The text is made when the topic is shown, not on every run.
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long = formatsHelp()
		c.Parent().HelpFunc()(c, args)
	})
	return cmd
}

// formatsText is the topic's text: Markdown that reads as plain text in a
// terminal (setext headings, examples as indented code blocks).
//
//go:embed formats.txt
var formatsText string

// formatsHelp returns the topic's text, where what parse's table says of
// each format fills the list of names ("§names") and the heading of each
// format's section ("§udiff").
func formatsHelp() string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(formatsText, "\n") {
		name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "§")
		if !ok {
			b.WriteString(line)
			continue
		}
		for _, f := range edit.Formats() {
			switch {
			case name == "names":
				fmt.Fprintf(&b, " - %s: %s\n", f, f.About())
			case name == f.String():
				h := f.String() + ": " + f.About()
				fmt.Fprintf(&b, "%s\n%s\n", h, strings.Repeat("-", utf8.RuneCountInString(h)))
			}
		}
	}
	return b.String()
}
