package tui

import (
	"strings"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/solved"
)

func TestSolverAdvisorSolo(t *testing.T) {
	// One player: expected points from the solo policy (solved in
	// milliseconds; no duel table, no cache file).
	r := seatOrder("classic")
	ts := solved.NewTables("")
	sa := NewSolverAdvisor(ts)
	g, err := NewGame(r, []Seat{{Name: "ana"}}, seedWhere(t, "lone-two", loneTwo), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Do(engine.ThrowBy(0)); err != nil {
		t.Fatal(err)
	}
	s := g.State()
	got, err := sa.Advise(s)
	if err != nil {
		t.Fatal(err)
	}
	if got.Measure != ExpectedPoints {
		t.Fatalf("measure %q", got.Measure)
	}
	keeps := s.Table().Keeps(s.Throw)
	if len(got.Choices) != len(keeps) {
		t.Fatalf("%d choices for %d keeps", len(got.Choices), len(keeps))
	}
	for i, c := range got.Choices {
		if c.Keep == 0 || (c.Then != engine.Throw && c.Then != engine.Bank) {
			t.Errorf("choice %d: %+v", i, c)
		}
		if i > 0 && c.Value > got.Choices[i-1].Value {
			t.Fatalf("not best first: %+v", got.Choices)
		}
	}
	// The best is the advise package's best (the solo optimum).
	ref, err := advise.For(r, 1, ts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.State(s)
	if err != nil {
		t.Fatal(err)
	}
	if b := want.Best(); b.Keep != got.Choices[0].Keep || b.Value != got.Choices[0].Value {
		t.Fatalf("best %v (%v), advise says %v (%v)", got.Choices[0].Keep, got.Choices[0].Value, b.Keep, b.Value)
	}
	// The hint panel shows it.
	m := New(Options{Game: g, Now: fixedNow, Advisor: sa})
	m.Update(keyMsgSize(100, 35))
	press(m, "h")
	if v := drawn(m); !strings.Contains(v, "hint: expected points") || !strings.Contains(v, got.Choices[0].Label()) {
		t.Fatalf("the hint panel:\n%s", v)
	}
}
