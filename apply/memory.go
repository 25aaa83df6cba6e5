package apply

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/edapply/edapply/edit"
)

// memoryFactor is how many times the bytes of the files an apply reads
// plus its edits' text the apply holds at its peak, with room: each file's
// bytes as read, its new content, the journal's reference to the old, the
// locator's line index and the receipt's copies.
const memoryFactor = 8

// memoryLimit, when above 0, is the bytes an apply may hold at its peak
// in place of what the system has free: for tests of the refusal.
var memoryLimit int64

// memoryCheckMin is the fewest bytes (files plus edits) for which the
// system is asked how much memory is free: below it any machine that runs
// edapply has the room, and the question costs a few file reads.
const memoryCheckMin = 64 << 20

// checkMemory refuses, before any file is read, an apply whose files and
// edits cannot fit in the memory at hand (limit, or what the system has
// free when limit is 0): the process would otherwise be killed part way or
// die in the Go runtime, with no receipt. Sizes come from stat, so a file
// that cannot be stat'ed counts as empty: the planner reports it. sized,
// when not nil, is told the total.
func checkMemory(root *os.Root, edits []edit.Edit, limit int64, sized func(int64)) *edit.Error {
	var total int64
	seen := map[string]bool{}
	for _, e := range edits {
		total += int64(len(e.Old) + len(e.New))
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		if fi, err := root.Stat(e.Path); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	if sized != nil {
		sized(total)
	}
	if limit <= 0 {
		if total < memoryCheckMin {
			return nil
		}
		limit = freeMemory()
		if limit <= 0 {
			return nil // unknown: go ahead
		}
	}
	need := total * memoryFactor
	if need <= limit {
		return nil
	}
	return &edit.Error{Code: edit.CodeIO, Edit: -1,
		Msg:  fmt.Sprintf("not enough memory: the files and edits (%s) need about %s, and %s is free", mib(total), mib(need), mib(limit)),
		Hint: "Nothing was read or written. Send fewer or smaller files per reply, or run where more memory is free."}
}

func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", (n+1023)>>10)
	}
	return fmt.Sprintf("%d MiB", (n+1<<20-1)>>20)
}

// freeMemory returns the bytes this process may still allocate, as far as
// the system says: the smaller of the memory available to new work
// (/proc/meminfo's MemAvailable) and the room left under the cgroup's
// limit (cgroup v2 memory.max less memory.current). 0 when neither is
// known.
func freeMemory() int64 {
	var free int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
				if kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64); err == nil {
					free = kb << 10
				}
				break
			}
		}
	}
	if limit, cur := cgroupValue("memory.max"), cgroupValue("memory.current"); limit > 0 && cur >= 0 {
		if room := limit - cur; free == 0 || room < free {
			free = max(room, 1)
		}
	}
	return free
}

// cgroupValue reads name, a number, from this process's cgroup v2
// directory; -1 when absent, unlimited ("max") or unreadable.
func cgroupValue(name string) int64 {
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return -1
	}
	// cgroup v2: one line "0::/path".
	line, ok := strings.CutPrefix(strings.TrimSpace(string(cg)), "0::")
	if !ok || strings.Contains(line, "\n") {
		return -1
	}
	b, err := os.ReadFile("/sys/fs/cgroup" + line + "/" + name)
	if err != nil {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return -1
	}
	return n
}
