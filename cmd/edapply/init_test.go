package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// maxInitBytes bounds what one of edapply's packages allocates when the
// program starts: a few small tables. Every run of the command pays for
// every package's init, whichever subcommand it runs, so a regexp, a
// schema or a help text is made on first use instead.
const maxInitBytes = 16 << 10

// maxLibInitBytes bounds the same for the packages that read the reply
// and the files: their word lists are switch statements and literal
// slices, which cost nothing at start, not maps, which every run would
// build before it reads a byte of the reply.
const maxLibInitBytes = 1 << 10

// libPackages are the packages maxLibInitBytes holds.
var libPackages = map[string]bool{
	"github.com/edapply/edapply/apply": true, "github.com/edapply/edapply/parse": true,
	"github.com/edapply/edapply/locate": true, "github.com/edapply/edapply/edit": true,
	"github.com/edapply/edapply/report": true, "github.com/edapply/edapply/lint": true,
	"github.com/edapply/edapply/normalize": true, "github.com/edapply/edapply/internal/syntax": true,
	"github.com/edapply/edapply/internal/walk": true, "github.com/edapply/edapply/internal/linediff": true,
}

// TestPackageInitIsSmall runs this test binary, which links every package
// edapply and edapply-mcp do (TestMain makes it both), with the runtime's
// trace of package initialization, and checks what each of edapply's own
// packages allocates there.
func TestPackageInitIsSmall(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, out)
	}
	line := regexp.MustCompile(`(?m)^init (github\.com/edapply/edapply/\S+) @.*, (\d+) bytes, (\d+) allocs$`)
	seen := 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		seen++
		limit := maxInitBytes
		if libPackages[m[1]] {
			limit = maxLibInitBytes
		}
		if n, _ := strconv.Atoi(m[2]); n > limit {
			t.Errorf("package %s allocates %d bytes (%s allocations) when the program starts, more than %d", m[1], n, m[3], limit)
		}
	}
	if seen == 0 || !strings.Contains(string(out), "init github.com/edapply/edapply/mcp ") {
		t.Fatalf("no init trace of edapply's packages (mcp among them) in the output:\n%s", out)
	}
}
