package server

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// rematch is a table's part in a rematch: at a finished table, the new
// table its players were asked to; at that new table, the seats kept for
// the players of the finished game. next and kept are guarded by the
// table's mu; making serializes the requests, so that two players asking
// at once get one table. The seats kept live in memory only: after a
// restart of the server they are free seats like any other.
type rematch struct {
	making sync.Mutex
	next   *rematchView
	kept   map[int]string // seat → the player id it is kept for
}

// rematchView is the rematch of a finished game as clients see it.
type rematchView struct {
	Table string `json:"table"` // the new table's id
	By    int    `json:"by"`    // the seat (at the finished table) who asked
	// WinnerFirst says the winner sits first and starts, as the rules of
	// the game say (game.next_first "winner": the Farkle Dice rules).
	WinnerFirst bool `json:"winner_first,omitempty"`
}

// rematchMsg tells everyone at a finished table that a rematch was asked.
type rematchMsg struct {
	Type    string       `json:"type"` // "rematch"
	Rematch *rematchView `json:"rematch"`
}

// handleRematch answers POST /api/tables/{id}/rematch from a player of
// a finished game: a new table with the same seats (bots at their level;
// the other players' seats kept for them until they accept by joining),
// the same rules and clock. Under rules whose game.next_first is "winner"
// (the Farkle Dice rules) the seats turn round to put the winner (the
// first of shared winners) first, and the rematch starts in seat order,
// without a roll-off, as the terminal game's play again does. It
// answers 201 with the new table, and tells the finished table's watchers
// (a "rematch" message). Asked again, by anyone, it answers 200 with the
// table already made.
func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	p, err := s.creator(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	t.rematch.making.Lock()
	defer t.rematch.making.Unlock()
	t.mu.Lock()
	status, seats, winners, next := t.meta.Status, append([]store.Seat(nil), t.meta.Seats...), t.meta.Winners, t.rematch.next
	var raw json.RawMessage
	if t.kind != nil {
		raw = t.kind.rules()
	}
	kind := t.meta.Kind
	t.mu.Unlock()
	by := -1
	for i, st := range seats {
		if st.PlayerID == p.ID {
			by = i
		}
	}
	switch {
	case status != store.Over:
		s.httpError(w, store.Errorf(store.ECONFLICT, "the game at table %s is not over: a rematch comes at the end", t.id))
		return
	case by < 0:
		s.httpError(w, store.Errorf(store.ECONFLICT, "only a player of table %s can ask for its rematch", t.id))
		return
	case next != nil:
		writeJSON(w, http.StatusOK, next)
		return
	}
	req, order, winnerFirst, err := rematchRequest(kind, raw, seats, winners, by)
	if err != nil {
		s.httpError(w, err)
		return
	}
	view, err := s.createTable(r, p, req, func(nt *table) {
		nt.rematch.kept = map[int]string{}
		for j, i := range order {
			if seats[i].Bot == "" && i != by {
				nt.rematch.kept[j] = seats[i].PlayerID
			}
		}
	})
	if err != nil {
		s.httpError(w, err)
		return
	}
	rv := &rematchView{Table: view.ID, By: by, WinnerFirst: winnerFirst}
	t.mu.Lock()
	t.rematch.next = rv
	for c := range t.clients {
		c.sendJSON(rematchMsg{Type: "rematch", Rematch: rv})
	}
	t.mu.Unlock()
	writeJSON(w, http.StatusCreated, rv)
}

// rematchRequest returns the table request of the rematch of a finished
// game of kind under the rules raw, with its seats and winners, asked by
// seat by: the request, the old seat of each new seat, and whether the
// winner was put first.
func rematchRequest(kind game.Kind, raw json.RawMessage, seats []store.Seat, winners []int, by int) (newTableReq, []int, bool, error) {
	order := make([]int, len(seats))
	for i := range order {
		order[i] = i
	}
	req := newTableReq{Rules: raw}
	winnerFirst := false
	if name, ok := game.PresetOf(kind); ok {
		// A game of its own kind: the table request names its preset.
		var err error
		if req.Rules, err = json.Marshal(name); err != nil {
			return req, nil, false, err
		}
	} else {
		rs, err := ParseRules(raw)
		if err != nil {
			return req, nil, false, err
		}
		if rs.Game.NextFirst == rules.NextWinner && len(winners) > 0 {
			winnerFirst = true
			for j := range order {
				order[j] = (winners[0] + j) % len(seats)
			}
			rs.Game.FirstPlayer = rules.SeatOrder
			if req.Rules, err = json.Marshal(rs); err != nil {
				return req, nil, false, err
			}
		}
	}
	for _, i := range order {
		switch {
		case seats[i].Bot != "":
			req.Seats = append(req.Seats, seatReq{Type: "bot", Level: seats[i].Bot})
		case i == by:
			req.Seats = append(req.Seats, seatReq{Type: "me"})
		default:
			req.Seats = append(req.Seats, seatReq{Type: "human"})
		}
	}
	if d := clockOf(seats); d > 0 {
		secs := int(d / time.Second)
		req.Clock = &secs
	}
	return req, order, winnerFirst, nil
}

// keptSeat returns the seat p joins at t when asking for want (-1: any):
// the seat kept for p by a rematch when it asked for none, else want,
// refused when that seat is kept for another player; with want -1 and
// nothing kept for p, the first free seat kept for nobody.
func (t *table) keptSeat(p store.Player, want int) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kept := t.rematch.kept
	if len(kept) == 0 {
		return want, nil
	}
	for seat, id := range kept {
		if id == p.ID && (want < 0 || want == seat) {
			return seat, nil
		}
	}
	if want >= 0 {
		if kept[want] != "" {
			return -1, store.Errorf(store.ECONFLICT, "seat %d is kept for a player of the last game (a rematch)", want)
		}
		return want, nil
	}
	for i, st := range t.meta.Seats {
		if st.Bot == "" && st.PlayerID == "" && kept[i] == "" {
			return i, nil
		}
	}
	return -1, store.Errorf(store.ECONFLICT, "every free seat at table %s is kept for the players of the last game (a rematch); you can watch", t.id)
}
