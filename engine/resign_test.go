package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

func (p *play) resign() []engine.Event {
	p.t.Helper()
	return p.do(engine.ResignBy(p.s.Actor()))
}

func TestResignEndsTwoPlayerGame(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana", "bob"})
	p.throw(1, 5, 2, 3, 4, 6)
	p.keep(1, 5)
	ev := p.resign()
	if len(ev) != 2 || ev[0].Kind != engine.EvResign || ev[1].Kind != engine.EvGameOver {
		t.Fatalf("events %v, want resign then game over", ev)
	}
	if ev[0].Total != 150 {
		t.Fatalf("resign event %+v must carry the lost turn total 150", ev[0])
	}
	names := p.s.Names()
	if got := ev[0].Describe(names); got != "ana resigns and loses the turn total of 150" {
		t.Fatalf("describe: %q", got)
	}
	if got := ev[1].Describe(names); got != "game over: bob wins with 0" {
		t.Fatalf("describe: %q", got)
	}
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("bob must win at once: %+v", p.s)
	}
	if !p.s.Players[0].Out || p.s.Players[1].Out || p.s.Players[0].Score != 0 || p.s.Total != 0 {
		t.Fatalf("players after the resignation: %+v total %d", p.s.Players, p.s.Total)
	}
	p.refuse(engine.ResignBy(1), engine.ErrGameOver, "")
}

func TestResignByNonActorIsRefused(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana", "bob", "cy"})
	p.refuse(engine.ResignBy(1), engine.ErrNotYourTurn, "bob cannot act, it is ana's turn")
	p.refuse(engine.ResignBy(7), engine.ErrNotYourTurn, "seat 7 cannot act")
	p.refuse(engine.ResignBy(-1), engine.ErrNotYourTurn, "")
	// Legal lists the moves of the game only; Resign is accepted anyway.
	for _, a := range p.s.Legal() {
		if a.Kind == engine.Resign {
			t.Fatalf("Legal lists %v", a)
		}
	}
	p.resign()
	if p.s.Over() || p.s.Current != 1 || p.s.Step != engine.StepThrow {
		t.Fatalf("bob must play next: %+v", p.s)
	}
}

func TestResignedPlayerIsSkippedAndCannotWin(t *testing.T) {
	p := newPlay(t, lowTarget("classic", 5000), []string{"ana", "bob", "cy"})
	p.throw(1, 1, 1, 5, 5, 5)
	p.keep(1, 1, 1, 5, 5, 5)
	p.bank() // ana 1500, the highest score
	p.throw(5, 2, 3, 4, 6, 6)
	p.keep(5)
	p.bank() // bob 50
	p.throw(2, 2, 3, 4, 6, 6)
	p.hasEvent(engine.EvFarkle) // cy 0
	if p.s.Current != 0 {
		t.Fatalf("ana's turn expected: %+v", p.s)
	}
	ev := p.resign()
	if ev[0].Describe(p.s.Names()) != "ana resigns" || ev[len(ev)-1].Kind != engine.EvTurn || ev[len(ev)-1].Player != 1 {
		t.Fatalf("events %v: the game must go on with bob", ev)
	}
	if got := p.s.In(); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Fatalf("In() = %v, want bob and cy", got)
	}
	p.throw(2, 2, 3, 4, 6, 6) // bob farkles
	if p.s.Current != 2 {
		t.Fatalf("cy must follow bob: %+v", p.s)
	}
	p.throw(5, 2, 3, 4, 6, 6)
	p.keep(5)
	p.bank() // cy 50
	if p.s.Current != 1 {
		t.Fatalf("ana is out: bob must follow cy, got seat %d", p.s.Current)
	}
	if p.s.Players[0].Turns != 2 {
		t.Fatalf("ana started %d turns, want 2 (none after resigning)", p.s.Players[0].Turns)
	}
	p.resign() // bob leaves too: cy is the only one left and wins with 50
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{2}) {
		t.Fatalf("cy must win though ana has more points: %+v", p.s)
	}
	if p.s.Players[0].Score != 1500 {
		t.Fatal("a resigned player's score stays for the record")
	}
}

