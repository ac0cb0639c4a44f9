package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// recruitFarkles: seat 0 starts and its first recruiting throw farkles.
func recruitFarkles(g *DragonGame) bool {
	if g.Turn() != 0 {
		return false
	}
	ev, err := g.Do(dragon.Recruit())
	_, farkled := dragonEvent(ev, dragon.EvFarkle)
	return err == nil && farkled
}

// TestDragonFarkleHeld: a person's farkle in Dragon Farkle stays on the
// table with its dead dice until a key, as in the ordinary game; the bot
// plays only after it; with a hold time the bot goes on by itself.
func TestDragonFarkleHeld(t *testing.T) {
	seed := dragonSeed(t, "dragon-hold", "you,bot:smart", recruitFarkles)
	for _, hold := range []time.Duration{0, time.Millisecond} {
		g := newDragonGame(t, "you,bot:smart", seed, "")
		m := NewDragon(DragonOptions{Game: g, BotDelay: time.Millisecond, FarkleHold: hold})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		run(m, m.Init())
		press(m, "r") // recruit: the throw farkles
		v := m.version()
		if hold > 0 {
			if m.held || m.version() == v && m.g.BotToAct() {
				t.Fatalf("hold %s: the bot did not go on by itself", hold)
			}
			continue
		}
		screen := drawn(m)
		dead := g.Events()[len(g.Events())-2].Dice // the throw before the farkle
		if !m.held || !g.BotToAct() || !strings.Contains(screen, "FARKLE!") || !strings.Contains(screen, "go on (any key)") || !strings.Contains(screen, dead.String()) {
			t.Fatalf("the farkle is not held (dice %s):\n%s", dead, screen)
		}
		if m.version() != v {
			t.Fatal("the bot played while the farkle was held")
		}
		press(m, "x")
		if m.held || m.version() == v {
			t.Fatalf("a key did not let the bot play: version %d, held %v", m.version(), m.held)
		}
	}
}

// chanRemote is a Remote whose server is the test: what the terminal
// sends is kept; the test hands the model its words itself.
type chanRemote struct{ sent []game.Action }

func (r *chanRemote) Act(_ int, a game.Action) error { r.sent = append(r.sent, a); return nil }
func (r *chanRemote) Next(ctx context.Context) (RemoteUpdate, error) {
	<-ctx.Done()
	return RemoteUpdate{}, ctx.Err()
}
func (r *chanRemote) Close() {}

// TestDragonOnlineFarkleHeld: at a server, the player's farkle stays on
// the screen while the server's game goes on: the bot's moves wait in
// order and are shown after a key; a move that asks the player to act
// ends the hold by itself (the clock runs).
func TestDragonOnlineFarkleHeld(t *testing.T) {
	seed := dragonSeed(t, "dragon-hold", "you,bot:smart", recruitFarkles)
	for _, by := range []string{"key", "turn"} {
		t.Run(by, func(t *testing.T) {
			server := newDragonGame(t, "you,bot:smart", seed, "")
			word := func(evs []dragon.Event, reset bool) remoteMsg {
				ge := make([]game.Event, len(evs))
				for i, e := range evs {
					ge[i] = e
				}
				return remoteMsg{u: RemoteUpdate{Game: server.play.Game(), Events: ge, Reset: reset, Seats: server.Seats(), You: 0, Table: "t1"}}
			}
			r := &chanRemote{}
			m, err := DragonOnline(Options{}, r, word(nil, true).u)
			if err != nil {
				t.Fatal(err)
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			press(m, "r")
			if len(r.sent) != 1 {
				t.Fatalf("sent %v", r.sent)
			}
			ev, err := server.Do(r.sent[0].(dragon.Action))
			if err != nil {
				t.Fatal(err)
			}
			dead := ev[len(ev)-2].Dice
			m.Update(word(ev, false))
			if !m.held || !strings.Contains(drawn(m), "FARKLE!") {
				t.Fatalf("the farkle is not held:\n%s", drawn(m))
			}
			at := m.version()
			// The server's bot plays its turn; its moves wait while the
			// farkle is held, until the one that asks the player to act.
			for server.BotToAct() && !server.Over() {
				_, ev, err := server.Auto()
				if err != nil {
					t.Fatal(err)
				}
				m.Update(word(ev, false))
				if server.ToAct() == 0 || server.Over() {
					break
				}
				if !m.held || m.version() != at || !strings.Contains(drawn(m), dead.String()) {
					t.Fatalf("the bot's move was shown while the farkle was held:\n%s", drawn(m))
				}
				if by == "key" {
					press(m, "enter")
					if m.held || m.version() != server.play.Game().Version() {
						t.Fatalf("a key did not show the moves that waited: version %d, server %d", m.version(), server.play.Game().Version())
					}
					return
				}
			}
			if by == "key" {
				t.Fatal("the bot's turn was a single move: no move waited")
			}
			if m.held || m.version() != server.play.Game().Version() || !m.deciding() {
				t.Fatalf("the player's turn did not end the hold: held %v, version %d of %d", m.held, m.version(), server.play.Game().Version())
			}
		})
	}
}
