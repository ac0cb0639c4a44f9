package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// seatNotes is a table's seats as GET /api/tables/{id} shows their notes.
type seatNotes struct {
	Actions int `json:"actions"`
	Seats   []struct {
		Bot  string      `json:"bot"`
		Note string      `json:"note"`
		Why  *solved.Why `json:"why"`
	} `json:"seats"`
}

// TestThreeSeatPerfectBotPreparesItsTable: at a three-seat table the
// server solves the three-player table in the background through its
// scheduler. Until it is there the perfect bot plays as expert and its
// seat's note says why (the table is being prepared); once it is there
// the note is gone and every decision of the perfect bot is the exact
// table's. Checked on the game's record, replayed.
func TestThreeSeatPerfectBotPreparesItsTable(t *testing.T) {
	r := threeRules()
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		t.Fatal(err)
	}
	tabs := solved.NewLimitedTables(t.TempDir(), solved.Limits{NoWait: true, Solves: 1, Queue: 8, Memory: 256 << 20, ThreeSolve: triples})
	t.Cleanup(tabs.Close)
	started, open := make(chan struct{}, 1), make(chan struct{})
	tabs.OnJob = func(kind string, _ rules.Rules) {
		if kind == "three" {
			started <- struct{}{}
			<-open
		}
	}
	opened := false
	defer func() {
		if !opened {
			close(open)
		}
	}()
	ts := start(t, "", server.Options{Cast: advise.Cast(tabs)})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	me := newPlayer(t, ts, "Me")
	const perfect = 1
	notes := func(table string) seatNotes {
		t.Helper()
		var v seatNotes
		if err := me.Do(ctx, "GET", "/api/tables/"+table, nil, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Play until the perfect bot has played a turn as expert, and it is
	// our turn again. We keep as little as we can and bank at once, but
	// the game ends at once at its target: a lucky first turn can still
	// end it before the perfect bot plays, and then we take a new table.
	var tb wsclient.Table
	for tries := 1; tb.ID == ""; tries++ {
		if tries > 10 {
			t.Fatal("ten games ended before the perfect bot played")
		}
		next, err := me.CreateTable(ctx, r, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "perfect"}, map[string]string{"type": "bot", "level": "steady"})
		if err != nil {
			t.Fatal(err)
		}
		me.Close()
		me.Last = nil
		if err := me.Connect(ctx, next.ID); err != nil {
			t.Fatal(err)
		}
		if tries == 1 {
			select {
			case <-started: // the table's preparation began the three-player solve
			case <-ctx.Done():
				t.Fatal("no three-player solve started")
			}
		}
		if playUntilSeatPlayed(ctx, t, me, perfect) {
			tb = next
		}
	}
	defer me.Close()
	before := notes(tb.ID)
	s := before.Seats[perfect]
	if s.Note != "plays as expert: its table is being prepared" || s.Why == nil || s.Why.Key != "solved.why.preparing" {
		t.Fatalf("the perfect seat's note while its table is prepared: %q %+v", s.Note, s.Why)
	}
	if n := before.Seats[2].Note; n != "" {
		t.Fatalf("the steady bot has a note: %q", n)
	}
	// The solve goes on; the note goes once the table is there.
	close(open)
	opened = true
	deadline := time.Now().Add(time.Minute)
	for notes(tb.ID).Seats[perfect].Note != "" {
		if time.Now().After(deadline) {
			t.Fatalf("the note stays: %q", notes(tb.ID).Seats[perfect].Note)
		}
		time.Sleep(10 * time.Millisecond)
	}
	after := notes(tb.ID)
	if after.Actions != before.Actions {
		t.Fatalf("%d actions, then %d while it was our turn", before.Actions, after.Actions)
	}
	if err := me.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}

	// The records, replayed: the perfect bot's decisions before are the
	// expert's, after the exact table's (solved here again, apart). More
	// games are played, at new tables, until one of the table's decisions
	// was not the expert's, so that the test tells them apart.
	th, err := solve.SolveThree(r, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exact := solved.NewTables("")
	exact.AddThree(th)
	ref, err := bot.New("perfect", r, bot.WithTables(exact))
	if err != nil {
		t.Fatal(err)
	}
	expert, err := bot.New("expert", r)
	if err != nil {
		t.Fatal(err)
	}
	var asExpert, asPerfect, differ int
	check := func(table string, from int) {
		t.Helper()
		var raw json.RawMessage
		if err := me.Do(ctx, "GET", "/api/tables/"+table+"/record", nil, &raw); err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseRecord(raw)
		if err != nil {
			t.Fatal(err)
		}
		seed, err := dice.ParseSeed(rec.Seed)
		if err != nil {
			t.Fatal(err)
		}
		_, steps, err := game.Replay(rec, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range steps {
			if st.Seat != perfect {
				continue
			}
			s := st.Before.(*game.FarkleGame).State()
			got := st.Action.(engine.Action)
			want := expert.Choose(s)
			if i >= from {
				want = ref.Choose(s)
				asPerfect++
				if e := expert.Choose(s); e.String() != want.String() {
					differ++
				}
			} else {
				asExpert++
			}
			if got.String() != want.String() {
				t.Fatalf("table %s action %d (the table there from action %d): the perfect bot played %s, want %s", table, i, from, got, want)
			}
		}
	}
	check(tb.ID, after.Actions)
	if asExpert == 0 {
		t.Fatal("no decision as expert")
	}
	for games := 1; differ == 0; games++ {
		if games > 40 {
			t.Fatalf("%d decisions with the table in %d games, all the expert's", asPerfect, games)
		}
		me.Close()
		next, err := me.CreateTable(ctx, r, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "perfect"}, map[string]string{"type": "bot", "level": "steady"})
		if err != nil {
			t.Fatal(err)
		}
		if n := notes(next.ID).Seats[perfect].Note; n != "" {
			t.Fatalf("a new table of the same rules has the note %q", n)
		}
		if err := me.Connect(ctx, next.ID); err != nil {
			t.Fatal(err)
		}
		me.Last = nil
		if err := me.PlayToEnd(ctx); err != nil {
			t.Fatal(err)
		}
		check(next.ID, 0)
	}
	if f := ref.(*bot.Perfect).Fallback(); f != "" {
		t.Fatalf("the reference bot fell back: %s", f)
	}
	t.Logf("%d decisions as expert, %d with the table (%d of them not the expert's)", asExpert, asPerfect, differ)
	if st := tabs.Stats(); st.ThreeSolves != 1 || st.Held != 0 {
		t.Fatalf("stats %+v: want one three-player solve, nothing held", st)
	}
}

