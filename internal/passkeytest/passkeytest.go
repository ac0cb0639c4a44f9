// Package passkeytest is a software passkey authenticator for tests that
// drive the passkey routes without a browser (the abuse suite against the
// real binary): it answers a server's WebAuthn options as a browser with
// a platform authenticator would, with ES256 keys, "none" attestation,
// user presence and verification, and a signature counter that moves on
// every use. Its answers are the JSON of PublicKeyCredential.toJSON().
package passkeytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"
)

// Authenticator makes and uses passkeys for one site: its origin
// ("http://localhost:8080") and relying party ID ("localhost").
type Authenticator struct {
	Origin string
	RPID   string
}

// Key is one passkey: its credential ID, the user handle it was made for,
// its private key and its signature counter.
type Key struct {
	ID    []byte
	User  []byte
	priv  *ecdsa.PrivateKey
	Count uint32
}

var b64 = base64.RawURLEncoding

// options is what the authenticator reads of the server's options.
type options struct {
	Challenge string `json:"challenge"`
	User      struct {
		ID string `json:"id"`
	} `json:"user"`
}

// Create answers creation options (the "publicKey" of
// navigator.credentials.create) with a new passkey: the credential to
// send to the server, and the key.
func (a *Authenticator) Create(publicKey json.RawMessage) (map[string]any, *Key, error) {
	var o options
	if err := json.Unmarshal(publicKey, &o); err != nil {
		return nil, nil, err
	}
	user, err := b64.DecodeString(o.User.ID)
	if err != nil || o.Challenge == "" {
		return nil, nil, errors.New("passkeytest: options without a challenge or a user")
	}
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	k := &Key{ID: make([]byte, 16), User: user, priv: priv}
	_, _ = rand.Read(k.ID)
	pub, err := priv.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		return nil, nil, err
	}
	x, y := pub[1:33], pub[33:65]
	cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: x, -3: y}) // EC2, ES256, P-256
	if err != nil {
		return nil, nil, err
	}
	auth := a.authData(0x45, k.Count)        // UP, UV, AT
	auth = append(auth, make([]byte, 16)...) // AAGUID
	auth = binary.BigEndian.AppendUint16(auth, uint16(len(k.ID)))
	auth = append(append(auth, k.ID...), cose...)
	att, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": auth})
	if err != nil {
		return nil, nil, err
	}
	return map[string]any{
		"id": b64.EncodeToString(k.ID), "rawId": b64.EncodeToString(k.ID), "type": "public-key", "clientExtensionResults": map[string]any{},
		"authenticatorAttachment": "platform",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(a.clientData("webauthn.create", o.Challenge)),
			"attestationObject": b64.EncodeToString(att), "transports": []string{"internal"}},
	}, k, nil
}

// Get answers request options (the "publicKey" of
// navigator.credentials.get) with the passkey k: the assertion to send to
// the server. The counter moves first.
func (a *Authenticator) Get(publicKey json.RawMessage, k *Key) (map[string]any, error) {
	var o options
	if err := json.Unmarshal(publicKey, &o); err != nil {
		return nil, err
	}
	if o.Challenge == "" {
		return nil, errors.New("passkeytest: options without a challenge")
	}
	k.Count++
	auth := a.authData(0x05, k.Count) // UP, UV
	cd := a.clientData("webauthn.get", o.Challenge)
	sum := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte(nil), auth...), sum[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"id": b64.EncodeToString(k.ID), "rawId": b64.EncodeToString(k.ID), "type": "public-key", "clientExtensionResults": map[string]any{},
		"authenticatorAttachment": "platform",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(auth),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(k.User)},
	}, nil
}

// authData is the start of the authenticator data: the RP ID's hash, the
// flags and the counter.
func (a *Authenticator) authData(flags byte, count uint32) []byte {
	h := sha256.Sum256([]byte(a.RPID))
	return binary.BigEndian.AppendUint32(append(h[:], flags), count)
}

// clientData is the client data JSON a browser would sign.
func (a *Authenticator) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.Origin, "crossOrigin": false})
	return b
}

// String names the key for test messages.
func (k *Key) String() string {
	return fmt.Sprintf("passkey %s (counter %d)", b64.EncodeToString(k.ID), k.Count)
}
