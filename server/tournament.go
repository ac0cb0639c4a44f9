package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/tournament"
)

// Tournaments: round-robin, Swiss or knockout for 3 to 64 entrants, people
// and bots, on any rules, live or at your own pace, starting at a time or
// when full. Each pairing is an ordinary two-seat table; when its game
// ends the tournament records the result and, once the round is complete,
// pairs the next (package tournament). The tables count toward the caps
// on tables as their creator's: a game that does not fit waits for a table
// (tournament_tend.go), and one whose table fails or stalls is settled as
// a forfeit. The rounds live in the store with the tournament
// (store.Tournament.State), written with a version check; the changes of
// one tournament are serialized by its own lock (tourLocks), never by one
// for all. docs/API.md, "Tournaments".

// tourGame is a pairing as the tournament keeps it: package tournament's
// game and its table. The table's ID is chosen when the game is paired
// and stored before the table is made; Pending says it is not made yet.
type tourGame struct {
	A       int                `json:"a"`
	B       int                `json:"b"` // tournament.Bye for a bye
	Done    bool               `json:"done"`
	PA      int                `json:"pa"`
	PB      int                `json:"pb"`
	Winner  int                `json:"winner"`
	Forfeit tournament.Forfeit `json:"forfeit,omitempty"`
	Why     string             `json:"why,omitempty"` // of a forfeit: forfeitFailed or forfeitExpired
	Table   string             `json:"table,omitempty"`
	Pending bool               `json:"pending,omitempty"` // waiting for room under the caps on tables
}

// Why a game was forfeited (tourGame.Why).
const (
	forfeitFailed  = "failed"  // its table failed (or could not be made): both lose
	forfeitExpired = "expired" // nobody acted at it in time: the seat to act loses
)

// game returns g in package tournament's form.
func (g tourGame) game() tournament.Game {
	return tournament.Game{A: g.A, B: g.B, Done: g.Done, PA: g.PA, PB: g.PB, Winner: g.Winner, Forfeit: g.Forfeit}
}

