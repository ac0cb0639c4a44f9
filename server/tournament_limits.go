package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/farkle/farkle/store"
)

// The bounds of tournaments. A player may have Options.MaxOpenTournaments
// tournaments under way (open or playing) that they created, and the
// server Options.MaxTournamentsTotal in all; a tournament takes at most
// Options.MaxTournamentBots bots and starts at most
// Options.MaxTournamentAhead from now. Its tables count toward the caps on
// tables (quota.go) as tables its creator opened: a game that does not fit
// waits for a table (tournament_tend.go).

// withTournamentDefaults fills the zero fields of the tournaments' bounds.
func (o *Options) withTournamentDefaults() {
	setDefault(&o.MaxTournamentBots, 16)
	setDefault(&o.MaxOpenTournaments, 3)
	setDefault(&o.MaxTournamentsTotal, 50)
	setDefault(&o.MaxTournamentAhead, 4*7*24*time.Hour)
	setDefault(&o.TournamentEvery, 5*time.Second)
}

// underWay are the statuses of a tournament that counts toward the caps.
var underWay = []store.TournamentStatus{store.TournamentOpen, store.TournamentPlaying}

// createTournament stores tr if its creator p is under the caps of
// tournaments under way: 429 quota past the player's, 503 capacity past
// the server's. Creations are serialized (only the count and the write,
// never the pairing) so that parallel requests cannot overshoot a cap.
func (s *Server) createTournament(ctx context.Context, p store.Player, tr store.Tournament) error {
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	if max := s.opt.MaxOpenTournaments; max > 0 {
		n, err := s.store.CountTournaments(ctx, underWay, p.ID)
		if err != nil {
			return err
		}
		if n >= max {
			return &quotaError{http.StatusTooManyRequests, codeQuota,
				fmt.Sprintf("you have %d tournaments under way, the most one player may have (max-open-tournaments %d): let one finish first", n, max)}
		}
	}
	if max := s.opt.MaxTournamentsTotal; max > 0 {
		n, err := s.store.CountTournaments(ctx, underWay, "")
		if err != nil {
			return err
		}
		if n >= max {
			return &quotaError{http.StatusServiceUnavailable, codeCapacity,
				fmt.Sprintf("the server is full: %d tournaments are under way, the most it takes (max-tournaments-total %d); try again later, or join one", n, max)}
		}
	}
	return s.store.CreateTournament(ctx, tr)
}

// checkTournamentBots refuses more bot entrants than a tournament takes.
func (s *Server) checkTournamentBots(entrants []store.Entrant) error {
	n := 0
	for _, e := range entrants {
		if e.Bot != "" {
			n++
		}
	}
	if max := s.opt.MaxTournamentBots; max > 0 && n > max {
		return fieldErrorf("entrants", "%d bots; a tournament takes at most %d (max-tournament-bots %d): people join it themselves", n, max, max)
	}
	return nil
}

// tournamentStart parses a tournament's start: RFC 3339, after now and at
// most Options.MaxTournamentAhead from now; "" is none (when full).
func (s *Server) tournamentStart(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	start, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return start, fieldErrorf("start", "%q is not a time such as 2026-12-24T18:00:00Z", v)
	}
	now := s.opt.Now()
	if !start.After(now) {
		return start, fieldErrorf("start", "%s has passed", v)
	}
	if ahead := s.opt.MaxTournamentAhead; ahead > 0 && start.Sub(now) > ahead {
		return start, fieldErrorf("start", "%s is more than %s ahead: a tournament starts within %s of now (max-tournament-ahead %s)", v, spell(ahead), spell(ahead), ahead)
	}
	return start, nil
}

// spell writes a duration for people: whole weeks, days or hours as such
// ("4 weeks", "3 days", "12 hours"), anything else as Go writes it.
func spell(d time.Duration) string {
	const day, week = 24 * time.Hour, 7 * 24 * time.Hour
	unit := func(n time.Duration, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case d > 0 && d%week == 0:
		return unit(d/week, "week")
	case d > 0 && d%day == 0:
		return unit(d/day, "day")
	case d > 0 && d%time.Hour == 0:
		return unit(d/time.Hour, "hour")
	}
	return d.String()
}
