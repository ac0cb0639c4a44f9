package advise

import (
	"fmt"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
)

// playRecord plays a recorded game between bots, with blunder, if not nil,
// replacing one decision: it gets the state and the bot's choice and
// returns the action to play and whether it replaced the choice (only the
// first replacement counts).
func playRecord(t testing.TB, r rules.Rules, levels []string, seed string, blunder func(engine.State, engine.Action) (engine.Action, bool)) (*record.Record, int) {
	t.Helper()
	names := make([]string, len(levels))
	bots := make([]bot.Strategy, len(levels))
	for i, l := range levels {
		names[i] = fmt.Sprintf("%s-%d", l, i)
		bots[i], _ = bot.New(l, r, bot.WithTables(tables))
	}
	g, err := record.Start(r, names, dice.SeedFrom(seed))
	if err != nil {
		t.Fatal(err)
	}
	planted := 0
	for !g.State.Over() {
		a := bots[g.State.Actor()].Choose(g.State)
		if blunder != nil && planted == 0 {
			if b, ok := blunder(g.State, a); ok {
				a = b
				planted = len(g.Record.Actions) + 1
			}
		}
		if _, err := g.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	return g.Record, planted
}

// analyze is AnalyzeWith on an ordinary record.
func analyze(t testing.TB, a *Advisor, old *record.Record) (*Report, error) {
	rec, err := game.FromOrdinary(old)
	if err != nil {
		t.Fatal(err)
	}
	return AnalyzeWith(rec, a)
}

func TestAnalyzeFindsAPlantedBlunder(t *testing.T) {
	r := short("pocket-farkel", 2000)
	a := advisor(t, r, 2)
	// Seat 0 plays perfectly except once: the first time it would throw on
	// with two or more dice at a turn total below 300, it banks instead
	// (seeds are tried until a game has such a moment).
	blunder := func(s engine.State, chosen engine.Action) (engine.Action, bool) {
		if s.Current == 0 && s.Step == engine.StepChoose && chosen.Kind == engine.Throw && s.Left >= 2 && s.Total < 300 {
			if ok, _ := s.CanBank(); ok {
				return engine.BankBy(0), true
			}
		}
		return chosen, false
	}
	var rec *record.Record
	planted := 0
	for seed := 0; planted == 0 && seed < 50; seed++ {
		rec, planted = playRecord(t, r, []string{"perfect", "perfect"}, fmt.Sprint("blunder", seed), blunder)
	}
	if planted == 0 {
		t.Fatal("the blunder was never planted")
	}
	rep, err := analyze(t, a, rec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Measure != WinProbability {
		t.Errorf("measure %s", rep.Measure)
	}
	p0, p1 := rep.Players[0], rep.Players[1]
	// Perfect play loses nothing.
	if p1.TotalLoss != 0 || p1.Accuracy == nil || *p1.Accuracy != 1 || p1.Decisions == 0 {
		t.Errorf("perfect seat 1: %+v", p1)
	}
	if p0.Decisions-p0.Best != 1 || len(p0.Worst) != 1 {
		t.Fatalf("seat 0: %d decisions, %d best, worst %+v; want exactly one loss", p0.Decisions, p0.Best, p0.Worst)
	}
	w := p0.Worst[0]
	if w.Action != planted || w.Played != "bank" || w.Best != "throw" {
		t.Errorf("worst decision %+v, want the bank at action %d", w, planted)
	}
	// The loss is the difference of the two values of that position.
	_, steps, _ := record.Replay(rec)
	adv, err := a.State(steps[planted-1].Before)
	if err != nil {
		t.Fatal(err)
	}
	v := values(adv)
	if !near(w.Loss, v["throw"]-v["bank"]) || w.Loss <= 0 || !near(p0.TotalLoss, w.Loss) {
		t.Errorf("loss %v, total %v; values %v", w.Loss, p0.TotalLoss, v)
	}
	if p0.Accuracy == nil || *p0.Accuracy >= 1 || !near(*p0.Accuracy, float64(p0.Best)/float64(p0.Decisions)) {
		t.Errorf("accuracy %v", p0.Accuracy)
	}
}

func TestAnalyzeRanksTheWorstThree(t *testing.T) {
	r := short("cardgames", 2000)
	a := advisor(t, r, 2)
	rec, _ := playRecord(t, r, []string{"reckless", "steady"}, "worst", nil)
	rep, err := analyze(t, a, rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Players {
		var losses int
		var total float64
		for _, d := range rep.Decisions {
			if d.Player != p.Player {
				continue
			}
			total += d.Loss
			if d.Loss > 0 {
				losses++
			}
			if d.Loss > 0 && len(p.Worst) == 3 && d.Loss > p.Worst[2].Loss && d.Action != p.Worst[0].Action && d.Action != p.Worst[1].Action && d.Action != p.Worst[2].Action {
				t.Errorf("%s: decision %d lost %v, more than the third worst %v", p.Name, d.Action, d.Loss, p.Worst[2].Loss)
			}
		}
		if len(p.Worst) != min(3, losses) {
			t.Errorf("%s: %d worst for %d losses", p.Name, len(p.Worst), losses)
		}
		for i := 1; i < len(p.Worst); i++ {
			if p.Worst[i].Loss > p.Worst[i-1].Loss {
				t.Errorf("%s: worst not sorted: %+v", p.Name, p.Worst)
			}
		}
		if !near(total, p.TotalLoss) {
			t.Errorf("%s: losses add to %v, total %v", p.Name, total, p.TotalLoss)
		}
	}
	// Reckless plays far from perfect over a whole game.
	if rep.Players[0].TotalLoss == 0 {
		t.Error("reckless lost nothing")
	}
}

func TestAnalyzeThreePlayers(t *testing.T) {
	r := short("farkle-dice", 1500)
	a := advisor(t, r, 3)
	rec, _ := playRecord(t, r, []string{"expert", "bold", "cautious"}, "three", nil)
	rep, err := analyze(t, a, rec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Measure != ExpectedPoints || rep.Note == "" || len(rep.Players) != 3 || len(rep.Decisions) == 0 {
		t.Errorf("report %s, %q, %d players, %d decisions", rep.Measure, rep.Note, len(rep.Players), len(rep.Decisions))
	}
}

func TestAnalyzeRefusesOtherRules(t *testing.T) {
	rec, _ := playRecord(t, short("cardgames", 1000), []string{"steady", "bold"}, "other", nil)
	if _, err := analyze(t, advisor(t, short("pocket-farkel", 1000), 2), rec); err == nil {
		t.Error("analysed a record of other rules")
	}
}
