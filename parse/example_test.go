package parse_test

import (
	"fmt"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
)

// A reply mixes prose with edits; Parse returns the edits, in order, and
// nothing for the prose.
func ExampleParse() {
	reply := "Rename the greeting:\n" +
		"\n" +
		"greet.go\n" +
		"```go\n" +
		"<<<<<<< SEARCH\n" +
		"	return \"Hello, \" + name\n" +
		"=======\n" +
		"	return \"Hi, \" + name\n" +
		">>>>>>> REPLACE\n" +
		"```\n" +
		"\n" +
		"And add a note:\n" +
		"\n" +
		"NOTES.md\n" +
		"```\n" +
		"<<<<<<< SEARCH\n" +
		"=======\n" +
		"Greetings are short.\n" +
		">>>>>>> REPLACE\n" +
		"```\n"
	edits, errs := parse.Parse(reply, parse.Options{})
	for _, e := range edits {
		fmt.Printf("%s %s (%s, reply line %d): %q -> %q\n", e.Op, e.Path, e.Format, e.Line, e.Old, e.New)
	}
	fmt.Println("errors:", len(errs))
	// Output:
	// replace greet.go (search-replace, reply line 3): "\treturn \"Hello, \" + name\n" -> "\treturn \"Hi, \" + name\n"
	// create NOTES.md (search-replace, reply line 14): "" -> "Greetings are short.\n"
	// errors: 0
}

// A block left open, as in a reply cut off mid-edit, is a PARSE_ERROR with
// the reply's line, never a silent no-op.
func ExampleParse_truncated() {
	reply := "a.txt\n" +
		"<<<<<<< SEARCH\n" +
		"alpha\n" +
		"=======\n" +
		"ALPHA\n"
	edits, errs := parse.Parse(reply, parse.Options{Format: edit.FormatSearchReplace})
	fmt.Println("edits:", len(edits))
	for _, e := range errs {
		fmt.Printf("%s at reply line %d\n", e.Code, e.Line)
	}
	// Output:
	// edits: 0
	// PARSE_ERROR at reply line 2
}
