//go:build !unix

package apply

import "os"

// journalOpenFlags: where there is no O_NOFOLLOW or O_NONBLOCK, openJournal
// relies on its check of what it opened.
const journalOpenFlags = os.O_RDONLY

func isSymlinkErr(error) bool { return false }
