package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

// Invitations: a new table may keep a seat for a named account
// ({"type":"invite","name":"Bea"}); only Bea may take it, and her home
// page lists the invitation among her games until she takes it, declines
// it or the table ends.
//
// They are bounded: a player may have at most Options.MaxInvitesSent open
// invitations it sent, and Options.MaxInvitesReceived kept for it (those of
// players it blocks not counted); past either, the new table is refused
// (429 quota). No answer tells whether an account has the name: an
// invitation to a name no account has makes the same table, its seat kept
// for a player nobody is (it waits and expires like any other), counted
// under that name. Bea may decline an invitation (the seat becomes free
// for anyone, and the table's watchers see it), or block the player who
// invited her: that player's invitations leave her list and her count, and
// the inviter is not told (its table waits as if the invitation stood).
// The invitations are read from the store's index of each player's open
// seats (store.Store.Invitations), never by looking at every table.

// unknownInvitee starts the kept-for key of a seat invited under a name
// no account has: no player ID starts with it, so nobody may take the seat.
const unknownInvitee = "?"

// inviteSeat returns the seat kept for the player named name: the account
// of that name, or, when there is none, a player nobody is; either way
// the seat shows the name as written. A name that is no valid name is
// refused (400 naming "name"); inviting oneself is refused.
func (s *Server) inviteSeat(r *http.Request, name string) (store.Seat, error) {
	name, err := CleanName(name)
	if err != nil {
		return store.Seat{}, err
	}
	key := unknownInvitee + store.NameKey(name)
	a, err := s.store.AccountByName(r.Context(), name)
	switch {
	case err == nil:
		key = a.PlayerID
	case store.Code(err) != store.ENOTFOUND:
		return store.Seat{}, err
	}
	if p, err := s.playerOf(r); err == nil && p.ID == key {
		return store.Seat{}, badRequest("you cannot invite yourself: take a \"me\" seat")
	}
	return store.Seat{Name: name, Invited: key}, nil
}

// invitePlayerSeat returns the seat kept for the player of the ID (a
// guest's too: a challenge from the player's page, whose ID the page
// shows), under the player's name. 400 if there is no such player or it
// is the caller.
func (s *Server) invitePlayerSeat(r *http.Request, id string) (store.Seat, error) {
	if len(id) > 64 {
		return store.Seat{}, badRequest("player: at most 64 characters")
	}
	p, err := s.store.Player(r.Context(), id)
	if store.Code(err) == store.ENOTFOUND {
		return store.Seat{}, badRequest("no player %q to invite", id)
	}
	if err != nil {
		return store.Seat{}, err
	}
	if me, err := s.playerOf(r); err == nil && me.ID == p.ID {
		return store.Seat{}, badRequest("you cannot invite yourself: take a \"me\" seat")
	}
	return store.Seat{Name: p.Name, Invited: p.ID}, nil
}

