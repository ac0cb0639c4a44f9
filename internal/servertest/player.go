package servertest

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// DragonBotGame creates a Dragon Farkle table of two bots and waits on its
// WebSocket until the game is over; it returns the table as it ended.
func DragonBotGame(t testing.TB, ctx context.Context, ts *Server) wsclient.Table {
	t.Helper()
	c := Host(t, ts)
	var tb wsclient.Table
	seats := []map[string]string{{"type": "bot", "level": "smart"}, {"type": "bot", "level": "simple"}}
	if err := c.Do(ctx, "POST", "/api/tables", map[string]any{"rules": "dragon", "seats": seats}, &tb); err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m := WaitFor(t, ctx, c, "the end of the game", func(m wsclient.Msg) bool { return m.Table.Status == "over" })
	return m.Table
}

// Player is a test client seated at a table.
type Player struct {
	*wsclient.Client
	ID    string
	Token string
	Seat  int
	Last  *wsclient.State // the latest state seen
	Seen  []int           // versions of every state seen, in order
}

func NewPlayer(t testing.TB, ts *Server, name string) *Player {
	t.Helper()
	c := wsclient.New(ts.URL)
	id, tok, err := c.NewPlayer(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return &Player{Client: c, ID: id, Token: tok, Seat: -1}
}

// Read reads a message and tracks the state.
func (p *Player) Read(ctx context.Context) (wsclient.Msg, error) {
	m, err := p.Next(ctx)
	if err != nil {
		return m, err
	}
	if m.Type == "welcome" {
		p.Seat = m.You.Seat
	}
	if m.State != nil {
		p.Last = m.State
		p.Seen = append(p.Seen, m.State.Version)
	}
	return m, nil
}

// PlayToEnd plays p's seat with choose until the game is over; it fails on
// any error message.
func (p *Player) PlayToEnd(ctx context.Context) error {
	for {
		if p.Last != nil && p.Last.Phase == "over" {
			return nil
		}
		if p.Last != nil && p.Last.Actor == p.Seat && p.Seat >= 0 {
			typ, d := wsclient.Choose(p.Last)
			if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
				return err
			}
			// Wait for the state after our action.
			v := p.Last.Version
			for p.Last.Version == v {
				m, err := p.Read(ctx)
				if err != nil {
					return err
				}
				if m.Type == "error" {
					return errors.New(m.Code + ": " + m.Message)
				}
			}
			continue
		}
		m, err := p.Read(ctx)
		if err != nil {
			return err
		}
		if m.Type == "error" {
			return errors.New(m.Code + ": " + m.Message)
		}
	}
}

// Host returns a client with a new player, who may create tables.
func Host(t testing.TB, ts *Server) *wsclient.Client {
	t.Helper()
	c := wsclient.New(ts.URL)
	if _, _, err := c.NewPlayer(context.Background(), "Host"); err != nil {
		t.Fatal(err)
	}
	return c
}

// SoloTable makes a new player a one-player table of the rules, connects
// it and reads its welcome; the connection is closed when the test ends.
func SoloTable(t testing.TB, ctx context.Context, ts *Server, rules any) (*Player, wsclient.Table) {
	t.Helper()
	p := NewPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, rules, map[string]string{"type": "me"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if _, err := p.Read(ctx); err != nil {
		t.Fatal(err)
	}
	return p, tb
}

// PaceTable creates a table at the pace for the host and a free seat,
// which guest joins; both connect and read their welcome.
func PaceTable(t *testing.T, ctx context.Context, host, guest *Player, pace string) string {
	t.Helper()
	var tb wsclient.Table
	body := map[string]any{"rules": ShortRules, "pace": pace, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}
	if err := host.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if _, err := guest.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Player{host, guest} {
		p.Last, p.Seen = nil, nil // the states of this table from now on
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		for p.Last == nil {
			if _, err := p.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	return tb.ID
}

// ClientWithToken is a client of the server at base holding the token.
func ClientWithToken(t *testing.T, base, token string) *wsclient.Client {
	t.Helper()
	c := wsclient.New(base)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: server.CookieName, Value: token}})
	return c
}

// Resign resigns the seat now and reads on to the end of the game.
func (p *Player) Resign(ctx context.Context) error {
	for p.Last == nil || p.Last.Actor != p.Seat {
		if _, err := p.Read(ctx); err != nil {
			return err
		}
	}
	if err := p.Act(ctx, p.Last.Version, "resign", nil); err != nil {
		return err
	}
	for p.Last.Phase != "over" {
		m, err := p.Read(ctx)
		if err != nil {
			return err
		}
		if m.Type == "error" {
			return errors.New(m.Code + ": " + m.Message)
		}
	}
	return nil
}

// PlayTwo plays a game of two people, Ann and Bob, under rules to the
// end, and returns them connected to the finished table and its id.
func PlayTwo(t *testing.T, ctx context.Context, ts *Server, rules any) (ann, bob *Player, id string) {
	t.Helper()
	ann, bob = NewPlayer(t, ts, "Ann"), NewPlayer(t, ts, "Bob")
	tb, err := ann.CreateTable(ctx, rules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for _, p := range []*Player{ann, bob} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		go func() { done <- p.PlayToEnd(ctx) }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	return ann, bob, tb.ID
}

// ShortRules is classic to 2,000 points, so whole games stay quick.
var ShortRules = map[string]any{"base": "classic", "game": map[string]any{"target": 2000}}

func Context(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// JoinNewTable creates a table of the rules with the seats, which must
// StartFile at once (playing, its seed hidden behind a commitment), and
// connects c to it.
func JoinNewTable(t testing.TB, ctx context.Context, c *wsclient.Client, rules any, seats ...map[string]string) wsclient.Table {
	t.Helper()
	tb, err := c.CreateTable(ctx, rules, seats...)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Status != "playing" || tb.Seed != "" || len(tb.Commitment) != 64 {
		t.Fatalf("new table: %+v (want playing, no seed, a commitment)", tb)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	return tb
}

// TwoBots are the seats of a table of two steady bots.
var TwoBots = []map[string]string{{"type": "bot", "level": "steady"}, {"type": "bot", "level": "steady"}}

// MeBot are the seats of a table of its creator and a steady bot.
var MeBot = []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}

// WaitFor reads c's messages until one satisfies ok.
func WaitFor(t testing.TB, ctx context.Context, c *wsclient.Client, what string, ok func(wsclient.Msg) bool) wsclient.Msg {
	t.Helper()
	for {
		m, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(m) {
			return m
		}
	}
}

// ClockTable creates a table of the seats with a turn clock and connects
// its player, who then never acts.
func ClockTable(t *testing.T, ts *Server, ctx context.Context, rules any, seats ...map[string]string) (*Player, wsclient.Table) {
	t.Helper()
	p := NewPlayer(t, ts, "Slow")
	tb, err := p.CreateTable(ctx, rules, seats...)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, tb
}

// ThreeRules is a three-seat house rule set whose three-player table is
// solved in a few seconds: pocket-farkel to 1,000, in seat order.
func ThreeRules() rules.Rules {
	r := rules.MustPreset("pocket-farkel")
	r.Name = "pocket-1000"
	r.Game.Target = 1000
	r.Game.FirstPlayer = rules.SeatOrder
	r.Turn.FarklePenalty = rules.Penalty{}
	return r
}
