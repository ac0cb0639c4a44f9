package server

import (
	"context"
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
	s.servePair(w, r, pairKind{verb: "follow", flag: "max-follows", max: s.opt.MaxFollows}, func(ctx context.Context, me, other string) error {
		return s.store.Follow(ctx, store.Follow{Follower: me, Followed: other}, s.opt.MaxFollows)
	})
}

// handleUnfollow serves DELETE /api/me/follows/{id}: the caller no longer
// follows the player (no error if it did not).
func (s *Server) handleUnfollow(w http.ResponseWriter, r *http.Request) {
	s.serveUnpair(w, r, "follow", s.store.Unfollow)
}
