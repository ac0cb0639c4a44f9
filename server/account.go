package server

import (
	"bytes"
	"context"
	"crypto/subtle"
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
	Sessions []sessionView `json:"sessions"`
}

// handleAccount serves GET /api/account: the player, whether it is an
// account, its passkeys and its sessions (this one marked current).
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) {
	p, cur, err := s.sessionOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	out := accountView{ID: p.ID, Name: p.Name, Passkeys: []passkeyView{}}
	if out.Sessions, err = s.sessionViews(r.Context(), p.ID, cur); err != nil {
		s.httpError(w, err)
		return
	}
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
	c := ceremony{Kind: ceremonyAdd, RPID: rp.Config.RPID, Player: p.ID}
	if _, err := s.store.Account(r.Context(), p.ID); store.Code(err) == store.ENOTFOUND {
		if body.Name == "" {
			body.Name = strings.TrimSuffix(p.Name, guestSuffix)
		}
		if c.Name, err = CleanName(body.Name); err != nil {
			s.httpError(w, err)
			return
		}
		if a, err := s.store.AccountLike(r.Context(), c.Name); err == nil && a.PlayerID != p.ID {
			s.httpError(w, &fieldError{Field: "name", Msg: fmt.Sprintf("%s is taken by another account, or looks like the name of one (%s): choose another", c.Name, a.Name), Conflict: true, Reason: "taken"})
			return
		} else if err != nil && store.Code(err) != store.ENOTFOUND {
			s.httpError(w, err)
			return
		}
		u.name = c.Name
	} else if err != nil {
		s.httpError(w, err)
		return
	} else if max := s.opt.MaxPasskeys; max > 0 && len(keys) >= max {
		s.httpError(w, &quotaError{http.StatusConflict, store.ECONFLICT,
			fmt.Sprintf("you have %d passkeys, the most an account may have (passkeys-per-account %d): remove one first", len(keys), max)})
		return
	}
	c.Label = fmt.Sprintf("Passkey %d", len(keys)+1)
	if body.Label != "" {
		if c.Label, err = CleanName(body.Label); err != nil {
			s.httpError(w, badRequest("label: %s", strings.TrimPrefix(clientMessage(err), "name: ")))
			return
		}
	}
	token, challenge, err := s.sealCeremony(r.Context(), c)
	if err != nil {
		s.httpError(w, err)
		return
	}
	var exclude []protocol.CredentialDescriptor
	for _, cr := range u.creds {
		exclude = append(exclude, cr.Descriptor())
	}
	opts, _, err := rp.BeginRegistration(u, append(registrationOptions(challenge), webauthn.WithExclusions(exclude))...)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ceremony  string `json:"ceremony"`
		PublicKey any    `json:"publicKey"`
	}{token, opts.Response})
}

// registrationOptions are the options of a passkey's creation with the
// challenge: the same at the finish as at the begin, so that the finish
// rebuilds what the begin asked for.
func registrationOptions(challenge []byte) []webauthn.RegistrationOption {
	return []webauthn.RegistrationOption{
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationPreferred}),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation), withCreationChallenge(challenge)}
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
		Ceremony   string          `json:"ceremony"`
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
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	c, challenge, err := s.openCeremony(r.Context(), body.Ceremony, ceremonyAdd, rp.Config.RPID)
	if err == nil && c.Player != p.ID {
		err = store.Errorf(store.ECONFLICT, "this passkey ceremony was begun by another player: begin again")
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(body.Credential)
	if err != nil {
		s.httpError(w, s.passkeyRefused("passkey", err))
		return
	}
	u, _, err := s.userOf(r.Context(), p)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if c.Name != "" {
		u.name = c.Name
	}
	_, data, err := rp.BeginRegistration(u, registrationOptions(challenge)...)
	if err != nil {
		s.httpError(w, err)
		return
	}
	data.Expires = time.Unix(c.Expires, 0)
	cred, err := rp.CreateCredential(u, *data, parsed)
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
		Token        string      `json:"token,omitempty"`
	}{Passkey: passkeyViewOf(key), Name: p.Name}
	if c.Name != "" {
		// The guest's token ends with the account: the browser gets the
		// account's first session in its place.
		code := recoveryCode()
		tok, ses := s.newSession(r, p)
		err = s.store.CreateAccount(r.Context(), store.Account{PlayerID: p.ID, Name: c.Name, RecoveryHash: recoveryHash(code), Created: now}, key, ses)
		if err == nil {
			http.SetCookie(w, s.tokenCookie(r, tok, 365*24*3600))
			s.accounts.lookAlikes.Purge() // names that looked like none may look like this one now
		}
		out.RecoveryCode, out.Name, out.Token = code, c.Name, tok
	} else {
		err = s.store.AddPasskey(r.Context(), key, max(s.opt.MaxPasskeys, 0))
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
// names its account), and the ceremony token to send back. Nothing is
// stored (account_ceremony.go).
func (s *Server) handleSignInBegin(w http.ResponseWriter, r *http.Request) {
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	token, challenge, err := s.sealCeremony(r.Context(), ceremony{Kind: ceremonySignIn, RPID: rp.Config.RPID})
	if err != nil {
		s.httpError(w, err)
		return
	}
	opts, _, err := rp.BeginDiscoverableLogin(signInOptions(challenge)...)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ceremony  string `json:"ceremony"`
		PublicKey any    `json:"publicKey"`
	}{token, opts.Response})
}

