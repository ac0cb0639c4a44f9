package server

// A table's history in memory is a tail: the events and record entries of
// its last actions (Options.HistoryTail of them, at most twice as many),
// so that what a table costs does not grow with its game's length. The
// welcome's log is drawn from the tail; the whole record (the download,
// the replay, the analysis, a finished game's results) is read from the
// store, which has every action, when asked for.

import (
	"context"
	"fmt"
	"slices"

	"github.com/farkle/farkle/game"
)

// setPlay makes p, with the steps that brought it where it is, the
// table's game, and keeps the tail of its history. t.mu is held.
func (t *table) setPlay(p *game.Play, steps []game.Step) {
	t.play = p
	t.base = 0
	t.events = make([][]game.Event, 0, len(steps)+1)
	t.events = append(t.events, p.Started())
	for _, st := range steps {
		t.events = append(t.events, st.Events)
	}
	t.forget()
}

// remember keeps the events of the action just played and forgets the
// oldest events and entries beyond the tail. t.mu is held.
func (t *table) remember(evs []game.Event) {
	t.events = append(t.events, evs)
	t.forget()
}

// forget drops the events and record entries older than the last
// HistoryTail actions once twice as many are held, so that it copies
// once in HistoryTail actions. t.mu is held.
func (t *table) forget() {
	tail := max(1, t.srv.opt.HistoryTail)
	if len(t.events) <= 2*tail {
		return
	}
	cut := len(t.events) - tail
	t.events = slices.Clone(t.events[cut:])
	t.base += cut
	// Entries of the actions that brought the game to versions base and
	// after: one an event list, now that the start's is gone.
	rec := t.play.Record()
	rec.Actions = slices.Clone(rec.Actions[len(rec.Actions)-len(t.events):])
}

// dropped is how many of the record's first entries are no longer held
// in memory (the store has them). t.mu is held.
func (t *table) dropped() int {
	if t.base == 0 {
		return 0
	}
	return t.base - 1
}

// actionsDone counts the actions played at the table. t.mu is held.
func (t *table) actionsDone() int {
	return t.dropped() + len(t.play.Record().Actions)
}

// withStored returns rec with its first dropped entries, which memory no
// longer holds, read from the store before the entries it has.
func (t *table) withStored(ctx context.Context, rec *game.Record, dropped int) (*game.Record, error) {
	if dropped == 0 {
		return rec, nil
	}
	stored, err := t.srv.store.Actions(ctx, t.id)
	if err != nil {
		return nil, err
	}
	if len(stored) < dropped {
		return nil, fmt.Errorf("table %s: the store has %d actions, fewer than the %d this node no longer holds", t.id, len(stored), dropped)
	}
	rec.Actions = append(stored[:dropped:dropped], rec.Actions...)
	return rec, nil
}

// wholeRecord returns a copy of the game's record with every entry, as
// play keeps it (no seed hidden), for the results of a finished game.
// t.mu is held.
func (t *table) wholeRecord(ctx context.Context) (*game.Record, error) {
	rec := *t.play.Record()
	rec.Actions = slices.Clone(rec.Actions)
	return t.withStored(ctx, &rec, t.dropped())
}

// fullRecord returns a copy of the table's record with every entry (the
// seed only when the game is over), or nil before the game starts. The
// entries memory no longer holds are read from the store without t.mu,
// so that the table plays on meanwhile: the store's first actions never
// change. t.mu is not held.
func (t *table) fullRecord(ctx context.Context) (*game.Record, error) {
	t.mu.Lock()
	rec := t.record()
	dropped := t.dropped()
	t.mu.Unlock()
	if rec == nil {
		return nil, nil
	}
	return t.withStored(ctx, rec, dropped)
}

// undo takes back the game's last action, which the store refused: the
// game, its dice and its record are as they were (game.Play.Undo), without
// the store, which may be what failed. t.mu is held.
func (t *table) undo() error {
	if err := t.play.Undo(); err != nil {
		return err
	}
	t.play.Record().Meta.Ended = ""
	return nil
}

// historyHeld reports how many events lists and record entries the table
// holds in memory (for tests of its bounds).
func (t *table) historyHeld() (events, entries int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.play == nil {
		return len(t.events), 0
	}
	return len(t.events), len(t.play.Record().Actions)
}
