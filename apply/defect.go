package apply

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/edapply/edapply/edit"
)

// guarded runs plan, a step of planning or of the check before commit,
// and returns the INTERNAL error of a panic in it instead of letting the
// panic end the caller: nothing is written before those steps end, so a
// defect of edapply costs the reply, never the program (an agent's MCP
// server, a harness that imports the package). Commit is not guarded: a
// panic there is the journal's to undo.
func guarded(plan func()) (defect *edit.Error) {
	defer func() {
		if v := recover(); v != nil {
			defect = defectErr(v)
		}
	}()
	plan()
	return nil
}

// defectErr is the INTERNAL error of a panic with value v, naming the
// function of edapply's it started in; called in the deferred function
// that recovered it, while the panicking frames are still on the stack.
func defectErr(v any) *edit.Error {
	where := ""
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		fr, more := frames.Next()
		if name, ok := strings.CutPrefix(fr.Function, "github.com/edapply/edapply/"); ok {
			where = fmt.Sprintf(" at %s (%s:%d)", name, fr.File[strings.LastIndexByte(fr.File, '/')+1:], fr.Line)
			break
		}
		if !more {
			break
		}
	}
	return &edit.Error{Code: edit.CodeInternal, Edit: -1,
		Msg:  fmt.Sprintf("edapply failed%s: %v; a defect of edapply, nothing was written", where, v),
		Hint: "Send the edits again, fewer in each reply: the defect may lie in how they combine."}
}
