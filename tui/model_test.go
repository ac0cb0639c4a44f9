package tui

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// loneTwo is a throw with a 2 that cannot score (fewer than three 2s) and
// a 1 that can.
func loneTwo(h dice.Hand) bool {
	return h.Count(2) == 1 && h.Count(1) >= 1 && h.Count(3) < 3 && h.Count(4) < 3 && h.Count(6) < 3
}

func TestIllegalKeepChangesNothing(t *testing.T) {
	r := seatOrder("classic")
	m := newModel(t, r, []Seat{{Name: "ana"}, {Name: "bob"}}, seedWhere(t, "lone-two", loneTwo), 100, 35)
	press(m, "r")
	g := m.Game()
	s := g.State()
	if s.Step != engine.StepKeep || !loneTwo(s.Throw) {
		t.Fatalf("after r: step %v, throw %v", s.Step, s.Throw)
	}
	two := faceKeys(t, m.faces, dice.Of(2))
	one := faceKeys(t, m.faces, dice.Of(1))
	// The reason is the dice table's, computed here independently of the
	// model.
	var ke *dice.KeepError
	if err := s.Table().CheckKeep(s.Throw, dice.Of(1, 2)); !errors.As(err, &ke) {
		t.Fatalf("1-2 should not be a legal keep of %v", s.Throw)
	}
	for _, k := range []string{"r", "b"} {
		t.Run(k, func(t *testing.T) {
			before := g.State()
			actions := len(g.Record().Actions)
			press(m, one[0], two[0])
			if m.selected() != dice.Of(1, 2) {
				t.Fatalf("selected %v, want 1 2", m.selected())
			}
			press(m, k)
			if !reflect.DeepEqual(g.State(), before) || len(g.Record().Actions) != actions {
				t.Fatalf("an illegal keep changed the game: %+v", g.State())
			}
			if !strings.Contains(drawn(m), ke.Say(nil)) {
				t.Fatalf("the screen does not explain %q:\n%s", ke.Say(nil), drawn(m))
			}
			if m.selected() != dice.Of(1, 2) {
				t.Fatal("the selection was lost")
			}
			press(m, "u", "u")
			if m.selected() != 0 {
				t.Fatalf("undo left %v selected", m.selected())
			}
		})
	}
}

func TestKeepThenThrowIsTwoActions(t *testing.T) {
	r := seatOrder("classic")
	m := newModel(t, r, []Seat{{Name: "ana"}, {Name: "bob"}}, seedWhere(t, "lone-two", loneTwo), 100, 35)
	press(m, "r")
	g := m.Game()
	n := len(g.Record().Actions)
	// Choose the 1 with the arrows and space.
	one := slices.Index(m.faces, 1)
	for range one - m.cursor {
		press(m, "right")
	}
	press(m, "space")
	if m.selected() != dice.Of(1) {
		t.Fatalf("selected %v, want the 1", m.selected())
	}
	press(m, "r")
	acts := recordedActions[engine.Action](t, g.table)[n:]
	if len(acts) != 2 || acts[0].Kind != engine.Keep || acts[0].Dice != dice.Of(1) || acts[1].Kind != engine.Throw {
		t.Fatalf("recorded %+v, want keep 1 then throw", acts)
	}
	s := g.State()
	if s.Players[0].Name != "ana" || (s.Current == 0 && s.Total != 100) {
		t.Fatalf("turn total %d after keeping a 1", s.Total)
	}
	if s.Current == 0 && s.Step == engine.StepKeep && (m.selected() != 0 || len(m.faces) != 5) {
		t.Fatalf("the new throw of 5 dice starts with nothing chosen: %v of %v", m.selected(), m.faces)
	}
}

func TestBankBelowEntryIsRefused(t *testing.T) {
	r := seatOrder("farkle-dice") // entry minimum 500
	m := newModel(t, r, []Seat{{Name: "ana"}}, seedWhere(t, "entry", func(h dice.Hand) bool {
		return h.Count(5) == 1 && h.Count(1) == 0 && h.Count(2) < 3 && h.Count(3) < 3 && h.Count(4) < 3 && h.Count(6) < 3 && h != dice.Of(2, 2, 3, 3, 4, 4)
	}), 100, 35)
	press(m, "r")
	g := m.Game()
	before := g.State()
	press(m, faceKeys(t, m.faces, dice.Of(5))...)
	press(m, "b")
	if !reflect.DeepEqual(g.State(), before) {
		t.Fatal("a refused bank changed the game")
	}
	if v := drawn(m); !strings.Contains(v, "below the 500 needed to get on the board") {
		t.Fatalf("the screen does not say why:\n%s", v)
	}
}

