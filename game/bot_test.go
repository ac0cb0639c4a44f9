package game_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// TestDragonBotsAreTheDragonBots: a bot of the Cast chooses, at every
// decision of whole games, what package dragon's bot of its level chooses
// on the seat's view with the same source; the game it plays ends.
func TestDragonBotsAreTheDragonBots(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	cast := game.DefaultCast()
	for _, level := range dragon.Levels() {
		lv, err := dragon.ParseLevel(level)
		if err != nil {
			t.Fatal(err)
		}
		own := dragon.NewBot(lv, v.Brains())
		b, err := cast.Bot(v, level)
		if err != nil {
			t.Fatal(err)
		}
		seed := dice.SeedFrom("contract " + level)
		p, _, err := game.Start(v, []string{"Ana", "Bo", "Cy"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		mine, theirs := game.BotSource(seed), game.BotSource(seed)
		for n := 0; !p.Game().Over(); n++ {
			if n > 20000 {
				t.Fatalf("%s: no end after 20000 actions", level)
			}
			g := p.Game()
			seat := g.ToAct()
			a, err := b.Choose(g, seat, mine)
			if err != nil {
				t.Fatal(err)
			}
			want := own.Choose(v.Game().View(g.(*game.DragonGame).State(), seat), theirs)
			if a != want {
				t.Fatalf("%s: action %d: the Cast's bot chooses %s, the dragon bot %s", level, n+1, a, want)
			}
			if _, err := p.Do(seat, a); err != nil {
				t.Fatalf("%s: the bot's %s is refused: %v", level, a, err)
			}
		}
		if _, err := b.Choose(p.Game(), 0, mine); !errors.Is(err, game.ErrNoDecision) {
			t.Errorf("%s: a bot asked about a finished game: %v", level, err)
		}
	}
}

func TestCastRefuses(t *testing.T) {
	cast := game.DefaultCast()
	dv := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	if _, err := cast.Bot(dv, "genius"); err == nil || !strings.Contains(err.Error(), "smart") {
		t.Errorf("an unknown level: %v (want the levels named)", err)
	}
	fv, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cast.Bot(fv, "steady"); !errors.Is(err, game.ErrNoPlayers) || !strings.Contains(err.Error(), "dragon") {
		t.Errorf("a kind without Players: %v", err)
	}
	if _, err := cast.Advisor(fv, 2); !errors.Is(err, game.ErrNoPlayers) {
		t.Errorf("an advisor of a kind without Players: %v", err)
	}
	if got := cast.LevelNames(game.Dragon); !slices.Equal(got, dragon.Levels()) || cast.DefaultLevel(game.Dragon) != "smart" {
		t.Errorf("levels %v, default %q", got, cast.DefaultLevel(game.Dragon))
	}
	if cast.Levels(game.Farkle) != nil || cast.DefaultLevel(game.Farkle) != "" {
		t.Error("levels of a kind without Players")
	}
	// Players of one kind refuse a variant of another.
	if _, err := cast[game.Dragon].Bot(fv, "smart"); err == nil {
		t.Error("a dragon bot for the ordinary game")
	}
	b, _ := cast.Bot(dv, "smart")
	g, _, err := fv.Start([]string{"a", "b"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Choose(g, 0, nil); err == nil {
		t.Error("a dragon bot chose in an ordinary game")
	}
	with := cast.With(game.Farkle, cast[game.Dragon])
	if _, ok := cast[game.Farkle]; ok || with[game.Farkle] == nil {
		t.Error("With changed the Cast it copies, or added nothing")
	}
}

// TestDragonAdviceIsTheBrains: the Cast's Dragon Farkle advisor values
// exactly the actions dragon.Brains.Advise values, with its values, each
// in its unit's measure; best first (the first of the highest value)
// when they share one measure, in the order of the legal actions
// otherwise; a keep's plan (Then) is the brains'; the turn is the game's.
func TestDragonAdviceIsTheBrains(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	adv, err := game.DefaultCast().Advisor(v, 2)
	if err != nil {
		t.Fatal(err)
	}
	if adv.Measure() != game.ExpectedSoldiers {
		t.Errorf("measure %s", adv.Measure())
	}
	measure := map[string]game.Measure{dragon.UnitSoldiers: game.ExpectedSoldiers, dragon.UnitPWin: game.WinProbability}
	pick := rand.New(rand.NewPCG(5, 6))
	mixed, ranked := 0, 0
	for i := range 6 {
		p, _, err := game.Start(v, []string{"Ana", "Bo"}, dice.SeedFrom(fmt.Sprint("advice ", i)))
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; !p.Game().Over() && n < 3000; n++ {
			g := p.Game().(*game.DragonGame)
			seat := g.ToAct()
			got, err := adv.Advise(g, seat)
			if err != nil {
				t.Fatal(err)
			}
			want := v.Brains().Advise(v.Game().View(g.State(), seat))
			if len(got.Choices) != len(want) || got.Turn != g.State().Turns+1 || got.Measure != game.ExpectedSoldiers {
				t.Fatalf("%d choices for %d valued actions, turn %d of %d", len(got.Choices), len(want), got.Turn, g.State().Turns+1)
			}
			for _, w := range want {
				j := slices.IndexFunc(got.Choices, func(c game.Choice) bool { return c.Action == w.Action })
				then := map[string]string{dragon.ThenStop: "bank", dragon.ThenThrow: "throw"}[w.Then]
				if j < 0 || got.Choices[j].Value != w.Value || got.Choices[j].Measure != measure[w.Unit] || got.Choices[j].Then != then {
					t.Fatalf("%s worth %v %s: the advice has %+v", w.Action, w.Value, w.Unit, got.Choices)
				}
			}
			if got.OneMeasure() && len(got.Choices) > 0 {
				ranked++
				first := slices.IndexFunc(want, func(w dragon.Advice) bool {
					return w.Value == slices.MaxFunc(want, func(a, b dragon.Advice) int { return cmpFloat(a.Value, b.Value) }).Value
				})
				if !got.Choices[0].Best || got.Best().Action != want[first].Action || !slices.IsSortedFunc(got.Choices, func(a, b game.Choice) int { return cmpFloat(b.Value, a.Value) }) {
					t.Fatalf("one measure but not best first: %+v", got.Choices)
				}
			} else if len(got.Choices) > 0 {
				mixed++
				for j, w := range want {
					if got.Choices[j].Action != w.Action || got.Choices[j].Best {
						t.Fatalf("mixed measures not in the order of the legal actions, or one best: %+v", got.Choices)
					}
				}
			}
			legal := g.Legal(seat)
			if _, err := p.Do(seat, legal[pick.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Since the turn's start is valued in one measure once an attack is
	// legal, every decision's choices share one.
	if mixed != 0 || ranked == 0 {
		t.Errorf("%d decisions of mixed measures, %d of one", mixed, ranked)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestRank(t *testing.T) {
	nan := math.NaN()
	adv := &game.Advice{Measure: game.ExpectedPoints, Choices: []game.Choice{
		{Action: act("a"), Value: 1}, {Action: act("b"), Value: nan}, {Action: act("c"), Value: 3},
		{Action: act("d"), Value: 3}, {Action: act("e"), Value: 2},
	}}
	adv.Rank()
	if got := names(adv); got != "c d e a b" || !adv.Choices[0].Best || adv.Best() != &adv.Choices[0] {
		t.Errorf("ranked %s, best %+v", got, adv.Best())
	}
	// A choice marked best by the advisor leads its equals.
	adv = &game.Advice{Measure: game.ExpectedPoints, Choices: []game.Choice{{Action: act("a"), Value: 2}, {Action: act("b"), Value: 2, Best: true}, {Action: act("c"), Value: 1}}}
	adv.Rank()
	if got := names(adv); got != "b a c" || adv.Choices[1].Best {
		t.Errorf("ranked %s", got)
	}
	// Values in two measures have no best and keep their order.
	adv = &game.Advice{Measure: game.ExpectedSoldiers, Choices: []game.Choice{{Action: act("a"), Value: 1}, {Action: act("b"), Value: 0.5, Measure: game.WinProbability}, {Action: act("c"), Value: 9}}}
	adv.Rank()
	if got := names(adv); got != "a b c" || adv.Best() != nil || adv.OneMeasure() || adv.MeasureOf(adv.Choices[1]) != game.WinProbability || adv.MeasureOf(adv.Choices[0]) != game.ExpectedSoldiers {
		t.Errorf("mixed measures ranked %s, best %+v", got, adv.Best())
	}
	(&game.Advice{}).Rank() // no choices: nothing to do
}

// act is an action of a test: its name.
type act string

func (a act) String() string { return string(a) }

func names(adv *game.Advice) string {
	var out []string
	for _, c := range adv.Choices {
		out = append(out, c.Action.String())
	}
	return strings.Join(out, " ")
}

// TestStepsReplayTheRecordedDice: an ordinary record replays from the
// dice it recorded without its seed, step for step as Verify replays it
// from the seed; a Dragon Farkle record needs its seed.
func TestStepsReplayTheRecordedDice(t *testing.T) {
	pick := rand.New(rand.NewPCG(7, 8))
	for _, v := range variants(t) {
		seed := dice.SeedFrom("steps " + v.Name())
		p := playRandom(t, v, seed, pick)
		rec := p.Record()
		final, steps, err := game.Verify(rec)
		if err != nil {
			t.Fatal(err)
		}
		hidden := *rec
		hidden.Seed = ""
		if hidden.NeedsSeed() != (v.Kind() == game.Dragon) {
			t.Errorf("%s: NeedsSeed %v", v.Name(), hidden.NeedsSeed())
		}
		got, gotSteps, err := game.Steps(&hidden)
		if v.Kind() == game.Dragon {
			if !errors.Is(err, game.ErrDiscrepancy) {
				t.Errorf("%s: replayed without its seed: %v", v.Name(), err)
			}
			continue
		}
		if err != nil || len(gotSteps) != len(steps) || !reflect.DeepEqual(got.Scores(), final.Scores()) || !reflect.DeepEqual(got.Winners(), final.Winners()) {
			t.Fatalf("%s: %d steps of %d, %v", v.Name(), len(gotSteps), len(steps), err)
		}
		for i, st := range gotSteps {
			if st.Seat != steps[i].Seat || st.Action != steps[i].Action || !reflect.DeepEqual(st.Events, steps[i].Events) ||
				!reflect.DeepEqual(st.Before.View(-1), steps[i].Before.View(-1)) {
				t.Fatalf("%s: step %d differs: %+v, Verify's %+v", v.Name(), i+1, st, steps[i])
			}
		}
		// Dice that are not the recorded game's are found.
		bad := hidden
		bad.Actions = slices.Clone(rec.Actions)
		for i, raw := range bad.Actions {
			if strings.Contains(string(raw), `"threw"`) {
				bad.Actions[i] = []byte(strings.Replace(string(raw), `"threw":[`, `"threw":[6,`, 1))
				if _, steps, err := game.Steps(&bad); err == nil || len(steps) > i {
					t.Errorf("%s: a throw of one die too many at action %d: %d steps, %v", v.Name(), i+1, len(steps), err)
				}
				break
			}
		}
	}
}

func TestPresets(t *testing.T) {
	v, ok := game.Preset("dragon")
	again, _ := game.Preset("dragon")
	if !ok || v.Kind() != game.Dragon || v != again || v.Name() != dragon.DefaultRules().Name {
		t.Fatalf("dragon: %v %v (again %v)", v, ok, again)
	}
	if _, ok := game.Preset("classic"); ok {
		t.Error("an ordinary preset is a preset of another kind")
	}
	if n, ok := game.PresetOf(game.Dragon); !ok || n != "dragon" {
		t.Errorf("the preset of Dragon Farkle: %q %v", n, ok)
	}
	if _, ok := game.PresetOf(game.Farkle); ok {
		t.Error("the ordinary game has a preset of its own")
	}
	if names := game.PresetNames(); !slices.Equal(names, []string{"dragon"}) {
		t.Errorf("names %v", names)
	}
	min, max := v.Seats()
	d := dragon.DefaultRules()
	s := v.Scoring()
	named := s.Name
	s.Name = d.Soldiers.Name
	if min != d.MinPlayers || max != d.MaxPlayers || named != d.Name || s.Hash() != d.Soldiers.Hash() {
		t.Errorf("seats %d..%d, scoring %q", min, max, named)
	}
	for _, c := range []struct {
		data   string
		asJSON bool
		kind   game.Kind // "": not read
		name   string
	}{
		{"base = \"dragon\"\nbattle_minimum = 3000\n", false, game.Dragon, "mine"},
		{`{"base":"dragon","name":"fast"}`, true, game.Dragon, "fast"},
		{"base = \"classic\"\n", false, "", ""},
		{`{"game":{"target":500}}`, true, "", ""},
		{"base = \n", false, "", ""},
	} {
		v, ok, err := game.ParseRuleFile([]byte(c.data), c.asJSON, "mine")
		if ok != (c.kind != "") || (ok && (err != nil || v.Kind() != c.kind || v.Name() != c.name)) {
			t.Errorf("%q: %v %v %v", c.data, v, ok, err)
		}
	}
	if _, ok, err := game.ParseRuleFile([]byte("base = \"dragon\"\nbattle_minimum = -1\n"), false, "x"); !ok || !errors.Is(err, dragon.ErrInvalid) {
		t.Errorf("an invalid Dragon Farkle file: %v %v", ok, err)
	}
}
