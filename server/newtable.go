package server

// Making a table: POST /api/tables, from the request's rules and seats to
// the table stored, started and served.

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// newTableReq is the body of POST /api/tables.
type newTableReq struct {
	Rules json.RawMessage `json:"rules"` // a preset name, or a rule set as JSON (the fields of a rule file)
	Seats []seatReq       `json:"seats"`
	Clock *int            `json:"clock,omitempty"` // seconds to act at a table with people; 0: the server's default
	Rated bool            `json:"rated,omitempty"` // house rules move ratings (presets and Dragon Farkle always do)
	Pace  string          `json:"pace,omitempty"`  // a game at your own pace: "1h", "12h", "1d" or "3d" a decision (pace.go); none: live
}

// seatReq is one seat asked for: "me" (the caller), "human" (a friend who
// joins by link) or "bot" with a level.
type seatReq struct {
	Type  string `json:"type"`
	Level string `json:"level,omitempty"`
	Name  string `json:"name,omitempty"` // "invite": the account invited (invite.go)
	// Player: "invite" by the player's ID instead of a name, a guest's too
	// (a challenge from the player's page: invite.go).
	Player string `json:"player,omitempty"`
}

func (s *Server) handleNewTable(w http.ResponseWriter, r *http.Request) {
	var req newTableReq
	if err := readJSON(r, &req); err != nil {
		s.httpError(w, err)
		return
	}
	p, err := s.creator(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	view, err := s.createTable(r, p, req, nil)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, view)
}

// createTable makes the table req asks for, created by p, and opens it.
// prepare, when not nil, sees the table before anyone can join it.
func (s *Server) createTable(r *http.Request, p store.Player, req newTableReq, prepare func(*table)) (tableView, error) {
	clock, err := s.clockFor(req.Clock)
	if req.Pace != "" {
		if req.Clock != nil {
			err = badRequest("clock: a game at your own pace has the clock of its pace; give one or the other")
		} else {
			clock, err = s.paceClock(req.Pace)
		}
	}
	if err != nil {
		return tableView{}, err
	}
	k, err := s.newKind(req.Rules)
	if err != nil {
		return tableView{}, err
	}
	if len(req.Seats) == 0 {
		req.Seats = []seatReq{{Type: "me"}, {Type: "bot", Level: s.cast().DefaultLevel(k.variant().Kind())}}
	}
	if err := k.checkSeats(len(req.Seats)); err != nil {
		return tableView{}, err
	}
	seats, err := s.seatsOf(r, req.Seats, k.botLevel)
	if err != nil {
		return tableView{}, err
	}
	withClock(seats, clock)
	v := k.variant()
	tb := store.Table{ID: randomID(9), Kind: v.Kind(), Rules: v.Rules(), Seats: seats, Seed: s.opt.Seeds(), Status: store.Waiting, Created: s.opt.Now(), Rated: req.Rated, Pace: req.Pace}
	tb.Updated = tb.Created
	t := s.newTable(tb)
	t.kind = k
	if t.bots, err = t.newBots(); err != nil {
		return tableView{}, badRequest("%v", err)
	}
	if prepare != nil {
		prepare(t)
	}
	view, err := s.openTable(r.Context(), p, t, func() error {
		if err := t.start(); err != nil {
			return badRequest("%v", err)
		}
		return nil
	})
	if err != nil {
		return tableView{}, err
	}
	s.log.Info("table created", "table", tb.ID, "kind", tb.Kind, "rules", v.Name(), "seats", len(seats), "commitment", tb.Commitment())
	return view, nil
}

// newKind returns the game of a table request: the variant of a preset of
// another kind of game (game.Preset: "dragon" is Dragon Farkle), else the
// ordinary game under the rules asked for.
func (s *Server) newKind(raw json.RawMessage) (gameKind, error) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if v, ok := game.Preset(name); ok {
			return s.kindOfVariant(v.Capped(s.opt.MaxTurns))
		}
	}
	rs, err := ParseRules(raw)
	if len(raw) == 0 {
		rs, err = s.opt.QuickRules.Clone(), nil
	}
	if err != nil {
		return nil, err
	}
	v, err := game.NewFarkle(rs)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	return s.kindOfVariant(v.Capped(s.opt.MaxTurns))
}

// seatsOf returns the seats asked for in a new-table request: "me" becomes
// the caller (at most one such seat), "human" an empty seat to be joined by
// link, and "bot" a bot whose level botLevel checks and returns in canonical
// form. Bots get unique display names. The error is an EINVALID naming the
// bad seat.
func (s *Server) seatsOf(r *http.Request, req []seatReq, botLevel func(level string) (string, error)) ([]store.Seat, error) {
	me := false
	seats := make([]store.Seat, len(req))
	for i, sr := range req {
		switch sr.Type {
		case "me":
			if me {
				return nil, badRequest("seats[%d]: only one seat can be \"me\"", i)
			}
			p, err := s.playerOf(r)
			if err != nil {
				return nil, badRequest("seats[%d]: a \"me\" seat needs a player: choose a name first", i)
			}
			me = true
			seats[i] = store.Seat{Name: p.Name, PlayerID: p.ID}
		case "human":
		case "invite":
			invite := s.inviteSeat
			if sr.Player != "" {
				invite, sr.Name = s.invitePlayerSeat, sr.Player
			}
			seat, err := invite(r, sr.Name)
			if err != nil {
				return nil, badRequest("seats[%d]: %s", i, clientMessage(err))
			}
			seats[i] = seat
		case "bot":
			lv, err := botLevel(sr.Level)
			if err != nil {
				return nil, badRequest("seats[%d]: %v", i, err)
			}
			seats[i] = store.Seat{Bot: lv}
		default:
			return nil, badRequest("seats[%d]: type %q (types: me, human, invite, bot)", i, sr.Type)
		}
	}
	for i := range seats {
		if seats[i].Bot != "" {
			seats[i].Name = uniqueName(seats, i, botName(seats[i].Bot))
		}
	}
	return seats, nil
}

// openTable stores the new table t (every seat taken: started with start,
// t.mu held), created by player p within p's quotas (quota.go), and serves
// it from now on. It returns the table's view as it stands once open.
func (s *Server) openTable(ctx context.Context, p store.Player, t *table, start func() error) (tableView, error) {
	if t.seatsFull() {
		t.meta.Status = store.Playing
	}
	t.meta.Creator = p.ID
	if err := s.admit(ctx, p, t.meta.Seats, func() error { return s.store.CreateTable(ctx, t.meta) }); err != nil {
		return tableView{}, err
	}
	return s.serveNew(ctx, t, start)
}

// serveNew serves the new table t, stored already: it starts its game with
// start when every seat is taken, and activates it (its bots and clock). It
// returns the table's view as it stands once open.
func (s *Server) serveNew(ctx context.Context, t *table, start func() error) (tableView, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seatsFull() {
		if err := start(); err != nil {
			return tableView{}, err
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return tableView{}, errClosed
	}
	s.tables[t.id] = t
	s.mu.Unlock()
	t.activate(ctx)
	return t.view(), nil
}
