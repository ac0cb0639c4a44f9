package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/farkle/farkle/store"
)

// Quotas on tables: creating one needs a player; a player may have at most
// Options.MaxOpenTables open (waiting or playing) tables they created, and
// at most Options.MaxBotTables of them with bots only. Every new table's
// rules end the game after at most Options.MaxTurns rounds (game.max_turns,
// part of the stored rules, so the record replays it).

// Refusal codes of table creation.
const (
	codeNoPlayer = "no_player" // the request carries no player's token
	codeQuota    = "quota"     // a cap on a player's tables is reached
	codeCapacity = "capacity"  // a cap on the server's tables in all is reached
)

// quotaError is a refusal of table creation, answered with its status.
type quotaError struct {
	status int
	code   string
	msg    string
}

func (e *quotaError) Error() string { return e.msg }

// creator returns the player creating a table: 401 no_player without one.
func (s *Server) creator(r *http.Request) (store.Player, error) {
	p, err := s.playerOf(r)
	if store.Code(err) == store.ENOTFOUND {
		return p, &quotaError{http.StatusUnauthorized, codeNoPlayer, "creating a table needs a player: choose a name first (POST /api/players), then send its cookie or \"Authorization: Bearer TOKEN\""}
	}
	return p, err
}

// botsOnly reports whether every seat is a bot.
func botsOnly(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Bot == "" {
			return false
		}
	}
	return true
}

// admit runs create (which stores the table) if player p is under the
// caps of open and bots-only tables. Creations are serialized so that
// parallel requests cannot overshoot a cap.
func (s *Server) admit(ctx context.Context, p store.Player, seats []store.Seat, create func() error) error {
	s.createMu.Lock()
	defer s.createMu.Unlock()
	if err := s.underCapacity(botsOnly(seats)); err != nil {
		return err
	}
	open := []store.Status{store.Waiting, store.Playing}
	if max := s.opt.MaxOpenTables; max > 0 {
		n, err := s.store.CountTables(ctx, store.TableFilter{Creator: p.ID, Status: open})
		if err != nil {
			return err
		}
		if n >= max {
			return &quotaError{http.StatusTooManyRequests, codeQuota,
				fmt.Sprintf("you have %d open tables, the most one player may have (max-open-tables %d): finish one, or let a waiting one expire, first", n, max)}
		}
	}
	if max := s.opt.MaxBotTables; max > 0 && botsOnly(seats) {
		limit := s.opt.MaxOpenTables
		if limit <= 0 {
			limit = 1000
		}
		mine, err := s.store.Tables(ctx, store.TableFilter{Creator: p.ID, Status: open, Limit: limit})
		if err != nil {
			return err
		}
		n := 0
		for _, tb := range mine {
			if botsOnly(tb.Seats) {
				n++
			}
		}
		if n >= max {
			return &quotaError{http.StatusTooManyRequests, codeQuota,
				fmt.Sprintf("you have %d open tables with bots only, the most one player may have (max-bot-tables %d): wait for one to end first", n, max)}
		}
	}
	if err := s.admitInvitations(ctx, p, seats); err != nil { // invite.go
		return err
	}
	return create()
}

// underCapacity refuses a new table (503 capacity, with Retry-After) when
// the server holds Options.MaxTablesTotal open tables, or, for a bots-only
// table, Options.MaxBotTablesTotal open bots-only tables. Every open table
// is in memory (s.tables) or asleep there (idle.go), so they are counted
// there.
func (s *Server) underCapacity(botsOnlyTable bool) error {
	if s.opt.MaxTablesTotal <= 0 && (s.opt.MaxBotTablesTotal <= 0 || !botsOnlyTable) {
		return nil
	}
	open, bots := s.openTables()
	if max := s.opt.MaxTablesTotal; max > 0 && open >= max {
		return &quotaError{http.StatusServiceUnavailable, codeCapacity,
			fmt.Sprintf("the server is full: %d tables are open, the most it takes (max-tables-total %d); try again later", open, max)}
	}
	if max := s.opt.MaxBotTablesTotal; max > 0 && botsOnlyTable && bots >= max {
		return &quotaError{http.StatusServiceUnavailable, codeCapacity,
			fmt.Sprintf("the server is full: %d tables with bots only are open, the most it takes (max-bot-tables-total %d); try again later, or sit at one", bots, max)}
	}
	return nil
}

// openTables counts the tables waiting or in play, and of those the
// bots-only ones. It takes no table's lock (a table's action holds it
// while its commit waits for the database, and a count of hundreds of
// tables under load would wait for each): a table has ended exactly when
// over is set, and whether it has bots only is fixed when it is made.
func (s *Server) openTables() (open, bots int) {
	open, bots = s.asleepCounts()
	for _, t := range s.inMemory() {
		if t.over.Load() {
			continue
		}
		open++
		if t.botsOnly {
			bots++
		}
	}
	return open, bots
}

// writeQuotaError answers err if it is a quotaError; it reports whether it did.
func writeQuotaError(w http.ResponseWriter, err error) bool {
	var qe *quotaError
	if !errors.As(err, &qe) {
		return false
	}
	if qe.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "60")
	}
	writeJSON(w, qe.status, apiError{Error: qe.msg, Code: qe.code})
	return true
}

// clockFor returns the turn clock of a new table from the request's
// "clock" in seconds (0 or absent: the server's default; negative or above
// Options.MaxTurnClock refused).
func (s *Server) clockFor(seconds *int) (time.Duration, error) {
	def := max(s.opt.TurnClock, 0)
	if seconds == nil || *seconds == 0 {
		return def, nil
	}
	limit := int(s.opt.MaxTurnClock / time.Second)
	if *seconds < 0 || *seconds > limit {
		return 0, badRequest("clock: %d seconds; a table's turn clock is 1 to %d seconds, or 0 for the server's default (%s)", *seconds, limit, def)
	}
	return time.Duration(*seconds) * time.Second, nil
}

// withClock gives every human seat the clock d.
func withClock(seats []store.Seat, d time.Duration) {
	for i := range seats {
		if seats[i].Bot == "" {
			seats[i].Clock = d
		}
	}
}
