package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// TestOnlineFarkleHeld: at a server, the player's farkle in the ordinary
// game stays on the screen while the server's game goes on, as in Dragon
// Farkle (TestDragonOnlineFarkleHeld): the bots' moves wait in order and
// are shown after a key, or after --farkle-hold; a move that asks the
// player to act ends the hold by itself (the clock runs).
func TestOnlineFarkleHeld(t *testing.T) {
	r := seatOrder("classic")
	seed := seedWhere(t, "golden-farkle", dice.NewTable(r).Farkle)
	seats := []Seat{{Name: "du"}, {Name: "steady", Bot: "steady"}, {Name: "cautious", Bot: "cautious"}}
	for _, by := range []string{"key", "time", "turn"} {
		t.Run(by, func(t *testing.T) {
			server, err := NewGame(r, seats, seed, "", fixedNow, nil)
			if err != nil {
				t.Fatal(err)
			}
			word := func(evs []engine.Event, reset bool) remoteMsg { return wordOf(server, 0, evs, reset) }
			o := Options{}
			if by == "time" {
				o.FarkleHold = time.Millisecond
			}
			rem := &chanRemote{}
			m, err := Online(o, rem, word(nil, true).u)
			if err != nil {
				t.Fatal(err)
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			press(m, "r")
			if len(rem.sent) != 1 {
				t.Fatalf("sent %v", rem.sent)
			}
			ev, err := server.Do(rem.sent[0].(engine.Action))
			if err != nil {
				t.Fatal(err)
			}
			_, tick := m.Update(word(ev, false))
			dead := m.shown.dice
			screen := drawn(m)
			if !m.held || !m.shown.farkle || !strings.Contains(screen, "FARKLE!") || !strings.Contains(screen, "go on") {
				t.Fatalf("the farkle is not held:\n%s", screen)
			}
			at := m.game.State().Version
			// The server's bots play their turns; their moves wait while
			// the farkle is held, until the one that asks the player to act.
			for server.BotToAct() {
				_, ev, err := server.Auto()
				if err != nil {
					t.Fatal(err)
				}
				m.Update(word(ev, false))
				if server.Actor() == 0 || server.Over() {
					break
				}
				if !m.held || m.game.State().Version != at || m.shown.dice != dead || !m.shown.farkle {
					t.Fatalf("a bot's move was shown while the farkle was held:\n%s", drawn(m))
				}
				switch by {
				case "key":
					press(m, "enter")
				case "time":
					m.Update(awaitMsg[releaseMsg](t, tick)) // --farkle-hold's time is up
				default:
					continue
				}
				if m.held || m.game.State().Version != server.State().Version {
					t.Fatalf("%s did not show the moves that waited: version %d, server %d", by, m.game.State().Version, server.State().Version)
				}
				return
			}
			if by != "turn" {
				t.Fatal("the bots' turns were a single move: no move waited")
			}
			if m.held || m.game.State().Version != server.State().Version || !m.yourTurn() {
				t.Fatalf("the player's turn did not end the hold: held %v, version %d of %d", m.held, m.game.State().Version, server.State().Version)
			}
		})
	}
}

// wordOf is the server's word to seat you (-1: a watcher) at table "t1",
// whose game is server's, after the events evs (reset: the whole game).
func wordOf(server *Game, you int, evs []engine.Event, reset bool) remoteMsg {
	ge := make([]game.Event, len(evs))
	for i, e := range evs {
		ge[i] = e
	}
	return remoteMsg{u: RemoteUpdate{Game: server.play.Game(), Events: ge, Reset: reset, Seats: server.Seats(), You: you, Table: "t1"}}
}

// awaitMsg runs cmd's commands (a batch's, each on its own) and returns
// the first message of type T; a command still waiting (the server's
// next word) is left to wait.
func awaitMsg[T tea.Msg](t *testing.T, cmd tea.Cmd) T {
	t.Helper()
	found := make(chan T, 1)
	var start func(tea.Cmd)
	start = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			switch msg := c().(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					start(c)
				}
			case T:
				select {
				case found <- msg:
				default:
				}
			}
		}()
	}
	start(cmd)
	select {
	case msg := <-found:
		return msg
	case <-time.After(10 * time.Second):
		t.Fatalf("no %T came", *new(T))
		panic("unreachable")
	}
}

// TestOnlineRollOffThrown: at a server, this player's roll-off die is
// thrown for them, as in a local game, also when a farkle was held on the
// table as the roll-off came (a tie at the end): the hold never keeps a
// turn that is the player's. (Once, the hold took the roll-off's throw
// away online: the table stood still with "s skip ahead" on the screen.)
func TestOnlineRollOffThrown(t *testing.T) {
	r := rules.MustPreset("classic")
	if r.Game.FirstPlayer != rules.RollOff {
		t.Fatalf("classic starts with %q, not a roll-off", r.Game.FirstPlayer)
	}
	seats := []Seat{{Name: "du"}, {Name: "venn"}}
	for _, held := range []bool{false, true} {
		server, err := NewGame(r, seats, dice.SeedFrom("rolloff-online"), "", fixedNow, nil)
		if err != nil {
			t.Fatal(err)
		}
		word := func(evs []engine.Event, reset bool) remoteMsg { return wordOf(server, 0, evs, reset) }
		rem := &chanRemote{}
		m, err := Online(Options{}, rem, word(nil, true).u)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			m.start() // a farkle on the table as the word comes that the player is to throw
		}
		next := m.Init() // the commands the last message left
		_, sized := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		next = tea.Batch(next, sized)
		if held {
			_, next = m.Update(word(nil, false))
		}
		// Both throw their roll-off dice until one starts: du's are thrown
		// by the terminal, venn's at the server.
		for steps := 0; server.State().Phase != engine.PhasePlay; steps++ {
			if steps > 40 {
				t.Fatal("the roll-off did not end")
			}
			var ev []engine.Event
			if server.Actor() == 0 {
				if m.held || !m.game.AutoToAct() {
					t.Fatalf("held %v: du's roll-off is not due at the terminal (held %v):\n%s", held, m.held, drawn(m))
				}
				sent := len(rem.sent)
				m.Update(awaitMsg[autoMsg](t, next))
				if len(rem.sent) != sent+1 {
					t.Fatalf("held %v: the terminal did not throw du's roll-off die:\n%s", held, drawn(m))
				}
				if ev, err = server.Do(rem.sent[sent].(engine.Action)); err != nil {
					t.Fatal(err)
				}
			} else if ev, err = server.Do(engine.RollOffBy(1)); err != nil {
				t.Fatal(err)
			}
			_, next = m.Update(word(ev, false))
		}
		if m.game.State().Version != server.State().Version {
			t.Fatalf("held %v: the terminal is at version %d, the server at %d", held, m.game.State().Version, server.State().Version)
		}
	}
}
