package server

import (
	"net/http"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

// Invitations: a new table may keep a seat for a named account
// ({"type":"invite","name":"Bea"}); only Bea may take it, and her home
// page lists the invitation among her games until she does.

// inviteSeat returns the seat kept for the account named name.
func (s *Server) inviteSeat(r *http.Request, name string) (store.Seat, error) {
	a, err := s.store.AccountByName(r.Context(), name)
	if store.Code(err) == store.ENOTFOUND {
		return store.Seat{}, badRequest("no account is named %q: invitations are for accounts (a guest joins by the link)", name)
	}
	if err != nil {
		return store.Seat{}, err
	}
	if p, err := s.playerOf(r); err == nil && p.ID == a.PlayerID {
		return store.Seat{}, badRequest("you cannot invite yourself: take a \"me\" seat")
	}
	return store.Seat{Name: a.Name, Invited: a.PlayerID}, nil
}

// invitations returns the waiting tables with a seat kept for the player,
// as lines of its games.
func (s *Server) invitations(player string, c *lang.Catalogue) []gameLine {
	s.mu.Lock()
	var tables []*table
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	var out []gameLine
	for _, t := range tables {
		t.mu.Lock()
		if t.meta.Status == store.Waiting {
			for i, seat := range t.meta.Seats {
				if seat.Invited == player && seat.PlayerID == "" {
					l := t.line(player, c)
					l.Seat, l.Invited = i, true
					out = append(out, l)
					break
				}
			}
		}
		t.mu.Unlock()
	}
	return out
}
