package store

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
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

// Session is one secret token of a player, a guest's or an account's
// sign-in on one device: the SHA-256 of the token (the token itself is
// never stored), when it was made and last seen, and the device it was
// made on. Every token a player acts with is a session, so every one can
// be listed and ended.
type Session struct {
	ID        string // names the session to its player (never the token or its hash); a store fills it in when empty
	TokenHash string
	PlayerID  string
	Created   time.Time
	LastSeen  time.Time // updated at a bounded rate, not on every request; Created when zero
	Device    string    // what the device said it is (its User-Agent, cut short); "" if unknown
}

// MaxDevice is the longest Session.Device a store keeps, in bytes.
const MaxDevice = 200

// NewSessionID returns a new random session ID.
func NewSessionID() string {
	b := make([]byte, 9)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Prepare checks a new session and fills in its ID, times and device as
// they are to be stored.
func (s Session) Prepare(now time.Time) (Session, error) {
	if s.TokenHash == "" || s.PlayerID == "" {
		return s, Errorf(EINVALID, "a session needs a token hash and a player")
	}
	if s.ID == "" {
		s.ID = NewSessionID()
	}
	if s.Created.IsZero() {
		s.Created = now
	}
	if s.LastSeen.IsZero() {
		s.LastSeen = s.Created
	}
	s.Device = cutDevice(s.Device)
	return s, nil
}

// cutDevice keeps a device's description printable and at most
// MaxDevice bytes long, cut at a character's boundary.
func cutDevice(d string) string {
	d = strings.Map(func(r rune) rune {
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(d, ""))
	for len(d) > MaxDevice {
		_, n := utf8.DecodeLastRuneInString(d)
		d = d[:len(d)-n]
	}
	return d
}

// ErrOverLimit is wrapped by the error of a write refused because a bound
// its caller gave is reached (SpendChallenge's max a player).
var ErrOverLimit = errors.New("store: over the limit")

// EndedToken is what a player's TokenHash becomes in a store once the
// session of the token it was made with has ended: no token hashes to it.
// Stores keep it so, and read it back as "".
func EndedToken(playerID string) string { return "ended:" + playerID }

var fold = cases.Fold()

// NameKey is the form in which account names must differ: case-folded,
// spaces collapsed, so that "Ann" and "ann " are one name.
func NameKey(name string) string {
	return fold.String(strings.Join(strings.Fields(name), " "))
}

// NameLooks returns the two skeletons of a name: the forms two names
// that look alike share, so that an account called "Victim" keeps out
// "Vіctim" (a Cyrillic і), "Ｖｉｃｔｉｍ" (fullwidth) and "VICTIM".
// Two account names may share neither skeleton (nor their NameKey).
//
// A skeleton is UTS #39's (Unicode's confusables.txt, through
// github.com/mtibben/confusables): characters that look alike are mapped
// to one of them. Case folding and look-alikes do not commute (a capital
// I looks like l, its small i does not; a Greek ν looks like v, its
// capital like N), so the first skeleton is taken of the name as written,
// folded and taken again (look-alikes among small letters, and names that
// differ only in case and look alike as written), and the second character
// by character of the name's capitals, after Unicode NFKC folds
// compatibility forms such as fullwidth letters (look-alikes among
// capitals, whatever case each name is written in).
func NameLooks(name string) (asWritten, inCapitals string) {
	name = strings.Join(strings.Fields(name), " ")
	asWritten = confusables.Skeleton(fold.String(confusables.Skeleton(name)))
	var b strings.Builder
	for _, r := range norm.NFD.String(fold.String(norm.NFKC.String(name))) {
		b.WriteString(confusables.Skeleton(fold.String(confusables.Skeleton(string(unicode.ToUpper(r))))))
	}
	return asWritten, norm.NFD.String(b.String())
}
