package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/tournament"
)

// The games of a tournament. When a round is paired, each game gets the ID
// of its table, stored with the tournament before the table is made, and
// waits (tourGame.Pending) until the caps on tables (quota.go: its
// creator's open and bots-only tables, the server's in all) let the table
// open: at once if they do, else when a game of the tournament ends or at
// the next tending.
//
// Every Options.TournamentEvery the server tends each tournament under
// way: it starts an open one whose start has come, cancels one without a
// start that nobody filled within Options.WaitingExpiry of its last change,
// records the games whose tables ended unnoticed (on another node, or while
// the server was away), settles as forfeits the games whose tables failed
// or stalled, and opens the tables of the games waiting for one.
//
// Forfeits. A game whose table fails (or cannot be made, its rules or bots
// refused now) is lost by both: the failure is nobody's doing, and nobody
// may gain by making a table fail. A game nobody acted at for
// Options.WaitingExpiry beyond the time the seat to act has (its clock, or
// the bots' delay) expires, and the seat whose turn it was loses it: with
// the turn clock on, the clock resigns an absent player long before, so
// this ends only the games the clock cannot (no clock, a Dragon Farkle
// seat, a stuck bot).
//
// At start, the games of tournaments at bots-only tables above the caps (a
// server restarted with lower caps, or a database from one without these
// caps) are voided and wait for a table again (voidOverCaps).

// result records the end of the game: its scores and winner.
func (g *tourGame) result(winners, scores []int) {
	g.Done, g.Winner, g.Pending = true, -1, false
	if len(scores) == 2 {
		g.PA, g.PB = scores[0], scores[1]
	}
	if len(winners) == 1 && winners[0] >= 0 && winners[0] < 2 {
		g.Winner = []int{g.A, g.B}[winners[0]]
	}
}

// forfeit settles the game as forfeited by f, for the reason why.
func (g *tourGame) forfeit(f tournament.Forfeit, why string) {
	x := g.game()
	x.SetForfeit(f)
	g.setGame(x)
	g.Why, g.Pending = why, false
}

// settle applies set to the game not yet done at table, and reports
// whether there was one.
func (st tourState) settle(table string, set func(g *tourGame)) bool {
	for i := range st.Rounds {
		for j := range st.Rounds[i] {
			if g := &st.Rounds[i][j]; g.Table == table && !g.Done {
				set(g)
				return true
			}
		}
	}
	return false
}

// roundDone reports whether there is no round yet or the last is done.
func (st tourState) roundDone() bool {
	if len(st.Rounds) == 0 {
		return true
	}
	for _, g := range st.Rounds[len(st.Rounds)-1] {
		if !g.Done {
			return false
		}
	}
	return true
}

// step moves tournament tr, whose rounds are st (changed since it was
// read if changed), on: it pairs the next round while the last is done, or
// ends the tournament, and stores it; then it opens the tables of the
// games waiting for one as the caps allow, and stores it again if a game
// changed (a game settled there may complete the round: then it goes round
// again). The tournament's lock is held.
func (s *Server) step(ctx context.Context, tr store.Tournament, st tourState, changed bool) (store.Tournament, error) {
	for {
		for tr.Status == store.TournamentPlaying && st.roundDone() {
			next, ok := tournament.Next(tournament.Format(tr.Format), len(tr.Entrants), st.rounds())
			if !ok {
				tr.Status = store.TournamentOver
				break
			}
			games := make([]tourGame, len(next))
			for i, g := range next {
				games[i] = tourGame{A: g.A, B: g.B}
				games[i].setGame(g)
				if !g.Done {
					games[i].Table, games[i].Pending = randomID(9), true
				}
			}
			st.Rounds = append(st.Rounds, games)
			changed = true
		}
		if changed {
			var err error
			if tr, err = s.saveTournament(ctx, tr, st); err != nil {
				return tr, err
			}
		}
		if tr.Status != store.TournamentPlaying || !s.openGames(ctx, tr, st) {
			return tr, nil
		}
		changed = true
		if !st.roundDone() {
			return s.saveTournament(ctx, tr, st)
		}
	}
}

// saveTournament stores tr with the rounds st and notes its tables.
func (s *Server) saveTournament(ctx context.Context, tr store.Tournament, st tourState) (store.Tournament, error) {
	var err error
	if tr.State, err = json.Marshal(st); err != nil {
		return tr, err
	}
	v, err := s.store.UpdateTournament(ctx, tr)
	if err != nil {
		return tr, err
	}
	tr.Version = v
	s.trackTables(tr.ID, st)
	return tr, nil
}

