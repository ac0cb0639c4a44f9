package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// dragonMsg is a server message of a dragon table as a test reads it.
type dragonMsg struct {
	Type string `json:"type"`
	Kind string `json:"kind"`
	You  struct {
		Seat int `json:"seat"`
	} `json:"you"`
	Table  wsclient.Table `json:"table"`
	Dragon *struct {
		dragon.View
		Version int `json:"version"`
	} `json:"dragon"`
	Events  []dragon.Event `json:"events"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Version int            `json:"version"`
	Raw     []byte         `json:"-"`
}

var testBrains = sync.OnceValue(func() *dragon.Brains {
	return dragon.NewBrains(dragon.MustGame(dragon.DefaultRules(), nil))
})

// dragonPlayer is a test client at a dragon table; it plays its seat with
// a Smart bot that sees only what the server sent.
type dragonPlayer struct {
	*wsclient.Client
	Token string
	Seat  int
	Last  *dragonMsg // the latest message with a view
	Seen  []int      // versions seen, in order
	All   []*dragonMsg
	bot   *dragon.Bot
}

func newDragonPlayer(t testing.TB, ts *testServer, name string) *dragonPlayer {
	t.Helper()
	p := newPlayer(t, ts, name)
	return &dragonPlayer{Client: p.Client, Token: p.Token, Seat: -1, bot: dragon.NewBot(dragon.Smart, testBrains())}
}

func (p *dragonPlayer) next(ctx context.Context) (*dragonMsg, error) {
	m, err := p.Next(ctx)
	if err != nil {
		return nil, err
	}
	var d dragonMsg
	if err := json.Unmarshal(m.Raw, &d); err != nil {
		return nil, fmt.Errorf("bad dragon message %s: %w", m.Raw, err)
	}
	d.Raw = m.Raw
	if d.Type == "welcome" {
		p.Seat = d.You.Seat
		if d.Kind != "dragon" {
			return nil, fmt.Errorf("welcome of kind %q", d.Kind)
		}
	}
	p.All = append(p.All, &d)
	if d.Dragon != nil {
		p.Last = &d
		p.Seen = append(p.Seen, d.Dragon.Version)
	}
	return &d, nil
}

func (p *dragonPlayer) act(ctx context.Context, version int, a dragon.Action) error {
	return p.Send(ctx, map[string]any{"type": "action", "version": version, "action": a})
}

func (p *dragonPlayer) myTurn() bool {
	v := p.Last
	return v != nil && p.Seat >= 0 && v.Dragon.Phase != dragon.PhaseOver && v.Dragon.ToAct == p.Seat && len(v.Dragon.Legal) > 0
}

// playUntil plays p's seat until the game is over or stop says so; it
// fails on any error message.
func (p *dragonPlayer) playUntil(ctx context.Context, stop func() bool) error {
	for {
		if p.Last != nil && p.Last.Dragon.Phase == dragon.PhaseOver || stop != nil && stop() {
			return nil
		}
		if p.myTurn() {
			v := p.Last.Dragon
			a := p.bot.Choose(v.View, dice.NewSource([32]byte{byte(v.Version)}))
			if err := p.act(ctx, v.Version, a); err != nil {
				return err
			}
			for p.Last.Dragon.Version == v.Version {
				m, err := p.next(ctx)
				if err != nil {
					return err
				}
				if m.Type == "error" {
					return errors.New(m.Code + ": " + m.Message)
				}
			}
			continue
		}
		m, err := p.next(ctx)
		if err != nil {
			return err
		}
		if m.Type == "error" {
			return errors.New(m.Code + ": " + m.Message)
		}
	}
}

// dragonRecord downloads and parses the table's record.
// dragonRecord fetches the record of a finished Dragon Farkle table,
// checks that it is one and verifies, and returns it as package dragon
// holds one.
func dragonRecord(t testing.TB, c *wsclient.Client, id string) *dragon.Record {
	t.Helper()
	data := recordData(t, c, id)
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatalf("record: %v\n%s", err, data)
	}
	final, _, err := game.Verify(rec)
	if err != nil || rec.Kind != game.Dragon {
		t.Fatalf("record of kind %q does not verify: %v", rec.Kind, err)
	}
	v, err := rec.Variant()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := dice.ParseSeed(rec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	out := dragon.NewRecord(v.(*game.DragonVariant).Game(), rec.Players, seed)
	for _, raw := range rec.Actions {
		a, err := v.ParseAction(raw)
		if err != nil {
			t.Fatal(err)
		}
		out.Actions = append(out.Actions, a.(dragon.Action))
	}
	out.Winners, out.Slain = rec.Meta.Winners, final.(*game.DragonGame).State().Slain
	return out
}

// welcomeAll connects each player to the table and reads their welcome;
// they are closed when the test ends.
func welcomeAll(t *testing.T, ctx context.Context, id string, ps ...*dragonPlayer) {
	t.Helper()
	for _, p := range ps {
		if err := p.Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		if _, err := p.next(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// checkHidden fails if a view for seat shows another player's Magic
// Items or an item another player drew.
func checkHidden(t *testing.T, who string, seat int, m *dragonMsg) {
	t.Helper()
	if m.Dragon != nil {
		v := m.Dragon
		if v.Seat != seat {
			t.Fatalf("%s (seat %d) got the view of seat %d", who, seat, v.Seat)
		}
		for i, pl := range v.Players {
			if i != seat && len(pl.Items) > 0 {
				t.Fatalf("%s (seat %d) sees the items of seat %d: %+v", who, seat, i, pl.Items)
			}
		}
		if v.Turn != seat && len(v.Drawn) > 0 {
			t.Fatalf("%s (seat %d) sees the items seat %d drew: %+v", who, seat, v.Turn, v.Drawn)
		}
		// A seat has actions of its own only when the game waits for it: on
		// its turn, or as the defender of a brawl (to_act) on another's.
		if v.Turn != seat && v.ToAct != seat && len(v.Legal) > 0 {
			t.Fatalf("%s (seat %d) gets legal actions while the game waits for seat %d (turn %d)", who, seat, v.ToAct, v.Turn)
		}
	}
	for _, e := range m.Events {
		if e.Kind == dragon.EvItemDrawn && e.Seat != seat && e.Card != "" {
			t.Fatalf("%s (seat %d) learns the item %q seat %d drew", who, seat, e.Card, e.Seat)
		}
	}
}

func TestDragonWholeGameAgainstBots(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	p := newDragonPlayer(t, ts, "Ann")
	tb := joinNewTable(t, ctx, p.Client, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "smart"}, map[string]string{"type": "bot", "level": "simple"})
	defer p.Close()
	if err := p.playUntil(ctx, nil); err != nil {
		t.Fatal(err)
	}
	checkConsecutive(t, p.Seen)
	for _, m := range p.All {
		checkHidden(t, "Ann", 0, m)
	}
	var final wsclient.Table
	if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	last := p.Last.Dragon
	if final.Status != "over" || final.Actions != last.Version || !reflect.DeepEqual(final.Winners, last.Winners) {
		t.Fatalf("finished table: %+v; the client saw version %d winners %v", final, last.Version, last.Winners)
	}
	seed, _ := hex.DecodeString(final.Seed)
	sum := sha256.Sum256(seed)
	if hex.EncodeToString(sum[:]) != tb.Commitment {
		t.Fatal("the revealed seed does not match the commitment shown at the start")
	}
	rec := dragonRecord(t, p.Client, tb.ID)
	if rec.Seed != final.Seed || len(rec.Actions) != last.Version {
		t.Fatalf("record: seed %q, %d actions; table seed %q, version %d", rec.Seed, len(rec.Actions), final.Seed, last.Version)
	}
	_, st, _, err := rec.Replay()
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	for i, pl := range st.Players {
		if pl.Soldiers != last.Players[i].Soldiers {
			t.Fatalf("replayed soldiers of seat %d: %d; the client saw %d", i, pl.Soldiers, last.Players[i].Soldiers)
		}
	}
	// The bots' moves are their own choices from their own views.
	g, _ := rec.Game()
	src := dice.NewSource([32]byte(seed))
	s, _, _ := g.New(rec.Players, src)
	smart := dragon.NewBot(dragon.Smart, testBrains())
	// The game waits for seat 1 on its turn and when it defends a Brawl on
	// another's turn; a Brawl Ann starts on seat 1's turn waits for Ann.
	for i, a := range rec.Actions {
		if s.ToAct() == 1 {
			if want := smart.Choose(g.View(s, 1), dice.NewSource([32]byte{})); !reflect.DeepEqual(want, a) {
				t.Fatalf("action %d: the smart bot played %v, it would play %v", i+1, a, want)
			}
		}
		if s, _, err = g.Apply(s, a, src); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDragonHiddenItems(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann := newDragonPlayer(t, ts, "Ann")
	bob := newDragonPlayer(t, ts, "Bob")
	tb := tableWithFriend(t, ctx, ann.Client, bob.Client, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "human"}, map[string]string{"type": "bot", "level": "smart"})
	watcher := &dragonPlayer{Client: wsclient.New(ts.URL), Seat: -1}
	welcomeAll(t, ctx, tb.ID, ann, bob, watcher)
	// Ann's items at the start are in her welcome and in no one else's.
	annItems := ann.Last.Dragon.Players[0].Items
	if len(annItems) == 0 || bob.Seat != 1 || watcher.Seat != -1 {
		t.Fatalf("Ann holds %v, Bob sits at %d, the watcher at %d", annItems, bob.Seat, watcher.Seat)
	}
	for _, it := range annItems {
		needle := []byte(`"` + it.ID + `"`)
		if bytes.Contains(bob.Last.Raw, needle) || bytes.Contains(watcher.Last.Raw, needle) {
			t.Fatalf("Ann's item %s is in another client's welcome", it.ID)
		}
	}
	if bob.Last.Dragon.Players[0].ItemCount != len(annItems) {
		t.Fatalf("Bob sees Ann hold %d items, she holds %d", bob.Last.Dragon.Players[0].ItemCount, len(annItems))
	}
	// Both play (the watcher reads) until the game ends or 150 actions.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	stop := func(p *dragonPlayer) func() bool {
		return func() bool { return p.Last != nil && p.Last.Dragon.Version >= 150 }
	}
	for i, p := range []*dragonPlayer{ann, bob, watcher} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.playUntil(ctx, stop(p))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	drawn, hidden := 0, 0
	for who, p := range map[string]*dragonPlayer{"Ann": ann, "Bob": bob, "the watcher": watcher} {
		for _, m := range p.All {
			checkHidden(t, who, p.Seat, m)
			for _, e := range m.Events {
				if e.Kind == dragon.EvItemDrawn && e.Seat == p.Seat {
					drawn++
					if e.Card == "" {
						t.Fatalf("%s does not see the item they drew", who)
					}
				}
				if e.Kind == dragon.EvItemDrawn && e.Seat != p.Seat {
					hidden++
				}
			}
		}
	}
	t.Logf("%d actions; %d items drawn seen by their drawer, %d draws seen hidden by the others", ann.Last.Dragon.Version, drawn, hidden)
}

func TestDragonRefusedActionsChangeNothing(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)
	ann := newDragonPlayer(t, ts, "Ann")
	bob := newDragonPlayer(t, ts, "Bob")
	tb := tableWithFriend(t, ctx, ann.Client, bob.Client, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "human"})
	watcher := &dragonPlayer{Client: wsclient.New(ts.URL), Seat: -1}
	welcomeAll(t, ctx, tb.ID, ann, bob, watcher)
	turn := ann.Last.Dragon.Turn
	mover, other := ann, bob
	if turn == 1 {
		mover, other = bob, ann
	}
	snapshot := func() string {
		var v json.RawMessage
		if err := watcher.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &v); err != nil {
			t.Fatal(err)
		}
		return string(v)
	}
	before := snapshot()
	cases := []struct {
		name string
		p    *dragonPlayer
		msg  string
		code string
	}{
		{"out of turn", other, `{"type":"action","version":0,"action":{"kind":"recruit"}}`, "not_your_turn"},
		{"illegal now", mover, `{"type":"action","version":0,"action":{"kind":"stop"}}`, "illegal"},
		{"brawl yourself", mover, fmt.Sprintf(`{"type":"action","version":0,"action":{"kind":"brawl","target":%d}}`, mover.Seat), "illegal"},
		{"battle too few soldiers", mover, `{"type":"action","version":0,"action":{"kind":"battle"}}`, "illegal"},
		{"stale version", mover, `{"type":"action","version":7,"action":{"kind":"recruit"}}`, "stale"},
		{"unknown kind", mover, `{"type":"action","version":0,"action":{"kind":"fly"}}`, "bad_message"},
		{"unknown field", mover, `{"type":"action","version":0,"action":{"kind":"recruit","x":1}}`, "bad_message"},
		{"no version", mover, `{"type":"action","action":{"kind":"recruit"}}`, "bad_message"},
		{"spectator", watcher, `{"type":"action","version":0,"action":{"kind":"recruit"}}`, "not_seated"},
		{"another seat", other, fmt.Sprintf(`{"type":"action","seat":%d,"version":0,"action":{"kind":"recruit"}}`, mover.Seat), "not_seated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.p.SendRaw(ctx, []byte(c.msg)); err != nil {
				t.Fatal(err)
			}
			m, err := c.p.next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type != "error" || m.Code != c.code || m.Version != 0 {
				t.Fatalf("got %s, want error %s at version 0", m.Raw, c.code)
			}
			if after := snapshot(); after != before {
				t.Fatalf("a refused action changed the table:\n%s\n%s", before, after)
			}
		})
	}
	// The right action is accepted and every client hears of it.
	if err := mover.act(ctx, 0, dragon.Recruit()); err != nil {
		t.Fatal(err)
	}
	turn = -1
	for _, p := range []*dragonPlayer{ann, bob, watcher} {
		m, err := p.next(ctx)
		if err != nil || m.Type != "update" || m.Dragon.Version != 1 {
			t.Fatalf("after recruit: %v %s", err, m.Raw)
		}
		turn = m.Dragon.Turn
	}
	// A hint names values for the legal actions of the seat to act only.
	// The recruit threw dice: a throw with nothing to keep has passed the
	// turn, so ask the seat that is not to act now.
	idle := other
	if turn == other.Seat {
		idle = mover
	}
	if err := idle.Send(ctx, map[string]any{"type": "hint"}); err != nil {
		t.Fatal(err)
	}
	if m, _ := idle.next(ctx); m.Code != "not_your_turn" {
		t.Fatalf("hint out of turn (seat %d, turn %d): %s", idle.Seat, turn, m.Raw)
	}
}

func TestDragonRestartResumesIdentically(t *testing.T) {
	path := t.TempDir() + "/dragon.db"
	ts := start(t, path, server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)
	p := newDragonPlayer(t, ts, "Ann")
	var tb wsclient.Table
	// A table where Ann plays first (the first player is drawn).
	for try := 0; p.Last == nil || !p.myTurn(); try++ {
		if try == 20 {
			t.Fatal("the bot played first at 20 tables")
		}
		p.Close()
		var err error
		tb, err = p.CreateTable(ctx, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "smart"})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := p.next(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// Ann plays while it is her turn; the bot would act after an hour.
	for p.myTurn() && p.Last.Dragon.Version < 12 {
		v := p.Last.Dragon
		if err := p.act(ctx, v.Version, p.bot.Choose(v.View, dice.NewSource([32]byte{}))); err != nil {
			t.Fatal(err)
		}
		if m, err := p.next(ctx); err != nil || m.Type != "update" {
			t.Fatalf("%v %s", err, m.Raw)
		}
	}
	if p.Last.Dragon.Version == 0 {
		t.Fatal("no action before the restart")
	}
	beforeView, _ := json.Marshal(p.Last.Dragon)
	p.Close()
	ts.Stop()

	ts2 := start(t, path, server.Options{BotDelay: time.Hour})
	q := &dragonPlayer{Client: client2(&player{Token: p.Token}, ts2.URL), Token: p.Token, Seat: -1, bot: p.bot}
	if err := q.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := q.next(ctx); err != nil {
		t.Fatal(err)
	}
	afterView, _ := json.Marshal(q.Last.Dragon)
	if string(beforeView) != string(afterView) {
		t.Fatalf("Ann's view after the restart differs:\n%s\n%s", beforeView, afterView)
	}
	q.Close()
	ts2.Stop()

	// Bots now act at once: finish the game and check the dice followed
	// the committed seed across the restart.
	ts3 := start(t, path, server.Options{})
	r := &dragonPlayer{Client: client2(&player{Token: p.Token}, ts3.URL), Token: p.Token, Seat: -1, bot: p.bot}
	if err := r.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.playUntil(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rec := dragonRecord(t, r.Client, tb.ID)
	seed, _ := hex.DecodeString(rec.Seed)
	sum := sha256.Sum256(seed)
	if hex.EncodeToString(sum[:]) != tb.Commitment {
		t.Fatal("the revealed seed does not match the commitment")
	}
	g, st, _, err := rec.Replay()
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	// The prefix played before the restart replays to the view Ann saw.
	prefix, _, err := g.Replay(rec.Players, [32]byte(seed), rec.Actions[:p.Last.Dragon.Version])
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(g.View(prefix, 0))
	got, _ := json.Marshal(p.Last.Dragon.View)
	if string(want) != string(got) {
		t.Fatalf("the replayed prefix differs from what Ann saw before the restart:\n%s\n%s", want, got)
	}
	if !reflect.DeepEqual(st.Winners, r.Last.Dragon.Winners) {
		t.Fatalf("replayed winners %v, the client saw %v", st.Winners, r.Last.Dragon.Winners)
	}
	// A finished table loads from its final record after a restart.
	r.Close()
	ts3.Stop()
	ts4 := start(t, path, server.Options{})
	var over struct {
		wsclient.Table
		Dragon *dragon.View `json:"dragon"`
	}
	if err := wsclient.New(ts4.URL).Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &over); err != nil {
		t.Fatal(err)
	}
	if over.Status != "over" || over.Dragon == nil || over.Dragon.Phase != dragon.PhaseOver || !reflect.DeepEqual(over.Dragon.Winners, st.Winners) || over.Seed != rec.Seed {
		t.Fatalf("the finished table after a restart: %+v", over)
	}
	for i, pl := range over.Dragon.Players {
		if pl.Soldiers != st.Players[i].Soldiers || len(pl.Items) != 0 {
			t.Fatalf("seat %d after the restart: %+v; the record says %d soldiers (and a watcher sees no items)", i, pl, st.Players[i].Soldiers)
		}
	}
}

func TestDragonTableRequests(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)
	p := newDragonPlayer(t, ts, "Ann")
	bot := func(level string) map[string]string { return map[string]string{"type": "bot", "level": level} }
	me := map[string]string{"type": "me"}
	for _, c := range []struct {
		name  string
		seats []map[string]string
		want  string // "" if accepted, else a part of the error
	}{
		{"one seat", []map[string]string{me}, "2 to 5 players"},
		{"six seats", []map[string]string{me, bot("smart"), bot("smart"), bot("smart"), bot("smart"), bot("smart")}, "2 to 5 players"},
		{"a Farkle bot", []map[string]string{me, bot("steady")}, "Dragon Farkle bots"},
		{"two me", []map[string]string{me, me}, `only one seat can be \"me\"`},
		{"five seats", []map[string]string{me, bot("smart"), bot("simple"), bot("random"), {"type": "human"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := p.CreateTable(ctx, "dragon", c.seats...)
			if c.want == "" {
				if err != nil || tb.Status != "waiting" || len(tb.Seats) != len(c.seats) {
					t.Fatalf("%+v, %v; want a waiting table of %d seats", tb, err, len(c.seats))
				}
				return
			}
			var se *wsclient.StatusError
			if !errors.As(err, &se) || se.Status != 400 || !bytes.Contains([]byte(se.Body), []byte(c.want)) {
				t.Fatalf("got %v; want a 400 naming %q", err, c.want)
			}
		})
	}
	var lobby []struct {
		Kind string `json:"kind"`
	}
	if err := p.Do(ctx, "GET", "/api/tables?status=waiting", nil, &lobby); err != nil || len(lobby) != 1 || lobby[0].Kind != "dragon" {
		t.Fatalf("lobby %+v, %v; want one dragon table", lobby, err)
	}
	var odds struct {
		BattleMinimum int `json:"battle_minimum"`
		Rows          []dragon.OddsRow
	}
	if err := p.Do(ctx, "GET", "/api/dragon/odds", nil, &odds); err != nil {
		t.Fatal(err)
	}
	if odds.BattleMinimum != dragon.DefaultRules().BattleMinimum || len(odds.Rows) == 0 {
		t.Fatalf("odds: %+v", odds)
	}
	for i, r := range odds.Rows {
		if r.PWin < 0 || r.PWin > 1 || i > 0 && r.Soldiers <= odds.Rows[i-1].Soldiers {
			t.Fatalf("odds row %d: %+v", i, r)
		}
	}
}

