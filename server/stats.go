package server

// Statistics: a player's (GET /api/players/{id}/stats) and the
// leaderboard (GET /api/leaderboard).

import (
	"net/http"
	"slices"
	"strings"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

type statsView struct {
	PlayerKey     string  `json:"player"`
	Name          string  `json:"name"`
	Games         int     `json:"games"`
	Wins          int     `json:"wins"`
	WinRate       float64 `json:"win_rate"`
	Turns         int     `json:"turns"`
	PointsPerTurn float64 `json:"points_per_turn"`
	FarkleRate    float64 `json:"farkle_rate"`
	BestTurn      int     `json:"best_turn"`
	Guest         bool    `json:"guest,omitempty"` // a player without an account (guest.go)
	// ScorePerGame and BestScore: the variant's score (Dragon Farkle:
	// soldiers) a game, and the best.
	ScorePerGame float64 `json:"score_per_game"`
	BestScore    int     `json:"best_score"`
}

func statsOf(st store.Stats) statsView {
	return statsView{PlayerKey: st.PlayerKey, Name: st.Name, Games: st.Games, Wins: st.Wins, WinRate: st.WinRate(), Turns: st.Turns,
		PointsPerTurn: st.PointsPerTurn(), FarkleRate: st.FarkleRate(), BestTurn: st.BestTurn, Guest: isGuest(st.PlayerKey, st.Account),
		ScorePerGame: st.ScorePerGame(), BestScore: st.BestScore}
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	st, err := s.store.Stats(r.Context(), id)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if st.Name == "" {
		if p, err := s.store.Player(r.Context(), id); err == nil {
			st.Name = p.Name
		}
	}
	f := store.TableFilter{PlayerID: id, Status: []store.Status{store.Over}, Limit: 50}
	if strings.HasPrefix(id, "bot:") { // a bot holds no player's seat: its games are those of its results
		f.PlayerID, f.ResultOf = "", id
	}
	tables, err := s.store.Tables(r.Context(), f)
	if err != nil {
		s.httpError(w, err)
		return
	}
	history := viewsOf(tables, viewOf)
	s.markGuests(r.Context(), history) // guest.go
	writeJSON(w, http.StatusOK, struct {
		statsView
		History []tableView `json:"history"`
	}{statsOf(st), history})
}

// handleLeaderboard serves GET /api/leaderboard?kind=K: the 50 players
// with the most wins in games of the kind (one of game.KindNames; every
// kind without one), so that Dragon Farkle's table is its own.
func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	kind := game.Kind(r.URL.Query().Get("kind"))
	if kinds := game.KindNames(); kind != "" && !slices.Contains(kinds, kind) {
		s.httpError(w, fieldErrorf("kind", "%q: %s, or none for every kind", string(kind), joinNames(kinds)))
		return
	}
	lb, err := s.store.Leaderboard(r.Context(), kind, 1, 50)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, viewsOf(lb, statsOf))
}

// joinNames lists names for a message: "farkle, dragon".
func joinNames[S ~string](names []S) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return strings.Join(out, ", ")
}