// openGames opens, in order, the tables of the last round's games waiting
// for one while the caps allow; the first refused waits with those after
// it. It reports whether a game changed (opened, or settled because its
// table cannot be made). The tournament's lock is held.
func (s *Server) openGames(ctx context.Context, tr store.Tournament, st tourState) bool {
	if len(st.Rounds) == 0 {
		return false
	}
	changed := false
	for j := range st.Rounds[len(st.Rounds)-1] {
		g := &st.Rounds[len(st.Rounds)-1][j]
		if !g.Pending || g.Done {
			continue
		}
		err := s.openGame(ctx, tr, g)
		if err != nil {
			var qe *quotaError
			if !errors.As(err, &qe) && !errors.Is(err, errClosed) {
				s.log.Warn("a tournament's table not opened (it is tried again)", "tournament", tr.ID, "table", g.Table, "err", err)
			}
			return changed
		}
		changed = true
	}
	return changed
}

// openGame opens the table of a game waiting for one, if the caps on its
// creator's tables and the server's allow (admit): entrant A in the first
// seat, B in the second, the game started. A table already made (the
// server stopped, or a write failed, before the tournament noted it) is
// taken as it is; one that cannot be made settles the game as a forfeit of
// both. The error is a refusal of the caps (a *quotaError) or the store's.
func (s *Server) openGame(ctx context.Context, tr store.Tournament, g *tourGame) error {
	switch _, err := s.store.Table(ctx, g.Table); {
	case err == nil:
		g.Pending = false
		return nil
	case store.Code(err) != store.ENOTFOUND:
		return err
	}
	seats := make([]store.Seat, 2)
	for i, e := range []store.Entrant{tr.Entrants[g.A], tr.Entrants[g.B]} {
		seats[i] = store.Seat{Name: e.Name, PlayerID: e.PlayerID, Bot: e.Bot}
	}
	seats[1].Name = uniqueName(seats, 1, seats[1].Name)
	withClock(seats, tr.Clock)
	tb := store.Table{ID: g.Table, Kind: tr.Kind, Rules: tr.Rules, Seats: seats, Seed: s.opt.Seeds(), Status: store.Playing,
		Creator: tr.Creator, Rated: tr.Rated, Pace: tr.Pace, Tournament: tr.ID}
	t := s.newTable(tb)
	k, err := s.kindOf(tb)
	if err == nil {
		t.kind = k
		t.bots, err = t.newBots()
	}
	if err != nil {
		s.log.Warn("a tournament's table cannot be made: its game is forfeited by both", "tournament", tr.ID, "table", g.Table, "err", err)
		g.forfeit(tournament.ForfeitBoth, forfeitFailed)
		g.Table = ""
		return nil
	}
	err = s.admit(ctx, store.Player{ID: tr.Creator}, seats, func() error {
		tb.Created = s.opt.Now() // admitted now: after the end of any table whose room it takes
		tb.Updated, t.meta.Created, t.meta.Updated = tb.Created, tb.Created, tb.Created
		if err := s.store.CreateTable(ctx, tb); err != nil {
			return err
		}
		_, err := s.serveNew(ctx, t, t.start)
		return err
	})
	if err != nil {
		return err
	}
	g.Pending = false
	return nil
}

// settleGame applies set to the game of tournament tid at table, not yet
// done, and moves the tournament on.
func (s *Server) settleGame(ctx context.Context, tid, table string, set func(g *tourGame)) error {
	return s.changeGame(ctx, tid, table, set, func(tr store.Tournament, st tourState) error {
		_, err := s.step(ctx, tr, st, true)
		return err
	})
}

// changeGame runs, under tournament tid's lock, set on its game at table
// not yet done, then then with the tournament and its rounds so changed;
// nothing if the tournament is not playing or has no such game.
func (s *Server) changeGame(ctx context.Context, tid, table string, set func(g *tourGame), then func(store.Tournament, tourState) error) error {
	unlock := s.tourLocks.lock(tid)
	defer unlock()
	tr, err := s.store.Tournament(ctx, tid)
	if err != nil {
		return err
	}
	st, err := roundsOf(tr)
	if err != nil || tr.Status != store.TournamentPlaying || !st.settle(table, set) {
		return err
	}
	return then(tr, st)
}

// tendTournaments tends every tournament under way (see above). A panic is
// logged and the next tending goes on.
func (s *Server) tendTournaments() {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic tending tournaments", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	trs, err := s.store.Tournaments(ctx, underWay, 1<<16)
	if err != nil {
		s.log.Error("tending tournaments", "err", err)
		return
	}
	for _, tr := range trs {
		select {
		case <-s.stop:
			return
		default:
		}
		if err := s.tend(ctx, tr.ID); err != nil && !errors.Is(err, errClosed) {
			s.log.Warn("tending a tournament (tried again at the next)", "tournament", tr.ID, "err", err)
		}
	}
}

