package store

import (
	"encoding/json"
	"strings"
	"time"

	"golang.org/x/text/cases"
)

// Account is a player who keeps its identity with passkeys instead of one
// browser's cookie: its name, unique among accounts, and the hash of its
// one-time recovery code. A guest becomes an account by adding its first
// passkey; other identities (an SSH key, say) may point at the same
// player.
type Account struct {
	PlayerID     string
	Name         string
	RecoveryHash string // SHA-256 of the recovery code; "" once used and not replaced
	Created      time.Time
}

// Passkey is one WebAuthn credential of an account.
type Passkey struct {
	ID       string // the credential ID, base64url without padding
	PlayerID string
	Label    string // what the player calls it ("Passkey 1", "phone")
	// Credential is the verified credential as the WebAuthn library
	// keeps it (public key, signature counter, flags), as JSON.
	Credential json.RawMessage
	Created    time.Time
	Used       time.Time // the last sign-in with it; zero if none yet
}

// Session is a sign-in of an account on one device: the SHA-256 of the
// secret token its cookie holds, as for a guest's own token.
type Session struct {
	TokenHash string
	PlayerID  string
	Created   time.Time
}

var fold = cases.Fold()

// NameKey is the form in which account names must differ: case-folded,
// spaces collapsed, so that "Ann" and "ann " are one name.
func NameKey(name string) string {
	return fold.String(strings.Join(strings.Fields(name), " "))
}
