package server

import (
	"fmt"
	"time"

	"github.com/farkle/farkle/game"
)

// scheduleBot starts the bot's timer when a bot is to act, or the server's
// next action for a seat whose turn it plays (clock.go). t.mu is held.
func (t *table) scheduleBot() {
	seat, version, ok := t.actorNow()
	if !ok || !t.leased {
		return
	}
	if _, ok := t.bots[seat]; !ok {
		t.scheduleAuto()
		return
	}
	if t.botTimer != nil {
		t.botTimer.Stop()
	}
	t.botTimer = t.afterGuarded(t.srv.opt.BotDelay, "bot", func() { t.botAct(version) })
}

// botAct plays the bot's move if the game is still at version.
func (t *table) botAct(version int) {
	t.playFor(version, func(seat int) seatBot { return t.bots[seat] }, func() { t.botAct(version) })
}

// playFor plays the action that the bot which gives for the seat to act
// chooses, if the game is still at version (and which gives one). The bot
// chooses without the table's lock: a solver bot's first decision may take
// long, and the table keeps serving its watchers meanwhile; the game it
// sees is a value that no action changes. retry is what botDone tries
// again after a failure on the server's side.
func (t *table) playFor(version int, which func(seat int) seatBot, retry func()) {
	t.mu.Lock()
	seat, v, ok := t.actorNow()
	var b seatBot
	if ok && v == version && t.leased {
		b = which(seat)
	}
	if b == nil {
		t.mu.Unlock()
		return
	}
	g := t.play.Game()
	t.mu.Unlock()
	a, err := b.Act(g, seat)
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, v, ok := t.actorNow(); !ok || s != seat || v != version || which(seat) == nil {
		return
	}
	if err != nil {
		t.srv.log.Error("bot cannot act", "table", t.id, "seat", seat, "err", err)
		return
	}
	t.botDone(seat, a, t.commit(seat, a), retry)
}

// botDone counts the outcome r of the server's action for seat (nil:
// accepted). A refusal is logged, and one on the server's side
// (codeServer) is tried again by retry after a second unless the table
// has closed. t.mu is held.
func (t *table) botDone(seat int, action game.Action, r *refusal, retry func()) {
	if r != nil {
		t.srv.mActions.WithLabelValues("refused", "bot").Inc()
		t.srv.log.Error("bot action refused", "table", t.id, "seat", seat, "action", fmt.Sprint(action), "err", r.Msg)
		if r.Code == codeServer && !t.closed {
			t.botTimer = t.afterGuarded(time.Second, "bot", retry)
		}
		return
	}
	t.srv.mActions.WithLabelValues("accepted", "bot").Inc()
}

// newBots makes the bots of the table's seats. t.mu is held or the table
// is not yet shared.
func (t *table) newBots() (map[int]seatBot, error) {
	bots := map[int]seatBot{}
	for i, seat := range t.meta.Seats {
		if seat.Bot == "" {
			continue
		}
		b, err := t.seatBotOf(seat.Bot)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w", i, err)
		}
		bots[i] = b
	}
	return bots, nil
}

// prepareBots starts loading what the table's solver bots need in the
// background (solving a rule set the first time takes minutes; the result
// is cached by their Tables). A panic there fails the table.
func (t *table) prepareBots() {
	for seat, b := range t.bots {
		p, ok := b.(interface{ prepare(players int) error })
		if !ok {
			continue
		}
		players := len(t.meta.Seats)
		t.goGuarded("bot preparation", func() {
			if err := p.prepare(players); err != nil {
				t.srv.log.Warn("bot preparation failed", "table", t.id, "seat", seat, "level", t.meta.Seats[seat].Bot, "err", err)
			}
		})
	}
}