func TestNumberKeysBeyondTheThrow(t *testing.T) {
	m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}}, dice.SeedFrom("x"), 100, 35)
	press(m, "3")
	if !strings.Contains(drawn(m), "no dice to choose now") {
		t.Fatalf("choosing before the throw is not explained:\n%s", drawn(m))
	}
	press(m, "r")
	if m.Game().State().Step != engine.StepKeep {
		t.Skip("first throw farkled")
	}
	press(m, "z")
	if !strings.Contains(drawn(m), `"z" does nothing here`) {
		t.Fatalf("an unknown key is not explained:\n%s", drawn(m))
	}
}

func TestQuitAsksFirstAndSaves(t *testing.T) {
	m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "bob"}}, dice.SeedFrom("quit"), 100, 35)
	press(m, "r")
	if cmd := pressOnly(m, "q"); cmd != nil || !m.confirm {
		t.Fatal("q quit without asking")
	}
	press(m, "n")
	if m.confirm || m.quitting {
		t.Fatal("n did not go back to the game")
	}
	pressOnly(m, "q")
	cmd := pressOnly(m, "y")
	if cmd == nil || !m.quitting {
		t.Fatal("y did not quit")
	}
	g := m.Game()
	data, err := os.ReadFile(g.Path())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Actions) != len(g.Record().Actions) || rec.Seed != "" {
		t.Fatalf("saved %d actions (seed %q), the game has %d", len(rec.Actions), rec.Seed, len(g.Record().Actions))
	}
	again, err := ResumeGame(g.Path(), fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.State().Players, g.State().Players) || again.State().Throw != g.State().Throw || again.State().Version != g.State().Version {
		t.Fatalf("resumed %+v, saved %+v", again.State(), g.State())
	}
}

func TestSkipAheadPlaysTheBots(t *testing.T) {
	r := seatOrder("classic")
	m := New(Options{Rules: r, Seats: []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, Seed: dice.SeedFrom("skip"),
		Now: fixedNow, BotDelay: 1 << 40})
	m.Update(keyMsgSize(100, 35))
	g := m.Game()
	// Ana plays until her turn ends; the bot's first move waits for a tick
	// that never comes in this test.
	for g.Actor() == 0 {
		s := g.State()
		switch s.Step {
		case engine.StepKeep:
			best := s.Table().Keeps(s.Throw)
			press(m, faceKeys(t, m.faces, best[len(best)-1].Hand)...)
			pressOnly(m, "b")
		default:
			pressOnly(m, "r")
		}
	}
	if !g.BotToAct() {
		t.Fatal("the bot is not to act")
	}
	v := g.State().Version
	pressOnly(m, "r")
	if g.State().Version != v || !strings.Contains(drawn(m), "press s to skip ahead") {
		t.Fatal("a key during the bot's turn should only explain")
	}
	run(m, pressOnly(m, "s"))
	if g.Actor() != 0 && !g.Over() {
		t.Fatalf("after skipping, seat %d is to act", g.Actor())
	}
	if g.State().Players[1].Turns == 0 || !strings.Contains(strings.Join(g.Log(), "\n"), "steady throws") {
		t.Fatalf("the bot did not play: %v", g.Log())
	}
	if m.skipping {
		t.Fatal("skipping did not stop at ana's decision")
	}
}

func TestHintListsTheKeeps(t *testing.T) {
	m := newModel(t, seatOrder("classic"), []Seat{{Name: "ana"}}, seedWhere(t, "lone-two", loneTwo), 100, 35)
	press(m, "r", "h")
	s := m.Game().State()
	v := drawn(m)
	for _, k := range s.Table().Keeps(s.Throw) {
		if !strings.Contains(v, "keep "+k.Hand.String()) {
			t.Errorf("the hint does not list keep %v:\n%s", k.Hand, v)
		}
	}
	press(m, "h")
	if strings.Contains(drawn(m), "─ hint") {
		t.Fatal("h did not hide the hint")
	}
}

