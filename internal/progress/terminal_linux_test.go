package progress

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens a new pseudo-terminal and returns its terminal end.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals:", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skip("unlockpt:", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skip("ptsname:", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("open the terminal:", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestProgressToTerminal: a terminal gets progress, unless the command's
// output is JSON.
func TestProgressToTerminal(t *testing.T) {
	tty := openTerminal(t)
	if got := To(tty, false); got != tty {
		t.Errorf("To(terminal) = %v, want the terminal", got)
	}
	if got := To(tty, true); got != nil {
		t.Errorf("To(terminal, json) = %v, want nil", got)
	}
}
