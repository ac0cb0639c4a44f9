package server

import (
	"context"
	"encoding/json"

	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/tournament"
)

// Tournaments: round-robin, Swiss or knockout for 3 to 64 entrants, people
// and bots, on any rules, live or at your own pace, starting at a time or
// when full. Each pairing is an ordinary two-seat table; when its game
// ends the tournament records the result and, once the round is complete,
// pairs the next (package tournament). The rounds live in the store with
// the tournament (store.Tournament.State), written with a version check;
// tourMu serializes the server's own changes. docs/API.md, "Tournaments".

// maxOpenTournaments is the most open or playing tournaments one player
// may have created.
const maxOpenTournaments = 3

// tourGame is a pairing as the tournament keeps it: package tournament's
// game and its table.
type tourGame struct {
	A      int    `json:"a"`
	B      int    `json:"b"` // tournament.Bye for a bye
	Done   bool   `json:"done"`
	PA     int    `json:"pa"`
	PB     int    `json:"pb"`
	Winner int    `json:"winner"`
	Table  string `json:"table,omitempty"`
}

// tourState is a tournament's rounds (store.Tournament.State).
type tourState struct {
	Rounds [][]tourGame `json:"rounds"`
}

func roundsOf(tr store.Tournament) (tourState, error) {
	var st tourState
	if len(tr.State) > 0 {
		if err := json.Unmarshal(tr.State, &st); err != nil {
			return st, fmt.Errorf("server: tournament %s state: %w", tr.ID, err)
		}
	}
	return st, nil
}

// rounds returns the rounds in package tournament's form.
func (st tourState) rounds() []tournament.Round {
	out := make([]tournament.Round, len(st.Rounds))
	for i, r := range st.Rounds {
		for _, g := range r {
			out[i] = append(out[i], tournament.Game{A: g.A, B: g.B, Done: g.Done, PA: g.PA, PB: g.PB, Winner: g.Winner})
		}
	}
	return out
}

// newTourReq is the body of POST /api/tournaments.
type newTourReq struct {
	Name     string          `json:"name"`
	Format   string          `json:"format"`
	Rules    json.RawMessage `json:"rules"`
	Pace     string          `json:"pace,omitempty"`
	Clock    *int            `json:"clock,omitempty"`
	Rated    bool            `json:"rated,omitempty"`
	Size     int             `json:"size"`
	Start    string          `json:"start,omitempty"` // RFC 3339; none: when full
	Entrants []seatReq       `json:"entrants"`        // "me" and bots entered at once
}