func TestHelpScrollsAndGoesBack(t *testing.T) {
	m := newModel(t, seatOrder("farkle-dice"), []Seat{{Name: "ana"}}, dice.SeedFrom("help"), 80, 20)
	press(m, "?")
	if !strings.Contains(drawn(m), "Keys") {
		t.Fatalf("? did not show the help:\n%s", drawn(m))
	}
	for range 100 {
		press(m, "down")
	}
	v := drawn(m)
	if !strings.Contains(v, "three pairs") || strings.Count(v, "\n")+1 != 20 {
		t.Fatalf("scrolled to the end, the help should fill the window and end with the scoring table:\n%s", v)
	}
	press(m, "esc")
	if m.screen != screenTable {
		t.Fatal("esc did not go back to the table")
	}
}

func TestSetupStartsTheGame(t *testing.T) {
	m := New(Options{Rules: rules.MustPreset("classic"), Seed: dice.SeedFrom("setup"), Now: fixedNow})
	m.Update(keyMsgSize(80, 24))
	// Three players; the second becomes a person called "you" too: refused.
	press(m, "down", "right", "down", "down")
	for range len(m.setup.kinds()) {
		if !m.setup.seats[1].IsBot() {
			break
		}
		press(m, "right")
	}
	for range 10 {
		press(m, "backspace")
	}
	press(m, "you", "enter")
	if m.Game() != nil || !strings.Contains(drawn(m), `"you" plays twice`) {
		t.Fatalf("duplicate names were not refused:\n%s", drawn(m))
	}
	press(m, "backspace", "backspace", "backspace", "ana", "enter")
	g := m.Game()
	if g == nil {
		t.Fatalf("enter did not start the game:\n%s", drawn(m))
	}
	want := []Seat{{Name: "you"}, {Name: "ana"}, {Name: "steady", Bot: "steady"}}
	if !reflect.DeepEqual(g.Seats(), want) || g.Rules().Name != "classic" {
		t.Fatalf("seats %v, rules %s", g.Seats(), g.Rules().Name)
	}
}

// slowBot is a steady bot that must be prepared before it plays.
type slowBot struct {
	bot.Strategy
	prepared bool
}

func (b *slowBot) Prepare() error { b.prepared = true; return nil }

func (b *slowBot) Choose(s engine.State) engine.Action {
	if !b.prepared {
		panic("slowBot: Choose before Prepare")
	}
	return b.Strategy.Choose(s)
}

