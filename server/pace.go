package server

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

// Games at your own pace: a table whose seats have hours or days for each
// decision instead of seconds. The turn clock (clock.go) runs them as it
// runs a live table, from the last change of the table (so a restart does
// not give a seat a fresh three days); the home page lists a player's games
// with those waiting on the player first.

// paces are the paces a table may be played at, in hours a decision.
var paces = map[string]int{"1h": 1, "12h": 12, "1d": 24, "3d": 72}

// paceNames lists the paces, shortest first.
func paceNames() []string {
	out := make([]string, 0, len(paces))
	for p := range paces {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return paces[out[i]] < paces[out[j]] })
	return out
}

// paceClock returns the time a seat has for each decision at pace p, in
// the server's hours (Options.PaceHour: an hour, shorter in tests).
func (s *Server) paceClock(p string) (time.Duration, error) {
	h, ok := paces[p]
	if !ok {
		return 0, badRequest("pace %q (paces: %s; none for a live game)", p, strings.Join(paceNames(), ", "))
	}
	return time.Duration(h) * s.opt.PaceHour, nil
}

// gameLine is one of a player's open games as the home page lists it.
type gameLine struct {
	tableView
	Seat      int         `json:"seat"`                 // the player's seat
	YourMove  bool        `json:"your_move"`            // the game waits on the player
	ToAct     string      `json:"to_act,omitempty"`     // the name of the seat to act
	Deadline  *time.Time  `json:"deadline,omitempty"`   // when the clock of the seat to act runs out
	Last      string      `json:"last,omitempty"`       // the last turn of another seat, summarised
	Invited   bool        `json:"invited,omitempty"`    // a seat is kept for the player, who has not taken it (invite.go)
	InvitedBy *playerView `json:"invited_by,omitempty"` // who invited the player: the table's creator
}

// maxMyGames is how many of a player's open tables GET /api/me/games
// lists (its invitations come on top: Server.invitationsListed).
const maxMyGames = 200

// handleMyGames serves GET /api/me/games: the player's open games (waiting
// or in play) and invitations: the invitations first, then those waiting
// on the player, then by deadline. Both are read from the store's index of
// the player's open seats, so the work is the player's own tables, never
// every table (farkle_my_games_tables_total counts them).
func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) {
	c := langOf(r) // the language of the last turns (?lang=; English by default)
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	tbs, err := s.store.Tables(r.Context(), store.TableFilter{PlayerID: p.ID, Status: []store.Status{store.Waiting, store.Playing}, Limit: maxMyGames})
	if err != nil {
		s.httpError(w, err)
		return
	}
	inv, err := s.store.Invitations(r.Context(), p.ID, s.invitationsListed())
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.mGameTables.Add(float64(len(tbs) + len(inv)))
	out := make([]gameLine, 0, len(tbs)+len(inv))
	for i, tb := range append(tbs, inv...) {
		t, err := s.getTable(r.Context(), tb.ID)
		if err != nil {
			s.httpError(w, err)
			return
		}
		t.mu.Lock()
		if i < len(tbs) {
			out = append(out, t.line(p.ID, c))
		} else if l, ok := t.invitationLine(p.ID, c); ok {
			out = append(out, l)
		}
		t.mu.Unlock()
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Invited != out[j].Invited {
			return out[i].Invited
		}
		if out[i].YourMove != out[j].YourMove {
			return out[i].YourMove
		}
		di, dj := out[i].Deadline, out[j].Deadline
		switch {
		case di != nil && dj != nil:
			return di.Before(*dj)
		case di != nil || dj != nil:
			return di != nil
		}
		return out[i].Updated.After(out[j].Updated)
	})
	adjourned, err := s.adjournedLines(r.Context(), p.ID) // adjourn.go: after the open games
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, append(out, adjourned...))
}

// line returns the table as a line of player's games, its last turn in
// the language of c. t.mu is held.
func (t *table) line(player string, c *lang.Catalogue) gameLine {
	l := gameLine{tableView: t.view(), Seat: -1}
	l.Rules = nil
	for i, s := range t.meta.Seats {
		if s.PlayerID == player {
			l.Seat = i
		}
	}
	seat, _, ok := t.actorNow()
	if !ok || seat < 0 || seat >= len(t.meta.Seats) {
		return l
	}
	l.ToAct = t.meta.Seats[seat].Name
	l.YourMove = seat == l.Seat
	if c := t.clock; c.seat == seat && !c.deadline.IsZero() {
		d := c.deadline.UTC()
		l.Deadline = &d
	}
	l.Last = t.lastTurn(l.Seat, c)
	return l
}

// lastTurn summarises the last finished turn of a seat other than me in
// the ordinary game ("Ana banked 650 — 4,350 to 3,900": the seat's score
// to mine), or describes the last thing another seat did in another kind
// of game, in the language of c. "" when nobody else has played yet. t.mu
// is held.
func (t *table) lastTurn(me int, c *lang.Catalogue) string {
	if t.play == nil {
		return ""
	}
	names := t.names()
	scores := t.play.Game().Scores()
	score := func(i int) string {
		if me < 0 || me >= len(scores) || i >= len(scores) {
			return ""
		}
		return c.Msg("web.last.score", "a", scores[i], "b", scores[me])
	}
	for i := len(t.events) - 1; i >= 0; i-- {
		for j := len(t.events[i]) - 1; j >= 0; j-- {
			switch e := t.events[i][j].(type) {
			case engine.Event:
				if e.Player == me || e.Player < 0 || e.Player >= len(names) {
					continue
				}
				switch e.Kind {
				case engine.EvBank:
					return c.Msg("web.last.bank", "name", names[e.Player], "points", e.Points, "score", score(e.Player))
				case engine.EvFarkle:
					return c.Msg("web.last.farkle", "name", names[e.Player], "total", e.Total, "score", score(e.Player))
				case engine.EvTurnLost:
					return c.Msg("web.last.lost", "name", names[e.Player], "score", score(e.Player))
				case engine.EvResign:
					if t.meta.Seats[e.Player].LostOnTime {
						return c.Msg("web.last.lostOnTime", "name", names[e.Player])
					}
					return c.Msg("web.last.resign", "name", names[e.Player])
				}
			default:
				if d := t.kind.variant().Describe(c, e, names); d != "" && (me < 0 || !strings.HasPrefix(d, names[me])) {
					return d
				}
			}
		}
	}
	return ""
}
