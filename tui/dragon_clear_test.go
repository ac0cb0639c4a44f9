package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// withPoster gives seat 0 the Recruiting Poster (+50 for every single 1
// or 5 kept while recruiting) as its only Magic Item.
func withPoster(g *DragonGame) {
	g.setState(func(s *dragon.State) { s.Players[0].Items = []string{"poster"} })
}

// TestDragonPreviewHasCardBonuses: the soldiers shown for the chosen dice
// are the soldiers the keep adds, the cards' bonuses included, on a Blank
// and in the Rally's reward menu.
func TestDragonPreviewHasCardBonuses(t *testing.T) {
	for _, face := range []dragon.EventFace{dragon.Blank, dragon.Rally} {
		t.Run(face.String(), func(t *testing.T) {
			seed := dragonSeed(t, "preview-"+face.String(), "you,bot:smart", func(g *DragonGame) bool {
				if g.Turn() != 0 {
					return false
				}
				withPoster(g)
				g.Do(dragon.Recruit())
				v := g.View(0)
				return v.Phase == dragon.PhaseKeep && v.Event == face && v.Throw.Count(1) > 0 && v.Throw.Count(1) < 3
			})
			g := newDragonGame(t, "you,bot:smart", seed, "")
			withPoster(g)
			m := NewDragon(DragonOptions{Game: g})
			press(m, "r")
			press(m, faceKeys(t, m.faces, dice.Of(1))...)
			want := "+150 (100 + 50 from your cards)"
			if face == dragon.Rally {
				want = "+300 doubled, or +150 and an item (with 50 from your cards)"
			}
			if !strings.Contains(drawn(m), want) {
				t.Fatalf("the preview does not say %q:\n%s", want, drawn(m))
			}
			if face == dragon.Rally {
				press(m, "r")
				if !strings.Contains(drawn(m), "(+150 → +300)") {
					t.Fatalf("the Rally menu leaves out the bonus:\n%s", drawn(m))
				}
				press(m, "d")
				if p := g.State().Pool; p != 300 {
					t.Fatalf("pool %d after the doubled keep, want the 300 shown", p)
				}
				return
			}
			press(m, "r")
			if p := g.State().Pool; p != 150 {
				t.Fatalf("pool %d after the keep, want the 150 shown", p)
			}
		})
	}
}

// TestDragonStatusSaysWhatToDo: while thrown dice wait, the status line
// asks for a keep; between throws it offers the throw.
func TestDragonStatusSaysWhatToDo(t *testing.T) {
	seed := dragonSeed(t, "status", "you,bot:smart", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && v.Event == dragon.Blank && v.Throw.Count(1) > 0
	})
	m := newDragonModel(t, "you,bot:smart", seed, 80, 30)
	press(m, "r")
	if s := drawn(m); !strings.Contains(s, "Your turn · recruiting · pool 0 · choose dice to keep") || strings.Contains(s, "to throw") {
		t.Fatalf("thrown dice wait, but the status line does not ask for a keep:\n%s", s)
	}
	// Between throws (after the Dragon showed with no scoring dice, say)
	// the line offers the throw.
	m.g.setState(func(s *dragon.State) { s.Phase, s.Throw, s.Dice = dragon.PhaseEvaded, 0, 5 })
	if s := drawn(m); !strings.Contains(s, "recruiting · pool 0 · throw 5 dice or stop") {
		t.Fatalf("between throws, the status line does not offer the throw:\n%s", s)
	}
}

// TestDragonBattleLogSaysCostAndEnd: a battle keep reads as a cost, and a
// retreat says how the battle ended: soldiers kept, damage dealt, healed.
func TestDragonBattleLogSaysCostAndEnd(t *testing.T) {
	arm := func(g *DragonGame) {
		g.setState(func(s *dragon.State) {
			s.Stockpile -= 6000
			s.Players[0].Soldiers = 6000
		})
	}
	seed := dragonSeed(t, "battle-log", "you,ana", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		arm(g)
		g.Do(dragon.Battle())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && v.Damage == 1 && v.Throw.Count(1) > 0
	})
	g := newDragonGame(t, "you,ana", seed, "")
	arm(g)
	m := NewDragon(DragonOptions{Game: g})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	press(m, "enter", "f")
	press(m, faceKeys(t, m.faces, dice.Of(1))...)
	n := g.State().Players[0].Soldiers - 100
	left := lang.Get("en").Num(int64(n)) // the log writes numbers as the language does (4,700 in English)
	press(m, "s")                        // keep & retreat
	screen := drawn(m)
	for _, want := range []string{
		fmt.Sprintf("you keep 1, costing 100 soldiers (%s left)", left),
		fmt.Sprintf("you retreat: the battle ends with %s soldiers kept and 1 damage dealt", left),
		"the dragon heals its 1 damage",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen does not say %q:\n%s", want, screen)
		}
	}
	// Under the last throw (hidden by the pass screen in hot-seat play).
	if want := fmt.Sprintf("you retreated: %s soldiers kept, 1 damage dealt, healed", lang.Get(lang.Default).Num(int64(n))); m.last.note != want {
		t.Errorf("the note under the last throw: %q, want %q", m.last.note, want)
	}
}

