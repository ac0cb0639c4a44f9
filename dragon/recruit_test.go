package dragon

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRecruitBlank(t *testing.T) {
	g := testGame(t, nil)
	s := fresh(2)
	src := script(throwFaces("115234", blank))
	s, evs := mustApply(t, g, s, Recruit(), src)
	if s.Phase != PhaseKeep || s.Mode != Recruiting || s.Throw != h("112345") || s.Event != Blank {
		t.Fatalf("after Recruit: phase %s mode %s throw %s event %s", s.Phase, s.Mode, s.Throw, s.Event)
	}
	if e, ok := hasEvent(evs, EvThrow); !ok || e.Dice != h("112345") {
		t.Fatalf("no throw event: %+v", evs)
	}
	legal := g.Legal(s)
	for _, k := range []string{"1", "5", "11", "15", "115"} {
		if !slices.Contains(legal, Keep(h(k))) {
			t.Errorf("keep %s not legal", k)
		}
	}
	if len(legal) != 5 {
		t.Errorf("legal = %v, want the 5 keeps", legal)
	}
	err := mustReject(t, g, s, Keep(h("2")), src)
	if !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), "2") {
		t.Errorf("keep 2: %v", err)
	}
	if err := mustReject(t, g, s, KeepRally(h("1"), Double), src); !strings.Contains(err.Error(), "Rally") {
		t.Errorf("reward on a blank: %v", err)
	}
	mustReject(t, g, s, Stop(), src)
	mustReject(t, g, s, Recruit(), src)
	s, _ = mustApply(t, g, s, Keep(h("11")), src)
	if s.Pool != 200 || s.Dice != 4 || s.Phase != PhaseRoll || s.Stockpile != -200 {
		t.Fatalf("after keep 1-1: pool %d dice %d phase %s stockpile %d", s.Pool, s.Dice, s.Phase, s.Stockpile)
	}
	s, evs = mustApply(t, g, s, Stop(), src)
	if s.Players[0].Soldiers != 200 || s.Turn != 1 || s.Phase != PhaseChoose || s.Pool != 0 {
		t.Fatalf("after stop: soldiers %d turn %d phase %s", s.Players[0].Soldiers, s.Turn, s.Phase)
	}
	if e, ok := hasEvent(evs, EvBank); !ok || e.N != 200 {
		t.Fatalf("bank event: %+v", evs)
	}
}

func TestRecruitFarkleLosesPool(t *testing.T) {
	g := testGame(t, nil)
	s := fresh(2)
	src := script(throwFaces("115234", blank), throwFaces("2346", blank))
	s, _ = mustApply(t, g, s, Recruit(), src)
	s, _ = mustApply(t, g, s, Keep(h("11")), src)
	s, evs := mustApply(t, g, s, Roll(), src)
	if e, ok := hasEvent(evs, EvFarkle); !ok || e.N != 200 {
		t.Fatalf("farkle event: %+v", evs)
	}
	if s.Players[0].Soldiers != 0 || s.Pool != 0 || s.Stockpile != 0 || s.Turn != 1 {
		t.Fatalf("after farkle: soldiers %d pool %d stockpile %d turn %d", s.Players[0].Soldiers, s.Pool, s.Stockpile, s.Turn)
	}
}

func TestRecruitRally(t *testing.T) {
	g := testGame(t, DefaultCards())
	start := fresh(2)
	start.ItemDeck = []string{"horn", "map"} // the top is the last
	start.Stockpile = 0

	t.Run("double", func(t *testing.T) {
		src := script(throwFaces("146236", rally))
		s, _ := mustApply(t, g, start, Recruit(), src)
		if err := mustReject(t, g, s, Keep(h("1")), src); !strings.Contains(err.Error(), "reward") {
			t.Fatalf("keep without a reward on a Rally: %v", err)
		}
		legal := g.Legal(s)
		if !slices.Equal(legal, []Action{KeepRally(h("1"), Double), KeepRally(h("1"), DrawItem)}) {
			t.Fatalf("legal = %v", legal)
		}
		s, _ = mustApply(t, g, s, KeepRally(h("1"), Double), src)
		if s.Pool != 200 || len(s.Drawn) != 0 {
			t.Fatalf("pool %d drawn %v, want 200 and none", s.Pool, s.Drawn)
		}
	})
	t.Run("item", func(t *testing.T) {
		src := script(throwFaces("146236", rally))
		s, _ := mustApply(t, g, start, Recruit(), src)
		s, evs := mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
		if s.Pool != 100 || !slices.Equal(s.Drawn, []string{"map"}) || !slices.Equal(s.ItemDeck, []string{"horn"}) {
			t.Fatalf("pool %d drawn %v deck %v", s.Pool, s.Drawn, s.ItemDeck)
		}
		if e, ok := hasEvent(evs, EvItemDrawn); !ok || e.Card != "map" {
			t.Fatalf("events %+v", evs)
		}
		// Banked: the item joins the player's items.
		banked, _ := mustApply(t, g, s, Stop(), src)
		if !slices.Equal(banked.Players[0].Items, []string{"map"}) || banked.Players[0].Soldiers != 100 {
			t.Fatalf("after stop: items %v soldiers %d", banked.Players[0].Items, banked.Players[0].Soldiers)
		}
		// Farkled: the item is lost with the pool.
		src = script(throwFaces("22346", blank))
		lost, _ := mustApply(t, g, s, Roll(), src)
		if len(lost.Players[0].Items) != 0 || !slices.Equal(lost.ItemDiscard, []string{"map"}) || lost.Players[0].Soldiers != 0 {
			t.Fatalf("after farkle: items %v discard %v", lost.Players[0].Items, lost.ItemDiscard)
		}
	})
	t.Run("without scoring dice", func(t *testing.T) {
		src := script(throwFaces("223466", rally))
		s, evs := mustApply(t, g, start, Recruit(), src)
		if _, ok := hasEvent(evs, EvFarkle); !ok || s.Turn != 1 {
			t.Fatalf("a Rally without scoring dice must farkle: %+v", evs)
		}
	})
	t.Run("empty decks draw nothing", func(t *testing.T) {
		src := script(throwFaces("146236", rally))
		empty := start.Clone()
		empty.ItemDeck = []string{}
		s, _ := mustApply(t, g, empty, Recruit(), src)
		s, _ = mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
		if len(s.Drawn) != 0 || s.Pool != 100 {
			t.Fatalf("drawn %v pool %d", s.Drawn, s.Pool)
		}
	})
	t.Run("reshuffle", func(t *testing.T) {
		src := script(throwFaces("146236", rally))
		re := start.Clone()
		re.ItemDeck, re.ItemDiscard = []string{}, []string{"socks"}
		s, _ := mustApply(t, g, re, Recruit(), src)
		src.Then(1) // the shuffle of one card draws nothing; keep one value spare
		s, evs := mustApply(t, g, s, KeepRally(h("1"), DrawItem), src)
		if !slices.Equal(s.Drawn, []string{"socks"}) || len(s.ItemDiscard) != 0 {
			t.Fatalf("drawn %v discard %v", s.Drawn, s.ItemDiscard)
		}
		if _, ok := hasEvent(evs, EvReshuffle); !ok {
			t.Fatalf("no reshuffle event: %+v", evs)
		}
	})
}

