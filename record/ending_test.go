package record_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
)

// playResigning plays a game with random legal actions in which the actor
// resigns now and then (about one action in every).
func playResigning(t *testing.T, r rules.Rules, names []string, seed dice.Seed, rng *rand.Rand, every int) *record.Game {
	t.Helper()
	g, err := record.Start(r, names, seed)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; !g.State.Over(); n++ {
		if n > 100000 {
			t.Fatal("game did not end")
		}
		a := engine.ResignBy(g.State.Actor())
		if rng.IntN(every) != 0 {
			legal := g.State.Legal()
			a = legal[rng.IntN(len(legal))]
			for _, l := range legal {
				if l.Kind == engine.Bank && rng.IntN(3) > 0 {
					a = l
				}
			}
		}
		if _, err := g.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestResignedGamesVerify writes games with resignations (in play and in
// roll-offs, alone and among three) and checks that they parse, verify and
// replay to the very same game.
func TestResignedGamesVerify(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	resigns := 0
	for i := range 24 {
		names := []string{"ana", "bob", "cy"}[:1+i%3]
		g := playResigning(t, rules.MustPreset("classic"), names, dice.SeedFrom("resign"+string(rune('a'+i))), rng, 25)
		for _, e := range g.Record.Actions {
			if e.Kind == engine.Resign {
				resigns++
				if e.Threw != 0 {
					t.Fatalf("a resignation throws no dice: %+v", e)
				}
			}
		}
		data, err := g.Record.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		st, err := record.Verify(rec)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !reflect.DeepEqual(st.Players, g.State.Players) || !reflect.DeepEqual(st.Winners, g.State.Winners) || !reflect.DeepEqual(rec.Meta.Winners, g.State.Winners) {
			t.Fatalf("game %d: verified state differs:\n got %+v\nwant %+v", i, st, g.State)
		}
		if strings.Contains(string(data), `"type": "resign"`) != slicesHasResign(rec) {
			t.Fatal("the record must name resignations as \"resign\"")
		}
	}
	if resigns < 10 {
		t.Fatalf("only %d resignations in the games: the test does not test them", resigns)
	}
}

func slicesHasResign(rec *record.Record) bool {
	for _, e := range rec.Actions {
		if e.Kind == engine.Resign {
			return true
		}
	}
	return false
}

func TestResignOutOfTurnIsADiscrepancy(t *testing.T) {
	g := playRandom(t, rules.MustPreset("classic"), []string{"ana", "bob"}, dice.SeedFrom("r"), rand.New(rand.NewPCG(3, 3)))
	data, _ := g.Record.Marshal()
	rec, _ := record.Parse(data)
	// bob resigns while it is ana's turn at the first action of play.
	i := 0
	for rec.Actions[i].Kind == engine.RollOff {
		i++
	}
	rec.Actions[i] = record.Entry{Action: engine.ResignBy(1 - rec.Actions[i].Player)}
	if _, err := record.Verify(rec); !errors.Is(err, record.ErrDiscrepancy) || !strings.Contains(err.Error(), "not your turn") {
		t.Fatalf("got %v, want a discrepancy saying not your turn", err)
	}
}

// TestCappedGamesVerify: games under game.max_turns (some with
// resignations) write the cap into the record's rules, parse, verify and
// replay to the same game; some end at the cap.
func TestCappedGamesVerify(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	limits := 0
	for i := range 12 {
		r := rules.MustPreset("pocket-farkel")
		r.Game.MaxTurns = 2 + i
		names := []string{"ana", "bob", "cy"}[:1+i%3]
		g := playResigning(t, r, names, dice.SeedFrom("cap"+string(rune('a'+i))), rng, 200)
		data, err := g.Record.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"max_turns": `) {
			t.Fatal("the record's rules must hold the cap")
		}
		rec, err := record.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		st, err := record.Verify(rec)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !reflect.DeepEqual(st.Players, g.State.Players) || !reflect.DeepEqual(st.Winners, rec.Meta.Winners) {
			t.Fatalf("game %d: verified state differs", i)
		}
		_, steps, err := record.Replay(rec)
		if err != nil {
			t.Fatal(err)
		}
		atCap := false
		for _, e := range steps[len(steps)-1].Events {
			atCap = atCap || e.Kind == engine.EvTurnLimit
		}
		if !atCap {
			continue
		}
		limits++
		// The cap is part of the rules: without it the same actions are a
		// game that has not ended.
		rec.Rules.Game.MaxTurns = 0
		if st, err := record.Verify(rec); err != nil || st.Over() {
			t.Fatalf("game %d without its cap: over %v, err %v", i, st.Over(), err)
		}
	}
	if limits < 3 {
		t.Fatalf("only %d games ended at the cap", limits)
	}
}