// dragonFaceSeed is a game where seat 0 recruits first and throws the
// Dragon with scoring dice.
func dragonFaceSeed(t *testing.T, name string) [32]byte {
	return dragonSeed(t, name, "you,bot:smart", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && v.Event == dragon.Dragon && firstKeepAction(v).Kind == dragon.ActKeep
	})
}

// TestDragonForcedKeep: under the Dragon the scoring dice are chosen for
// the player, explained on screen, and cannot be unchosen or undone.
func TestDragonForcedKeep(t *testing.T) {
	seed := dragonFaceSeed(t, "forced")
	m := newDragonModel(t, "you,bot:smart", seed, 80, 30)
	press(m, "r")
	forced := m.selected()
	if forced == 0 || !strings.Contains(drawn(m), fmt.Sprintf("The Dragon eats %d soldiers: %s must be set aside", m.g.Game().ValueKeep(m.g.State(), forced, dragon.NoReward).Eaten, forced)) {
		t.Fatalf("the forced keep %s is not explained:\n%s", forced, drawn(m))
	}
	for i := range m.sel {
		press(m, fmt.Sprint(i+1))
		if m.selected() != forced {
			t.Fatalf("key %d changed the forced keep %s to %s", i+1, forced, m.selected())
		}
	}
	if !strings.Contains(drawn(m), "the Dragon chose these dice: they cannot be unchosen") {
		t.Fatalf("unchoosing is not explained:\n%s", drawn(m))
	}
	press(m, "u")
	if m.selected() != forced || !strings.Contains(drawn(m), "nothing to undo: the Dragon chose these dice") {
		t.Fatalf("undo under the Dragon:\n%s", drawn(m))
	}
	eaten := m.g.State().Eaten
	press(m, "s")
	if m.g.State().Eaten <= eaten {
		t.Fatal("keep & stop did not set the forced dice aside")
	}
}

// TestSetupStartsDragonFarkle: Dragon Farkle is a choice of the setup
// screen, with its own bot levels, and enter starts it on the same screen.
func TestSetupStartsDragonFarkle(t *testing.T) {
	m := New(Options{Rules: rules.MustPreset("classic"), Seed: dice.SeedFrom("setup-dragon"), Now: fixedNow})
	m.Update(keyMsgSize(80, 24))
	press(m, "left") // from the first rules back round to the last choice
	if s := drawn(m); !strings.Contains(s, "Rules     ◀ Dragon Farkle") || !strings.Contains(s, "bot: smart") {
		t.Fatalf("the setup screen does not offer Dragon Farkle with its bots:\n%s", s)
	}
	press(m, "down", "right", "down", "down", "right") // three players; seat 2 changes level
	if lvl := m.setup.seats[1].Bot; lvl != "" && !slices.Contains(dragon.Levels(), lvl) {
		t.Fatalf("seat 2 is a bot of level %q, not a Dragon Farkle level", lvl)
	}
	press(m, "enter")
	g := m.DragonGame()
	if g == nil || m.Game() != nil {
		t.Fatalf("enter did not start Dragon Farkle:\n%s", drawn(m))
	}
	if n := len(g.Seats()); n != 3 || g.Seats()[0].Name != "you" {
		t.Fatalf("seats %v", g.Seats())
	}
	// The game is played on: the bots to act play, the person's turn shows.
	if s := drawn(m); !strings.Contains(s, "Dragon Farkle") || !strings.Contains(s, "soldiers") {
		t.Fatalf("the Dragon Farkle table is not shown:\n%s", s)
	}
	press(m, "q", "y")
	if !m.dragon.quitting {
		t.Fatal("q y did not quit the Dragon Farkle game")
	}
}

