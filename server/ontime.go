package server

import (
	"context"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

// Lost on time. When the turn clock resigns a seat at a table of people
// (clock.go), the loss is the clock's, not the player's choice, and every
// page says so apart from a resignation: the table's log and the replay
// ("Ann loses on time"), the history and the rating change. The record
// notes it in its Meta.Extra (record.Meta.SetLostOnTime), which play and
// verification ignore, so that the record still verifies and older
// records read as before; the table's seat notes it too
// (store.Seat.LostOnTime), for the lists that read no record and for a
// game that goes on after the resignation and ends after a restart.

// lostOnTime returns, by seat, whether the clock resigned the seat.
func lostOnTime(seats []store.Seat) []bool {
	out := make([]bool, len(seats))
	for i, s := range seats {
		out[i] = s.LostOnTime
	}
	return out
}

// recordLostOnTime returns, by player, whether the record notes that the
// clock resigned the seat.
func recordLostOnTime(rec *game.Record) []bool {
	out := make([]bool, len(rec.Players))
	for i := range out {
		out[i] = rec.Meta.LostOnTime(i)
	}
	return out
}

// onTimeLine says a resignation that the clock made as a loss on time, in
// the language of c; any other line is returned as it is.
func onTimeLine(l logLine, e engine.Event, lost []bool, c *lang.Catalogue, names []string) logLine {
	if e.Kind != engine.EvResign || e.Player < 0 || e.Player >= len(lost) || !lost[e.Player] || e.Player >= len(names) {
		return l
	}
	l.Type = "lost-on-time"
	l.Text = c.Msg("ev.lostOnTime", "p", names[e.Player])
	return l
}

// resignOnTime commits the clock's resignation of seat: marked lost on
// time in the record and the seat before it is committed (so that the
// update sent and the final record say so), and in the store once it is.
// A resignation not committed leaves no mark. t.mu is held.
func (t *table) resignOnTime(seat int, a game.Action) *refusal {
	meta := &t.play.Record().Meta
	meta.SetLostOnTime(seat)
	t.meta.Seats[seat].LostOnTime = true
	r := t.commit(seat, a)
	if r != nil {
		if t.play != nil {
			t.play.Record().Meta.ClearLostOnTime(seat)
		}
		t.meta.Seats[seat].LostOnTime = false
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := t.srv.store.LoseOnTime(ctx, t.id, seat); err != nil {
		// The resignation stands; only the pages' word for it is lost.
		t.srv.log.Error("loss on time not stored", "table", t.id, "seat", seat, "err", err)
	}
	return nil
}
