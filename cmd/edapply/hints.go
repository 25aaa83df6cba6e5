package main

import (
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
)

// cliHints are the hints of the errors whose way out is one of this
// command's flags or subcommands; the library words them for every
// caller, naming none (see package remedy).
var cliHints = map[*remedy.Remedy]string{
	remedy.LockTimeout:   "Retry once it has finished, or wait longer with --lock-timeout.",
	remedy.ForceReadOnly: "The file is protected; leave it unchanged. A user who means the edit makes it writable first, or passes --force-readonly.",
	remedy.Encoding: "Write the lines the edit adds in ASCII, or declare the file's encoding (--encoding NAME, working-tree-encoding in .gitattributes, " +
		"or charset in .editorconfig) so that the text is converted to it.",
	remedy.RealEncoding: "Name the file's real encoding with --encoding NAME (latin1, cp1251, shift_jis, utf-16le, ...; --encoding utf-8 to edit it as UTF-8), " +
		"or correct its declaration (working-tree-encoding in .gitattributes, or charset in .editorconfig).",
	remedy.Undo:      "Run `edapply undo` to restore the files from the undo journal.",
	remedy.WholeFile: "Send a SEARCH/REPLACE block for the part you changed, or pass `-f whole` if the fence is meant to replace the whole file.",
	remedy.Hash:      "Give the file's SHA-256 as `edapply hash` prints it, or a prefix of at least 8 hex digits.",
}

// inCLIWords rewrites the hints of errs in the command line's words.
func inCLIWords(errs edit.ErrorList) { remedy.For(errs, cliHints) }
