package parse

// codexRegion reads codex regions. Stub: replaced by the real reader.
var codexRegion = region{
	format: FormatCodex,
	starts: func(p *parser, i int) bool { return false },
	read:   func(p *parser, i int) int { return i + 1 },
}
