package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/farkle/farkle/store"
)

// Accounts: a guest becomes an account by adding a passkey (WebAuthn); the
// account signs in on any device with one of its passkeys, or once with
// its recovery code. A sign-in is a session: a secret token in the same
// cookie a guest's token lives in, stored hashed. docs/API.md, "Accounts".

// ceremonyTTL is how long a passkey ceremony may take between its begin
// and its finish.
const ceremonyTTL = 5 * time.Minute

// maxCeremonies bounds the ceremonies under way, so that begins nobody
// finishes cannot fill the database.
const maxCeremonies = 10000

// ceremony is a WebAuthn ceremony begun and not yet finished. It is kept
// in the store (as JSON) between the begin and the finish, so that the
// finish may reach another node than the begin; each is taken once, so a
// finish cannot be replayed.
type ceremony struct {
	Data   webauthn.SessionData `json:"data"`
	Player string               `json:"player,omitempty"` // the player adding a passkey; "" for a sign-in
	Name   string               `json:"name,omitempty"`   // the account name asked for (a guest's first passkey)
	Label  string               `json:"label,omitempty"`
}

// putCeremony keeps c under key for ceremonyTTL.
func (s *Server) putCeremony(ctx context.Context, key string, c ceremony) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	err = s.store.PutCeremony(ctx, key, data, s.opt.Now().Add(ceremonyTTL), maxCeremonies)
	if store.Code(err) == store.ECONFLICT {
		return store.Errorf(codeUnavailable, "too many passkey ceremonies under way: try again in a few minutes")
	}
	return err
}

// takeCeremony removes and returns the ceremony of key, if it is still
// under way.
func (s *Server) takeCeremony(ctx context.Context, key string) (ceremony, bool) {
	var c ceremony
	data, err := s.store.TakeCeremony(ctx, key)
	if err != nil || json.Unmarshal(data, &c) != nil {
		return ceremony{}, false
	}
	return c, true
}

// waUser is a player as the WebAuthn library sees it: the player ID is
// the user handle a discoverable passkey gives back at sign-in.
type waUser struct {
	id, name string
	creds    []webauthn.Credential
}

func (u *waUser) WebAuthnID() []byte                         { return []byte(u.id) }
func (u *waUser) WebAuthnName() string                       { return u.name }
func (u *waUser) WebAuthnDisplayName() string                { return u.name }
func (u *waUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// relyingParty returns the WebAuthn relying party the request speaks to:
// the site of --public-url, else the host the request came to (a server
// on localhost). Passkeys are bound to its host name (the RP ID) and
// assertions are accepted only from its origin.
func (s *Server) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	origin := ""
	if s.opt.PublicURL != "" {
		u, err := originOf(s.opt.PublicURL)
		if err != nil {
			return nil, err
		}
		origin = u.String()
	} else {
		scheme := "http"
		if s.secureRequest(r) {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	host := strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://")
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if net.ParseIP(host) != nil {
		return nil, badRequest("passkeys need the site reached by a domain name (such as localhost), not by the address %s", host)
	}
	return webauthn.New(&webauthn.Config{RPID: host, RPDisplayName: "Farkle", RPOrigins: []string{origin}})
}

// userOf returns the player as a WebAuthn user with its passkeys.
func (s *Server) userOf(ctx context.Context, p store.Player) (*waUser, []store.Passkey, error) {
	keys, err := s.store.Passkeys(ctx, p.ID)
	if err != nil {
		return nil, nil, err
	}
	u := &waUser{id: p.ID, name: p.Name}
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal(k.Credential, &c); err != nil {
			return nil, nil, fmt.Errorf("server: passkey %s of %s: %w", k.ID, p.ID, err)
		}
		u.creds = append(u.creds, c)
	}
	return u, keys, nil
}

// passkeyRefused is the error of a WebAuthn response that does not verify:
// its cause goes to the log, the client learns only that it was refused.
func (s *Server) passkeyRefused(what string, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		s.log.Info("passkey refused", "what", what, "err", pe.Details, "info", pe.DevInfo)
	} else {
		s.log.Info("passkey refused", "what", what, "err", err)
	}
	return store.Errorf(store.EINVALID, "%s: the passkey's answer was refused", what)
}

type passkeyView struct {
	ID      string     `json:"id"`
	Label   string     `json:"label"`
	Created time.Time  `json:"created"`
	Used    *time.Time `json:"used,omitempty"`
}

func passkeyViewOf(k store.Passkey) passkeyView {
	v := passkeyView{ID: k.ID, Label: k.Label, Created: k.Created.UTC()}
	if !k.Used.IsZero() {
		u := k.Used.UTC()
		v.Used = &u
	}
	return v
}

type accountView struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Account  bool          `json:"account"` // false: a guest, known only to this browser
	Passkeys []passkeyView `json:"passkeys"`
}