// tend tends the tournament id.
func (s *Server) tend(ctx context.Context, id string) error {
	unlock := s.tourLocks.lock(id)
	defer unlock()
	tr, err := s.store.Tournament(ctx, id)
	if err != nil {
		return err
	}
	switch tr.Status {
	case store.TournamentOpen:
		if !tr.Start.IsZero() {
			_, err = s.startIfDue(ctx, tr)
			return err
		}
		if exp := s.opt.WaitingExpiry; exp > 0 && s.opt.Now().Sub(tr.Updated) > exp {
			tr.Status, tr.Reason = store.TournamentOver, fmt.Sprintf("cancelled: not full within %s of its last entrant (%d of %d)", spell(exp), len(tr.Entrants), tr.Size)
			_, err = s.store.UpdateTournament(ctx, tr)
		}
		return err
	case store.TournamentPlaying:
		st, err := roundsOf(tr)
		if err != nil {
			return err
		}
		changed := false
		for i := range st.Rounds {
			for j := range st.Rounds[i] {
				g := &st.Rounds[i][j]
				if g.Done || g.Pending || g.Table == "" {
					continue
				}
				c, err := s.checkGame(ctx, tr, g)
				if err != nil {
					s.log.Warn("a tournament's table not checked", "tournament", tr.ID, "table", g.Table, "err", err)
				}
				changed = changed || c
			}
		}
		_, err = s.step(ctx, tr, st, changed)
		return err
	}
	return nil
}

// checkGame settles game g, open at its table, if the table has ended: its
// result when over, a forfeit when it failed or expired; a table idle for
// longer than idleFor expires first. It reports whether g changed.
func (s *Server) checkGame(ctx context.Context, tr store.Tournament, g *tourGame) (bool, error) {
	tb, err := s.store.Table(ctx, g.Table)
	switch {
	case store.Code(err) == store.ENOTFOUND: // noted open, never made: open it again
		g.Pending = true
		return true, nil
	case err != nil:
		return false, err
	}
	switch tb.Status {
	case store.Over:
		g.result(tb.Winners, tb.Scores)
	case store.Failed:
		g.forfeit(tournament.ForfeitBoth, forfeitFailed)
	case store.Expired:
		g.forfeit(s.forfeitOf(ctx, tb), forfeitExpired)
	default:
		idle := s.idleFor(tb)
		if idle <= 0 || s.opt.Now().Sub(tb.Updated) <= idle {
			return false, nil
		}
		reason := fmt.Sprintf("nobody acted within %s: the tournament's game is forfeited by the seat to act", spell(idle))
		if err := s.store.ExpireIdle(ctx, tb.ID, s.opt.Now().Add(-idle), reason); err != nil {
			if store.Code(err) == store.ECONFLICT {
				return false, nil // it moved or ended meanwhile: the next tending looks again
			}
			return false, err
		}
		s.endedHere(tb.ID, store.Expired, reason)
		s.log.Info("a tournament's game expired", "tournament", tr.ID, "table", tb.ID)
		g.forfeit(s.forfeitOf(ctx, tb), forfeitExpired)
	}
	return true, nil
}

// idleFor returns how long a tournament's table may go without an action
// before it expires: Options.WaitingExpiry beyond the time the seat to act
// has (its clock, or the bots' delay); 0: never.
func (s *Server) idleFor(tb store.Table) time.Duration {
	if s.opt.WaitingExpiry <= 0 {
		return 0
	}
	return s.opt.WaitingExpiry + max(clockOf(tb.Seats), s.opt.BotDelay)
}

// forfeitOf returns who forfeits the game at table tb, which expired: the
// seat to act after its last stored action (seat 0 is entrant A), found by
// replaying them; both when there is none.
func (s *Server) forfeitOf(ctx context.Context, tb store.Table) (f tournament.Forfeit) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic replaying an expired table", "table", tb.ID, "panic", fmt.Sprint(v))
			f = tournament.ForfeitBoth
		}
	}()
	tb.Status = store.Playing // its game as it stood
	t, err := s.loadTable(ctx, tb)
	if err != nil || t.play == nil || t.play.Game().Over() {
		return tournament.ForfeitBoth
	}
	switch t.play.Game().ToAct() {
	case 0:
		return tournament.ForfeitA
	case 1:
		return tournament.ForfeitB
	}
	return tournament.ForfeitBoth
}