// TestThreeSeatNoteSaysWhy: at a three-seat table whose three-player table
// the server does not make, the perfect bot's note says why from the
// start: rules with a bank minimum that can end a turn with nothing (no
// hot dice) under a farkle penalty are refused up front, and a table
// larger than the server solves is too large for its budget.
func TestThreeSeatNoteSaysWhy(t *testing.T) {
	r := threeRules()
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		t.Fatal(err)
	}
	tabs := solved.NewLimitedTables(t.TempDir(), solved.Limits{NoWait: true, Solves: 1, Queue: 8, Memory: 256 << 20, ThreeSolve: triples - 1})
	t.Cleanup(tabs.Close)
	tabs.OnJob = func(kind string, r rules.Rules) {
		if kind == "three" {
			t.Errorf("a three-player solve of %s started", r.Name)
		}
	}
	ts := start(t, "", server.Options{Cast: advise.Cast(tabs)})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pen := threeRules()
	pen.Turn.BankMinimum = 300
	pen.Turn.HotDice, pen.Turn.FarklePenalty = false, rules.Penalty{Count: 3, Points: 1000}
	for _, c := range []struct {
		r         rules.Rules
		key, want string
	}{
		{r, "solved.why.triples", "too large for this server's budget"},
		{pen, "solved.why.threeBankMinimum", "needs hot dice where a bank or entry minimum meets a farkle penalty"},
	} {
		me := newPlayer(t, ts, "Me")
		tb, err := me.CreateTable(ctx, c.r, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "perfect"}, map[string]string{"type": "bot", "level": "steady"})
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			var v seatNotes
			if err := me.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &v); err != nil {
				t.Fatal(err)
			}
			s := v.Seats[1]
			if s.Why != nil && s.Why.Key == c.key && strings.HasPrefix(s.Note, "plays as expert: ") && strings.Contains(s.Note, c.want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the perfect seat's note is %q %+v, want %q", c.r.Name, s.Note, s.Why, c.want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if st := tabs.Stats(); st.ThreeSolves != 0 {
		t.Fatalf("stats %+v: no three-player solve wanted", st)
	}
}

// playUntilSeatPlayed plays p's turns cautiously (the smallest keep, a bank
// as soon as it may) until seat has played a turn and it is p's turn again:
// true then, false when the game ended first.
func playUntilSeatPlayed(ctx context.Context, t *testing.T, p *servertest.Player, seat int) bool {
	t.Helper()
	played := false
	for {
		m, err := p.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("%s: %s", m.Code, m.Message)
		}
		if m.State == nil {
			continue
		}
		if m.State.Phase == "over" {
			return false
		}
		if m.State.Actor == seat {
			played = true
		}
		if m.State.Actor != p.Seat {
			continue
		}
		if played {
			return true
		}
		typ, d := cautious(m.State)
		if err := p.Act(ctx, m.State.Version, typ, d); err != nil {
			t.Fatal(err)
		}
	}
}

// cautious is the smallest keep, then a bank whenever one is legal.
func cautious(st *wsclient.State) (string, []int) {
	best := -1
	for i, l := range st.Legal {
		switch {
		case l.Type == "bank":
			return "bank", nil
		case l.Type == "keep" && (best < 0 || l.Points < st.Legal[best].Points):
			best = i
		}
	}
	if best >= 0 {
		return "keep", st.Legal[best].Dice
	}
	return wsclient.Choose(st)
}