// admitInvitations refuses a new table of player p whose seats would take
// p past Options.MaxInvitesSent open invitations sent, or a player invited
// past Options.MaxInvitesReceived kept for it (429 quota). It runs where
// the table caps do (admit), so that parallel creations keep the caps.
func (s *Server) admitInvitations(ctx context.Context, p store.Player, seats []store.Seat) error {
	kept, names, n := map[string]int{}, map[string]string{}, 0
	for _, seat := range seats {
		if seat.Invited != "" && seat.PlayerID == "" {
			kept[seat.Invited]++
			names[seat.Invited] = seat.Name
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if max := s.opt.MaxInvitesSent; max > 0 {
		sent, err := s.store.CountInvitations(ctx, store.InvitationFilter{Inviter: p.ID})
		if err != nil {
			return err
		}
		if sent+n > max {
			return &quotaError{http.StatusTooManyRequests, codeQuota,
				fmt.Sprintf("you have %d open invitations, the most one player may have sent (max-invites-sent %d): wait until one is taken, declined or expires", sent, max)}
		}
	}
	if max := s.opt.MaxInvitesReceived; max > 0 {
		keys := make([]string, 0, len(kept))
		for k := range kept {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			have, err := s.store.CountInvitations(ctx, store.InvitationFilter{Invitee: k})
			if err != nil {
				return err
			}
			if have+kept[k] > max {
				return &quotaError{http.StatusTooManyRequests, codeQuota,
					fmt.Sprintf("%s has %d open invitations, the most one player may have (max-invites-received %d): invite them again later", names[k], have, max)}
			}
		}
	}
	return nil
}

// invitationsListed is how many invitations a player's list of games
// shows: as many as may be kept for it, or 100 without that cap.
func (s *Server) invitationsListed() int {
	if max := s.opt.MaxInvitesReceived; max > 0 {
		return max
	}
	return 100
}

// invitationLine returns the invitation of the waiting table t to player
// as a line of its games, with the player who invited, or false when t no
// longer keeps a free seat for the player. t.mu is held.
func (t *table) invitationLine(player string, c *lang.Catalogue) (gameLine, bool) {
	if t.meta.Status != store.Waiting {
		return gameLine{}, false
	}
	for _, seat := range t.meta.Seats {
		if seat.PlayerID == player { // seated already: the table is among its games
			return gameLine{}, false
		}
	}
	for i, seat := range t.meta.Seats {
		if seat.Invited == player && seat.PlayerID == "" && seat.Bot == "" {
			l := t.line(player, c)
			l.Seat, l.Invited = i, true
			if by := t.meta.Creator; by != "" {
				l.InvitedBy = &playerView{ID: by}
				for _, s := range t.meta.Seats {
					if s.PlayerID == by {
						l.InvitedBy.Name = s.Name
					}
				}
			}
			return l, true
		}
	}
	return gameLine{}, false
}

// inviteRoutes adds the routes of invitations and blocks.
func (s *Server) inviteRoutes(mux router) {
	mux.HandleFunc("POST /api/tables/{id}/decline", s.handleDecline)
	mux.HandleFunc("GET /api/me/blocks", s.handleBlocks)
	mux.HandleFunc("POST /api/me/blocks", s.handleBlock)
	mux.HandleFunc("DELETE /api/me/blocks/{id}", s.handleUnblock)
	mux.HandleFunc("GET /api/me/follows", s.handleFollows)          // follow.go
	mux.HandleFunc("POST /api/me/follows", s.handleFollow)          // follow.go
	mux.HandleFunc("DELETE /api/me/follows/{id}", s.handleUnfollow) // follow.go
}

// handleDecline serves POST /api/tables/{id}/decline: the caller declines
// the invitation of the table. Every seat kept for the caller there
// becomes an ordinary free seat, and the table's watchers are told.
func (s *Server) handleDecline(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	t.mu.Lock()
	freed, err := s.store.DeclineInvitation(ctx, t.id, p.ID)
	if err == nil {
		seats := append([]store.Seat(nil), t.meta.Seats...)
		for _, i := range freed {
			if i < len(seats) {
				seats[i] = store.Seat{Clock: seats[i].Clock}
			}
		}
		t.meta.Seats, t.meta.Updated = seats, s.opt.Now()
		for c := range t.clients {
			c.sendWelcome()
		}
	}
	t.mu.Unlock()
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": t.id, "seats": freed})
}

// blockView is a block as the API shows it.
type blockView struct {
	Player  string    `json:"player"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
}

// blocksListed is how many blocks GET /api/me/blocks shows: all a player
// may have, or 1000 without that cap.
func (s *Server) blocksListed() int {
	if max := s.opt.MaxBlocks; max > 0 {
		return max
	}
	return 1000
}

// handleBlocks serves GET /api/me/blocks: the players the caller blocks,
// the latest first.
func (s *Server) handleBlocks(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	bs, err := s.store.Blocks(r.Context(), p.ID, s.blocksListed())
	if err != nil {
		s.httpError(w, err)
		return
	}
	out := make([]blockView, len(bs))
	for i, b := range bs {
		out[i] = blockView{Player: b.Blocked, Name: b.Name, Created: b.Created.UTC()}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleBlock serves POST /api/me/blocks {"player":ID}: the caller blocks
// the player. Blocking again changes nothing; past Options.MaxBlocks the
// answer is 429 quota.
func (s *Server) handleBlock(w http.ResponseWriter, r *http.Request) {
	s.servePair(w, r, pairKind{verb: "block", flag: "max-blocks", max: s.opt.MaxBlocks}, func(ctx context.Context, me, other string) error {
		return s.store.Block(ctx, store.Block{Blocker: me, Blocked: other}, s.opt.MaxBlocks)
	})
}

// handleUnblock serves DELETE /api/me/blocks/{id}: the caller no longer
// blocks the player (no error if it did not).
func (s *Server) handleUnblock(w http.ResponseWriter, r *http.Request) {
	s.serveUnpair(w, r, "block", s.store.Unblock)
}
