package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/farkle/farkle/store"
)

// Friends: a player follows other players (POST /api/me/follows), at most
// Options.MaxFollows (--max-follows, 200; 429 quota past it), and sees
// them listed with their open games (GET /api/me/follows), read from the
// store's index of open seats in one query. A follow is not told to the
// player followed and gives no right over them; a player's page offers
// Follow, and Challenge (an invitation to a new table: invite.go).

// followedGamesListed is how many open games of the players followed GET
// /api/me/follows shows.
const followedGamesListed = 50

// followView is a player followed as the API shows it.
type followView struct {
	Player  string    `json:"player"`
	Name    string    `json:"name"`
	Guest   bool      `json:"guest,omitempty"`
	Created time.Time `json:"created"`
}

// followsListed is how many follows GET /api/me/follows shows: all a
// player may have, or 1000 without that cap.
func (s *Server) followsListed() int {
	if max := s.opt.MaxFollows; max > 0 {
		return max
	}
	return 1000
}

// handleFollows serves GET /api/me/follows: the players the caller
// follows, the latest first, and their open games.
func (s *Server) handleFollows(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	fs, err := s.store.Following(r.Context(), p.ID, s.followsListed())
	if err != nil {
		s.httpError(w, err)
		return
	}
	tbs, err := s.store.FollowedGames(r.Context(), p.ID, followedGamesListed)
	if err != nil {
		s.httpError(w, err)
		return
	}
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.Followed
	}
	have := s.accountsOf(r.Context(), ids) // guest.go
	out := struct {
		Following []followView `json:"following"`
		Games     []tableView  `json:"games"`
	}{Following: make([]followView, len(fs)), Games: viewsOf(tbs, viewOf)}
	for i, f := range fs {
		out.Following[i] = followView{Player: f.Followed, Name: f.Name, Created: f.Created.UTC(), Guest: have != nil && isGuest(f.Followed, have[f.Followed])}
	}
	s.markGuests(r.Context(), out.Games)
	writeJSON(w, http.StatusOK, out)
}

// handleFollow serves POST /api/me/follows {"player":ID}: the caller
// follows the player. Following again changes nothing; past
// Options.MaxFollows the answer is 429 quota.
func (s *Server) handleFollow(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	var req struct {
		Player string `json:"player"`
	}
	if err := readJSON(r, &req); err != nil {
		s.httpError(w, err)
		return
	}
	if req.Player == "" || len(req.Player) > 64 {
		s.httpError(w, fieldErrorf("player", "the ID of the player to follow (1 to 64 characters)"))
		return
	}
	err = s.store.Follow(r.Context(), store.Follow{Follower: p.ID, Followed: req.Player}, s.opt.MaxFollows)
	if store.Code(err) == store.ECONFLICT {
		err = &quotaError{http.StatusTooManyRequests, codeQuota,
			fmt.Sprintf("%s (max-follows %d): unfollow one first", clientMessage(err), s.opt.MaxFollows)}
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "following", "player": req.Player})
}

// handleUnfollow serves DELETE /api/me/follows/{id}: the caller no longer
// follows the player (no error if it did not).
func (s *Server) handleUnfollow(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if err := s.store.Unfollow(r.Context(), p.ID, r.PathValue("id")); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "unfollowed", "player": r.PathValue("id")})
}
