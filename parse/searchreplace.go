package parse

// searchReplaceRegion reads searchreplace regions. Stub: replaced by the real reader.
var searchReplaceRegion = region{
	format: FormatSearchReplace,
	starts: func(p *parser, i int) bool { return false },
	read:   func(p *parser, i int) int { return i + 1 },
}