func (s *Server) handleNewTournament(w http.ResponseWriter, r *http.Request) {
	var req newTourReq
	if err := readJSON(r, &req); err != nil {
		s.httpError(w, err)
		return
	}
	p, err := s.creator(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	tr, err := s.tournamentOf(r, p, req)
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	mine, err := s.store.Tournaments(r.Context(), []store.TournamentStatus{store.TournamentOpen, store.TournamentPlaying}, 1000)
	if err != nil {
		s.httpError(w, err)
		return
	}
	n := 0
	for _, t := range mine {
		if t.Creator == p.ID {
			n++
		}
	}
	if n >= maxOpenTournaments {
		s.httpError(w, &quotaError{http.StatusTooManyRequests, codeQuota, fmt.Sprintf("you have %d tournaments under way, the most one player may have", n)})
		return
	}
	if err := s.store.CreateTournament(r.Context(), tr); err != nil {
		s.httpError(w, err)
		return
	}
	tr.Version = 1
	if tr, err = s.startIfDue(r.Context(), tr); err != nil {
		s.httpError(w, err)
		return
	}
	s.scheduleStart(tr)
	s.log.Info("tournament created", "tournament", tr.ID, "format", tr.Format, "size", tr.Size)
	writeJSON(w, http.StatusCreated, s.tournamentView(r.Context(), tr))
}

// tournamentOf checks a tournament request and returns the tournament.
func (s *Server) tournamentOf(r *http.Request, p store.Player, req newTourReq) (store.Tournament, error) {
	name, err := CleanName(req.Name)
	if err != nil {
		return store.Tournament{}, err
	}
	if err := tournament.Check(tournament.Format(req.Format), req.Size); err != nil {
		return store.Tournament{}, badRequest("%v", err)
	}
	if len(req.Entrants) > req.Size {
		return store.Tournament{}, badRequest("entrants: %d for a tournament of %d", len(req.Entrants), req.Size)
	}
	clock, err := s.clockFor(req.Clock)
	if req.Pace != "" {
		clock, err = s.paceClock(req.Pace)
	}
	if err != nil {
		return store.Tournament{}, err
	}
	k, err := s.newKind(req.Rules)
	if err != nil {
		return store.Tournament{}, err
	}
	if err := k.checkSeats(2); err != nil {
		return store.Tournament{}, badRequest("rules: tournament games are for two players: %v", err)
	}
	var start time.Time
	if req.Start != "" {
		if start, err = time.Parse(time.RFC3339, req.Start); err != nil {
			return store.Tournament{}, badRequest("start: %q is not a time such as 2026-12-24T18:00:00Z", req.Start)
		}
		if !start.After(s.opt.Now()) {
			return store.Tournament{}, badRequest("start: %s has passed", req.Start)
		}
	}
	seats, err := s.seatsOf(r, req.Entrants, k.botLevel)
	if err != nil {
		return store.Tournament{}, err
	}
	var entrants []store.Entrant
	for i, st := range seats {
		if st.PlayerID == "" && st.Bot == "" {
			return store.Tournament{}, badRequest("entrants[%d]: entrants are \"me\" or bots; people join the tournament themselves", i)
		}
		entrants = append(entrants, store.Entrant{PlayerID: st.PlayerID, Bot: st.Bot, Name: st.Name})
	}
	v := k.variant()
	return store.Tournament{ID: randomID(9), Name: name, Format: req.Format, Kind: v.Kind(), Rules: v.Rules(), Pace: req.Pace, Clock: clock,
		Rated: req.Rated, Size: req.Size, Start: start, Creator: p.ID, Status: store.TournamentOpen, Entrants: entrants,
		State: json.RawMessage(`{"rounds":[]}`), Created: s.opt.Now()}, nil
}

// handleJoinTournament enters the caller in an open tournament.
func (s *Server) handleJoinTournament(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	tr, err := s.store.Tournament(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	for _, e := range tr.Entrants {
		if e.PlayerID == p.ID {
			writeJSON(w, http.StatusOK, s.tournamentView(r.Context(), tr))
			return
		}
	}
	switch {
	case tr.Status != store.TournamentOpen:
		s.httpError(w, store.Errorf(store.ECONFLICT, "tournament %s has started: it takes no more entrants", tr.ID))
		return
	case len(tr.Entrants) >= tr.Size:
		s.httpError(w, store.Errorf(store.ECONFLICT, "tournament %s is full", tr.ID))
		return
	}
	tr.Entrants = append(tr.Entrants, store.Entrant{PlayerID: p.ID, Name: entrantName(tr.Entrants, p.Name)})
	if tr.Version, err = s.store.UpdateTournament(r.Context(), tr); err != nil {
		s.httpError(w, err)
		return
	}
	if tr, err = s.startIfDue(r.Context(), tr); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.tournamentView(r.Context(), tr))
}

// entrantName returns name, numbered if another entrant has it.
func entrantName(es []store.Entrant, name string) string {
	seats := make([]store.Seat, len(es)+1)
	for i, e := range es {
		seats[i].Name = e.Name
	}
	return uniqueName(seats, len(es), name)
}

// startIfDue starts an open tournament that is full and starts when full,
// or whose start time has come (cancelling it with fewer than three
// entrants). tourMu is held.
func (s *Server) startIfDue(ctx context.Context, tr store.Tournament) (store.Tournament, error) {
	if tr.Status != store.TournamentOpen {
		return tr, nil
	}
	due := tr.Start.IsZero() && len(tr.Entrants) >= tr.Size || !tr.Start.IsZero() && !s.opt.Now().Before(tr.Start)
	if !due {
		return tr, nil
	}
	if len(tr.Entrants) < tournament.MinEntrants {
		tr.Status, tr.Reason = store.TournamentOver, fmt.Sprintf("cancelled: %d entrants at the start, fewer than %d", len(tr.Entrants), tournament.MinEntrants)
		v, err := s.store.UpdateTournament(ctx, tr)
		tr.Version = v
		return tr, err
	}
	tr.Status = store.TournamentPlaying
	return s.advance(ctx, tr)
}

// advance pairs the next round once the last is complete (or ends the
// tournament), creating its tables, and stores the tournament. tourMu is
// held.
func (s *Server) advance(ctx context.Context, tr store.Tournament) (store.Tournament, error) {
	st, err := roundsOf(tr)
	if err != nil {
		return tr, err
	}
	rounds := st.rounds()
	for len(rounds) == 0 || rounds[len(rounds)-1].Done() {
		next, ok := tournament.Next(tournament.Format(tr.Format), len(tr.Entrants), rounds)
		if !ok {
			tr.Status = store.TournamentOver
			break
		}
		var games []tourGame
		for _, g := range next {
			tg := tourGame{A: g.A, B: g.B, Done: g.Done, Winner: g.Winner}
			if g.B != tournament.Bye {
				if tg.Table, err = s.tournamentTable(ctx, tr, g.A, g.B); err != nil {
					return tr, err
				}
			}
			games = append(games, tg)
		}
		st.Rounds = append(st.Rounds, games)
		rounds = st.rounds()
	}
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

// trackTables notes which tournament each table of st plays for.
func (s *Server) trackTables(id string, st tourState) {
	s.tourTabMu.Lock()
	defer s.tourTabMu.Unlock()
	if s.tourTables == nil {
		s.tourTables = map[string]string{}
	}
	for _, r := range st.Rounds {
		for _, g := range r {
			if g.Table != "" && !g.Done {
				s.tourTables[g.Table] = id
			}
		}
	}
}

// tournamentTable opens the table of a pairing: entrant a in the first
// seat, b in the second, both taken, the game started.
func (s *Server) tournamentTable(ctx context.Context, tr store.Tournament, a, b int) (string, error) {
	seats := make([]store.Seat, 2)
	for i, e := range []store.Entrant{tr.Entrants[a], tr.Entrants[b]} {
		seats[i] = store.Seat{Name: e.Name, PlayerID: e.PlayerID, Bot: e.Bot}
	}
	seats[1].Name = uniqueName(seats, 1, seats[1].Name)
	withClock(seats, tr.Clock)
	now := s.opt.Now()
	tb := store.Table{ID: randomID(9), Kind: tr.Kind, Rules: tr.Rules, Seats: seats, Seed: dice.NewSeed(), Status: store.Playing,
		Created: now, Updated: now, Creator: tr.Creator, Rated: tr.Rated, Pace: tr.Pace}
	k, err := s.kindOf(tb)
	if err != nil {
		return "", err
	}
	t := s.newTable(tb)
	t.kind = k
	if t.bots, err = t.newBots(); err != nil {
		return "", err
	}
	if err := s.store.CreateTable(ctx, tb); err != nil {
		return "", err
	}
	if _, err := s.serveNew(t, t.start); err != nil {
		return "", err
	}
	return tb.ID, nil
}

// tournamentGameOver records the end of the game at table id in its
// tournament, if it plays for one, and moves the tournament on. It runs on
// its own goroutine: the table's lock is not held.
func (s *Server) tournamentGameOver(id string, winners, scores []int) {
	s.tourTabMu.Lock()
	tid, ok := s.tourTables[id]
	if ok {
		delete(s.tourTables, id)
	}
	s.tourTabMu.Unlock()
	if !ok {
		return
	}
	select {
	case <-s.stop: // closing: the game is recorded when the server comes back
		return
	default:
	}
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.recordGame(ctx, tid, id, winners, scores); err != nil {
			s.log.Error("tournament game not recorded", "tournament", tid, "table", id, "err", err)
		}
	}()
}

// recordGame writes the result of the game at table into the tournament.
func (s *Server) recordGame(ctx context.Context, tid, table string, winners, scores []int) error {
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	tr, err := s.store.Tournament(ctx, tid)
	if err != nil {
		return err
	}
	st, err := roundsOf(tr)
	if err != nil {
		return err
	}
	found := false
	for i, r := range st.Rounds {
		for j, g := range r {
			if g.Table != table || g.Done {
				continue
			}
			g.Done, g.Winner = true, -1
			if len(scores) == 2 {
				g.PA, g.PB = scores[0], scores[1]
			}
			if len(winners) == 1 {
				g.Winner = []int{g.A, g.B}[winners[0]]
			}
			st.Rounds[i][j], found = g, true
		}
	}
	if !found {
		return nil
	}
	if tr.State, err = json.Marshal(st); err != nil {
		return err
	}
	_, err = s.advance(ctx, tr)
	return err
}

// resumeTournaments, at start, tracks the tables of the tournaments in
// play, records games that ended while the server was away, and arms the
// start of open tournaments with a start time.
func (s *Server) resumeTournaments(ctx context.Context) error {
	trs, err := s.store.Tournaments(ctx, []store.TournamentStatus{store.TournamentOpen, store.TournamentPlaying}, 1<<20)
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
			return err
		}
		s.trackTables(tr.ID, st)
		for _, r := range st.Rounds {
			for _, g := range r {
				if g.Done || g.Table == "" {
					continue
				}
				if tb, err := s.store.Table(ctx, g.Table); err == nil && tb.Status == store.Over {
					s.tournamentGameOver(g.Table, tb.Winners, tb.Scores)
				}
			}
		}
	}
	return nil
}