// setGame copies x's result into g.
func (g *tourGame) setGame(x tournament.Game) {
	g.Done, g.PA, g.PB, g.Winner, g.Forfeit = x.Done, x.PA, x.PB, x.Winner, x.Forfeit
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
			out[i] = append(out[i], g.game())
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
	if err := s.createTournament(r.Context(), p, tr); err != nil {
		s.httpError(w, err)
		return
	}
	unlock := s.tourLocks.lock(tr.ID)
	if tr, err = s.store.Tournament(r.Context(), tr.ID); err == nil { // as stored: the tending may have come first
		tr, err = s.startIfDue(r.Context(), tr)
	}
	unlock() // the view reads the tables: not under the tournament's lock
	if err != nil {
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
	if err := tournament.Check(tournament.Format(req.Format), tournament.MinEntrants); err != nil {
		return store.Tournament{}, fieldErrorf("format", "%v", err)
	}
	if err := tournament.Check(tournament.Format(req.Format), req.Size); err != nil {
		return store.Tournament{}, fieldErrorf("size", "%v", err)
	}
	if len(req.Entrants) > req.Size {
		return store.Tournament{}, fieldErrorf("entrants", "%d for a tournament of %d", len(req.Entrants), req.Size)
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
	start, err := s.tournamentStart(req.Start)
	if err != nil {
		return store.Tournament{}, err
	}
	seats, err := s.seatsOf(r, req.Entrants, k.botLevel)
	if err != nil {
		return store.Tournament{}, err
	}
	var entrants []store.Entrant
	for i, st := range seats {
		if st.PlayerID == "" && st.Bot == "" {
			return store.Tournament{}, fieldErrorf("entrants", "entrants[%d]: entrants are \"me\" or bots; people join the tournament themselves", i)
		}
		entrants = append(entrants, store.Entrant{PlayerID: st.PlayerID, Bot: st.Bot, Name: st.Name})
	}
	if err := s.checkTournamentBots(entrants); err != nil {
		return store.Tournament{}, err
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
	tr, err := s.joinTournament(r.Context(), r.PathValue("id"), p)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.tournamentView(r.Context(), tr))
}

// joinTournament enters p in the open tournament id (nothing if p is in
// it), starting it if that fills it.
func (s *Server) joinTournament(ctx context.Context, id string, p store.Player) (store.Tournament, error) {
	unlock := s.tourLocks.lock(id)
	defer unlock()
	tr, err := s.store.Tournament(ctx, id)
	if err != nil {
		return tr, err
	}
	for _, e := range tr.Entrants {
		if e.PlayerID == p.ID {
			return tr, nil
		}
	}
	switch {
	case tr.Status != store.TournamentOpen:
		return tr, store.Errorf(store.ECONFLICT, "tournament %s has started: it takes no more entrants", tr.ID)
	case len(tr.Entrants) >= tr.Size:
		return tr, store.Errorf(store.ECONFLICT, "tournament %s is full", tr.ID)
	}
	tr.Entrants = append(tr.Entrants, store.Entrant{PlayerID: p.ID, Name: entrantName(tr.Entrants, p.Name)})
	if tr.Version, err = s.store.UpdateTournament(ctx, tr); err != nil {
		return tr, err
	}
	return s.startIfDue(ctx, tr)
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
// entrants). The tournament's lock is held.
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
	st, err := roundsOf(tr)
	if err != nil {
		return tr, err
	}
	return s.step(ctx, tr, st, true)
}

// trackTables notes which tournament each table of a game of st not yet
// done plays for, and forgets the tables of the games done.
func (s *Server) trackTables(id string, st tourState) {
	s.tourTabMu.Lock()
	defer s.tourTabMu.Unlock()
	if s.tourTables == nil {
		s.tourTables = map[string]string{}
	}
	for _, r := range st.Rounds {
		for _, g := range r {
			switch {
			case g.Table == "":
			case g.Done:
				delete(s.tourTables, g.Table)
			default:
				s.tourTables[g.Table] = id
			}
		}
	}
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
		if err := s.settleGame(ctx, tid, id, func(g *tourGame) { g.result(winners, scores) }); err != nil {
			s.log.Warn("tournament game not recorded yet (the tending records it)", "tournament", tid, "table", id, "err", err)
		}
	}()
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
		unlock := s.tourLocks.lock(tr.ID)
		defer unlock()
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
	Winner    int    `json:"winner"` // -1: none (a draw, a double forfeit, or not played yet)
	WaitingOn string `json:"waiting_on,omitempty"`
	// Pending: the game waits for room under the caps on tables (its table
	// is not open yet).
	Pending bool `json:"pending,omitempty"`
	// Forfeit is who forfeited ("a", "b" or "both") and Why why
	// ("failed": the table failed; "expired": nobody acted in time).
	Forfeit string `json:"forfeit,omitempty"`
	Why     string `json:"why,omitempty"`
	Void    bool   `json:"void,omitempty"` // a knockout's place nobody reached
}

// forfeitNames are the forfeits as clients see them.
var forfeitNames = map[tournament.Forfeit]string{tournament.ForfeitA: "a", tournament.ForfeitB: "b", tournament.ForfeitBoth: "both"}

type tourStandingView struct {
	Entrant int    `json:"entrant"`
	Name    string `json:"name"`
	Player  string `json:"player,omitempty"`
	Bot     string `json:"bot,omitempty"`
	Played  int    `json:"played"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
	Forfeit int    `json:"forfeits"` // of the losses, those by forfeit
	For     int    `json:"for"`
	Against int    `json:"against"`
	Diff    int    `json:"diff"`
	Guest   bool   `json:"guest,omitempty"` // a player without an account (guest.go)
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
			gv := tourGameView{A: g.A, B: g.B, AName: name(g.A), BName: name(g.B), Table: g.Table, Done: g.Done, PA: g.PA, PB: g.PB, Winner: g.Winner,
				Pending: g.Pending && !g.Done, Forfeit: forfeitNames[g.Forfeit], Why: g.Why, Void: g.game().Void()}
			switch {
			case g.Pending:
				gv.Table = "" // not open yet
			case !g.Done && g.Table != "":
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
		var people []string
		for _, e := range tr.Entrants {
			if e.PlayerID != "" {
				people = append(people, e.PlayerID)
			}
		}
		have := s.accountsOf(ctx, people) // guest.go
		for _, line := range tournament.Standings(len(tr.Entrants), st.rounds()) {
			e := tr.Entrants[line.Entrant]
			v.Standings = append(v.Standings, tourStandingView{Entrant: line.Entrant, Name: e.Name, Player: e.PlayerID, Bot: e.Bot, Played: line.Played,
				Wins: line.Wins, Draws: line.Draws, Losses: line.Losses, Forfeit: line.Forfeits, For: line.For, Against: line.Against, Diff: line.Diff(),
				Guest: have != nil && e.Bot == "" && isGuest(e.PlayerID, have[e.PlayerID])})
		}
	}
	if tr.Status == store.TournamentOver && tr.Reason == "" && len(v.Standings) > 0 {
		c := v.Standings[0].Name
		if tournament.Format(tr.Format) == tournament.Knockout {
			c = name(tournament.Champion(st.rounds())) // "": both sides forfeited the final
		}
		if c != "" {
			v.Champion = &c
		}
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
