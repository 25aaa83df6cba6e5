package main

import (
	"github.com/spf13/cobra"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
)

// newCompletionCmd returns `edapply completion SHELL`, which prints cobra's
// completion script for the shell. The scripts ask the binary itself what
// to complete (the hidden `edapply __complete ARGS...`), so they stay right
// as flags change; the values they offer are registered below.
func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print the shell completion script for bash, zsh, fish or powershell",
		Long: `completion prints a script that teaches the shell to complete edapply's
commands, flags, --format and --color values, and file names. Install it
once per shell:

bash (needs the bash-completion package):

    mkdir -p ~/.local/share/bash-completion/completions
    edapply completion bash > ~/.local/share/bash-completion/completions/edapply

  or, for the current shell only: source <(edapply completion bash)

zsh (with compinit enabled in ~/.zshrc):

    mkdir -p ~/.zsh/completions
    edapply completion zsh > ~/.zsh/completions/_edapply
    # in ~/.zshrc, before compinit: fpath=(~/.zsh/completions $fpath)

  or, for the current shell only: source <(edapply completion zsh)

fish:

    mkdir -p ~/.config/fish/completions
    edapply completion fish > ~/.config/fish/completions/edapply.fish

powershell: add this line to your $PROFILE:

    edapply completion powershell | Out-String | Invoke-Expression

Start a new shell for the change to take effect.`,
		Example: `  edapply completion bash > ~/.local/share/bash-completion/completions/edapply
  source <(edapply completion zsh)`,
		ValidArgs:             []string{"bash", "zsh", "fish", "powershell"},
		Args:                  cli.UsageArgs(cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs)),
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(out)
			}
			return cli.Usagef("unknown shell %q", args[0]) // unreachable: OnlyValidArgs
		},
	}
}

// completeResponseFile completes the one RESPONSE_FILE argument of apply,
// parse and normalize with file names, and nothing after it.
func completeResponseFile(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveDefault
}

// completeFormat offers the --format names, each with what it reads.
func completeFormat(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var comps []string
	for _, f := range edit.Formats() {
		comps = append(comps, cobra.CompletionWithDesc(f.String(), f.About()))
	}
	return comps, cobra.ShellCompDirectiveNoFileComp
}

// completeColor offers the --color values.
func completeColor(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{
		cobra.CompletionWithDesc(string(colorAuto), "color a terminal unless NO_COLOR is set"),
		cobra.CompletionWithDesc(string(colorAlways), "always color"),
		cobra.CompletionWithDesc(string(colorNever), "never color"),
	}, cobra.ShellCompDirectiveNoFileComp
}