// scheduleStart starts an open tournament with a start time when the time
// comes.
func (s *Server) scheduleStart(tr store.Tournament) {
	if tr.Status != store.TournamentOpen || tr.Start.IsZero() {
		return
	}
	time.AfterFunc(max(0, tr.Start.Sub(s.opt.Now())), func() {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return
		}
		s.tourMu.Lock()
		defer s.tourMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cur, err := s.store.Tournament(ctx, tr.ID)
		if err == nil {
			_, err = s.startIfDue(ctx, cur)
		}
		if err != nil {
			s.log.Error("tournament not started", "tournament", tr.ID, "err", err)
		}
	})
}

// tourGameView is a pairing as clients see it.
type tourGameView struct {
	A         int    `json:"a"`
	B         int    `json:"b"` // -1: a bye
	AName     string `json:"a_name"`
	BName     string `json:"b_name,omitempty"`
	Table     string `json:"table,omitempty"`
	Done      bool   `json:"done"`
	PA        int    `json:"pa"`
	PB        int    `json:"pb"`
	Winner    int    `json:"winner"` // -1: none (a draw, or not played yet)
	WaitingOn string `json:"waiting_on,omitempty"`
}

type tourStandingView struct {
	Entrant int    `json:"entrant"`
	Name    string `json:"name"`
	Player  string `json:"player,omitempty"`
	Bot     string `json:"bot,omitempty"`
	Played  int    `json:"played"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
	For     int    `json:"for"`
	Against int    `json:"against"`
	Diff    int    `json:"diff"`
}

type tournamentView struct {
	ID        string             `json:"id"`
	Name      string             `json:"name"`
	Format    string             `json:"format"`
	Kind      string             `json:"kind"`
	Rules     json.RawMessage    `json:"rules,omitempty"`
	Pace      string             `json:"pace,omitempty"`
	Clock     float64            `json:"clock_seconds"`
	Rated     bool               `json:"rated"`
	Size      int                `json:"size"`
	Start     *time.Time         `json:"start,omitempty"`
	Status    string             `json:"status"`
	Reason    string             `json:"reason,omitempty"`
	Creator   string             `json:"creator"`
	Entrants  []store.Entrant    `json:"entrants"`
	Standings []tourStandingView `json:"standings"`
	Rounds    [][]tourGameView   `json:"rounds"`
	Total     int                `json:"total_rounds"`
	Champion  *string            `json:"champion,omitempty"`
	Created   time.Time          `json:"created"`
}

// tournamentView returns the tournament as clients see it, with the
// standings and, for each game in play, whom it waits on.
func (s *Server) tournamentView(ctx context.Context, tr store.Tournament) tournamentView {
	v := tournamentView{ID: tr.ID, Name: tr.Name, Format: tr.Format, Kind: string(tr.Kind), Rules: tr.Rules, Pace: tr.Pace, Clock: tr.Clock.Seconds(),
		Rated: tr.Rated, Size: tr.Size, Status: string(tr.Status), Reason: tr.Reason, Creator: tr.Creator, Entrants: tr.Entrants,
		Total: tournament.Rounds(tournament.Format(tr.Format), max(len(tr.Entrants), tournament.MinEntrants)), Created: tr.Created.UTC(),
		Standings: []tourStandingView{}, Rounds: [][]tourGameView{}}
	if v.Entrants == nil {
		v.Entrants = []store.Entrant{}
	}
	if !tr.Start.IsZero() {
		st := tr.Start.UTC()
		v.Start = &st
	}
	st, err := roundsOf(tr)
	if err != nil {
		s.log.Error("tournament state", "tournament", tr.ID, "err", err)
		return v
	}
	name := func(i int) string {
		if i >= 0 && i < len(tr.Entrants) {
			return tr.Entrants[i].Name
		}
		return ""
	}
	for _, r := range st.Rounds {
		var games []tourGameView
		for _, g := range r {
			gv := tourGameView{A: g.A, B: g.B, AName: name(g.A), BName: name(g.B), Table: g.Table, Done: g.Done, PA: g.PA, PB: g.PB, Winner: g.Winner}
			if !g.Done && g.Table != "" {
				gv.WaitingOn = s.waitingOn(ctx, g.Table)
			}
			if !g.Done {
				gv.Winner = -1
			}
			games = append(games, gv)
		}
		v.Rounds = append(v.Rounds, games)
	}
	if len(tr.Entrants) > 0 {
		for _, line := range tournament.Standings(len(tr.Entrants), st.rounds()) {
			e := tr.Entrants[line.Entrant]
			v.Standings = append(v.Standings, tourStandingView{Entrant: line.Entrant, Name: e.Name, Player: e.PlayerID, Bot: e.Bot, Played: line.Played,
				Wins: line.Wins, Draws: line.Draws, Losses: line.Losses, For: line.For, Against: line.Against, Diff: line.Diff()})
		}
	}
	if tr.Status == store.TournamentOver && tr.Reason == "" && len(v.Standings) > 0 {
		c := v.Standings[0].Name
		if tournament.Format(tr.Format) == tournament.Knockout {
			c = name(tournament.Champion(st.rounds()))
		}
		v.Champion = &c
	}
	return v
}

// waitingOn returns the name of the seat the game at table waits on, ""
// if none.
func (s *Server) waitingOn(ctx context.Context, table string) string {
	t, err := s.getTable(ctx, table)
	if err != nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	seat, _, ok := t.actorNow()
	if !ok || seat < 0 || seat >= len(t.meta.Seats) {
		return ""
	}
	return t.meta.Seats[seat].Name
}

func (s *Server) handleTournament(w http.ResponseWriter, r *http.Request) {
	tr, err := s.store.Tournament(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.tournamentView(r.Context(), tr))
}

// handleTournaments lists tournaments (?status=open,playing,over).
func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	var status []store.TournamentStatus
	for _, st := range strings.Split(r.URL.Query().Get("status"), ",") {
		switch store.TournamentStatus(st) {
		case store.TournamentOpen, store.TournamentPlaying, store.TournamentOver:
			status = append(status, store.TournamentStatus(st))
		case "":
		default:
			s.httpError(w, badRequest("status %q (statuses: open, playing, over)", st))
			return
		}
	}
	trs, err := s.store.Tournaments(r.Context(), status, 50)
	if err != nil {
		s.httpError(w, err)
		return
	}
	out := make([]tournamentView, 0, len(trs))
	for _, tr := range trs {
		v := tournamentView{ID: tr.ID, Name: tr.Name, Format: tr.Format, Kind: string(tr.Kind), Pace: tr.Pace, Rated: tr.Rated, Size: tr.Size,
			Status: string(tr.Status), Reason: tr.Reason, Creator: tr.Creator, Entrants: tr.Entrants, Created: tr.Created.UTC()}
		if !tr.Start.IsZero() {
			st := tr.Start.UTC()
			v.Start = &st
		}
		out = append(out, v)
	}
	writeJSON(w, http.StatusOK, out)
}
