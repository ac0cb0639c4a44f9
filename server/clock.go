package server

import (
	"time"

	"github.com/farkle/farkle/store"
)

// The turn clock. A table with at least one human seat gives each human
// seat a time for every decision (store.Seat.Clock; POST /api/tables
// "clock", or the server's default). When it runs out the server acts for
// the seat with ordinary, recorded actions: bank if banking is allowed,
// else throw when a throw is due, the expert bot's keep when dice must be
// kept, the roll-off throw in a roll-off; and it goes on acting for the seat,
// at the bots' pace, until the seat's turn ends. The clock-forfeits-th
// timeout in a row resigns the seat (engine.Resign) instead, a loss on time
// (ontime.go), at a table of two or more people (against bots the clock never resigns, and waits
// while the player is away: clock_bots.go); acting
// yourself resets the count. At a Dragon Farkle table the server plays the
// seat's move with the Random dragon bot and never resigns it (it has no
// resignation): an abandoned table ends at its round limit, the server's
// Options.MaxTurns (dragonShared). The count
// of timeouts is kept in memory: a restart gives every seat a fresh full
// clock and a count of zero.

// clockView is the clock of a table as clients see it.
type clockView struct {
	Seconds  float64    `json:"seconds"`            // the time for each decision
	Seat     *int       `json:"seat,omitempty"`     // the seat whose clock runs
	Deadline *time.Time `json:"deadline,omitempty"` // when it runs out
	Timeouts int        `json:"timeouts"`           // that seat's timeouts in a row
	Auto     bool       `json:"auto,omitempty"`     // the server is playing the seat's turn
}

// clockOf returns the clock time of a table's seats: the first human
// seat's (0: no clock).
func clockOf(seats []store.Seat) time.Duration {
	for _, s := range seats {
		if s.Bot == "" && s.Clock > 0 {
			return s.Clock
		}
	}
	return 0
}

// tableClock is the clock state of a table in memory. t.mu guards it.
type tableClock struct {
	timer    *time.Timer
	seat     int // the seat whose deadline runs, -1 if none
	version  int // the state version the deadline is for
	deadline time.Time
	timeouts map[int]int // timeouts in a row by seat
	auto     int         // the seat the server plays for until its turn ends, -1 if none
	bot      seatBot     // what plays for it (gameKind.clockBot), made at the first timeout
}

// actorNow returns the seat to act and the state version, ok false when
// nobody is to act (not started, over, failed, closed). t.mu is held.
func (t *table) actorNow() (seat, version int, ok bool) {
	if t.closed || t.over.Load() || t.play == nil || t.play.Game().Over() {
		return -1, 0, false
	}
	g := t.play.Game()
	return g.ToAct(), g.Version(), true
}

// scheduleClock starts the clock of the seat to act, if it has one and
// the server is not already playing its turn. A turn that has passed to
// another seat ends the server's playing for the last. t.mu is held.
func (t *table) scheduleClock() {
	c := &t.clock
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.seat, c.deadline = -1, time.Time{}
	t.scheduleAdjourn() // adjourn.go
	seat, version, ok := t.actorNow()
	if !ok {
		c.auto = -1
		return
	}
	if c.auto != seat {
		c.auto = -1
	}
	if seat < 0 || seat >= len(t.meta.Seats) || c.auto == seat {
		return
	}
	s := t.meta.Seats[seat]
	if s.Bot != "" || s.Clock <= 0 || t.clockPaused(seat) {
		return
	}
	left := s.Clock
	if t.meta.Pace != "" { // at your own pace the clock runs from the table's last change, across restarts
		left = max(0, s.Clock-t.srv.opt.Now().Sub(t.meta.Updated))
	}
	c.seat, c.version, c.deadline = seat, version, time.Now().Add(left)
	if t.leased { // the node holding the lease acts when the clock runs out
		c.timer = t.afterGuarded(left, "turn clock", func() { t.timeout(seat, version) })
	}
}

// clockView returns the clock as clients see it, nil at a table without one.
// t.mu is held.
func (t *table) clockView() *clockView {
	d := clockOf(t.meta.Seats)
	if d <= 0 {
		return nil
	}
	c := &t.clock
	v := &clockView{Seconds: d.Seconds()}
	seat := c.seat
	if c.auto >= 0 {
		seat = c.auto
		v.Auto = true
	}
	if seat >= 0 {
		v.Seat = &seat
		v.Timeouts = c.timeouts[seat]
	}
	if c.seat >= 0 {
		dl := c.deadline.UTC()
		v.Deadline = &dl
	}
	return v
}

// acted resets the count of timeouts of a seat whose player acted, and
// ends the server's playing for it. t.mu is held.
func (t *table) acted(seat int) {
	delete(t.clock.timeouts, seat)
	if t.clock.auto == seat {
		t.clock.auto = -1
	}
}

// timeout acts for seat when its clock ran out at version: it resigns the
// seat at the clock-forfeits-th timeout in a row (not at a Dragon Farkle
// table), or starts playing the seat's turn.
func (t *table) timeout(seat, version int) {
	t.mu.Lock()
	s, v, ok := t.actorNow()
	if !ok || s != seat || v != version || t.clock.seat != seat || t.clock.version != version {
		t.mu.Unlock()
		return
	}
	if t.clock.timeouts == nil {
		t.clock.timeouts = map[int]int{}
	}
	t.clock.timeouts[seat]++
	n := t.clock.timeouts[seat]
	t.srv.log.Info("turn clock ran out", "table", t.id, "seat", seat, "timeouts", n)
	if a := t.kind.resign(seat); a != nil && t.srv.opt.ClockForfeits > 0 && n >= t.srv.opt.ClockForfeits && !t.waitsForPlayer() {
		defer t.mu.Unlock()
		t.clock.auto = -1
		t.botDone(seat, a, t.resignOnTime(seat, a), func() { t.timeout(seat, version) }) // ontime.go
		return
	}
	t.clock.auto = seat
	t.clock.seat, t.clock.deadline = -1, time.Time{}
	t.mu.Unlock()
	t.autoAct(seat, version)
}

// scheduleAuto starts the timer of the server's next action for the seat
// whose turn it plays. t.mu is held.
func (t *table) scheduleAuto() {
	seat, version, ok := t.actorNow()
	if !ok || t.clock.auto != seat {
		return
	}
	if t.botTimer != nil {
		t.botTimer.Stop()
	}
	t.botTimer = t.afterGuarded(t.srv.opt.BotDelay, "turn clock", func() { t.autoAct(seat, version) })
}

// autoAct plays one action for seat at version, chosen without the
// table's lock (the ordinary game's expert bot's first keep may solve its
// policy).
func (t *table) autoAct(seat, version int) {
	t.playFor(version, func(s int) seatBot {
		if s != seat || t.clock.auto != seat {
			return nil
		}
		if t.clock.bot == nil {
			t.clock.bot = t.kind.clockBot(t)
		}
		return t.clock.bot
	}, func() { t.autoAct(seat, version) })
}
