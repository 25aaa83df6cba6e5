package textenc

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/editorconfig/editorconfig-core-go/v2"
)

// An ecFile is one .editorconfig, parsed.
type ecFile struct {
	ec *editorconfig.Editorconfig // nil when it cannot be parsed: it says nothing
}

// A file of the tree may be hostile, and the library compiles a regular
// expression for each section at each match, writing each number of a
// numeric range ({1..N}) into it. So only the sections that set a charset
// are matched, an .editorconfig with more than maxSections of them
// declares nothing, and a section whose ranges span more than maxRange
// numbers matches nothing.
const (
	maxSections = 256
	maxRange    = 10000
)

var numericRange = regexp.MustCompile(`\{([+-]?\d+)\.\.([+-]?\d+)\}`)

// parseEditorconfig parses an .editorconfig's bytes, keeping the sections
// that set a charset (see maxSections).
func parseEditorconfig(data []byte) *ecFile {
	ec, _, err := editorconfig.ParseGraceful(bytes.NewReader(data))
	if err != nil || ec == nil {
		return &ecFile{}
	}
	defs := ec.Definitions[:0]
	for _, d := range ec.Definitions {
		if d.Charset != "" && rangeSpan(d.Selector) <= maxRange {
			defs = append(defs, d)
		}
	}
	if len(defs) > maxSections {
		return &ecFile{}
	}
	ec.Definitions = defs
	return &ecFile{ec: ec}
}

// rangeSpan is how many numbers the numeric ranges of selector span
// together; past maxRange when one cannot be read.
func rangeSpan(selector string) int64 {
	var n int64
	for _, m := range numericRange.FindAllStringSubmatch(selector, -1) {
		from, err1 := strconv.ParseInt(m[1], 10, 32)
		to, err2 := strconv.ParseInt(m[2], 10, 32)
		if err1 != nil || err2 != nil {
			return maxRange + 1
		}
		n += max(to-from, from-to) + 1
	}
	return n
}

// charset returns the charset this file sets for name, a path relative to
// the file's directory, and whether it sets one ("unset" included: it
// decides that none is declared).
func (f *ecFile) charset(name string) (string, bool) {
	if f.ec == nil {
		return "", false
	}
	def, err := f.ec.GetDefinitionForFilename(name)
	if err != nil || def == nil {
		return "", false
	}
	cs := strings.ToLower(strings.TrimSpace(def.Charset))
	switch cs {
	case "":
		return "", false
	case editorconfig.UnsetValue:
		return "", true
	case editorconfig.CharsetLatin1, editorconfig.CharsetUTF8, editorconfig.CharsetUTF8BOM,
		editorconfig.CharsetUTF16BE, editorconfig.CharsetUTF16LE:
		return cs, true
	}
	// Not a charset EditorConfig defines: editors ignore it.
	return "", false
}

func (f *ecFile) isRoot() bool { return f.ec != nil && f.ec.Root }
