package parse

// wholeRegion reads whole regions. Stub: replaced by the real reader.
var wholeRegion = region{
	format: FormatWhole,
	starts: func(p *parser, i int) bool { return false },
	read:   func(p *parser, i int) int { return i + 1 },
}
