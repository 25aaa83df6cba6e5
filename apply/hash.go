package apply

import (
	"crypto/sha256"
	"encoding/hex"
)

// HashBytes returns the lowercase hex SHA-256 of b, as sha256sum prints it.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
