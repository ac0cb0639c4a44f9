package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"

	"github.com/farkle/farkle/store"
)

// Passkey ceremonies hold no state on the server between their begin and
// their finish: the begin hands out a ceremony token, its claims signed
// with the server's secret (an HMAC-SHA256 kept in the store, the same on
// every node), and the WebAuthn challenge is the SHA-256 of that token.
// The finish brings the token back; the signature and the expiry prove
// the server began it, whichever node did. So no number of begins from
// any number of addresses fills anything, and nobody is locked out.
//
// A sign-in's answer must count once: after it verifies, its challenge is
// spent in the store (SpendChallenge) until the ceremony would have
// expired, and a second finish with it is refused. Only a verified
// answer, signed by a passkey of the account, writes that record, and an
// account has at most Options.SignInsPerAccount of them at once. Adding
// a passkey needs no such record: the passkey's ID is unique, so the same
// answer cannot add it twice, and the ceremony is bound to its player.

// ceremonyTTL is how long a passkey ceremony may take between its begin
// and its finish.
const ceremonyTTL = 5 * time.Minute

// maxCeremonyToken is the longest ceremony token read back, in bytes.
const maxCeremonyToken = 1024

// The kinds of ceremony.
const (
	ceremonySignIn = "signin" // a sign-in with any passkey of the site
	ceremonyAdd    = "add"    // a passkey added to a player (a guest's first makes the account)
)

// ceremony is what a ceremony token says: signed, so a client can read it
// but not change it.
type ceremony struct {
	Kind    string `json:"k"`
	RPID    string `json:"r"` // the relying party (site host) it was begun for
	Expires int64  `json:"e"` // Unix seconds
	Nonce   []byte `json:"n"` // 16 random bytes: no two ceremonies share a challenge
	Player  string `json:"p,omitempty"`
	Name    string `json:"m,omitempty"` // the account name asked for (a guest's first passkey)
	Label   string `json:"l,omitempty"`
}

// accountState is the server's state of accounts: the ceremonies' key,
// read from the store once, and the accounts names look like (name.go).
type accountState struct {
	mu         sync.Mutex
	key        []byte
	lookAlikes *lookAlikes
}

// withAccountDefaults fills the zero fields of accounts and sessions.
func (o *Options) withAccountDefaults() {
	setDefault(&o.MaxSessions, 20)
	setDefault(&o.MaxPasskeys, 20)
	setDefault(&o.SignInsPerAccount, 30)
}

// ceremonyKey returns the key ceremonies are signed with: the store's
// secret "ceremony", the same for every node on the store.
func (s *Server) ceremonyKey(ctx context.Context) ([]byte, error) {
	s.accounts.mu.Lock()
	defer s.accounts.mu.Unlock()
	if s.accounts.key == nil {
		k, err := s.store.Secret(ctx, "ceremony")
		if err != nil {
			return nil, err
		}
		s.accounts.key = k
	}
	return s.accounts.key, nil
}

// sealCeremony fills in c's nonce and expiry and returns its token and
// the challenge the authenticator signs.
func (s *Server) sealCeremony(ctx context.Context, c ceremony) (token string, challenge []byte, err error) {
	key, err := s.ceremonyKey(ctx)
	if err != nil {
		return "", nil, err
	}
	c.Nonce = make([]byte, 16)
	_, _ = rand.Read(c.Nonce)
	c.Expires = s.opt.Now().Add(ceremonyTTL).Unix()
	body, _ := json.Marshal(c)
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	token = base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	sum := sha256.Sum256([]byte(token))
	return token, sum[:], nil
}

// openCeremony checks a ceremony token brought back to finish a ceremony
// of the kind for the relying party rpID: this server's signature, the
// kind, the site and the expiry. It returns what the token says and the
// challenge of the ceremony.
func (s *Server) openCeremony(ctx context.Context, token, kind, rpID string) (ceremony, []byte, error) {
	var c ceremony
	again := store.Errorf(store.ECONFLICT, "this passkey ceremony has expired (it has %s) or was begun elsewhere: begin again", ceremonyTTL)
	if token == "" {
		return c, nil, badRequest("ceremony: missing: send back the ceremony of the begin's answer")
	}
	if len(token) > maxCeremonyToken {
		return c, nil, badRequest("ceremony: %d bytes, at most %d", len(token), maxCeremonyToken)
	}
	b64, sig, ok := strings.Cut(token, ".")
	body, err1 := base64.RawURLEncoding.DecodeString(b64)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return c, nil, badRequest("ceremony: not a ceremony token of this server")
	}
	key, err := s.ceremonyKey(ctx)
	if err != nil {
		return c, nil, err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	if !hmac.Equal(mac.Sum(nil), got) || decodeStrict(body, &c) != nil {
		return c, nil, again
	}
	if c.Kind != kind || c.RPID != rpID || len(c.Nonce) != 16 || !s.opt.Now().Before(time.Unix(c.Expires, 0)) {
		return c, nil, again
	}
	sum := sha256.Sum256([]byte(token))
	return c, sum[:], nil
}

// withCreationChallenge is a registration option that sets the
// challenge (the library has one for sign-ins only).
func withCreationChallenge(challenge []byte) func(*protocol.PublicKeyCredentialCreationOptions) error {
	return func(o *protocol.PublicKeyCredentialCreationOptions) error {
		o.Challenge = bytes.Clone(challenge)
		return nil
	}
}

// retryError is a refusal that may pass later: its status (429 or 503),
// with Retry-After.
type retryError struct {
	status int
	code   string
	msg    string
	after  time.Duration
}

func (e *retryError) Error() string { return e.msg }

// writeRetryError answers err if it is a retryError; it reports whether
// it did.
func writeRetryError(w http.ResponseWriter, err error) bool {
	var re *retryError
	if !errors.As(err, &re) {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(max(re.after, time.Second)/time.Second)))
	writeJSON(w, re.status, apiError{Error: re.msg, Code: re.code})
	return true
}
