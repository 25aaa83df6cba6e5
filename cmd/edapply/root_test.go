package main

import (
	"bytes"
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// TestSubcommandNames: every subcommand's name is one of subcommandNames,
// so that newRootCmdFor builds the tree whenever an argument may reach it.
func TestSubcommandNames(t *testing.T) {
	for _, c := range newRootCmd().Commands() {
		for _, name := range append([]string{c.Name()}, c.Aliases...) {
			if !slices.Contains(subcommandNames, name) {
				t.Errorf("subcommand %q is not in subcommandNames: newRootCmdFor would not build it", name)
			}
		}
	}
}

// TestRootCmdFor runs argument lists that stop in cobra (help, version,
// completion, a bad flag, a subcommand's help) through the whole tree and
// through newRootCmdFor's, which must print and return the same.
func TestRootCmdFor(t *testing.T) {
	run := func(root *cobra.Command, args []string) (string, string) {
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs(args)
		err := root.Execute()
		return out.String(), errOut.String() + "\n" + errString(err)
	}
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"-nh"}, {"--help=true"}, {"--version"}, {"-v"}, {"-nv"}, {"--version=true"},
		{"--bogus"}, {"-n", "--bogus"},
		{"help"}, {"help", "formats"}, {"help", "parse"}, {"parse", "--help"}, {"undo", "-h"},
		{"completion", "bash"}, {"__complete", ""}, {"__complete", "--dr"}, {"__complete", "pa"},
		{"one.md", "two.md"},
	} {
		wantOut, wantErr := run(newRootCmd(), args)
		gotOut, gotErr := run(newRootCmdFor(args), args)
		if gotOut != wantOut || gotErr != wantErr {
			t.Errorf("edapply %q: with the tree newRootCmdFor builds\n%s\n%s\nwant\n%s\n%s", args, gotOut, gotErr, wantOut, wantErr)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
