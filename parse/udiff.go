package parse

// udiffRegion reads udiff regions. Stub: replaced by the real reader.
var udiffRegion = region{
	format: FormatUDiff,
	starts: func(p *parser, i int) bool { return false },
	read:   func(p *parser, i int) int { return i + 1 },
}