// handleAccount serves GET /api/account: the player, whether it is an
// account, and its passkeys.
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	out := accountView{ID: p.ID, Name: p.Name, Passkeys: []passkeyView{}}
	if _, err := s.store.Account(r.Context(), p.ID); err == nil {
		out.Account = true
		keys, err := s.store.Passkeys(r.Context(), p.ID)
		if err != nil {
			s.httpError(w, err)
			return
		}
		out.Passkeys = viewsOf(keys, passkeyViewOf)
	} else if store.Code(err) != store.ENOTFOUND {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handlePasskeyBegin serves POST /api/account/passkeys/begin: the options
// for navigator.credentials.create. A guest's first passkey makes it an
// account under the name asked for (its own by default), which no other
// account may have.
func (s *Server) handlePasskeyBegin(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name  string `json:"name,omitempty"`
		Label string `json:"label,omitempty"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	u, keys, err := s.userOf(r.Context(), p)
	if err != nil {
		s.httpError(w, err)
		return
	}
	c := ceremony{Player: p.ID}
	if _, err := s.store.Account(r.Context(), p.ID); store.Code(err) == store.ENOTFOUND {
		if body.Name == "" {
			body.Name = p.Name
		}
		if c.Name, err = CleanName(body.Name); err != nil {
			s.httpError(w, err)
			return
		}
		if a, err := s.store.AccountByName(r.Context(), c.Name); err == nil && a.PlayerID != p.ID {
			s.httpError(w, store.Errorf(store.ECONFLICT, "name: %s is taken by another account", c.Name))
			return
		}
		u.name = c.Name
	} else if err != nil {
		s.httpError(w, err)
		return
	}
	c.Label = fmt.Sprintf("Passkey %d", len(keys)+1)
	if body.Label != "" {
		if c.Label, err = CleanName(body.Label); err != nil {
			s.httpError(w, badRequest("label: %s", strings.TrimPrefix(clientMessage(err), "name: ")))
			return
		}
	}
	var exclude []protocol.CredentialDescriptor
	for _, cr := range u.creds {
		exclude = append(exclude, cr.Descriptor())
	}
	opts, data, err := rp.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationPreferred}),
		webauthn.WithExclusions(exclude), webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
	if err != nil {
		s.httpError(w, err)
		return
	}
	c.Data = *data
	if err := s.putCeremony(r.Context(), "add:"+p.ID, c); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, opts)
}

// recoveryCode returns a new recovery code: 100 random bits in four
// groups of five letters and digits.
func recoveryCode() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	c := base32.StdEncoding.EncodeToString(b)[:20]
	return c[0:5] + "-" + c[5:10] + "-" + c[10:15] + "-" + c[15:20]
}

// recoveryHash returns the stored form of a recovery code as typed:
// spaces and dashes left out, letters in capitals.
func recoveryHash(code string) string {
	code = strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToUpper(code))
	return hashToken(code)
}

// handlePasskeyFinish serves POST /api/account/passkeys/finish with the
// new credential: it is verified against the ceremony begun (once), and
// stored. A guest's first passkey creates the account: the answer then
// carries the recovery code, shown this once and stored hashed.
func (s *Server) handlePasskeyFinish(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Credential json.RawMessage `json:"credential"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	c, ok := s.takeCeremony(r.Context(), "add:"+p.ID)
	if !ok {
		s.httpError(w, store.Errorf(store.ECONFLICT, "no passkey is being added: begin again"))
		return
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(body.Credential)
	if err != nil {
		s.httpError(w, s.passkeyRefused("passkey", err))
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	u, _, err := s.userOf(r.Context(), p)
	if err != nil {
		s.httpError(w, err)
		return
	}
	cred, err := rp.CreateCredential(u, c.Data, parsed)
	if err != nil {
		s.httpError(w, s.passkeyRefused("passkey", err))
		return
	}
	cj, _ := json.Marshal(cred)
	now := s.opt.Now()
	key := store.Passkey{ID: base64.RawURLEncoding.EncodeToString(cred.ID), PlayerID: p.ID, Label: c.Label, Credential: cj, Created: now}
	out := struct {
		Passkey      passkeyView `json:"passkey"`
		Name         string      `json:"name"`
		RecoveryCode string      `json:"recovery_code,omitempty"`
	}{Passkey: passkeyViewOf(key), Name: p.Name}
	if c.Name != "" {
		code := recoveryCode()
		err = s.store.CreateAccount(r.Context(), store.Account{PlayerID: p.ID, Name: c.Name, RecoveryHash: recoveryHash(code), Created: now}, key)
		out.RecoveryCode, out.Name = code, c.Name
	} else {
		err = s.store.AddPasskey(r.Context(), key)
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.log.Info("passkey added", "player", p.ID, "account_created", c.Name != "")
	writeJSON(w, http.StatusCreated, out)
}

// handlePasskeyRemove serves DELETE /api/account/passkeys/{id}.
func (s *Server) handlePasskeyRemove(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if err := s.store.RemovePasskey(r.Context(), p.ID, r.PathValue("id")); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "removed"})
}

// handleSignInBegin serves POST /api/account/signin/begin: the options for
// navigator.credentials.get with any passkey of this site (the passkey
// names its account), and the ceremony's key to send back.
func (s *Server) handleSignInBegin(w http.ResponseWriter, r *http.Request) {
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	opts, data, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		s.httpError(w, err)
		return
	}
	key := randomID(18)
	if err := s.putCeremony(r.Context(), "signin:"+key, ceremony{Data: *data}); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ceremony  string `json:"ceremony"`
		PublicKey any    `json:"publicKey"`
	}{key, opts.Response})
}

