package server

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"github.com/farkle/farkle/store"
)

// Sanctions in force: a muted player may not chat; a banned one (or one
// whose address is in a banned range) may neither chat nor create, join
// or rematch a table, nor enter a tournament. Games under way go on (a
// moderator closes a table to end one). Every refusal says why and until
// when: a 403 with the code "banned", or a WebSocket error "muted" or
// "banned", never a silent failure. The sanctions are read from the store
// at each refused or allowed act, so that a moderator's action counts at
// once on every node.

// The codes of the refusals of sanctions.
const (
	codeMuted  = "muted"
	codeBanned = "banned"
)

// maxSanctionsRead is the most sanctions in force read for one check:
// a player has at most one mute and one ban at a time, and the ranges
// banned at once are at most maxRangeBans.
const maxSanctionsRead = maxRangeBans + 2

// sanctionView is a sanction as its player is told of it.
type sanctionView struct {
	Kind   store.SanctionKind `json:"kind"`
	Until  *time.Time         `json:"until,omitempty"` // none: until lifted
	Reason string             `json:"reason"`
}

func sanctionViewOf(x store.Sanction) sanctionView {
	return sanctionView{Kind: x.Kind, Reason: x.Reason, Until: utcOrNil(x.Until)}
}

// sanctionOn returns the sanction in force on the player (or on a range
// holding the address) that forbids chat (a mute or a ban), or, with
// banOnly, play (a ban); nil if none. A ban wins over a mute.
func (s *Server) sanctionOn(ctx context.Context, playerID string, addr netip.Addr, banOnly bool) (*store.Sanction, error) {
	list, err := s.store.Sanctions(ctx, store.SanctionFilter{PlayerID: playerID, At: s.opt.Now(), Limit: maxSanctionsRead})
	if err != nil {
		return nil, err
	}
	var found *store.Sanction
	for i := range list {
		x := &list[i]
		if !x.Covers(playerID, addr) || (banOnly && x.Kind != store.Ban) {
			continue
		}
		if found == nil || (x.Kind == store.Ban && found.Kind != store.Ban) {
			found = x
		}
	}
	return found, nil
}

// sanctionText says a sanction to its player: "you are muted until
// 2026-12-02 10:00 UTC: insults".
func sanctionText(x store.Sanction) string {
	what := "muted in chat"
	if x.Kind == store.Ban {
		what = "banned from playing and chatting"
	}
	until := "until a moderator lifts it"
	if !x.Until.IsZero() {
		until = "until " + x.Until.UTC().Format("2006-01-02 15:04 MST")
	}
	return fmt.Sprintf("you are %s %s: %s", what, until, x.Reason)
}

// bannedAnswer is the body of a 403 refusing a banned player.
type bannedAnswer struct {
	apiError
	Sanction sanctionView `json:"sanction"`
}

// unbanned wraps a handler of play (a new table, a seat, a rematch, a
// tournament) so that a banned player, or one from a banned range, is
// refused with 403 "banned", saying until when and why. A request without
// a player goes through: the handler refuses it as it does.
func (s *Server) unbanned(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := s.playerOf(r)
		if err != nil {
			next(w, r)
			return
		}
		x, err := s.sanctionOn(r.Context(), p.ID, s.clientAddr(r), true)
		if err != nil {
			s.httpError(w, err)
			return
		}
		if x != nil {
			writeJSON(w, http.StatusForbidden, bannedAnswer{apiError{Error: sanctionText(*x), Code: codeBanned}, sanctionViewOf(*x)})
			return
		}
		next(w, r)
	}
}

// sanctionMsg tells a WebSocket client the sanction in force on its
// player: sent after the welcome, when a moderator gives one, and as the
// answer to a refused chat line (with the line's id).
type sanctionMsg struct {
	Type     string       `json:"type"` // "error"
	Code     string       `json:"code"` // "muted" or "banned"
	Message  string       `json:"message"`
	Sanction sanctionView `json:"sanction"`
	ID       string       `json:"id,omitempty"`
}

func sanctionMsgOf(x store.Sanction, id string) sanctionMsg {
	code := codeMuted
	if x.Kind == store.Ban {
		code = codeBanned
	}
	return sanctionMsg{Type: "error", Code: code, Message: sanctionText(x), Sanction: sanctionViewOf(x), ID: id}
}

// tellPlayer sends v to every WebSocket connection of the player on this
// node.
func (s *Server) tellPlayer(playerID string, v any) {
	s.mu.Lock()
	var to []*client
	for c := range s.clients {
		if c.player != nil && c.player.ID == playerID {
			to = append(to, c)
		}
	}
	s.mu.Unlock()
	for _, c := range to {
		c.sendJSON(v)
	}
}