// TestDragonBrawlShownStepByStep: at the bots' pace a brawl is shown
// throw by throw (the challenger's, the defender's, the outcome), the
// soldiers changing only with the outcome; s skips it.
func TestDragonBrawlShownStepByStep(t *testing.T) {
	seed := dragonSeed(t, "brawl-show", "you,bot:smart", func(g *DragonGame) bool {
		return g.Turn() == 0 && hasKind(g.View(0).Legal, dragon.ActBrawl)
	})
	newPaced := func() *DragonModel {
		g := newDragonGame(t, "you,bot:smart", seed, "")
		// Neither side holds a Magic Item: the brawl is settled in one action.
		g.setState(func(s *dragon.State) { s.Players[0].Items, s.Players[1].Items = nil, nil })
		m := NewDragon(DragonOptions{Game: g, BotDelay: time.Millisecond})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		return m
	}
	m := newPaced()
	before := m.g.State().Players[1].Soldiers
	_, cmd := m.Update(keyMsg("b"))
	if m.show == nil {
		t.Fatalf("the brawl is not shown:\n%s", drawn(m))
	}
	ev := m.show.frames
	if len(ev) != 2 || m.show.result == nil {
		t.Fatalf("the show has %d throws and outcome %v, not both throws and the outcome", len(ev), m.show.result)
	}
	steps := []string{
		fmt.Sprintf("Your throw for the brawl scores %d", ev[0].score),
		fmt.Sprintf("smart answers with %d", ev[1].score),
		"Brawl · you challenged smart",
	}
	frames := []string{steps[0], steps[1], ""}
	for i := range 3 {
		s := drawn(m)
		if !strings.Contains(s, steps[2]) || !strings.Contains(s, "s skip the brawl") || !strings.Contains(s, frames[i]) {
			t.Fatalf("step %d does not show %q:\n%s", i, frames[i], s)
		}
		shown := strings.Contains(s, fmt.Sprintf("smart   %5d soldiers", before))
		if i < 2 && !shown {
			t.Fatalf("step %d shows the soldiers after the brawl:\n%s", i, s)
		}
		if i < 2 && (strings.Contains(s, "win the brawl") || strings.Contains(s, "wins the brawl")) || i == 0 && strings.Contains(s, "smart threw") {
			t.Fatalf("step %d: the log tells what is not shown yet:\n%s", i, s)
		}
		if i == 2 && !strings.Contains(s, "win the brawl") && !strings.Contains(s, "wins the brawl") && !strings.Contains(s, "brawl to a tie") {
			t.Fatalf("the outcome is not said:\n%s", s)
		}
		msg := cmd()
		if _, ok := msg.(brawlStepMsg); !ok {
			t.Fatalf("step %d: the next message is %T, not the show's step", i, msg)
		}
		_, cmd = m.Update(msg)
	}
	if m.show != nil {
		t.Fatal("the show did not end")
	}
	// Skipped: s ends the show at once with the outcome said.
	m = newPaced()
	press(m, "b")
	m = newPaced()
	m.Update(keyMsg("b"))
	m.Update(keyMsg("s"))
	if s := drawn(m); m.show != nil || !strings.Contains(s, "brawl") {
		t.Fatalf("s did not skip the brawl:\n%s", s)
	}
}

// TestDragonFireIsSaid: a battle throw without scoring dice that does not
// wound the dragon burns soldiers, and the message line says so.
func TestDragonFireIsSaid(t *testing.T) {
	arm := func(g *DragonGame) {
		g.setState(func(s *dragon.State) {
			s.Stockpile -= 6000
			s.Players[0].Soldiers = 6000
		})
	}
	seed := dragonSeed(t, "fire", "you,bot:smart", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		arm(g)
		ev, _ := g.Do(dragon.Battle())
		_, fire := dragonEvent(ev, dragon.EvFire)
		return fire
	})
	g := newDragonGame(t, "you,bot:smart", seed, "")
	arm(g)
	m := NewDragon(DragonOptions{Game: g})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	press(m, "f")
	if !strings.HasPrefix(m.flash, "you lost") || !strings.Contains(m.flash, "to the dragon's fire") || !strings.Contains(drawn(m), m.flash) {
		t.Fatalf("the message line does not say the fire (%q):\n%s", m.flash, drawn(m))
	}
}