func TestRecruitDragon(t *testing.T) {
	g := testGame(t, nil)
	t.Run("with scoring dice", func(t *testing.T) {
		src := script(throwFaces("115234", dragon))
		s, _ := mustApply(t, g, fresh(2), Recruit(), src)
		if legal := g.Legal(s); !slices.Equal(legal, []Action{Keep(h("115"))}) {
			t.Fatalf("legal = %v, want only keep 1-1-5", legal)
		}
		if err := mustReject(t, g, s, Keep(h("1")), src); !strings.Contains(err.Error(), "every scoring die") {
			t.Fatalf("partial keep under the Dragon: %v", err)
		}
		s, evs := mustApply(t, g, s, Keep(h("115")), src)
		if s.Pool != 0 || s.Eaten != 250 || s.Dice != 3 || s.Phase != PhaseRoll {
			t.Fatalf("pool %d eaten %d dice %d phase %s", s.Pool, s.Eaten, s.Dice, s.Phase)
		}
		if e, ok := hasEvent(evs, EvEaten); !ok || e.N != 250 {
			t.Fatalf("events %+v", evs)
		}
	})
	t.Run("all six scoring: hot dice", func(t *testing.T) {
		src := script(throwFaces("111555", dragon))
		s, _ := mustApply(t, g, fresh(2), Recruit(), src)
		s, evs := mustApply(t, g, s, Keep(h("111555")), src)
		if _, ok := hasEvent(evs, EvHotDice); !ok || s.Dice != 6 || s.Eaten != 1500 || s.Pool != 0 {
			t.Fatalf("dice %d eaten %d events %+v", s.Dice, s.Eaten, evs)
		}
	})
	t.Run("without scoring dice: evaded", func(t *testing.T) {
		src := script(throwFaces("123466", blank), throwFaces("23466", dragon))
		s, _ := mustApply(t, g, fresh(2), Recruit(), src)
		s, _ = mustApply(t, g, s, Keep(h("1")), src)
		s, evs := mustApply(t, g, s, Roll(), src)
		if s.Phase != PhaseEvaded || s.Pool != 100 {
			t.Fatalf("phase %s pool %d", s.Phase, s.Pool)
		}
		if _, ok := hasEvent(evs, EvEvaded); !ok {
			t.Fatalf("events %+v", evs)
		}
		if legal := g.Legal(s); !slices.Equal(legal, []Action{Roll(), Stop()}) {
			t.Fatalf("legal = %v", legal)
		}
		stopped, _ := mustApply(t, g, s, Stop(), src)
		if stopped.Players[0].Soldiers != 100 || stopped.Turn != 1 {
			t.Fatalf("stop after evading: soldiers %d", stopped.Players[0].Soldiers)
		}
		src.Then(throwFaces("15234", blank)...)
		again, _ := mustApply(t, g, s, Roll(), src)
		if again.Throw != h("12345") || again.Phase != PhaseKeep || again.Pool != 100 {
			t.Fatalf("go on after evading: throw %s phase %s pool %d", again.Throw, again.Phase, again.Pool)
		}
	})
}

func TestRecruitHotDice(t *testing.T) {
	g := testGame(t, nil)
	src := script(throwFaces("123456", blank), throwFaces("111222", blank))
	s, _ := mustApply(t, g, fresh(2), Recruit(), src)
	s, evs := mustApply(t, g, s, Keep(h("123456")), src)
	if _, ok := hasEvent(evs, EvHotDice); !ok || s.Dice != 6 || s.Pool != 3000 || s.Kept != 0 {
		t.Fatalf("dice %d pool %d kept %s", s.Dice, s.Pool, s.Kept)
	}
	s, _ = mustApply(t, g, s, Roll(), src)
	if s.Throw != h("111222") {
		t.Fatalf("throw after hot dice %s", s.Throw)
	}
	s, _ = mustApply(t, g, s, Keep(h("111222")), src)
	if s.Pool != 4200 {
		t.Fatalf("pool %d, want 3000 + 1000 + 200", s.Pool)
	}
}
