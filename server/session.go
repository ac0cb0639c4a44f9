package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/mileusna/useragent"

	"github.com/farkle/farkle/store"
)

// Sessions: every secret token a player acts with, a guest's first as
// much as an account's sign-in on a device (or a token file of the
// terminal client), is a session in the store, so that each can be
// listed and ended. Signing out ends the session of the request; making
// an account ends the guest's token (the browser gets the account's
// first session); a recovery, and "sign out everywhere", end every other
// session of the account. A player keeps at most Options.MaxSessions,
// the least recently seen ended first. docs/API.md, "Accounts".

// sessionTouchEvery is how often a session's last seen time is written:
// at most once in this long, not on every request.
const sessionTouchEvery = 5 * time.Minute

// maxUserAgent is the most of a User-Agent read to describe a device.
const maxUserAgent = 512

// sessionOf returns the player whose token the request carries (the
// cookie, or "Authorization: Bearer TOKEN") and the session of that token,
// or ENOTFOUND. A guest whose name is or looks like an account's is named
// with guestSuffix. The session's last seen time moves forward at most
// once in sessionTouchEvery.
func (s *Server) sessionOf(r *http.Request) (store.Player, store.Session, error) {
	tok := tokenOf(r)
	if tok == "" {
		return store.Player{}, store.Session{}, store.Errorf(store.ENOTFOUND, "no player: choose a name first (POST /api/players)")
	}
	ses, p, err := s.store.SessionByToken(r.Context(), hashToken(tok))
	if err != nil {
		return p, ses, err
	}
	if now := s.opt.Now(); now.Sub(ses.LastSeen) >= sessionTouchEvery {
		if err := s.store.TouchSession(r.Context(), ses.TokenHash, now); err != nil {
			s.log.Warn("session not touched", "err", err)
		}
	}
	if p.Name, err = s.shownName(r.Context(), p); err != nil {
		return p, ses, err
	}
	return p, ses, nil
}

// playerOf returns the player of the request's session (sessionOf), or
// ENOTFOUND.
func (s *Server) playerOf(r *http.Request) (store.Player, error) {
	p, _, err := s.sessionOf(r)
	return p, err
}

// newSession returns a new secret token for the player and its session
// on the device of the request, to be stored.
func (s *Server) newSession(r *http.Request, p store.Player) (string, store.Session) {
	tok := randomID(32)
	return tok, store.Session{TokenHash: hashToken(tok), PlayerID: p.ID, Created: s.opt.Now(), Device: deviceOf(r.UserAgent())}
}

// deviceOf describes the device of a User-Agent in a few words that need
// no translation: the browser and the system ("Chrome · Linux",
// "Safari · iOS · iPhone"), else the program's first product token
// ("farkle/1.4", "curl/8.5.0"); "" if none.
func deviceOf(ua string) string {
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	ua = strings.ToValidUTF8(ua, "")
	u := useragent.Parse(ua)
	var parts []string
	for _, p := range []string{u.Name, u.OS, u.Device} {
		if p != "" && !strings.EqualFold(p, u.String) {
			parts = append(parts, p)
		}
	}
	if u.Name == "" || len(parts) < 2 {
		first, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
		return truncate(first, 60)
	}
	return strings.Join(parts, " · ")
}

type sessionView struct {
	ID       string    `json:"id"`
	Device   string    `json:"device"` // "" when unknown (a session made before devices were kept)
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"last_seen"` // to within a few minutes
	Current  bool      `json:"current"`   // the session of this request
}

// sessionViews lists the player's sessions, cur first (marked), then
// the others most recently seen first.
func (s *Server) sessionViews(ctx context.Context, playerID string, cur store.Session) ([]sessionView, error) {
	list, err := s.store.Sessions(ctx, playerID)
	if err != nil {
		return nil, err
	}
	out := []sessionView{}
	for _, x := range list {
		v := sessionView{ID: x.ID, Device: x.Device, Created: x.Created.UTC(), LastSeen: x.LastSeen.UTC(), Current: x.ID == cur.ID}
		if v.Current {
			out = append([]sessionView{v}, out...)
		} else {
			out = append(out, v)
		}
	}
	return out, nil
}

// handleSignOut serves POST /api/signout: the session of the request
// ends on the server (its token no longer works anywhere, a guest's as
// much as an account's) and the cookie is deleted. A guest's player stays
// in the database with its games, but nothing reaches it any more.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	if tok := tokenOf(r); tok != "" {
		if err := s.store.DeleteSession(r.Context(), hashToken(tok)); err != nil {
			s.httpError(w, err)
			return
		}
	}
	http.SetCookie(w, s.tokenCookie(r, "", -1))
	writeJSON(w, http.StatusOK, map[string]string{"status": "signed out"})
}

// handleEndSession serves DELETE /api/account/sessions/{id}: the player's
// session of that ID ends (the cookie too, if it is this one).
func (s *Server) handleEndSession(w http.ResponseWriter, r *http.Request) {
	p, cur, err := s.sessionOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	id := r.PathValue("id")
	if err := s.store.EndSession(r.Context(), p.ID, id); err != nil {
		s.httpError(w, err)
		return
	}
	if id == cur.ID {
		http.SetCookie(w, s.tokenCookie(r, "", -1))
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ended", "current": id == cur.ID})
}

// handleSignOutEverywhere serves POST /api/account/signout-everywhere:
// every session of the player but this one ends.
func (s *Server) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	p, cur, err := s.sessionOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	n, err := s.store.EndSessions(r.Context(), p.ID, cur.TokenHash)
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.log.Info("signed out everywhere", "player", p.ID, "ended", n)
	writeJSON(w, http.StatusOK, map[string]int{"ended": n})
}