func TestBotsPlayOnlyWhenPrepared(t *testing.T) {
	r := seatOrder("classic")
	g, err := NewGame(r, []Seat{{Name: "slow", Bot: "steady"}, {Name: "ana"}}, dice.SeedFrom("prepare"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	steady, _ := bot.StrategyOf(g.bots[0])
	sb := &slowBot{Strategy: steady}
	g.bots[0] = bot.Of(sb)
	if names := g.NeedsPrepare(); !reflect.DeepEqual(names, []string{"slow"}) {
		t.Fatalf("NeedsPrepare: %v", names)
	}
	m := New(Options{Game: g, Now: fixedNow})
	m.Update(keyMsgSize(100, 35))
	cmd := m.Init() // the preparation, not run yet
	run(m, pressOnly(m, "s"))
	if g.State().Version != 0 || !strings.Contains(drawn(m), "slow is getting ready") {
		t.Fatalf("the bot played before it was prepared:\n%s", drawn(m))
	}
	run(m, cmd)
	if !sb.prepared || g.State().Players[0].Turns == 0 || g.Actor() != 1 {
		t.Fatalf("after preparing, the bot should have played its turn: %+v", g.State())
	}
}

func TestNothingIsCutAt60Columns(t *testing.T) {
	for _, preset := range rules.Presets() {
		r := seatOrder(preset)
		if r.Game.MinPlayers > 2 || r.Game.MaxPlayers < 2 {
			continue
		}
		m := newModel(t, r, []Seat{{Name: "you"}, {Name: "steady", Bot: "steady"}}, seedWhere(t, "cut", loneTwo), 60, 80)
		press(m, "r")
		screens := map[string]string{"table": drawn(m)}
		press(m, "h")
		screens["hint"] = drawn(m)
		press(m, "?")
		screens["help"] = drawn(m)
		for name, v := range screens {
			for _, l := range strings.Split(v, "\n") {
				if strings.Contains(l, "…") || len([]rune(l)) > 60 {
					t.Errorf("%s, %s: line cut or too long: %q", preset, name, l)
				}
			}
		}
	}
}

func TestFinalRoundIsShown(t *testing.T) {
	r := seatOrder("classic")
	r.Game.Target = 1000
	m := newModel(t, r, []Seat{{Name: "ana"}, {Name: "bob"}, {Name: "cy"}}, dice.SeedFrom("final"), 100, 40)
	g := m.Game()
	// Play with the keys: keep the keep scoring most, bank at 300.
	for n := 0; !g.State().FinalRound; n++ {
		if n > 10000 {
			t.Fatal("no final round")
		}
		s := g.State()
		switch s.Step {
		case engine.StepKeep:
			best := mostPoints(s)
			press(m, faceKeys(t, m.faces, best.Hand)...)
			if s.Total+int(best.Points) >= 300 {
				press(m, "b")
			} else {
				press(m, "r")
			}
		default:
			press(m, "r")
		}
	}
	s := g.State()
	v := drawn(m)
	trigger := s.Players[s.Trigger]
	if !strings.Contains(v, fmt.Sprintf("Final round: %s reached %s", trigger.Name, lang.Get("en").Num(int64(trigger.Score)))) {
		t.Fatalf("no final-round banner:\n%s", v)
	}
	// Seats after the trigger have their last turn in seat order.
	want := map[int]string{s.Trigger: "reached the target", (s.Trigger + 1) % 3: "last turn"}
	for seat, note := range want {
		line := strings.Split(v, "\n")[2+seat] // the scoreboard follows the header and a blank line
		if !strings.Contains(line, s.Players[seat].Name) || !strings.Contains(line, note) {
			t.Errorf("%s's line does not say %q: %q", s.Players[seat].Name, note, line)
		}
	}
}

func TestFinished(t *testing.T) {
	// Four seats, seat 1 reached the target, seat 3 is playing: seat 2 has
	// played its last turn; seat 0 has not; the trigger is not "finished".
	s := engine.State{Players: make([]engine.Player, 4), FinalRound: true, Trigger: 1, Current: 3}
	for seat, want := range map[int]bool{0: false, 1: false, 2: true, 3: false} {
		if got := finished(s, seat); got != want {
			t.Errorf("seat %d: finished %v, want %v", seat, got, want)
		}
	}
	s.Current = 0 // wrapped around: seats 2 and 3 are done
	for seat, want := range map[int]bool{0: false, 1: false, 2: true, 3: true} {
		if got := finished(s, seat); got != want {
			t.Errorf("current 0, seat %d: finished %v, want %v", seat, got, want)
		}
	}
}

// countingAdvisor is PointsAdvisor that counts its calls.
type countingAdvisor struct{ calls int }

func (c *countingAdvisor) Advise(s engine.State) (Advice, error) {
	c.calls++
	return PointsAdvisor{}.Advise(s)
}

func TestOneHintAtATime(t *testing.T) {
	adv := &countingAdvisor{}
	m := New(Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "ana"}}, Seed: seedWhere(t, "lone-two", loneTwo), Now: fixedNow, Advisor: adv})
	m.Update(keyMsgSize(100, 35))
	press(m, "r")
	slow := pressOnly(m, "h") // the advisor is "thinking": its command is not run yet
	if slow == nil || !strings.Contains(drawn(m), "thinking") {
		t.Fatalf("h should start the advisor and say so:\n%s", drawn(m))
	}
	press(m, faceKeys(t, m.faces, dice.Of(1))...)
	if cmd := pressOnly(m, "r"); cmd != nil {
		run(m, cmd)
	}
	if adv.calls != 0 {
		t.Fatalf("a second advisor call started while the first runs (%d calls)", adv.calls)
	}
	run(m, slow) // the stale answer arrives and the current position is advised
	if adv.calls != 2 || m.advice == nil || m.advice.version != m.Game().State().Version {
		t.Fatalf("after the stale answer: %d calls, advice %+v", adv.calls, m.advice)
	}
}

func TestLowWindowKeepsTheKeys(t *testing.T) {
	seats := []Seat{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	m := newModel(t, seatOrder("classic"), seats, seedWhere(t, "low", loneTwo), 60, 17)
	press(m, "r")
	v := drawn(m)
	if n := strings.Count(v, "\n") + 1; n > 17 {
		t.Fatalf("%d lines in a window of 17", n)
	}
	if !strings.Contains(v, "r keep & throw") || !strings.Contains(v, "choose scoring dice") {
		t.Fatalf("a low window lost the keys or the message:\n%s", v)
	}
}
