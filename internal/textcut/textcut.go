// Package textcut bounds the texts edapply answers with: a receipt, a
// diff, a quoted line. It is shared by report, the MCP server and the
// command, which each answer within Budget.
package textcut

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Budget is the most bytes one receipt takes, as JSON or as text: a
// reply of any size gets an answer a harness can receive (the MCP
// TypeScript client drops a message over 10 MiB and ends the session).
const Budget = 1 << 20

// BudgetName is Budget as the cut markers name it.
const BudgetName = "1 MiB"

// Cut returns s cut to at most n bytes (never inside a character), at a
// line break where one is near, followed by a line saying how many bytes
// were left out; s itself when it fits.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := len(Prefix(s, n))
	if nl := strings.LastIndexByte(s[:k], '\n'); nl >= 0 && nl >= k-k/4 {
		k = nl + 1
	}
	marker := fmt.Sprintf("… %d more bytes not shown (receipt cut at %s)", len(s)-k, BudgetName)
	if k > 0 && s[k-1] != '\n' {
		marker = "\n" + marker
	}
	return s[:k] + marker + "\n"
}

// Prefix is the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
