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

// maxRange is the widest numeric range ({1..N}) a section of an
// .editorconfig may name: the library writes each number into a regular
// expression, and a file of the tree may be hostile.
const maxRange = 10000

var numericRange = regexp.MustCompile(`\{([+-]?\d+)\.\.([+-]?\d+)\}`)

// parseEditorconfig parses an .editorconfig's bytes; its sections whose
// numeric ranges are wider than maxRange are left out (they match nothing).
func parseEditorconfig(data []byte) *ecFile {
	ec, _, err := editorconfig.ParseGraceful(bytes.NewReader(data))
	if err != nil || ec == nil {
		return &ecFile{}
	}
	defs := ec.Definitions[:0]
	for _, d := range ec.Definitions {
		if !wideRange(d.Selector) {
			defs = append(defs, d)
		}
	}
	ec.Definitions = defs
	return &ecFile{ec: ec}
}

func wideRange(selector string) bool {
	for _, m := range numericRange.FindAllStringSubmatch(selector, -1) {
		from, err1 := strconv.ParseInt(m[1], 10, 32)
		to, err2 := strconv.ParseInt(m[2], 10, 32)
		if err1 != nil || err2 != nil || to-from > maxRange || from-to > maxRange {
			return true
		}
	}
	return false
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