// handleSignInFinish serves POST /api/account/signin/finish with the
// assertion: verified once against the ceremony's challenge, this site's
// origin and the passkey's public key and counter, it signs the browser in
// (a new session) in place of whatever guest it had.
func (s *Server) handleSignInFinish(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Ceremony   string          `json:"ceremony"`
		Credential json.RawMessage `json:"credential"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	c, ok := s.takeCeremony(r.Context(), "signin:"+body.Ceremony)
	if !ok {
		s.httpError(w, store.Errorf(store.ECONFLICT, "this sign-in was already used or has expired: begin again"))
		return
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(body.Credential)
	if err != nil {
		s.httpError(w, s.passkeyRefused("sign-in", err))
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	var player store.Player
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		k, err := s.store.Passkey(r.Context(), base64.RawURLEncoding.EncodeToString(rawID))
		if err != nil {
			return nil, err
		}
		if k.PlayerID != string(userHandle) {
			return nil, errors.New("the passkey belongs to another account")
		}
		if player, err = s.store.Player(r.Context(), k.PlayerID); err != nil {
			return nil, err
		}
		u, _, err := s.userOf(r.Context(), player)
		return u, err
	}
	_, cred, err := rp.ValidatePasskeyLogin(handler, c.Data, parsed)
	if err != nil {
		s.httpError(w, s.passkeyRefused("sign-in", err))
		return
	}
	if cred.Authenticator.CloneWarning {
		s.httpError(w, s.passkeyRefused("sign-in", errors.New("the signature counter went back: a cloned passkey or a replayed answer")))
		return
	}
	cj, _ := json.Marshal(cred)
	if err := s.store.UsePasskey(r.Context(), base64.RawURLEncoding.EncodeToString(cred.ID), cj, s.opt.Now()); err != nil {
		s.httpError(w, err)
		return
	}
	s.signIn(w, r, player, "")
}

// signIn starts a session for the player on this browser: a new token in
// the cookie, stored hashed. recovery, when set, is a new recovery code to
// show once.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request, p store.Player, recovery string) {
	tok := randomID(32)
	if err := s.store.CreateSession(r.Context(), store.Session{TokenHash: hashToken(tok), PlayerID: p.ID, Created: s.opt.Now()}); err != nil {
		s.httpError(w, err)
		return
	}
	http.SetCookie(w, s.tokenCookie(r, tok, 365*24*3600))
	s.log.Info("signed in", "player", p.ID, "recovery", recovery != "")
	writeJSON(w, http.StatusOK, struct {
		playerView
		Token        string `json:"token"`
		RecoveryCode string `json:"recovery_code,omitempty"`
	}{playerView{p.ID, p.Name}, tok, recovery})
}

// handleRecover serves POST /api/account/recover {"name","code"}: the
// account's recovery code signs the browser in, once; the answer carries
// the account's next recovery code, to be kept as the first was.
func (s *Server) handleRecover(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
		Code string `json:"code"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	wrong := store.Errorf(store.ENOTFOUND, "no account has that name and recovery code (a code works once)")
	a, err := s.store.AccountByName(r.Context(), body.Name)
	if store.Code(err) == store.ENOTFOUND {
		s.httpError(w, wrong)
		return
	} else if err != nil {
		s.httpError(w, err)
		return
	}
	h := recoveryHash(body.Code)
	if a.RecoveryHash == "" || subtle.ConstantTimeCompare([]byte(h), []byte(a.RecoveryHash)) != 1 {
		s.httpError(w, wrong)
		return
	}
	next := recoveryCode()
	if err := s.store.ReplaceRecovery(r.Context(), a.PlayerID, h, recoveryHash(next)); err != nil {
		if store.Code(err) == store.ECONFLICT {
			err = wrong
		}
		s.httpError(w, err)
		return
	}
	p, err := s.store.Player(r.Context(), a.PlayerID)
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.signIn(w, r, p, next)
}
