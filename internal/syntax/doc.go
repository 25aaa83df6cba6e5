// Package syntax holds the lexical rules of the reply formats that both
// reading and writing them need: the marker lines of a SEARCH/REPLACE
// block and how its divider is found, Roo Code's preamble and the
// backslash that escapes a marker line, Markdown fences, path lines,
// unified diff file headers and git's header lines, the openers of XML
// tool calls, and the field names and lenient decoding of JSON tool
// calls.
//
// Package parse reads replies with these rules; package normalize writes
// text that parse reads back the same, and so must spell things by the
// same rules. Each rule lives here once. The package is pure: it reads no
// file (a question only the working tree can settle comes in as a
// function, such as PathLineAt's inTree) and keeps no state.
package syntax
