package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/farkle/farkle/store"
)

// A player's relations to other players, each a pair (the caller, the
// player named): blocks (invite.go) and follows (follow.go). Both are
// made by POST {"player":ID} and undone by DELETE …/{id}, the same way:
// the ID bounded, the store's cap a 429 naming its flag.

// pairKind is a relation: its verb ("block") and the flag of its cap.
type pairKind struct {
	verb string
	flag string
	max  int
}

// servePair serves a POST {"player":ID} that makes the relation from the
// caller to the player with add: 400 naming player for an ID of 0 or more
// than 64 characters, the store's ECONFLICT (its cap) a 429 quota; it
// answers {"status":"blocked","player":ID}.
func (s *Server) servePair(w http.ResponseWriter, r *http.Request, k pairKind, add func(ctx context.Context, me, other string) error) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	var req struct {
		Player string `json:"player"`
	}
	if err := readJSON(r, &req); err != nil {
		s.httpError(w, err)
		return
	}
	if req.Player == "" || len(req.Player) > 64 {
		s.httpError(w, fieldErrorf("player", "the ID of the player to %s (1 to 64 characters)", k.verb))
		return
	}
	err = add(r.Context(), p.ID, req.Player)
	if store.Code(err) == store.ECONFLICT {
		err = &quotaError{http.StatusTooManyRequests, codeQuota,
			fmt.Sprintf("%s (%s %d): un%s one first", clientMessage(err), k.flag, k.max, k.verb)}
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": k.verb + "ed", "player": req.Player})
}

// serveUnpair serves a DELETE …/{id} that undoes the relation from the
// caller to the player with remove (no error if there was none).
func (s *Server) serveUnpair(w http.ResponseWriter, r *http.Request, verb string, remove func(ctx context.Context, me, other string) error) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if err := remove(r.Context(), p.ID, r.PathValue("id")); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "un" + verb + "ed", "player": r.PathValue("id")})
}
