package server

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/farkle/farkle/rating"
	"github.com/farkle/farkle/store"
)

// Ratings: a finished game with a person at it moves the Glicko-2
// ratings of its family (rating.FamilyOf: the ordinary presets together,
// Dragon Farkle apart, house rules only on a table created rated, between
// people only), unless it is shorter than a real game or ended before
// every seat had a turn (rating.Judge, rating.Aborted; the table's
// "unrated" says which). The bots' ratings are the fixed anchors of
// package rating; a person with few rated games counts for a fraction of
// a game in the others' ratings (rating.Weight).

// ratingView is a rating as clients see it, rounded as people read it.
type ratingView struct {
	Player    string  `json:"player"`
	Name      string  `json:"name"`
	Family    string  `json:"family"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Games     int     `json:"games"`
	Bot       bool    `json:"bot,omitempty"`
	// Provisional: the deviation is still wide (over 110), as lichess
	// marks a rating with a "?".
	Provisional bool `json:"provisional,omitempty"`
	Guest       bool `json:"guest,omitempty"` // a player without an account (guest.go)
}

// changeView is one seat's change of rating in one game.
type changeView struct {
	Table     string    `json:"table"`
	Player    string    `json:"player"`
	Name      string    `json:"name"`
	Before    float64   `json:"before"`
	After     float64   `json:"after"`
	Change    float64   `json:"change"`
	Deviation float64   `json:"deviation"`
	Bot       bool      `json:"bot,omitempty"`
	At        time.Time `json:"at"`
}

// provisionalRD is the deviation above which a rating is provisional.
const provisionalRD = 110

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func ratingViewOf(r store.Rating) ratingView {
	return ratingView{Player: r.PlayerKey, Name: r.Name, Family: r.Family, Rating: round1(r.Rating), Deviation: round1(r.Deviation),
		Games: r.Games, Bot: strings.HasPrefix(r.PlayerKey, "bot:"), Provisional: r.Deviation > provisionalRD, Guest: isGuest(r.PlayerKey, r.Account)}
}

func changeViewOf(c store.RatingChange) changeView {
	return changeView{Table: c.TableID, Player: c.PlayerKey, Name: c.Name, Before: round1(c.Before.Rating), After: round1(c.After.Rating),
		Change: round1(c.After.Rating - c.Before.Rating), Deviation: round1(c.After.Deviation), Bot: c.Fixed, At: c.At.UTC()}
}

func glickoOf(r rating.Rating) store.Glicko {
	return store.Glicko{Rating: r.R, Deviation: r.RD, Volatility: r.Vol}
}

// verdict returns how the table's game is rated (rating.Judge: its
// family, or why it moves no rating), and once the game is over without
// every seat having had a turn, rating.NotRatedAborted. t.mu is held.
func (t *table) verdict() rating.Verdict {
	if t.kind == nil {
		return rating.Verdict{}
	}
	bots := 0
	for _, s := range t.meta.Seats {
		if s.Bot != "" {
			bots++
		}
	}
	j := judgement{kind: t.kind, rated: t.meta.Rated, bots: bots}
	if t.judged.judgement != j { // judging hashes the rules: once a table, not once an update
		t.judged = judged{j, rating.Judge(t.kind.variant(), t.meta.Rated, bots)}
	}
	v := t.judged.v
	if v.Rated() && t.play != nil && t.play.Game().Over() && rating.Aborted(t.play.Game()) {
		return rating.Verdict{Reason: rating.NotRatedAborted}
	}
	return v
}

// judgement is what a table's rating.Judge depends on, and judged its
// verdict, kept in the table (t.judged).
type judgement struct {
	kind  gameKind
	rated bool
	bots  int
}

type judged struct {
	judgement
	v rating.Verdict
}

// rate moves the ratings of the game that fin finished, when it is rated
// (verdict) and a person played: it reads the seats' ratings, computes the
// game as one rating period (rating.Game) and stores the changes, reading
// again if another game of a player was rated in between. A failure is
// logged: the game stays finished, unrated. t.mu is held.
func (t *table) rate(fin *store.Finish) {
	fam := t.verdict().Family
	person := false
	for _, s := range t.meta.Seats {
		person = person || s.Bot == ""
	}
	if fam == rating.Unrated || !person || len(fin.Results) < 2 {
		return
	}
	keys := make([]string, len(fin.Results))
	for i, r := range fin.Results {
		keys[i] = r.PlayerKey
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	for range 5 {
		var cur map[string]store.Rating
		if cur, err = t.srv.store.Ratings(ctx, string(fam), keys); err != nil {
			break
		}
		changes := t.changes(fam, fin, cur)
		if err = t.srv.store.RateGame(ctx, changes); err == nil {
			t.ratings = changes
			return
		}
		if store.Code(err) != store.ECONFLICT {
			break
		}
	}
	t.srv.log.Error("game not rated", "table", t.id, "family", fam, "err", err)
}

// changes computes the rating changes of the finished game from the
// current ratings cur. t.mu is held.
func (t *table) changes(fam rating.Family, fin *store.Finish, cur map[string]store.Rating) []store.RatingChange {
	seats := make([]rating.Seat, len(fin.Results))
	for i, res := range fin.Results {
		s := rating.Seat{Before: rating.New(), Won: res.Won, Score: res.Score}
		if lv, ok := strings.CutPrefix(res.PlayerKey, "bot:"); ok {
			s.Fixed = true
			if a, ok := rating.Anchor(fam, lv); ok {
				s.Before = a
			}
		} else if c, ok := cur[res.PlayerKey]; ok {
			s.Before = rating.Rating{R: c.Rating, RD: c.Deviation, Vol: c.Volatility}
			s.Games = c.Games
		}
		seats[i] = s
	}
	after := rating.Game(seats)
	now := t.srv.opt.Now()
	out := make([]store.RatingChange, len(seats))
	for i, res := range fin.Results {
		out[i] = store.RatingChange{TableID: t.id, PlayerKey: res.PlayerKey, Family: string(fam), Name: res.Name,
			Before: glickoOf(seats[i].Before), After: glickoOf(after[i]), Games: cur[res.PlayerKey].Games, Fixed: seats[i].Fixed, At: now}
	}
	return out
}

// familyParam reads the "family" query parameter (default: the ordinary
// game's).
func familyParam(r *http.Request) (rating.Family, error) {
	f := rating.Family(r.URL.Query().Get("family"))
	if f == "" {
		return rating.Ordinary, nil
	}
	if !f.Valid() {
		return f, badRequest("family %q (families: %s)", f, joinNames(rating.Families()))
	}
	return f, nil
}

// handleRatings serves GET /api/ratings?family=F: the leaderboard by
// rating, with each rating's deviation, of the players with at least
// Options.RatingBoardGames rated games in the family.
func (s *Server) handleRatings(w http.ResponseWriter, r *http.Request) {
	f, err := familyParam(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	limit := 50
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 && n <= 200 {
		limit = n
	}
	lb, err := s.store.RatingLeaderboard(r.Context(), string(f), s.opt.RatingBoardGames, limit)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, viewsOf(lb, ratingViewOf))
}

// handlePlayerRatings serves GET /api/players/{id}/ratings?family=F: the
// player's current rating in the family and its history, oldest first.
func (s *Server) handlePlayerRatings(w http.ResponseWriter, r *http.Request) {
	f, err := familyParam(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	key := r.PathValue("id")
	cur, err := s.store.Ratings(r.Context(), string(f), []string{key})
	if err != nil {
		s.httpError(w, err)
		return
	}
	hist, err := s.store.RatingHistory(r.Context(), key, string(f), 200)
	if err != nil {
		s.httpError(w, err)
		return
	}
	out := struct {
		Family  string       `json:"family"`
		Rating  *ratingView  `json:"rating"` // null before the first rated game
		History []changeView `json:"history"`
	}{Family: string(f), History: viewsOf(hist, changeViewOf)}
	if c, ok := cur[key]; ok {
		v := ratingViewOf(c)
		out.Rating = &v
	} else if lv, ok := strings.CutPrefix(key, "bot:"); ok {
		if a, ok := rating.Anchor(f, lv); ok {
			v := ratingView{Player: key, Name: botName(lv), Family: string(f), Rating: round1(a.R), Deviation: round1(a.RD), Bot: true}
			out.Rating = &v
		}
	}
	writeJSON(w, http.StatusOK, out)
}
