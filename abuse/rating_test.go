package abuse

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/rating"
	"github.com/farkle/farkle/server/wsclient"
)

// seated is a player at a table's WebSocket, playing a simple game
// (wsclient.Choose).
type seated struct {
	*wsclient.Client
	ID    string
	seat  int
	last  *wsclient.State
	acted int // the version last acted on
}

func newSeated(t *testing.T, s *server, name string) *seated {
	t.Helper()
	c := wsclient.New(s.URL)
	id, _, err := c.NewPlayer(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return &seated{Client: c, ID: id, seat: -1, acted: -1}
}

// play plays the seat's decisions until the game is over; resign, if not
// nil, is asked at each decision with the number of turns the seat has
// started (a turn starts at a throw with nothing at stake) and resigns the
// seat when it says so.
func (p *seated) play(ctx context.Context, resign func(turns int) bool) error {
	turns := 0
	for {
		m, err := p.Next(ctx)
		if err != nil {
			return err
		}
		switch {
		case m.Type == "welcome":
			p.seat = m.You.Seat
		case m.Type == "error":
			return errors.New(m.Code + ": " + m.Message)
		}
		if m.State == nil {
			continue
		}
		p.last = m.State
		st := m.State
		if st.Phase == "over" {
			return nil
		}
		if st.Actor != p.seat || p.seat < 0 || st.Version <= p.acted {
			continue
		}
		if st.Phase == "play" && st.Step == "throw" && st.Total == 0 {
			turns++
		}
		p.acted = st.Version
		typ, d := wsclient.Choose(st)
		if resign != nil && resign(turns) {
			typ, d = "resign", nil
		}
		if err := p.Act(ctx, st.Version, typ, d); err != nil {
			return err
		}
	}
}

// ratingOf returns the player's rating in family f, or nil before its
// first rated game.
func ratingOf(t *testing.T, c *client, id, f string) *struct{ Rating, Deviation float64 } {
	t.Helper()
	var out struct {
		Rating *struct{ Rating, Deviation float64 }
	}
	c.do("GET", "/api/players/"+id+"/ratings?family="+f, nil).json(t, &out)
	return out.Rating
}

// TestRatingFarmHouseRules: the farm, a rated house-rules table to
// 50 against the perfect bot played six times, took a new player from
// 1500 to 1978, past the perfect bot's 1648. Now such a table says from
// its creation that it is unrated ("short"; to 10,000 it would be "bots":
// house rules are rated only between people), and six games move nothing.
// Nor does the one-turn game (`max_turns: 1`), though between
// people.
func TestRatingFarmHouseRules(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--cache", t.TempDir())
	ctx := deadline(t, 3*time.Minute)
	farmer := newSeated(t, s, "Farmer")
	c := s.client()
	for i := range 6 {
		body := map[string]any{"rules": map[string]any{"base": "classic", "game": map[string]any{"target": 50}}, "rated": true,
			"seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "perfect"}}}
		var tb struct{ ID, Rated, Unrated string }
		if err := farmer.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
			t.Fatal(err)
		}
		if tb.Rated != "" || tb.Unrated != string(rating.NotRatedShort) {
			t.Fatalf("game %d: a rated house table to 50 against a bot says rated %q, unrated %q", i, tb.Rated, tb.Unrated)
		}
		if err := farmer.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		if err := farmer.play(ctx, nil); err != nil {
			t.Fatal(err)
		}
		farmer.Conn.CloseNow()
		farmer.seat, farmer.acted = -1, -1
	}
	var tb struct{ Rated, Unrated string }
	body := map[string]any{"rules": map[string]any{"base": "classic", "game": map[string]any{"target": 10050}}, "rated": true,
		"seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "perfect"}}}
	if err := farmer.Do(ctx, "POST", "/api/tables", body, &tb); err != nil || tb.Rated != "" || tb.Unrated != string(rating.NotRatedBots) {
		t.Fatalf("a rated house table to 10,050 against a bot: %+v %v", tb, err)
	}
	if r := ratingOf(t, c, farmer.ID, "house"); r != nil {
		t.Fatalf("six farmed house games rated the farmer %+v", r)
	}
	// The one-turn game: rated house rules between two people,
	// capped at one round (max_turns 1), is unrated ("short") from its
	// creation to its end, and moves nobody's rating.
	friend := newSeated(t, s, "Friend")
	body = map[string]any{"rules": map[string]any{"base": "classic", "game": map[string]any{"max_turns": 1}}, "rated": true,
		"seats": []map[string]string{{"type": "me"}, {"type": "human"}}}
	var one struct{ ID, Rated, Unrated string }
	if err := farmer.Do(ctx, "POST", "/api/tables", body, &one); err != nil {
		t.Fatal(err)
	}
	if one.Rated != "" || one.Unrated != string(rating.NotRatedShort) {
		t.Fatalf("a rated one-turn table between people says rated %q, unrated %q", one.Rated, one.Unrated)
	}
	if _, err := friend.Join(ctx, one.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for _, p := range []*seated{farmer, friend} {
		p.seat, p.acted = -1, -1
		if err := p.Connect(ctx, one.ID); err != nil {
			t.Fatal(err)
		}
		go func() { done <- p.play(ctx, nil) }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	var ended struct {
		Status, Rated, Unrated string
		Ratings                []any
	}
	if err := farmer.Do(ctx, "GET", "/api/tables/"+one.ID, nil, &ended); err != nil {
		t.Fatal(err)
	}
	if ended.Status != "over" || ended.Rated != "" || ended.Unrated != string(rating.NotRatedShort) || len(ended.Ratings) != 0 {
		t.Fatalf("the one-turn game at its end: %+v", ended)
	}
	for _, id := range []string{farmer.ID, friend.ID} {
		for _, f := range []string{"house", "farkle"} {
			if r := ratingOf(t, c, id, f); r != nil {
				t.Fatalf("a one-turn game rated a player in %s: %+v", f, r)
			}
		}
	}
	var board []struct{ Player string }
	c.do("GET", "/api/ratings?family=house", nil).json(t, &board)
	if len(board) != 0 {
		t.Fatalf("the house leaderboard after the farm: %+v", board)
	}
	if _, peak := s.memory(); peak > 400*mib {
		t.Errorf("peak RSS %d MiB, over 400 MiB", peak/mib)
	}
	s.alive()
}

// farm plays one game of the classic preset between the farmer and a
// fresh guest who resigns at its decision once it has started
// guestTurns turns (0: at its first decision, the roll-off included).
func farm(t *testing.T, ctx context.Context, s *server, farmer *seated, i, guestTurns int) (unrated string) {
	t.Helper()
	guest := newSeated(t, s, fmt.Sprintf("Sock %d", i))
	tb, err := farmer.CreateTable(ctx, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := guest.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*seated{farmer, guest} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		p.seat, p.acted = -1, -1
	}
	done := make(chan error, 2)
	go func() { done <- farmer.play(ctx, nil) }()
	go func() { done <- guest.play(ctx, func(turns int) bool { return turns > guestTurns || guestTurns == 0 }) }()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	farmer.Conn.CloseNow()
	guest.Conn.CloseNow()
	var final struct{ Unrated string }
	if err := farmer.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	return final.Unrated
}

// TestRatingJoinAndResignFarm: the second farm. A player opens a
// table of the ordinary game; fresh guests join it one after the other
// and resign, feeding the player +50..+160 a game. Resigning at once now
// aborts the game: nothing moves, nobody's stats count it. A guest who
// plays one turn and then resigns does lose a rated game, but a guest
// with no rated games counts a hundredth of a game in the player's
// rating: ten such wins move the player a few points, far from the bots'
// top, where whole games would carry it past the perfect bot.
func TestRatingJoinAndResignFarm(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--rate-address", "0", "--rate-player", "0")
	ctx := deadline(t, 5*time.Minute)
	farmer := newSeated(t, s, "Farmer")
	c := s.client()
	for i := range 5 {
		if unrated := farm(t, ctx, s, farmer, i, 0); unrated != string(rating.NotRatedAborted) {
			t.Fatalf("a guest resigning at once: the table says unrated %q, want aborted", unrated)
		}
	}
	if r := ratingOf(t, c, farmer.ID, "farkle"); r != nil {
		t.Fatalf("five aborted games rated the farmer: %+v", r)
	}
	var st struct{ Games int }
	c.do("GET", "/api/players/"+farmer.ID+"/stats", nil).json(t, &st)
	if st.Games != 0 {
		t.Fatalf("the farmer's stats count %d aborted games", st.Games)
	}

	wins := 0
	for i := range 10 {
		if unrated := farm(t, ctx, s, farmer, 100+i, 1); unrated != "" {
			t.Fatalf("a guest resigning after a turn: the table says unrated %q", unrated)
		}
		wins++
	}
	r := ratingOf(t, c, farmer.ID, "farkle")
	if r == nil {
		t.Fatal("ten games won by resignation after a turn are not rated")
	}
	whole := rating.New()
	for range wins {
		whole = rating.Game([]rating.Seat{{Before: whole, Won: true, Games: rating.FullWeightGames}, {Before: rating.New(), Games: rating.FullWeightGames}})[0]
	}
	top, _ := rating.Anchor(rating.Ordinary, "perfect")
	t.Logf("ten games won over fresh guests who resign after a turn: the farmer at %.1f (±%.0f); as whole games %.1f; the perfect bot %.1f",
		r.Rating, 2*r.Deviation, whole.R, top.R)
	if r.Rating-rating.Initial > 30 || r.Rating >= top.R {
		t.Fatalf("the farm moved the farmer to %.1f", r.Rating)
	}
	if whole.R < top.R {
		t.Fatalf("whole games would take the farmer to %.1f only: the test no longer shows the attack", whole.R)
	}
	if _, peak := s.memory(); peak > 400*mib {
		t.Errorf("peak RSS %d MiB, over 400 MiB", peak/mib)
	}
	s.alive()
}
