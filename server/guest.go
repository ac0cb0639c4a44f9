package server

import (
	"context"
	"strings"
)

// Guests are shown apart from accounts wherever a name can be confused:
// two guests may both be "Tessa", and a guest may take the name of an
// account, so the leaderboards, the lobby's and history's seats and a
// tournament's standings say which players are guests ("Tessa (guest)").
// The leaderboards read it with their rows (store.Stats.Account,
// store.Rating.Account); the lists of tables and standings ask the store
// once for all the players they show (store.HaveAccounts).

// isGuest reports whether the player key is a person's (not a bot's, not
// empty) without an account.
func isGuest(key string, account bool) bool {
	return key != "" && !strings.HasPrefix(key, "bot:") && !account
}

// accountsOf returns which of the players have an account; an error of
// the store leaves every one unmarked (shown without the word guest).
func (s *Server) accountsOf(ctx context.Context, ids []string) map[string]bool {
	have, err := s.store.HaveAccounts(ctx, ids)
	if err != nil {
		s.log.Warn("accounts not read", "err", err)
		return nil
	}
	return have
}

// markGuests marks the seats of the tables held by guests.
func (s *Server) markGuests(ctx context.Context, views []tableView) {
	var ids []string
	for _, v := range views {
		for _, seat := range v.Seats {
			if seat.PlayerID != "" {
				ids = append(ids, seat.PlayerID)
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	have := s.accountsOf(ctx, ids)
	if have == nil {
		return
	}
	for i := range views {
		for j := range views[i].Seats {
			seat := &views[i].Seats[j]
			seat.Guest = seat.Bot == "" && isGuest(seat.PlayerID, have[seat.PlayerID])
		}
	}
}