func TestResignInFinalRound(t *testing.T) {
	p := newPlay(t, lowTarget("classic", 1000), []string{"ana", "bob", "cy"})
	p.throw(5, 2, 3, 4, 6, 6)
	p.keep(5)
	p.bank() // ana 50
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank() // bob 1000: final round
	p.resign()
	if p.s.Over() || p.s.Current != 0 || !p.s.FinalRound {
		t.Fatalf("ana must still have her last turn: %+v", p.s)
	}
	p.throw(5, 2, 3, 4, 6, 6)
	p.keep(5)
	p.bank()
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("the final round ends at bob: %+v", p.s)
	}
}

func TestResignInFirstRollOff(t *testing.T) {
	s, err := engine.New(rules.MustPreset("classic"), []string{"ana", "bob", "cy"})
	if err != nil {
		t.Fatal(err)
	}
	p := &play{t: t, s: s, src: dice.Faces(3, 2)}
	p.do(engine.RollOffBy(0)) // ana 3
	p.resign()                // bob leaves the roll-off before throwing
	if p.s.Phase != engine.PhaseFirstRollOff || p.s.Actor() != 2 || len(p.s.Contenders) != 2 {
		t.Fatalf("cy must throw next: %+v", p.s)
	}
	p.do(engine.RollOffBy(2)) // cy 2
	if p.s.Phase != engine.PhasePlay || p.s.Current != 0 {
		t.Fatalf("ana threw 3 against 2 and must start: %+v", p.s)
	}
	p.bank2()
	if p.s.Current != 2 {
		t.Fatalf("bob is out: cy must follow ana, got %d", p.s.Current)
	}

	// A tie re-throw left with one contender: that one starts at once.
	s, _ = engine.New(rules.MustPreset("classic"), []string{"ana", "bob", "cy"})
	p = &play{t: t, s: s, src: dice.Faces(6, 6, 1)}
	p.do(engine.RollOffBy(0))
	p.do(engine.RollOffBy(1))
	p.do(engine.RollOffBy(2))
	p.hasEvent(engine.EvRollOffTie)
	ev := p.resign() // ana leaves the re-throw: bob starts
	if p.s.Phase != engine.PhasePlay || p.s.Current != 1 || len(ev) != 3 || ev[1].Kind != engine.EvFirstPlayer {
		t.Fatalf("bob must start at once: %+v events %v", p.s, ev)
	}
}

// bank2 plays a short banked turn for the current player.
func (p *play) bank2() {
	p.t.Helper()
	p.throw(1, 1, 1, 5, 5, 5)
	p.keep(1, 1, 1, 5, 5, 5)
	p.bank()
}

func TestResignInTieRollOff(t *testing.T) {
	p := newPlay(t, lowTarget("classic", 1000), []string{"ana", "bob", "cy"})
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank() // ana 1000: final round, ana started it
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank() // bob 1000
	p.throw(2, 2, 3, 4, 6, 6)
	p.hasEvent(engine.EvFarkle) // cy 0
	if p.s.Phase != engine.PhaseTieRollOff {
		t.Fatalf("phase %v, want tie roll-off", p.s.Phase)
	}
	p.src = dice.Faces()
	ev := p.resign() // ana, who started the final round, resigns in the roll-off
	if !p.s.Over() || !reflect.DeepEqual(p.s.Winners, []int{1}) {
		t.Fatalf("bob is the only contender left and wins: %+v", p.s)
	}
	if last := ev[len(ev)-1]; last.Kind != engine.EvGameOver || last.Score != 1000 {
		t.Fatalf("events %v", ev)
	}
	if p.s.Contenders != nil || p.s.RollFaces != nil {
		t.Fatal("the roll-off must be cleared at the end")
	}
}

