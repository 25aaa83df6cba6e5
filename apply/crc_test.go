package apply

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/edit"
)

// TestCRCTablesOnlyForLargeApplies applies, each in a process of its own
// (the tables, once made, stay), one edit to a small file and one to a
// file of journal.TableMin bytes: only the second makes CRC-32C's hardware
// tables, and both journals undo.
func TestCRCTablesOnlyForLargeApplies(t *testing.T) {
	if size := os.Getenv("EDAPPLY_TEST_CRC_SIZE"); size != "" {
		n, _ := strconv.Atoi(size)
		root := t.TempDir()
		body := strings.Repeat("x", n) + "\nold\n"
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{Root: root, StateDir: t.TempDir(), NoSync: true}
		edits := []edit.Edit{{Op: edit.Replace, Path: "f.txt", Old: "old\n", New: "new\n"}}
		if res, err := Apply(context.Background(), edits, opts); err != nil || !res.OK {
			t.Fatalf("apply: %v", err)
		}
		if res, err := Undo(context.Background(), opts); err != nil || !res.OK {
			t.Fatalf("undo: %v", err)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != body {
			t.Fatalf("undo left %d bytes, want the %d it started with", len(b), len(body))
		}
		fmt.Printf("tables made: %v\n", journal.TablesMade())
		return
	}
	for _, c := range []struct {
		size int
		want bool
	}{{100, false}, {journal.TableMin, true}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCRCTablesOnlyForLargeApplies$", "-test.v")
		cmd.Env = append(os.Environ(), "EDAPPLY_TEST_CRC_SIZE="+strconv.Itoa(c.size))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%d-byte file: %v\n%s", c.size, err, out)
		}
		if want := fmt.Sprintf("tables made: %v\n", c.want); !strings.Contains(string(out), want) {
			t.Errorf("%d-byte file: want %q in the output:\n%s", c.size, want, out)
		}
	}
}
