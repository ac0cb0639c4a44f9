package server

import (
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solved"
	"github.com/farkle/farkle/store"
)

// tableView is what clients see of a table.
type tableView struct {
	ID         string       `json:"id"`
	Kind       string       `json:"kind,omitempty"` // "dragon" for Dragon Farkle; none for the ordinary game
	Status     string       `json:"status"`
	Rules      any          `json:"rules,omitempty"` // left out of updates
	Seats      []seatView   `json:"seats"`
	Commitment string       `json:"commitment"`
	Seed       string       `json:"seed,omitempty"` // only once the game is over
	Actions    int          `json:"actions"`
	Created    time.Time    `json:"created"`
	Updated    time.Time    `json:"updated"`
	Winners    []int        `json:"winners,omitempty"`
	Scores     []int        `json:"scores,omitempty"`
	Watchers   int          `json:"watchers"`
	Hints      bool         `json:"hints"`
	Clock      *clockView   `json:"clock,omitempty"`      // at a table with a turn clock
	Reason     string       `json:"reason,omitempty"`     // why a table failed or expired
	Rated      string       `json:"rated,omitempty"`      // the rating family when the game moves ratings
	Unrated    string       `json:"unrated,omitempty"`    // why a game of a rated family moves none: "bots", "short", "aborted" (rating.Reason)
	Pace       string       `json:"pace,omitempty"`       // a game at your own pace: the time a decision ("1d")
	Local      bool         `json:"local,omitempty"`      // a game played on a device by itself and kept when it was over (localgames.go)
	Rematch    *rematchView `json:"rematch,omitempty"`    // the rematch asked for at the end of the game
	Tournament string       `json:"tournament,omitempty"` // the ID of the tournament the game is played for
	// Ratings are the rating changes of the finished game, when rated.
	Ratings []changeView `json:"ratings,omitempty"`
}

type seatView struct {
	Name     string `json:"name"`
	Bot      string `json:"bot,omitempty"`
	Free     bool   `json:"free"`
	PlayerID string `json:"player_id,omitempty"`
	Invited  bool   `json:"invited,omitempty"` // a free seat kept for the invited player named Name
	Note     string `json:"note,omitempty"`    // why a bot plays below its level, e.g. "plays as expert: its table would need 2.1 GiB, ..."
	// LostOnTime: the turn clock resigned the seat (ontime.go).
	LostOnTime bool `json:"lost_on_time,omitempty"`
	// Why is Note's reason as a catalogue key and its values
	// (solved.Why), for the page to say in its language.
	Why *solved.Why `json:"why,omitempty"`
	// Guest: a player without an account (guest.go), in the lists of
	// tables.
	Guest bool `json:"guest,omitempty"`
}

func viewOf(tb store.Table) tableView {
	v := tableView{ID: tb.ID, Status: string(tb.Status), Rules: tb.Rules, Commitment: tb.Commitment(), Actions: tb.Actions,
		Created: tb.Created.UTC(), Updated: tb.Updated.UTC(), Winners: tb.Winners, Scores: tb.Scores}
	if tb.Status == store.Over || tb.Status == store.Failed {
		v.Seed = tb.Seed.Hex() // a failed game never goes on
	}
	if d := clockOf(tb.Seats); d > 0 {
		v.Clock = &clockView{Seconds: d.Seconds()}
	}
	v.Reason, v.Pace, v.Local, v.Tournament = tb.Reason, tb.Pace, tb.Local, tb.Tournament
	if tb.Kind != game.Farkle {
		v.Kind = string(tb.Kind)
	}
	for _, s := range tb.Seats {
		v.Seats = append(v.Seats, seatView{Name: s.Name, Bot: s.Bot, Free: s.Bot == "" && s.PlayerID == "" && !tb.Local, PlayerID: s.PlayerID, Invited: s.Invited != "" && s.PlayerID == "", LostOnTime: s.LostOnTime})
	}
	return v
}

// view returns the table as clients see it. t.mu is held.
func (t *table) view() tableView {
	v := viewOf(t.meta)
	v.Watchers = len(t.clients)
	v.Hints = t.srv.hints(game.Farkle) // a kind not served: as the ordinary game
	if t.kind != nil {
		v.Rules, v.Hints = t.kind.rules(), t.kind.hints()
	}
	vd := t.verdict()
	v.Rated, v.Unrated = string(vd.Family), string(vd.Reason)
	if len(t.ratings) > 0 { // rated: by the rules of its day
		v.Rated, v.Unrated = t.ratings[0].Family, ""
		v.Ratings = viewsOf(t.ratings, changeViewOf)
	}
	v.Rematch = t.rematch.next
	if v.Clock != nil && !t.over.Load() {
		v.Clock = t.clockView()
	}
	for i, b := range t.bots {
		if f, ok := b.(interface{ fallback() solved.Why }); ok && i < len(v.Seats) {
			if why := f.fallback(); why.Key != "" {
				en := lang.Get(lang.Default) // the API's language; the page words Why in its own
				v.Seats[i].Note = en.Msg("web.seat.expert", "why", why.In(en))
				v.Seats[i].Why = &why
			}
		}
	}
	return v
}
