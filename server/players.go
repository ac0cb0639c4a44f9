package server

// Players: a guest's token and cookie, who the request is (GET /api/me)
// and a new guest (POST /api/players).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/farkle/farkle/store"
)

// CookieName is the cookie holding a guest's secret token.
const CookieName = "farkle_token"

// hashToken returns the stored form of a secret token.
func hashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// tokenOf returns the secret token the request carries: the cookie, or
// "Authorization: Bearer TOKEN". Empty: none.
func tokenOf(r *http.Request) string {
	tok := ""
	if c, err := r.Cookie(CookieName); err == nil {
		tok = c.Value
	}
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		tok = strings.TrimPrefix(h, "Bearer ")
	}
	return tok
}

// tokenCookie returns the cookie holding a guest's token: HttpOnly,
// SameSite=Strict (the pages' own requests carry it; no other site's
// do), Secure on an HTTPS site, for a year. A negative maxAge deletes it.
func (s *Server) tokenCookie(r *http.Request, tok string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: s.secureRequest(r), MaxAge: maxAge}
}

// cleanLine returns a line of text (a name, a chat line) with spaces
// collapsed, or an EINVALID error, prefixed with what, saying what it may
// be: 1 to max printable characters.
func cleanLine(what, text string, max int) (string, error) {
	if !utf8.ValidString(text) {
		return "", badRequest("%s: not valid UTF-8", what)
	}
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return "", badRequest("%s: empty (1 to %d characters)", what, max)
	}
	if n := utf8.RuneCountInString(text); n > max {
		return "", badRequest("%s: %d characters, at most %d", what, n, max)
	}
	for _, r := range text {
		if !unicode.IsPrint(r) {
			return "", badRequest("%s: %q is not a printable character", what, r)
		}
	}
	return text, nil
}

type playerView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// handleMe answers the guest of the request, or null (200) when it has
// none: a first visit is no error.
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if store.Code(err) == store.ENOTFOUND {
		writeJSON(w, http.StatusOK, nil)
		return
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	_, err = s.store.Account(r.Context(), p.ID)
	if err != nil && store.Code(err) != store.ENOTFOUND {
		s.httpError(w, err)
		return
	}
	me := meView{playerView: playerView{ID: p.ID, Name: p.Name}, Account: err == nil}
	if err := s.moderationOfMe(r, &me); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, me)
}

// handleNewPlayer creates a guest with a display name and sets its secret
// token in an HttpOnly, SameSite cookie (also returned once in the body for
// non-browser clients). A request that already carries a valid token is
// refused (409): the token is the only key to that player, so it is never
// replaced without an explicit sign-out.
func (s *Server) handleNewPlayer(w http.ResponseWriter, r *http.Request) {
	if p, err := s.playerOf(r); err == nil {
		writeJSON(w, http.StatusConflict, apiError{Error: fmt.Sprintf("you already are %s; sign out first (POST /api/signout)", p.Name), Code: store.ECONFLICT})
		return
	} else if store.Code(err) != store.ENOTFOUND {
		s.httpError(w, err)
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	name, err := CleanName(body.Name)
	if err == nil {
		err = s.guestNameFree(r.Context(), name)
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	tok := randomID(32)
	p := store.Player{ID: randomID(9), Name: name, TokenHash: hashToken(tok), Created: s.opt.Now()}
	if err := s.store.CreatePlayer(r.Context(), p); err != nil {
		s.httpError(w, err)
		return
	}
	http.SetCookie(w, s.tokenCookie(r, tok, 365*24*3600))
	s.log.Info("new player", "player", p.ID)
	writeJSON(w, http.StatusCreated, struct {
		playerView
		Token string `json:"token"`
	}{playerView{p.ID, p.Name}, tok})
}
