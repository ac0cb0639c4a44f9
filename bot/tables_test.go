package bot

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// eventually polls cond until it holds or a deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// gate makes the duel solves of ts report their start on started and wait
// until open is closed.
func gate(ts *solved.Tables) (started chan rules.Rules, open chan struct{}) {
	started, open = make(chan rules.Rules, 16), make(chan struct{})
	ts.OnJob = func(kind string, r rules.Rules) {
		if kind == "duel" {
			started <- r
			<-open
		}
	}
	return started, open
}

// TestPerfectWithoutWaiting: under NoWait a perfect bot plays as expert
// while its table is being solved, says so, and plays perfect once it is
// there; a table over the limits makes it expert for good.
func TestPerfectWithoutWaiting(t *testing.T) {
	ts := solved.NewLimitedTables("", solved.Limits{NoWait: true, Solves: 1, Queue: 4})
	started, open := gate(ts)
	r := distinct(0)
	b, _ := New("perfect", r, WithTables(ts))
	p := b.(*Perfect)
	ex, _ := New("expert", r, WithTables(ts))
	rng := rand.New(rand.NewPCG(7, 8))
	var views []*View
	for len(views) < 100 {
		v := randomKeepView(rng, &r)
		if len(v.Table.Keeps(v.Throw)) > 0 {
			views = append(views, v)
		}
	}
	for _, v := range views { // answered at once, as expert
		if got, want := p.Keep(v), ex.(Decider).Keep(v); got != want {
			t.Fatalf("perfect keeps %d while its table is solved, expert %d", got, want)
		}
	}
	if f := p.Fallback(); f != "its table is being prepared" {
		t.Fatalf("Fallback = %q while solving", f)
	}
	<-started
	close(open)
	eventually(t, "the table solved", func() bool { return p.Table() != nil })
	tab := p.Table()
	for _, v := range views {
		opts, _, err := tab.Options(DuelPosition(v, v.Total, v.Left), v.Throw)
		if err != nil {
			t.Fatal(err)
		}
		if i := p.Keep(v); !opts[i].Best {
			t.Fatalf("with its table perfect keeps %s, not the best", opts[i].Keep.Hand)
		}
	}
	if f := p.Fallback(); f != "" {
		t.Fatalf("Fallback = %q with the table", f)
	}
	// Too large: expert for good, and it says why.
	tiny := solved.NewLimitedTables("", solved.Limits{NoWait: true, Memory: 1 << 10})
	big, _ := New("perfect", short("classic", 300000), WithTables(tiny))
	if err := Prepare(big); !errors.Is(err, solve.ErrTooLarge) {
		t.Fatalf("Prepare: %v, want ErrTooLarge", err)
	}
	if f := big.(*Perfect).Fallback(); !strings.Contains(f, "more than the solver memory of 1.0 KiB") {
		t.Fatalf("Fallback = %q", f)
	}
}

// distinct returns the i-th of a family of rule sets (i < 7) whose duel
// tables are small (pocket-farkel to 1,000: solved in milliseconds) and
// all of the same size, but whose hashes differ.
func distinct(i int) rules.Rules {
	r := short("pocket-farkel", 1000)
	r.Game.MaxPlayers = 2 + i
	return r
}

// TestPerfectWhenTheSolverIsBusy: a perfect bot told the solver is busy
// plays as expert, says why, and does not ask again at once.
func TestPerfectWhenTheSolverIsBusy(t *testing.T) {
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 1})
	started, open := gate(ts)
	defer close(open)
	go ts.Duel(distinct(0)) // running
	<-started
	go ts.Duel(distinct(1)) // waiting: the queue is full
	eventually(t, "a solve queued", func() bool { return ts.Stats().Queued == 1 })
	pb, _ := New("perfect", distinct(4), WithTables(ts))
	if err := Prepare(pb); !errors.Is(err, solved.ErrBusy) || pb.(*Perfect).Fallback() != "the solver is busy" {
		t.Fatalf("Prepare with a full queue: %v, fallback %q", err, pb.(*Perfect).Fallback())
	}
	r4 := distinct(4)
	busy := ts.Stats().Busy
	pb.(Decider).Keep(keepView(&r4, dice.Of(1, 5, 2, 3, 4, 6)))
	if ts.Stats().Busy != busy {
		t.Fatal("the perfect bot asked again at once after ErrBusy")
	}
}

// TestPerfectWhenTheSolverFails: when a solve panics the bots play on,
// perfect as expert and saying why.
func TestPerfectWhenTheSolverFails(t *testing.T) {
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1})
	ts.OnJob = func(kind string, r rules.Rules) { panic("boom in " + kind) }
	b, _ := New("perfect", distinct(0), WithTables(ts))
	if err := Prepare(b); !errors.Is(err, solved.ErrSolveFailed) || b.(*Perfect).Fallback() != "the solver failed on these rules" {
		t.Fatalf("Prepare: %v, fallback %q", err, b.(*Perfect).Fallback())
	}
	r := distinct(0)
	v := keepView(&r, dice.Of(1, 5, 2, 3, 4, 6))
	if i := b.(Decider).Keep(v); i < 0 || i >= len(v.Table.Keeps(v.Throw)) {
		t.Fatalf("keep %d of %d", i, len(v.Table.Keeps(v.Throw)))
	}
}

// TestPerfectKeepsNoDroppedTable: a perfect bot does not keep alive a duel
// table its Tables dropped from memory, and plays the same once the table
// is read back.
func TestPerfectKeepsNoDroppedTable(t *testing.T) {
	size, err := solve.DuelSizes(distinct(0).ForSolver(), 0)
	if err != nil {
		t.Fatal(err)
	}
	one := size.Resident
	ts := solved.NewLimitedTables(t.TempDir(), solved.Limits{DuelCache: one + one/2})
	b, _ := New("perfect", distinct(0), WithTables(ts))
	if err := Prepare(b); err != nil {
		t.Fatal(err)
	}
	weakFirst := weak.Make(b.(*Perfect).Table())
	r0 := distinct(0)
	v := keepView(&r0, dice.Of(1, 5, 5, 2, 3, 4))
	v.Players = 2
	keep := b.(Decider).Keep(v) // with the table
	if _, err := ts.Duel(distinct(1)); err != nil {
		t.Fatal(err)
	}
	if st := ts.Stats(); st.Evictions != 1 {
		t.Fatalf("stats %+v: want the first table dropped", st)
	}
	runtime.GC()
	if weakFirst.Value() != nil {
		t.Fatal("the dropped table is still alive while the perfect bot is")
	}
	if got := b.(Decider).Keep(v); got != keep {
		t.Fatalf("keep %d after the reload, %d before", got, keep)
	}
	if st := ts.Stats(); st.Loads != 1 || st.DuelSolves != 2 {
		t.Fatalf("stats %+v: want the table read back, not solved again", st)
	}
	runtime.KeepAlive(b)
}
