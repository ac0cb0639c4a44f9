package rating

import (
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

func farkleVariant(t *testing.T, r rules.Rules) *game.FarkleVariant {
	t.Helper()
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestJudgeTurnCap: every preset is rated in the ordinary family without
// a turn cap or with one of MinMaxTurns rounds or more, and never with a
// cap under it, whoever sits at the table.
func TestJudgeTurnCap(t *testing.T) {
	for _, n := range rules.Presets() {
		if n == "dragon" {
			continue
		}
		for cap := 0; cap <= 3*MinMaxTurns; cap++ {
			r := rules.MustPreset(n)
			r.Game.MaxTurns = cap
			for _, bots := range []int{0, 1} {
				got := Judge(farkleVariant(t, r), false, bots)
				want := Verdict{Family: Ordinary}
				if cap > 0 && cap < MinMaxTurns {
					want = Verdict{Reason: NotRatedShort}
				}
				if got != want {
					t.Fatalf("%s, max_turns %d, %d bots: %+v, want %+v", n, cap, bots, got, want)
				}
				if got.Rated() != (want.Family != Unrated) {
					t.Fatalf("%+v.Rated() = %v", got, got.Rated())
				}
			}
		}
	}
}

// TestJudgeHouseRules: house rules are rated only when the table is marked
// rated, only between people, and only with a target of MinTargetThrows
// throws' worth of points or more (the target of 50 is far under);
// a short cap makes them short whatever else.
func TestJudgeHouseRules(t *testing.T) {
	base := rules.MustPreset("classic")
	throw := engine.TableFor(base).Odds(base.Dice).Expected() // ~308.9 points
	limit := int(MinTargetThrows * throw)
	for _, c := range []struct {
		target, cap, bots int
		marked            bool
		want              Verdict
	}{
		{target: 10050, marked: false, want: Verdict{}},
		{target: 10050, marked: true, want: Verdict{Family: House}},
		{target: 10050, marked: true, bots: 1, want: Verdict{Reason: NotRatedBots}},
		{target: 10050, marked: false, bots: 1, want: Verdict{}},
		{target: 50, marked: true, want: Verdict{Reason: NotRatedShort}},
		{target: 50, marked: true, bots: 1, want: Verdict{Reason: NotRatedShort}},
		{target: 2000, marked: true, want: Verdict{Reason: NotRatedShort}},
		{target: limit, marked: true, want: Verdict{Reason: NotRatedShort}},
		{target: limit + 1, marked: true, want: Verdict{Family: House}},
		{target: 10050, cap: 1, marked: true, want: Verdict{Reason: NotRatedShort}},
		{target: 10050, cap: MinMaxTurns, marked: true, want: Verdict{Family: House}},
	} {
		r := base.Clone()
		r.Game.Target, r.Game.MaxTurns = c.target, c.cap
		if got := Judge(farkleVariant(t, r), c.marked, c.bots); got != c.want {
			t.Errorf("target %d, max_turns %d, marked %v, %d bots: %+v, want %+v", c.target, c.cap, c.marked, c.bots, got, c.want)
		}
	}
	// The presets' own targets are far over the bound.
	for _, n := range rules.Presets() {
		if n == "dragon" {
			continue
		}
		r := rules.MustPreset(n)
		if ratio := float64(r.Game.Target) / engine.TableFor(r).Odds(r.Dice).Expected(); ratio < 2*MinTargetThrows {
			t.Errorf("preset %s: target %d is %.1f throws, under twice the bound", n, r.Game.Target, ratio)
		}
	}
	dv := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	if got := Judge(dv, false, 1); got != (Verdict{Family: Dragon}) {
		t.Errorf("Dragon Farkle with a bot: %+v", got)
	}
}

// play runs a two-player game of r by script: each step is "resign",
// "roll-off" or "turn" (throw, keep, bank as soon as allowed: a farkle
// ends it too) for the seat to act, or "out": whole turns to the end. It
// returns the game.
func play(t *testing.T, r rules.Rules, steps ...string) game.Game {
	t.Helper()
	p, _, err := game.Start(farkleVariant(t, r), []string{"Ann", "Bo"}, dice.SeedFrom("rating aborted"))
	if err != nil {
		t.Fatal(err)
	}
	do := func(a engine.Action) {
		t.Helper()
		if _, err := p.Do(a.Player, a); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
	}
	turn := func(seat int) {
		t.Helper()
		for p.Game().ToAct() == seat && !p.Game().Over() {
			var pick engine.Action
			for _, a := range p.Game().Legal(seat) {
				ea := a.(engine.Action)
				if pick.Kind == 0 || ea.Kind == engine.Bank || (ea.Kind == engine.Keep && pick.Kind == engine.Throw) {
					pick = ea
				}
			}
			do(pick)
		}
	}
	for _, step := range steps {
		seat := p.Game().ToAct()
		if seat < 0 {
			t.Fatalf("the game is over before %q", step)
		}
		switch step {
		case "resign":
			do(engine.ResignBy(seat))
		case "roll-off":
			do(engine.RollOffBy(seat))
		case "turn":
			turn(seat)
		case "out":
			for turns := 0; !p.Game().Over(); turns++ {
				if turns > 10000 {
					t.Fatal("the game did not end in 10,000 turns")
				}
				turn(p.Game().ToAct())
			}
		default:
			t.Fatalf("unknown step %q", step)
		}
	}
	return p.Game()
}

// TestAborted plays real games to their ends: a game is aborted when a
// seat resigned before finishing a turn of its own (at once, after the
// other's turn, during the roll-off) or when the first turn won it; not
// once every seat finished a turn.
func TestAborted(t *testing.T) {
	seatOrder := rules.MustPreset("classic")
	seatOrder.Game.FirstPlayer = rules.SeatOrder
	rollOff := rules.MustPreset("classic")
	rollOff.Game.FirstPlayer = rules.RollOff
	race := seatOrder.Clone()
	race.Game.Target, race.Game.Ending = 50, rules.EndImmediate
	for _, c := range []struct {
		name  string
		r     rules.Rules
		steps []string
		want  bool
	}{
		{"resign at once", seatOrder, []string{"resign"}, true},
		{"resign after the other's turn", seatOrder, []string{"turn", "resign"}, true},
		{"resign during the roll-off", rollOff, []string{"resign"}, true},
		{"resign after the roll-off", rollOff, []string{"roll-off", "roll-off", "resign"}, true},
		{"one turn each, then resign", seatOrder, []string{"turn", "turn", "resign"}, false},
		{"a turn each, a turn, then resign", seatOrder, []string{"turn", "turn", "turn", "resign"}, false},
		{"won by the first turn", race, []string{"turn"}, true},
	} {
		g := play(t, c.r, c.steps...)
		if !g.Over() {
			t.Fatalf("%s: the game goes on", c.name)
		}
		if got := Aborted(g); got != c.want {
			t.Errorf("%s: Aborted = %v, want %v (players %+v)", c.name, got, c.want, g.(*game.FarkleGame).State().Players)
		}
	}
	// A game played out by turns to its end is never aborted.
	short := seatOrder.Clone()
	short.Game.Target = 1000
	if g := play(t, short, "out"); !g.Over() || Aborted(g) {
		t.Fatalf("a whole game: over %v, aborted %v", g.Over(), Aborted(g))
	}
}

// TestAbortedDragon: a game of Dragon Farkle is aborted while it has not
// lasted a round.
func TestAbortedDragon(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	g, _, err := v.Start([]string{"Ann", "Bo", "Cy"}, dice.NewSource(dice.SeedFrom("dragon aborted")))
	if err != nil {
		t.Fatal(err)
	}
	s := g.(*game.DragonGame).State()
	for turns, want := range map[int]bool{0: true, 2: true, 3: false, 7: false} {
		s.Turns = turns
		if got := Aborted(v.At(s, 0)); got != want {
			t.Errorf("Dragon Farkle after %d turns of 3 players: Aborted = %v, want %v", turns, got, want)
		}
	}
}
