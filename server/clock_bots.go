package server

import "github.com/farkle/farkle/store"

// Stepping away from a bot never loses the game. At a table of one person
// and bots the turn clock runs only while that person has a connection to
// the table: it stops when their last connection goes and starts again,
// full, when one returns, so a closed tab leaves the game waiting for them
// (in their games list) for as long as they like. And its timeouts never
// resign the seat: when the clock runs out the server plays the turn for
// them, as it does at Dragon Farkle tables. Only a table with two or more
// people, or a tournament's (which must end for the tournament to go on),
// has a clock that can end a game (see clock.go).

// versusBots reports whether the seats are one person's and bots'.
func versusBots(seats []store.Seat) bool {
	people := 0
	for _, s := range seats {
		if s.Bot == "" {
			people++
		}
	}
	return people == 1 && len(seats) > 1
}

// present reports whether the player of seat has a connection to the
// table. t.mu is held.
func (t *table) present(seat int) bool {
	id := t.meta.Seats[seat].PlayerID
	if id == "" {
		return false
	}
	for c := range t.clients {
		if c.player != nil && c.player.ID == id {
			return true
		}
	}
	return false
}

// waitsForPlayer reports whether the table is one person's against bots,
// not a tournament's: its clock waits for the person and never resigns
// them. t.mu is held.
func (t *table) waitsForPlayer() bool {
	if !versusBots(t.meta.Seats) {
		return false
	}
	t.srv.tourTabMu.Lock()
	_, tour := t.srv.tourTables[t.id]
	t.srv.tourTabMu.Unlock()
	return !tour
}

// clockPaused reports whether the clock of seat waits: at a table against
// bots, while its player has no connection. t.mu is held.
func (t *table) clockPaused(seat int) bool {
	return t.waitsForPlayer() && !t.present(seat)
}

// presenceChanged starts or stops the clock of a table against bots when
// a connection came or went. A clock already running is left as it is,
// so that opening a second tab does not refill it. t.mu is held.
func (t *table) presenceChanged() {
	if !t.waitsForPlayer() {
		return
	}
	if seat := t.person(); seat >= 0 && !t.present(seat) && t.adjournTimer == nil {
		t.leftAt = t.srv.opt.Now() // the player's last connection went
	}
	t.scheduleAdjourn() // adjourn.go
	seat, _, ok := t.actorNow()
	if !ok || seat < 0 || seat >= len(t.meta.Seats) {
		return
	}
	running := t.clock.seat == seat
	if running == t.present(seat) {
		return
	}
	t.scheduleClock() // the welcome of the connection that came shows the clock
}
