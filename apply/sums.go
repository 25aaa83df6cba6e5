package apply

import (
	"crypto/sha256"
	"encoding/hex"
)

// hashChunks is HashBytes of the chunks' bytes in order.
func hashChunks(cs [][]byte) string {
	if len(cs) == 1 {
		return HashBytes(cs[0])
	}
	h := sha256.New()
	for _, b := range cs {
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