// signInOptions are the options of a sign-in with the challenge, the
// same at the finish as at the begin.
func signInOptions(challenge []byte) []webauthn.LoginOption {
	return []webauthn.LoginOption{webauthn.WithUserVerification(protocol.VerificationPreferred), webauthn.WithChallenge(bytes.Clone(challenge))}
}

// handleSignInFinish serves POST /api/account/signin/finish with the
// assertion: verified against the ceremony's challenge, this site's
// origin and the passkey's public key and counter, and counted once, it
// signs the browser in (a new session) in place of whatever guest it had.
func (s *Server) handleSignInFinish(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Ceremony   string          `json:"ceremony"`
		Credential json.RawMessage `json:"credential"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	c, challenge, err := s.openCeremony(r.Context(), body.Ceremony, ceremonySignIn, rp.Config.RPID)
	if err != nil {
		s.httpError(w, err)
		return
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(body.Credential)
	if err != nil {
		s.httpError(w, s.passkeyRefused("sign-in", err))
		return
	}
	_, data, err := rp.BeginDiscoverableLogin(signInOptions(challenge)...)
	if err != nil {
		s.httpError(w, err)
		return
	}
	data.Expires = time.Unix(c.Expires, 0)
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
	_, cred, err := rp.ValidatePasskeyLogin(handler, *data, parsed)
	if err != nil {
		s.httpError(w, s.passkeyRefused("sign-in", err))
		return
	}
	// The signature verifies: the answer is the passkey's. It counts once
	// (a second finish with it is a replay, 409), whatever its counter.
	if err := s.spendChallenge(r.Context(), challenge, player.ID, time.Unix(c.Expires, 0)); err != nil {
		s.httpError(w, err)
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
	tok, ses := s.newSession(r, player)
	if err := s.store.CreateSession(r.Context(), ses, max(s.opt.MaxSessions, 0)); err != nil {
		s.httpError(w, err)
		return
	}
	s.signedIn(w, r, player, tok, "")
}

// spendChallenge records the sign-in challenge answered by the player's
// passkey, so that the answer counts once: 409 if it was used already,
// 429 (with Retry-After) past Options.SignInsPerAccount sign-ins of the
// account within a ceremony's life.
func (s *Server) spendChallenge(ctx context.Context, challenge []byte, playerID string, expires time.Time) error {
	max := max(s.opt.SignInsPerAccount, 0)
	err := s.store.SpendChallenge(ctx, base64.RawURLEncoding.EncodeToString(challenge), playerID, expires, max)
	switch {
	case store.Code(err) == store.ECONFLICT:
		return store.Errorf(store.ECONFLICT, "this sign-in was already used: begin again")
	case errors.Is(err, store.ErrOverLimit):
		return &retryError{http.StatusTooManyRequests, codeRateLimited,
			fmt.Sprintf("this account signed in %d times within %s, the most it may (signins-per-account %d): try again in a few minutes", max, ceremonyTTL, max), ceremonyTTL}
	}
	return err
}

// signedIn answers a sign-in: the new session's token in the cookie and
// in the body. recovery, when set, is a new recovery code to show once.
// The session whose token the request carried (the guest this browser
// had, say) ends: the cookie no longer holds it, and nothing else would.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request, p store.Player, tok, recovery string) {
	if old := tokenOf(r); old != "" && old != tok {
		if err := s.store.DeleteSession(r.Context(), hashToken(old)); err != nil {
			s.log.Warn("the replaced session did not end", "err", err)
		}
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
// account's recovery code signs the browser in, once, and signs every
// other device out; the answer carries the account's next recovery code,
// to be kept as the first was.
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
	h := recoveryHash(body.Code) // as typed: a code made before Crockford's alphabet (account_code.go)
	if hc := recoveryHash(crockfordNormal(body.Code)); subtle.ConstantTimeCompare([]byte(hc), []byte(a.RecoveryHash)) == 1 {
		h = hc
	}
	if a.RecoveryHash == "" || subtle.ConstantTimeCompare([]byte(h), []byte(a.RecoveryHash)) != 1 {
		s.httpError(w, wrong)
		return
	}
	p, err := s.store.Player(r.Context(), a.PlayerID)
	if err != nil {
		s.httpError(w, err)
		return
	}
	// The code proves the account, not any device: every earlier session
	// ends (a thief's among them) and this one starts, in one write.
	next := recoveryCode()
	tok, ses := s.newSession(r, p)
	if err := s.store.ReplaceRecovery(r.Context(), a.PlayerID, h, recoveryHash(next), ses); err != nil {
		if store.Code(err) == store.ECONFLICT {
			err = wrong
		}
		s.httpError(w, err)
		return
	}
	s.signedIn(w, r, p, tok, next)
}
