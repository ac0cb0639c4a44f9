package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rating"
	"github.com/farkle/farkle/store"
)

// An action's way through a table, whatever the kind of game: the checks
// in the documented order, the commit to the store before anything is
// sent, the table brought up to date, and the broadcast.

// Refusal codes sent in error messages, in the order the checks are made.
const (
	codeBadMessage  = "bad_message"   // not JSON, unknown type, unknown action
	codeNotSeated   = "not_seated"    // the connection's token holds no such seat
	codeNotStarted  = "not_started"   // seats are still free
	codeGameOver    = "game_over"     // the game has ended
	codeNotYourTurn = "not_your_turn" // another seat is to act
	codeIllegal     = "illegal"       // the game refuses the action now
	codeStale       = "stale"         // the version sent is not the current one
	codeRateLimited = "rate_limited"  // too many messages a second
	codeUnavailable = "unavailable"   // hints without an advisor
	codeServer      = "server_error"  // the action could not be stored
)

// refusal is why an action was refused.
type refusal struct {
	Code string
	Msg  string
}

func refuse(code, format string, args ...any) *refusal {
	return &refusal{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// playerAct checks and applies an action sent by player for seat with the
// state version the client saw. The checks run in the documented order.
// t.mu is held.
func (t *table) playerAct(p *store.Player, seat int, version int, a game.Action) *refusal {
	if p == nil || seat < 0 || seat >= len(t.meta.Seats) || t.meta.Seats[seat].PlayerID != p.ID {
		return refuse(codeNotSeated, "your token does not hold seat %d at this table", seat)
	}
	if r := t.failedRefusal(); r != nil {
		return r
	}
	if t.play == nil {
		return refuse(codeNotStarted, "the game has not started: seats are still free")
	}
	g := t.play.Game()
	if g.Over() {
		return refuse(codeGameOver, "the game is over")
	}
	if actor := g.ToAct(); actor != seat {
		return refuse(codeNotYourTurn, "it is %s's turn, not yours", t.meta.Seats[actor].Name)
	}
	if err := g.Check(seat, a); err != nil {
		return refuse(codeIllegal, "%s", gameError(err))
	}
	if version != g.Version() {
		return refuse(codeStale, "you acted on version %d but the game is at version %d: look again", version, g.Version())
	}
	t.acted(seat)
	return t.commit(seat, a)
}

// gameError is the message of a refusal of the game, without the
// package's prefix.
func gameError(err error) string {
	msg := err.Error()
	for _, p := range []string{"engine: ", "dragon: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

// commit plays a legal action of seat, stores it, and only then
// broadcasts it. If the store refuses, the game is rebuilt as it was and
// nothing is sent. t.mu is held.
func (t *table) commit(seat int, a game.Action) *refusal {
	p := t.play
	evs, err := p.Do(seat, a)
	if err != nil {
		return refuse(codeIllegal, "%s", gameError(err))
	}
	rec := p.Record()
	n := t.actionsDone()
	g := p.Game()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var fin *store.Finish
	if g.Over() {
		rec.Meta.Ended = t.srv.opt.Now().UTC().Format(time.RFC3339)
		fin, err = t.finish(ctx)
	}
	if entry := rec.Actions[len(rec.Actions)-1]; err == nil && t.quiet(n, fin) {
		if err = t.srv.asked.q.AppendQuiet(ctx, t.id, n, entry); err == nil { // quiet.go
			t.srv.mQuiet.Inc()
		}
	} else if err == nil {
		err = t.srv.store.AppendAction(ctx, t.id, n, entry, fin)
	}
	if err != nil {
		if uerr := t.undo(); uerr != nil {
			err = errors.Join(err, fmt.Errorf("the game could not be taken back: %w", uerr))
		}
		if store.Code(err) == store.ECONFLICT {
			// Another node stored action n first: follow it, and refuse
			// this one as made on a version no longer current.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			cerr := t.catchUp(ctx)
			cancel()
			if cerr == nil {
				return refuse(codeStale, "another action came first: the game is at version %d: look again", t.play.Game().Version())
			}
			err = errors.Join(err, cerr)
		}
		t.srv.log.Error("action not stored", "table", t.id, "action", n, "err", err)
		return refuse(codeServer, "the action could not be saved; try again")
	}
	t.remember(evs)
	t.actedHere = n
	var winners, scores []int
	if fin != nil {
		winners, scores = fin.Winners, fin.Scores
		t.rate(fin)
		t.srv.tournamentGameOver(t.id, winners, scores)
	}
	t.settle(n, fin != nil, winners, scores, func() { t.broadcastUpdate(seat, a, evs) })
	return nil
}

// settle brings the table's metadata up to date once action n is stored
// (over: it ended the game, with the winners and scores), tells the clients
// with broadcast, schedules the next bot, and lets a finished table nobody
// watches go. t.mu is held.
func (t *table) settle(n int, over bool, winners, scores []int, broadcast func()) {
	t.meta.Actions = n
	t.meta.Updated = t.srv.opt.Now()
	t.touch()
	if t.meta.Status == store.Waiting {
		t.meta.Status = store.Playing
	}
	if over {
		t.meta.Status = store.Over
		t.meta.Winners, t.meta.Scores = winners, scores
		t.over.Store(true)
	}
	t.scheduleClock()
	broadcast()
	t.scheduleBot()
	if over && len(t.clients) == 0 {
		go t.srv.release(t) // nobody watches: forget it; it loads again when asked for
	}
}

// finish builds the results of the finished game: a line for each seat
// with its score, whether it won, and the counts its kind keeps; none for
// a game that ended before every seat had a turn (rating.Aborted).
// Its record is the whole one, read from the store where memory no longer
// holds it. t.mu is held.
func (t *table) finish(ctx context.Context) (*store.Finish, error) {
	g := t.play.Game()
	rec, err := t.wholeRecord(ctx)
	if err != nil {
		return nil, err
	}
	fin := &store.Finish{Record: rec, Winners: g.Winners(), Scores: g.Scores()}
	for i, seat := range t.meta.Seats {
		won := false
		for _, w := range fin.Winners {
			won = won || w == i
		}
		key := seat.PlayerID
		if seat.Bot != "" {
			key = "bot:" + seat.Bot
		}
		r := store.Result{Seat: i, PlayerKey: key, Name: seat.Name, Score: fin.Scores[i], Won: won}
		t.kind.result(g, i, &r)
		fin.Results = append(fin.Results, r)
	}
	if rating.Aborted(g) {
		fin.Results = nil // aborted: in nobody's stats, a loss for no one (nor rated: verdict)
	}
	return fin, nil
}

// broadcastUpdate sends every client the new state and the events of
// actor's action a as its seat sees them. t.mu is held.
func (t *table) broadcastUpdate(actor int, a game.Action, evs []game.Event) {
	tv := t.view()
	tv.Rules, tv.Rated = nil, "" // the rules and the rating family never change: they come with the welcome
	// One encoding a seat (when seats see different games) and a language
	// in use: most tables have one language, so most updates are encoded
	// once.
	type view struct {
		seat int
		lang *lang.Catalogue
	}
	encoded := map[view]*message{}
	private := t.kind.private()
	// The seated players first, then the watchers: a player is written to
	// at once (wscork.go) before thousands of watchers' writers are woken,
	// so that watchers never slow the players.
	for _, seated := range []bool{true, false} {
		for c := range t.clients {
			seat := c.seat()
			if (seat >= 0) != seated {
				continue
			}
			v := view{seat: -1, lang: c.cat()}
			if private {
				v.seat = seat
			}
			m, ok := encoded[v]
			if !ok {
				var err error
				m, err = encodeMessage(t.kind.update(t, v.seat, tv, actor, a, evs, v.lang), t.updateSize)
				if err != nil {
					t.srv.log.Error("encode update", "err", err)
					return
				}
				t.updateSize = max(t.updateSize, len(m.payload())) // the next one's buffer made once
				encoded[v] = m
			}
			c.deliver(m, seated)
		}
	}
}
