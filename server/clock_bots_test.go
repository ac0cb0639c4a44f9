package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// TestTurnClockActsThenForfeits: at a table of two people, a seat that
// never acts is played by the server, then resigned at the
// ClockForfeits-th timeout in a row, and the other wins. The loss is on
// time, said apart from a resignation: the log line sent as it happens,
// the record (which still verifies), the table's seat and the replay.
func TestTurnClockActsThenForfeits(t *testing.T) {
	ts := start(t, "", server.Options{TurnClock: 200 * time.Millisecond, ClockForfeits: 2})
	ctx := ctxT(t, time.Minute)
	p, tb := clockTable(t, ts, ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	go func() { // Slow reads its messages, so it is not dropped as too slow
		for {
			if _, err := p.Next(ctx); err != nil {
				return
			}
		}
	}()
	q := newPlayer(t, ts, "Quick")
	if _, err := q.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := q.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	sawDeadline := false
	var lines []logLine
	for q.Last == nil || q.Last.Phase != "over" {
		m, err := q.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("error: %s", m.Raw)
		}
		var v struct {
			Table tableInfo `json:"table"`
			Log   []logLine `json:"log"`
		}
		_ = json.Unmarshal(m.Raw, &v)
		lines = append(lines, v.Log...)
		if c := v.Table.Clock; c != nil && c.Seat != nil && *c.Seat != q.Seat && c.Deadline != nil {
			sawDeadline = true
		}
		if st := q.Last; m.State != nil && st.Phase != "over" && st.Actor == q.Seat {
			typ, d := choose(st)
			if err := q.Act(ctx, st.Version, typ, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !sawDeadline {
		t.Error("no update showed the slow seat's deadline")
	}
	slow := 1 - q.Seat
	rec := downloadRecord(t, q.Client, tb.ID)
	st, err := record.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	var mine []engine.Kind
	for _, e := range rec.Actions {
		if e.Action.Player == slow {
			mine = append(mine, e.Action.Kind)
		}
	}
	if len(mine) < 2 || mine[len(mine)-1] != engine.Resign {
		t.Fatalf("the slow seat's actions %v: want the server's actions, then a resignation", mine)
	}
	if len(st.Winners) != 1 || st.Winners[0] != q.Seat {
		t.Fatalf("winners %v: Quick (seat %d) should win once the slow seat resigned", st.Winners, q.Seat)
	}
	if !rec.Meta.LostOnTime(slow) || rec.Meta.LostOnTime(q.Seat) {
		t.Errorf("the record's meta %v: want seat %d (only) lost on time", rec.Meta.Extra, slow)
	}
	wantOnTime := func(where string, lines []logLine) {
		t.Helper()
		var got []logLine
		for _, l := range lines {
			if l.Type == "lost-on-time" || l.Type == "resign" {
				got = append(got, l)
			}
		}
		if len(got) != 1 || got[0].Type != "lost-on-time" || got[0].Player != slow || !strings.Contains(got[0].Text, "loses on time") {
			t.Errorf("%s: the lines of the resignation %+v, want one line saying seat %d loses on time", where, got, slow)
		}
	}
	wantOnTime("the updates", lines)
	var tv struct {
		Seats []struct {
			LostOnTime bool `json:"lost_on_time"`
		} `json:"seats"`
	}
	if err := q.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &tv); err != nil {
		t.Fatal(err)
	}
	if len(tv.Seats) != 2 || !tv.Seats[slow].LostOnTime || tv.Seats[q.Seat].LostOnTime {
		t.Errorf("the table's seats %+v: want seat %d (only) lost on time", tv.Seats, slow)
	}
	var rp struct {
		Steps []struct {
			Log []logLine `json:"log"`
		} `json:"steps"`
	}
	if err := q.Do(ctx, "GET", "/api/tables/"+tb.ID+"/replay", nil, &rp); err != nil {
		t.Fatal(err)
	}
	var replayed []logLine
	for _, st := range rp.Steps {
		replayed = append(replayed, st.Log...)
	}
	wantOnTime("the replay", replayed)
}

// logLine is a line of a table's log as sent.
type logLine struct {
	Type   string `json:"type"`
	Player int    `json:"player"`
	Text   string `json:"text"`
}

// TestTurnClockNeverResignsAgainstBots: against a bot, a player who never
// acts is played by the server to the end of the game, and never resigned,
// however many timeouts in a row.
func TestTurnClockNeverResignsAgainstBots(t *testing.T) {
	ts := start(t, "", server.Options{TurnClock: 100 * time.Millisecond, ClockForfeits: 1, BotDelay: time.Millisecond})
	ctx := ctxT(t, time.Minute)
	p, tb := clockTable(t, ts, ctx, shortRules, meBot...)
	for p.Last == nil || p.Last.Phase != "over" {
		m, err := p.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("error: %s", m.Raw)
		}
	}
	rec := downloadRecord(t, p.Client, tb.ID)
	if _, err := record.Verify(rec); err != nil {
		t.Fatal(err)
	}
	mine := 0
	for _, e := range rec.Actions {
		if e.Action.Player == p.Seat {
			mine++
			if e.Action.Kind == engine.Resign {
				t.Fatalf("the player was resigned by the clock against a bot: %v", rec.Actions)
			}
		}
	}
	if mine < 2 {
		t.Fatalf("the server acted %d times for the player: the test proves nothing", mine)
	}
}

// TestTurnClockWaitsForThePlayerAgainstBots: against a bot the clock runs
// while the player is connected, stops when their last connection goes
// (nothing is played for them however long they are away) and starts
// again when they come back.
func TestTurnClockWaitsForThePlayerAgainstBots(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Millisecond, ClockForfeits: 1})
	ctx := ctxT(t, time.Minute)
	p := newPlayer(t, ts, "Away")
	var tb wsclient.Table
	if err := p.Do(ctx, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": meBot, "clock": 1}, &tb); err != nil {
		t.Fatal(err)
	}
	// Nobody connected: the seat's clock does not run.
	for deadline := time.Now().Add(10 * time.Second); ; {
		info := getInfo(t, ctx, p.Client, tb.ID)
		if info.Clock == nil {
			t.Fatal("the table has no clock")
		}
		if info.Clock.Seat == nil || info.Clock.Deadline == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the clock runs with the player away: %+v", info.Clock)
		}
		time.Sleep(10 * time.Millisecond) // polling the server, with a deadline
	}
	var before wsclient.Table
	if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &before); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // three times the clock: proving that nothing happens takes the time it would have taken
	var after wsclient.Table
	if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &after); err != nil {
		t.Fatal(err)
	}
	if after.Actions != before.Actions || after.Status != "playing" {
		t.Fatalf("with the player away: %d actions then %d, status %q: the clock played for them", before.Actions, after.Actions, after.Status)
	}
	// Back: the welcome shows the clock running, and it runs out.
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	welcome := waitFor(t, ctx, p.Client, "welcome", func(m wsclient.Msg) bool { return m.Type == "welcome" })
	seat := welcome.You.Seat
	var wv struct {
		Table tableInfo `json:"table"`
	}
	if err := json.Unmarshal(welcome.Raw, &wv); err != nil || wv.Table.Clock == nil || wv.Table.Clock.Deadline == nil || wv.Table.Clock.Seat == nil || *wv.Table.Clock.Seat != seat {
		t.Fatalf("the welcome on return shows no running clock for seat %d: %s", seat, welcome.Raw)
	}
	waitFor(t, ctx, p.Client, "the server acting for the seat", func(m wsclient.Msg) bool {
		var u struct {
			Action *engine.Action `json:"action"`
		}
		_ = json.Unmarshal(m.Raw, &u)
		return m.Type == "update" && u.Action != nil && u.Action.Player == seat
	})
	// Gone again: the clock stops.
	p.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		info := getInfo(t, ctx, p.Client, tb.ID)
		if info.Status != "playing" {
			t.Fatalf("the table is %q after the player left", info.Status)
		}
		if info.Clock.Deadline == nil || (info.Clock.Seat != nil && *info.Clock.Seat != seat) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the clock still runs after the player left: %+v", info.Clock)
		}
		time.Sleep(10 * time.Millisecond) // polling the server, with a deadline
	}
}
