package engine_test

import (
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

func TestEntryMinimumRefusesEarlyBank(t *testing.T) {
	p := newPlay(t, seatOrder("farkle-dice"), []string{"ana", "bob"})
	p.throw(1, 2, 3, 4, 6, 6)
	p.keep(1)
	p.refuse(engine.BankBy(0), engine.ErrIllegal, "100 is below the 500 needed to get on the board")
	p.throw(5, 5, 5, 2, 3)
	p.keep(5, 5, 5)
	p.bank() // 600 >= 500
	if got := p.s.Players[0].Score; got != 600 {
		t.Fatalf("score %d, want 600", got)
	}
	// On the board now: a small bank is fine for ana later, while bob still needs 500.
	p.throw(1, 2, 3, 4, 6, 6)
	p.keep(1)
	p.refuse(engine.BankBy(1), engine.ErrIllegal, "get on the board")
	p.throw(1, 2, 3, 4, 6)
	p.keep(1)
	p.throw(2, 3, 4, 6)
	if len(p.ev) < 2 || p.ev[1].Kind != engine.EvFarkle {
		t.Fatalf("expected a farkle, got %v", p.ev)
	}
	p.throw(5, 2, 3, 4, 6, 6)
	p.keep(5)
	p.bank()
	if got := p.s.Players[0].Score; got != 650 {
		t.Fatalf("score %d, want 650", got)
	}
}

func TestBankMinimum(t *testing.T) {
	r := seatOrder("classic")
	r.Turn.BankMinimum = 300
	p := newPlay(t, r, []string{"ana"})
	p.throw(1, 5, 2, 3, 4, 6)
	p.keep(1, 5)
	p.refuse(engine.BankBy(0), engine.ErrIllegal, "150 is below the bank minimum of 300")
}

func farkle(p *play) {
	p.t.Helper()
	p.throw(2, 2, 3, 4, 6, 6)
	p.hasEvent(engine.EvFarkle)
}

func TestPenaltyAfterThirdFarkle(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana"})
	p.throw(6, 6, 6, 2, 3, 4)
	p.keep(6, 6, 6)
	p.bank()
	farkle(p)
	farkle(p)
	if s := p.s.Players[0]; s.Score != 600 || s.Streak != 2 {
		t.Fatalf("after two farkles: score %d streak %d", s.Score, s.Streak)
	}
	farkle(p)
	pen := p.hasEvent(engine.EvPenalty)
	if pen.Points != 600 || pen.Score != 0 {
		t.Fatalf("penalty %+v, want 600 taken (all points, less than 1000) to 0", pen)
	}
	if s := p.s.Players[0]; s.Score != 0 || s.Streak != 0 || s.Penalty != 600 {
		t.Fatalf("after penalty: %+v", s)
	}
	farkle(p)
	if s := p.s.Players[0]; s.Streak != 1 || s.Score != 0 {
		t.Fatalf("the count must restart after the penalty: %+v", s)
	}
	// A penalty on a big score takes exactly 1000; a bank breaks the streak.
	q := newPlay(t, seatOrder("classic"), []string{"ana"})
	q.throw(1, 1, 1, 6, 6, 6)
	q.keep(1, 1, 1, 6, 6, 6)
	q.hasEvent(engine.EvHotDice)
	q.bank()
	farkle(q)
	farkle(q)
	q.throw(5, 2, 3, 4, 6, 6)
	q.keep(5)
	q.bank()
	farkle(q)
	farkle(q)
	if s := q.s.Players[0]; s.Score != 1650 || s.Streak != 2 {
		t.Fatalf("a bank must reset the streak: %+v", s)
	}
	farkle(q)
	if s := q.s.Players[0]; s.Score != 650 || s.Penalty != 1000 {
		t.Fatalf("penalty on 1650: %+v", s)
	}
}

func lowTarget(name string, target int) rules.Rules {
	r := seatOrder(name)
	r.Game.Target = target
	return r
}

func TestFinalRoundGivesEveryOtherPlayerOneTurn(t *testing.T) {
	p := newPlay(t, lowTarget("classic", 1000), []string{"ana", "bob", "cy"})
	p.throw(2, 2, 3, 4, 6, 5)
	p.keep(5)
	p.bank() // ana 50
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank() // bob 1000: final round
	if !p.s.FinalRound || p.s.Trigger != 1 {
		t.Fatalf("final round not started: %+v", p.s)
	}
	p.hasEvent(engine.EvFinalRound)
	if p.s.Current != 2 {
		t.Fatalf("cy should play next, got seat %d", p.s.Current)
	}
	p.throw(1, 2, 3, 4, 6, 6)
	p.keep(1)
	p.bank() // cy 100
	if p.s.Over() || p.s.Current != 0 {
		t.Fatalf("ana must have her one more turn: %+v", p.s)
	}
	// ana passes bob during her last turn: she may keep throwing to do it.
	p.throw(1, 1, 1, 5, 5, 5)
	p.keep(1, 1, 1, 5, 5, 5)
	p.throw(1, 1, 2, 3, 4, 6)
	p.keep(1, 1)
	p.bank() // ana 50 + 1500 + 200 = 1750
	if !p.s.Over() {
		t.Fatalf("the game must end after everyone's one more turn: %+v", p.s)
	}
	if len(p.s.Winners) != 1 || p.s.Winners[0] != 0 {
		t.Fatalf("winners %v, want ana", p.s.Winners)
	}
	turns := []int{2, 1, 1}
	for i, pl := range p.s.Players {
		if pl.Turns != turns[i] {
			t.Errorf("%s had %d turns, want %d", pl.Name, pl.Turns, turns[i])
		}
	}
	p.refuse(engine.ThrowBy(0), engine.ErrGameOver, "")
}

func TestImmediateEndingStopsAtOnce(t *testing.T) {
	p := newPlay(t, lowTarget("cardgames", 1000), []string{"ana", "bob"})
	p.throw(1, 1, 1, 5, 2, 3)
	p.keep(1, 1, 1)
	// Past the target, ana is not stopped: she chooses to throw on.
	p.throw(5, 2, 3)
	p.keep(5)
	p.bank()
	if !p.s.Over() || len(p.s.Winners) != 1 || p.s.Winners[0] != 0 {
		t.Fatalf("immediate ending: %+v", p.s)
	}
	if p.s.Players[1].Turns != 0 {
		t.Fatal("bob must not get a turn")
	}
	over := p.hasEvent(engine.EvGameOver)
	if over.Score != 1050 {
		t.Fatalf("game over %+v", over)
	}
}

func TestTiesRollOff(t *testing.T) {
	p := newPlay(t, lowTarget("classic", 1000), []string{"ana", "bob"})
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank()
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank()
	if p.s.Phase != engine.PhaseTieRollOff {
		t.Fatalf("phase %v, want tie roll-off", p.s.Phase)
	}
	p.hasEvent(engine.EvTie)
	p.refuse(engine.ThrowBy(0), engine.ErrIllegal, "roll-off")
	p.refuse(engine.RollOffBy(1), engine.ErrNotYourTurn, "ana's turn")
	p.src = dice.Faces(4, 4, 2, 5)
	p.do(engine.RollOffBy(0))
	p.do(engine.RollOffBy(1))
	p.hasEvent(engine.EvRollOffTie)
	p.do(engine.RollOffBy(0))
	p.do(engine.RollOffBy(1))
	if !p.s.Over() || p.s.Winners[0] != 1 || len(p.s.Winners) != 1 {
		t.Fatalf("bob threw 5 against 2 and must win: %+v", p.s)
	}
}

func TestTieShare(t *testing.T) {
	r := lowTarget("classic", 1000)
	r.Game.Tie = rules.Share
	p := newPlay(t, r, []string{"ana", "bob"})
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank()
	p.throw(1, 1, 1, 2, 3, 4)
	p.keep(1, 1, 1)
	p.bank()
	if !p.s.Over() || len(p.s.Winners) != 2 {
		t.Fatalf("shared win: %+v", p.s)
	}
}

func TestHotDiceRethrowsSix(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana"})
	p.throw(1, 5, 2, 2, 3, 4)
	p.keep(1, 5)
	p.throw(2, 2, 2, 5)
	p.keep(2, 2, 2, 5)
	p.hasEvent(engine.EvHotDice)
	if p.s.Left != 0 || p.s.ToThrow() != 6 {
		t.Fatalf("left %d, to throw %d", p.s.Left, p.s.ToThrow())
	}
	p.throw(1, 1, 2, 3, 4, 6) // six dice again, total carries on
	p.keep(1, 1)
	if p.s.Total != 150+250+200 {
		t.Fatalf("turn total %d, want 600", p.s.Total)
	}
	// Without hot dice, a player with no dice left must bank.
	r := seatOrder("classic")
	r.Turn.HotDice = false
	q := newPlay(t, r, []string{"ana"})
	q.throw(1, 1, 1, 5, 5, 5)
	q.keep(1, 1, 1, 5, 5, 5)
	q.refuse(engine.ThrowBy(0), engine.ErrIllegal, "hot dice are off")
	q.bank()
}

func TestHotDiceOffWithoutBankEndsTurn(t *testing.T) {
	r := seatOrder("farkle-dice")
	r.Turn.HotDice = false
	p := newPlay(t, r, []string{"ana", "bob"})
	p.throw(1, 5, 2, 3, 4, 6)
	p.keep(1, 5, 2, 3, 4, 6) // straight 1000: enough to enter
	p.bank()
	p.throw(5, 2, 2, 3, 4, 6)
	p.keep(5)
	p.throw(5, 2, 2, 3, 6)
	p.keep(5)
	p.throw(1, 2, 2, 6)
	p.keep(1)
	p.throw(5, 2, 3)
	p.keep(5)
	p.throw(1, 5)
	p.keep(1, 5) // all kept, 300 < 500 entry, no hot dice: the turn is lost
	p.hasEvent(engine.EvTurnLost)
	if p.s.Current != 0 || p.s.Players[1].Score != 0 || p.s.Players[1].Streak != 0 {
		t.Fatalf("after a lost turn: %+v", p.s)
	}
}

func TestKeepsOnlyFromTheCurrentThrow(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana"})
	p.throw(1, 1, 2, 3, 4, 6)
	p.keep(1, 1)
	p.throw(1, 2, 3, 4)
	// 1-1 kept before and a 1 now are three single 1s, never three 1s.
	p.refuse(engine.KeepBy(0, dice.Of(1, 1, 1)), dice.ErrIllegalKeep, "the throw 1 2 3 4 has only one 1")
	p.refuse(engine.KeepBy(0, dice.Of(5)), engine.ErrIllegal, "has no 5")
	p.keep(1)
	if p.s.Total != 300 {
		t.Fatalf("total %d, want 300", p.s.Total)
	}
	p.refuse(engine.KeepBy(0, dice.Of(2)), engine.ErrIllegal, "no throw on the table")
}

func TestIllegalKeepIsExplained(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana"})
	p.throw(2, 2, 5, 3, 4, 6)
	p.refuse(engine.KeepBy(0, dice.Of(2, 2, 5)), dice.ErrIllegalKeep, "2 2 scores only as part of three of a kind")
	p.refuse(engine.KeepBy(0, 0), engine.ErrIllegal, "keep at least one scoring die")
	p.refuse(engine.BankBy(0), engine.ErrIllegal, "keep some dice first")
	p.refuse(engine.ThrowBy(0), engine.ErrIllegal, "keep at least one scoring die from")
	p.refuse(engine.Action{Kind: 9, Player: 0}, engine.ErrUnknownAction, "")
}

func TestSixDiceNothing(t *testing.T) {
	r := seatOrder("classic")
	r.Scoring.SixDiceNothing = 500
	p := newPlay(t, r, []string{"ana"})
	p.throw(2, 2, 3, 4, 6, 6)
	ev := p.hasEvent(engine.EvSixDiceNothing)
	if ev.Points != 500 || p.s.Total != 500 || p.s.Players[0].Streak != 0 {
		t.Fatalf("six dice nothing: %+v, total %d", ev, p.s.Total)
	}
	p.refuse(engine.BankBy(0), engine.ErrIllegal, "")
	p.throw(1, 2, 3, 4, 6, 6)
	p.keep(1)
	p.throw(2, 3, 4, 6, 6) // five dice scoring nothing: a plain farkle
	p.hasEvent(engine.EvFarkle)
	if p.s.Players[0].Score != 0 {
		t.Fatal("the bonus is lost with the turn")
	}
}

func TestFirstPlayerRollOff(t *testing.T) {
	s, err := engine.New(rules.MustPreset("classic"), []string{"ana", "bob", "cy"})
	if err != nil {
		t.Fatal(err)
	}
	p := &play{t: t, s: s, src: dice.Faces(3, 5, 5, 6, 2)}
	p.refuse(engine.ThrowBy(0), engine.ErrIllegal, "roll-off")
	p.refuse(engine.RollOffBy(1), engine.ErrNotYourTurn, "")
	p.do(engine.RollOffBy(0))
	p.do(engine.RollOffBy(1))
	p.do(engine.RollOffBy(2))
	tie := p.hasEvent(engine.EvRollOffTie)
	if len(tie.Players) != 2 || tie.Players[0] != 1 || tie.Players[1] != 2 {
		t.Fatalf("tie %+v, want bob and cy", tie)
	}
	p.refuse(engine.RollOffBy(0), engine.ErrNotYourTurn, "")
	p.do(engine.RollOffBy(1))
	p.do(engine.RollOffBy(2))
	if p.s.Phase != engine.PhasePlay || p.s.Current != 1 {
		t.Fatalf("bob threw 6 and must start: %+v", p.s)
	}
	p.hasEvent(engine.EvFirstPlayer)
}

func TestNewRefusesWrongPlayerCount(t *testing.T) {
	if _, err := engine.New(rules.MustPreset("cardgames"), []string{"a", "b", "c"}); err == nil {
		t.Fatal("cardgames is for exactly two players")
	}
	if _, err := engine.New(rules.MustPreset("classic"), nil); err == nil {
		t.Fatal("no players")
	}
	if _, err := engine.New(rules.MustPreset("classic"), make([]string, 9)); err == nil {
		t.Fatal("nine players")
	}
}

func TestEntryAppliesAgainAtZero(t *testing.T) {
	// docs/RULES.md 1.2: "while the player's score is 0": a player knocked back to 0 by
	// the penalty must get on the board again.
	p := newPlay(t, seatOrder("farkle-dice"), []string{"ana"})
	p.throw(5, 5, 5, 1, 2, 3)
	p.keep(5, 5, 5, 1)
	p.bank()
	farkle(p)
	farkle(p)
	farkle(p)
	if p.s.Players[0].Score != 0 {
		t.Fatalf("score %d", p.s.Players[0].Score)
	}
	p.throw(5, 2, 3, 4, 6, 6)
	p.keep(5)
	p.refuse(engine.BankBy(0), engine.ErrIllegal, "get on the board")
}