func TestResignAloneEndsWithNoWinner(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana"})
	ev := p.resign()
	if !p.s.Over() || len(p.s.Winners) != 0 {
		t.Fatalf("a solo resignation ends the game with no winner: %+v", p.s)
	}
	if got := ev[1].Describe(p.s.Names()); got != "game over: no winner" {
		t.Fatalf("describe %q", got)
	}
}

func TestResignJSON(t *testing.T) {
	b, err := json.Marshal(engine.ResignBy(2))
	if err != nil || string(b) != `{"type":"resign","player":2}` {
		t.Fatalf("%s %v", b, err)
	}
	var a engine.Action
	if err := json.Unmarshal(b, &a); err != nil || a != engine.ResignBy(2) {
		t.Fatalf("%+v %v", a, err)
	}
	p := newPlay(t, seatOrder("classic"), []string{"ana", "bob", "cy"})
	p.resign()
	b, _ = json.Marshal(p.s)
	if !strings.Contains(string(b), `"out":true`) {
		t.Fatalf("state JSON must mark the resigned player: %s", b)
	}
	e, _ := json.Marshal(p.ev[0])
	if !strings.HasPrefix(string(e), `{"type":"resign","player":0`) {
		t.Fatalf("event JSON %s", e)
	}
}

// TestRandomResignations plays random games in which the actor sometimes
// resigns: every game ends, the winners are players still in with the
// highest score of those in (or won a roll-off among them), a resigned
// player never acts again, and the score invariants hold.
func TestRandomResignations(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		for g := range 40 {
			n := min(r.Game.MaxPlayers, max(r.Game.MinPlayers, 1+g%4))
			names := []string{"a", "b", "c", "d"}[:n]
			s, err := engine.New(r, names)
			if err != nil {
				t.Fatal(err)
			}
			src := dice.NewSource(dice.SeedFrom(name + string(rune(g))))
			resigned := 0
			for step := 0; !s.Over(); step++ {
				if step > 200000 {
					t.Fatal("game did not end")
				}
				p := s.Actor()
				a := engine.ResignBy(p)
				if rng.IntN(60) != 0 {
					legal := s.Legal()
					a = legal[rng.IntN(len(legal))]
					for _, l := range legal {
						if l.Kind == engine.Bank && rng.IntN(3) > 0 {
							a = l
						}
					}
				}
				if s.Players[p].Out {
					t.Fatalf("%s: resigned seat %d is to act", name, p)
				}
				s, _, err = engine.Apply(s, a, src)
				if err != nil {
					t.Fatalf("%s: %v by %d refused: %v", name, a, a.Player, err)
				}
				if a.Kind == engine.Resign {
					resigned++
				}
			}
			in := s.In()
			if len(in) != n-resigned {
				t.Fatalf("%s: %d in after %d resignations of %d", name, len(in), resigned, n)
			}
			if len(in) == 0 {
				if len(s.Winners) != 0 {
					t.Fatalf("%s: winners %v with nobody in", name, s.Winners)
				}
				continue
			}
			if len(s.Winners) == 0 {
				t.Fatalf("%s: no winner with %v in", name, in)
			}
			high := -1
			for _, i := range in {
				high = max(high, s.Players[i].Score)
			}
			for _, w := range s.Winners {
				if !slices.Contains(in, w) {
					t.Fatalf("%s: winner %d resigned", name, w)
				}
				if len(in) > 1 && s.Players[w].Score != high {
					t.Fatalf("%s: winner %d has %d, the highest in is %d", name, w, s.Players[w].Score, high)
				}
			}
			for _, pl := range s.Players {
				if pl.Score != pl.Banked-pl.Penalty || pl.Score < 0 {
					t.Fatalf("%s: %s: score %d != banked %d - penalty %d", name, pl.Name, pl.Score, pl.Banked, pl.Penalty)
				}
			}
		}
	}
}
