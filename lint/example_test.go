package lint_test

import (
	"fmt"

	"github.com/edapply/edapply/lint"
)

// A whole-file rewrite that kept the committed placeholder (an example in a
// doc comment) but replaced a function body with a new one, and left a
// REPLACE marker behind: only the new lines are reported.
func ExampleFile() {
	base := []byte(`package a

// Use it as:
//   // ...
func f() int { return 1 }
`)
	content := []byte(`package a

// Use it as:
//   // ...
func f() int {
	// ... existing code ...
}
>>>>>>> REPLACE
`)
	for _, f := range lint.File("a.go", content, base) {
		fmt.Println(f)
	}
	// Output:
	// a.go:6: elision: // ... existing code ...
	// a.go:8: search-replace-marker: >>>>>>> REPLACE
}