// BenchmarkDragonTablesPlayed plays whole Dragon Farkle tables of two
// smart bots on the server (stored action by action in SQLite).
func BenchmarkDragonTablesPlayed(b *testing.B) {
	ts := start(b, "", server.Options{})
	bot := map[string]string{"type": "bot", "level": "smart"}
	benchTablesPlayed(b, ts, "dragon", bot, bot)
}

// BenchmarkDragonActionRoundTrip measures one human action on a dragon
// table from sending it to receiving its update (a whole game is played,
// a new table when one ends; the bot acts at once).
func BenchmarkDragonActionRoundTrip(b *testing.B) {
	ts := start(b, "", server.Options{})
	ctx := context.Background()
	p := newDragonPlayer(b, ts, "Ann")
	newTable := func() {
		p.Close()
		p.Last, p.All, p.Seen = nil, nil, nil
		tb, err := p.CreateTable(ctx, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "smart"})
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Connect(ctx, tb.ID); err != nil {
			b.Fatal(err)
		}
		if _, err := p.next(ctx); err != nil {
			b.Fatal(err)
		}
	}
	newTable()
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		for !p.myTurn() {
			if p.Last.Dragon.Phase == dragon.PhaseOver {
				b.StopTimer()
				newTable()
				b.StartTimer()
				continue
			}
			if _, err := p.next(ctx); err != nil {
				b.Fatal(err)
			}
		}
		v := p.Last.Dragon
		a := p.bot.Choose(v.View, dice.NewSource([32]byte{}))
		t0 := time.Now()
		if err := p.act(ctx, v.Version, a); err != nil {
			b.Fatal(err)
		}
		for p.Last.Dragon.Version == v.Version {
			m, err := p.next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if m.Type == "error" {
				b.Fatal(m.Message)
			}
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	p.Close()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// TestDragonAbandonedTableEnds: a Dragon Farkle table of two people who
// never act is played by the clock (Dragon Farkle has no resignation) and
// ends at the server's cap on a game's length, its round limit, rather
// than at bot pace for ever; the record holds the limit and verifies.
func TestDragonAbandonedTableEnds(t *testing.T) {
	ts := start(t, "", server.Options{MaxTurns: 2, TurnClock: 30 * time.Millisecond, ClockForfeits: 1})
	ctx := ctxT(t, time.Minute)
	ann, bob := newDragonPlayer(t, ts, "Ann"), newDragonPlayer(t, ts, "Bob")
	tb := tableWithFriend(t, ctx, ann.Client, bob.Client, "dragon", map[string]string{"type": "me"}, map[string]string{"type": "human"})
	var final wsclient.Table
	for deadline := time.Now().Add(45 * time.Second); ; {
		if err := ann.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
			t.Fatal(err)
		}
		if final.Status == "over" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the abandoned table is still %q after %d actions", final.Status, final.Actions)
		}
		time.Sleep(20 * time.Millisecond) // the clock plays on its own time
	}
	rec := dragonRecord(t, ann.Client, tb.ID)
	if rec.Rules.RoundLimit != 2 {
		t.Fatalf("the record's round limit is %d, want the server's cap of 2", rec.Rules.RoundLimit)
	}
	_, st, _, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if st.Round > 3 {
		t.Fatalf("the game ended in round %d, past the limit of 2", st.Round)
	}
}