// endedHere brings this node's copy of table id, which a write of its own
// ended, up to date: its clients are told, its timers stop.
func (s *Server) endedHere(id string, status store.Status, reason string) {
	s.mu.Lock()
	t := s.tables[id]
	s.mu.Unlock()
	if t == nil {
		s.forgetAsleep(id) // idle.go
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.over.Load() {
		t.ended(status, reason)
	}
}

// resumeTournaments, at start, notes the tables of the tournaments in
// play, voids the games above the caps (voidOverCaps), arms the start of
// open tournaments with a start time, and starts the tending: at once
// (games that ended while the server was away are recorded), then every
// Options.TournamentEvery.
func (s *Server) resumeTournaments(ctx context.Context) error {
	trs, err := s.store.Tournaments(ctx, underWay, 1<<20)
	if err != nil {
		return err
	}
	for _, tr := range trs {
		if tr.Status == store.TournamentOpen {
			s.scheduleStart(tr)
			continue
		}
		st, err := roundsOf(tr)
		if err != nil {
			s.log.Error("a tournament's rounds cannot be read", "tournament", tr.ID, "err", err)
			continue
		}
		s.trackTables(tr.ID, st)
	}
	if err := s.voidOverCaps(ctx, trs); err != nil {
		return err
	}
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		s.tendTournaments()
	}()
	s.every(s.opt.TournamentEvery, s.tendTournaments)
	return nil
}

// voidOverCaps, at start, voids the tournaments' games at bots-only tables
// above the caps on bots-only tables (Options.MaxBotTables of a creator,
// Options.MaxBotTablesTotal in all), the newest first: each such table
// fails with a reason saying so (its record stays), and its game waits for
// a table again, to be played from the start when there is room. Games
// with people play on: they were admitted under the caps of their time,
// and a person's game is not thrown away; they count toward the caps, so
// no table opens until there is room.
func (s *Server) voidOverCaps(ctx context.Context, trs []store.Tournament) error {
	maxMine, maxAll := s.opt.MaxBotTables, s.opt.MaxBotTablesTotal
	if maxMine <= 0 && maxAll <= 0 {
		return nil
	}
	type open struct {
		tour, table, creator string
		created              time.Time
	}
	botsOnlyOpen := func(t *table) (store.Table, bool) {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.meta, !t.over.Load() && (t.meta.Status == store.Waiting || t.meta.Status == store.Playing) && botsOnly(t.meta.Seats)
	}
	mine, all := map[string]int{}, 0
	for _, t := range s.inMemory() {
		if meta, ok := botsOnlyOpen(t); ok {
			mine[meta.Creator]++
			all++
		}
	}
	var games []open
	for _, tr := range trs {
		st, err := roundsOf(tr)
		if err != nil || tr.Status != store.TournamentPlaying {
			continue
		}
		for _, r := range st.Rounds {
			for _, g := range r {
				if g.Done || g.Pending || g.Table == "" {
					continue
				}
				s.mu.Lock()
				t := s.tables[g.Table]
				s.mu.Unlock()
				if t == nil {
					continue
				}
				if meta, ok := botsOnlyOpen(t); ok {
					games = append(games, open{tr.ID, g.Table, meta.Creator, meta.Created})
				}
			}
		}
	}
	sort.Slice(games, func(i, j int) bool {
		if !games[i].created.Equal(games[j].created) {
			return games[i].created.After(games[j].created)
		}
		return games[i].table > games[j].table
	})
	voided := 0
	for _, g := range games {
		if !(maxMine > 0 && mine[g.creator] > maxMine || maxAll > 0 && all > maxAll) {
			continue
		}
		if err := s.voidGame(ctx, g.tour, g.table); err != nil {
			return err
		}
		mine[g.creator]--
		all--
		voided++
	}
	if voided > 0 {
		s.log.Warn("tournament games at bots-only tables above the caps voided at start: they wait for a table again",
			"count", voided, "max-bot-tables", maxMine, "max-bot-tables-total", maxAll)
	}
	return nil
}

// voidReason is the reason a table voided at start fails with.
const voidReason = "voided when the server started above its caps on tables with bots only: the tournament plays this game again when there is room"

// voidGame voids the game of tournament tid at table: the game waits for a
// new table (stored first), then the table fails.
func (s *Server) voidGame(ctx context.Context, tid, table string) error {
	return s.changeGame(ctx, tid, table, func(g *tourGame) { g.Table, g.Pending = randomID(9), true }, func(tr store.Tournament, st tourState) error {
		if _, err := s.saveTournament(ctx, tr, st); err != nil {
			return err
		}
		s.tourTabMu.Lock()
		delete(s.tourTables, table)
		s.tourTabMu.Unlock()
		s.mu.Lock()
		t := s.tables[table]
		s.mu.Unlock()
		if t != nil {
			t.fail(voidReason)
		}
		return nil
	})
}
