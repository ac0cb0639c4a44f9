package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// checkConsecutive fails unless the versions seen go up one at a time.
func checkConsecutive(t testing.TB, seen []int) {
	t.Helper()
	for i := 1; i < len(seen); i++ {
		if seen[i] != seen[i-1]+1 {
			t.Fatalf("versions seen jump at %d: %d then %d (all: %v)", i, seen[i-1], seen[i], seen)
		}
	}
}

// tableWithFriend creates a table as host with the seats (one of them
// "human") and seats guest at it by link.
func tableWithFriend(t testing.TB, ctx context.Context, host, guest *wsclient.Client, rules any, seats ...map[string]string) wsclient.Table {
	t.Helper()
	tb, err := host.CreateTable(ctx, rules, seats...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := guest.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	return tb
}

// recordData fetches the table's record (of either kind of game); it fails
// unless the answer is 200 OK.
func recordData(t testing.TB, c *wsclient.Client, id string) []byte {
	t.Helper()
	resp, err := c.HTTP.Get(c.Base + "/api/tables/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("record: HTTP %d %s", resp.StatusCode, data)
	}
	return data
}

// downloadRecord fetches and parses the record of an ordinary table, as
// package record holds it.
func downloadRecord(t testing.TB, c *wsclient.Client, id string) *record.Record {
	t.Helper()
	rec, err := game.ParseRecord(recordData(t, c, id))
	if err != nil {
		t.Fatalf("record does not parse: %v", err)
	}
	if rec.Kind != game.Farkle {
		t.Fatalf("record of kind %q, want %q", rec.Kind, game.Farkle)
	}
	return ordinary(t, rec)
}

// ordinary returns a record of the ordinary game as package record holds
// it.
func ordinary(t testing.TB, rec *game.Record) *record.Record {
	t.Helper()
	old, err := rec.Ordinary()
	if err != nil {
		t.Fatal(err)
	}
	return old
}

func TestPlayAWholeGameAgainstABot(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	p := newPlayer(t, ts, "Ann")
	tb := joinNewTable(t, ctx, p.Client, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	defer p.Close()
	if err := p.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	checkConsecutive(t, p.Seen)
	var final wsclient.Table
	if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	if final.Status != "over" || final.Actions != p.Last.Version {
		t.Fatalf("finished table: %+v, last version %d", final, p.Last.Version)
	}
	seed, _ := hex.DecodeString(final.Seed)
	sum := sha256.Sum256(seed)
	if hex.EncodeToString(sum[:]) != tb.Commitment {
		t.Fatal("the revealed seed does not match the commitment shown at the start")
	}
	rec := downloadRecord(t, p.Client, tb.ID)
	st, err := record.Verify(rec)
	if err != nil {
		t.Fatalf("downloaded record fails verification: %v", err)
	}
	if st.Version != p.Last.Version || !reflect.DeepEqual(st.Winners, p.Last.Winners) {
		t.Fatalf("record ends at version %d winners %v; client saw %d %v", st.Version, st.Winners, p.Last.Version, p.Last.Winners)
	}
	// The bot's moves in the record are the bot's own choices.
	b, _ := bot.New("steady", rec.Rules)
	_, steps, _ := record.Replay(rec)
	for _, s := range steps {
		if s.Action.Player == 1 && s.Action != b.Choose(s.Before) {
			t.Fatalf("seat 1 played %v, the steady bot would play %v", s.Action, b.Choose(s.Before))
		}
	}
	// Stats count the game for both.
	var stats struct {
		Games, Wins int
		Turns       int
	}
	if err := p.Do(ctx, "GET", "/api/players/"+p.ID+"/stats", nil, &stats); err != nil {
		t.Fatal(err)
	}
	won := 0
	if slicesContains(st.Winners, 0) {
		won = 1
	}
	if stats.Games != 1 || stats.Wins != won || stats.Turns != st.Players[0].Turns {
		t.Fatalf("stats %+v, want 1 game, %d wins, %d turns", stats, won, st.Players[0].Turns)
	}
	var lb []struct {
		Player string
		Games  int
	}
	if err := p.Do(ctx, "GET", "/api/leaderboard", nil, &lb); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, l := range lb {
		keys[l.Player] = l.Games == 1
	}
	if !keys[p.ID] || !keys["bot:steady"] {
		t.Fatalf("leaderboard %+v lacks the player or the bot", lb)
	}
}

func slicesContains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestTwoPlayersAndASpectator(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	a := newPlayer(t, ts, "Ann")
	b := newPlayer(t, ts, "Ann") // same name: the server tells them apart
	tb, err := a.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Status != "waiting" || !tb.Seats[1].Free {
		t.Fatalf("table with a free seat: %+v", tb)
	}
	watcher := &player{Client: wsclient.New(ts.URL), Seat: -1}
	if err := watcher.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	if m, err := watcher.Read(ctx); err != nil || m.Type != "welcome" || m.State != nil {
		t.Fatalf("watcher's first message %+v %v, want a welcome without a game", m.Type, err)
	}
	seat, err := b.Join(ctx, tb.ID)
	if err != nil || seat != 1 {
		t.Fatalf("join: seat %d, %v", seat, err)
	}
	if _, err := b.Join(ctx, tb.ID); err != nil {
		t.Fatalf("joining again should return the same seat: %v", err)
	}
	c := newPlayer(t, ts, "Cy")
	if _, err := c.Join(ctx, tb.ID); err == nil {
		t.Fatal("a third player joined a full table")
	}
	m, err := watcher.Read(ctx) // the welcome sent when the game starts
	if err != nil || m.Type != "welcome" || m.State == nil || m.Table.Seats[1].Name != "Ann 2" {
		t.Fatalf("after the join the watcher got %s %+v, %v", m.Type, m.Table.Seats, err)
	}
	for _, p := range []*player{a, b} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
	}
	// The watcher cannot act, whatever seat it names.
	if err := watcher.Send(ctx, map[string]any{"type": "action", "seat": m.State.Actor, "version": m.State.Version, "action": map[string]any{"type": "roll-off"}}); err != nil {
		t.Fatal(err)
	}
	if m, err := watcher.Read(ctx); err != nil || m.Type != "error" || m.Code != "not_seated" {
		t.Fatalf("watcher's action: %s %s %v, want not_seated", m.Type, m.Code, err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []*player{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.PlayToEnd(ctx)
		}()
	}
	// The watcher follows every version up to the end.
	for watcher.Last.Phase != "over" {
		m, err := watcher.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("watcher got an error: %s", m.Message)
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if a.Last.Version != watcher.Last.Version || b.Last.Version != watcher.Last.Version {
		t.Fatalf("final versions differ: %d %d %d", a.Last.Version, b.Last.Version, watcher.Last.Version)
	}
	want := 0
	for i, v := range watcher.Seen {
		if i > 0 && v != want+1 {
			t.Fatalf("the watcher missed a version: %v", watcher.Seen)
		}
		want = v
	}
	if _, err := record.Verify(downloadRecord(t, watcher.Client, tb.ID)); err != nil {
		t.Fatal(err)
	}
}

// tableActions returns the number of stored actions of a table.
func tableActions(t *testing.T, ts *testServer, id string) int {
	t.Helper()
	tb, err := ts.DB.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tb.Actions
}

func TestRefusedActionsChangeNothing(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 30*time.Second)
	a := newPlayer(t, ts, "Ann")
	b := newPlayer(t, ts, "Bea")
	tb := tableWithFriend(t, ctx, a.Client, b.Client, "classic", map[string]string{"type": "me"}, map[string]string{"type": "human"})
	for _, p := range []*player{a, b} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if _, err := p.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// Play the roll-off so that someone is in a turn with a throw on the table.
	for a.Last.Phase != "play" || a.Last.Step != "keep" {
		actor := a
		if a.Last.Actor == 1 {
			actor = b
		}
		typ, d := choose(actor.Last)
		if typ == "keep" || typ == "bank" {
			typ, d = "throw", nil
		}
		if err := actor.Act(ctx, actor.Last.Version, typ, d); err != nil {
			t.Fatal(err)
		}
		for _, p := range []*player{a, b} {
			if _, err := p.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if a.Last.Step == "keep" && a.Last.Phase == "play" {
			break
		}
	}
	st := a.Last
	on, off := a, b
	if st.Actor == 1 {
		on, off = b, a
	}
	before := tableActions(t, ts, tb.ID)
	other := wsclient.New(ts.URL) // a third player holding no seat, pretending to be the one on turn
	other.Header = http.Header{"Authorization": {"Bearer " + newPlayer(t, ts, "Eve").Token}}
	if err := other.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Next(ctx); err != nil {
		t.Fatal(err)
	}
	keep := st.Legal[0].Dice
	cases := []struct {
		name string
		who  *wsclient.Client
		msg  string
		code string
	}{
		{"malformed JSON", on.Client, `{"type":"action",`, "bad_message"},
		{"not an object", on.Client, `[1,2,3]`, "bad_message"},
		{"unknown message", on.Client, `{"type":"cheat"}`, "bad_message"},
		{"unknown field", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"bank"},"extra":1}`, st.Version), "bad_message"},
		{"unknown action", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"steal"}}`, st.Version), "bad_message"},
		{"no version", on.Client, `{"type":"action","action":{"type":"bank"}}`, "bad_message"},
		{"bad dice", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"keep","dice":[7]}}`, st.Version), "bad_message"},
		{"wrong token", other, fmt.Sprintf(`{"type":"action","seat":%d,"version":%d,"action":{"type":"keep","dice":%s}}`, st.Actor, st.Version, jsonOf(keep)), "not_seated"},
		{"seat of the other player", off.Client, fmt.Sprintf(`{"type":"action","seat":%d,"version":%d,"action":{"type":"keep","dice":%s}}`, st.Actor, st.Version, jsonOf(keep)), "not_seated"},
		{"out of turn", off.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"throw"}}`, st.Version), "not_your_turn"},
		{"illegal keep", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"keep","dice":[2,3]}}`, st.Version), "illegal"},
		{"bank before keeping", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"bank"}}`, st.Version), "illegal"},
		{"stale version", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"keep","dice":%s}}`, st.Version-1, jsonOf(keep)), "stale"},
		{"future version", on.Client, fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"keep","dice":%s}}`, st.Version+1, jsonOf(keep)), "stale"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "illegal keep" && containsKeep(st.Legal, []int{2, 3}) {
				t.Skip("2-3 happens to be legal")
			}
			if err := tc.who.SendRaw(ctx, []byte(tc.msg)); err != nil {
				t.Fatal(err)
			}
			m, err := tc.who.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type != "error" || m.Code != tc.code || m.Version != st.Version {
				t.Fatalf("got %s %q %q version %d, want error %q at version %d", m.Type, m.Code, m.Message, m.Version, tc.code, st.Version)
			}
			if m.Message == "" {
				t.Fatal("an error without a message")
			}
			if n := tableActions(t, ts, tb.ID); n != before {
				t.Fatalf("stored actions went from %d to %d", before, n)
			}
			// Nobody else heard of it: the next message each other client
			// reads is the answer to its own ping.
			for _, c := range []*wsclient.Client{on.Client, off.Client, other} {
				if c == tc.who {
					continue
				}
				if err := c.Send(ctx, map[string]string{"type": "ping", "id": tc.name}); err != nil {
					t.Fatal(err)
				}
				if m, err := c.Next(ctx); err != nil || m.Type != "pong" || m.ID != tc.name {
					t.Fatalf("another client got %s %s (%v) instead of its pong", m.Type, m.Raw, err)
				}
			}
		})
	}
	// The right action from the right player still goes through.
	if err := on.Act(ctx, st.Version, "keep", keep); err != nil {
		t.Fatal(err)
	}
	m, err := on.Read(ctx)
	if err != nil || m.Type != "update" || m.State.Version != st.Version+1 {
		t.Fatalf("the legal action: %s %s %v", m.Type, m.Raw, err)
	}
	if n := tableActions(t, ts, tb.ID); n != before+1 {
		t.Fatalf("stored actions %d, want %d", n, before+1)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func containsKeep(legal []wsclient.Legal, d []int) bool {
	for _, l := range legal {
		if reflect.DeepEqual(l.Dice, d) {
			return true
		}
	}
	return false
}

// fetchState returns the table's state as JSON, as a client would see it.
func fetchState(t *testing.T, c *wsclient.Client, id string) (json.RawMessage, int) {
	t.Helper()
	var out struct {
		State json.RawMessage
	}
	if err := c.Do(context.Background(), "GET", "/api/tables/"+id, nil, &out); err != nil {
		t.Fatal(err)
	}
	var v struct{ Version int }
	json.Unmarshal(out.State, &v)
	return out.State, v.Version
}

func TestRestartResumesIdentically(t *testing.T) {
	path := t.TempDir() + "/restart.db"
	ts := start(t, path, server.Options{BotDelay: time.Hour}) // the bot waits: we stop mid-game
	ctx := ctxT(t, time.Minute)
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Read(ctx); err != nil {
		t.Fatal(err)
	}
	// Ann acts while it is her turn; the bot would act only after an hour.
	for p.Last.Actor == 0 && p.Last.Phase != "over" {
		typ, d := choose(p.Last)
		if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	before, v := fetchState(t, p.Client, tb.ID)
	if v == 0 {
		t.Fatal("no action was played before the restart")
	}
	p.Close()
	ts.Stop()

	// A new server on the same file shows exactly the same state.
	ts2 := start(t, path, server.Options{BotDelay: time.Hour})
	after, _ := fetchState(t, client2(p, ts2.URL), tb.ID)
	if string(before) != string(after) {
		t.Fatalf("state after the restart differs:\n%s\n%s", before, after)
	}
	ts2.Stop()
	ts2 = start(t, path, server.Options{}) // bots now act at once
	// Finish the game on the new server and check the whole record.
	q := &player{Client: client2(p, ts2.URL), Seat: 0}
	if err := q.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := q.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	rec := downloadRecord(t, q.Client, tb.ID)
	if _, err := record.Verify(rec); err != nil {
		t.Fatal(err)
	}
	// The first v actions are those played before the restart: the state
	// they replay to is the one the first server showed.
	short := *rec
	short.Actions = rec.Actions[:v]
	st, _, err := record.Replay(&short)
	if err != nil {
		t.Fatal(err)
	}
	var was struct {
		Players []engine.Player
		Version int
		Current int
		Total   int
	}
	json.Unmarshal(before, &was)
	if st.Version != was.Version || st.Current != was.Current || !reflect.DeepEqual(st.Players, was.Players) {
		t.Fatalf("replayed prefix %+v differs from the state before the restart %+v", st.Players, was.Players)
	}
}

type bearer struct{ tok string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return http.DefaultTransport.RoundTrip(r)
}

func TestRestartWithTheBotToActResumesTheBot(t *testing.T) {
	path := t.TempDir() + "/bots.db"
	ts := start(t, path, server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	tb, err := c.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	ts.Stop()
	ts2 := start(t, path, server.Options{})
	c2 := wsclient.New(ts2.URL)
	w := &player{Client: c2, Seat: -1}
	if err := w.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	rec := downloadRecord(t, c2, tb.ID)
	if _, err := record.Verify(rec); err != nil {
		t.Fatal(err)
	}
}

// offline plays the same bot game without a server: the deterministic bots
// and the seed give the very same actions.
func offline(t *testing.T, r rules.Rules, names []string, seed dice.Seed, levels []string) []record.Entry {
	g, err := record.Start(r, names, seed)
	if err != nil {
		t.Fatal(err)
	}
	var bots []bot.Strategy
	for _, l := range levels {
		b, _ := bot.New(l, r)
		bots = append(bots, b)
	}
	for !g.State.Over() {
		if _, err := g.Do(bots[g.State.Actor()].Choose(g.State)); err != nil {
			t.Fatal(err)
		}
	}
	return g.Record.Actions
}

func TestManyBotTablesAtOnce(t *testing.T) {
	t.Parallel()
	n := 200
	if testing.Short() {
		n = 40
	}
	// 200 bots-only tables at once: past the server's cap of 100, which a
	// slow count of the open tables used to hide (tables ended meanwhile).
	ts := start(t, "", server.Options{MaxOpenTables: -1, MaxBotTables: -1, MaxBotTablesTotal: -1})
	ctx := ctxT(t, 3*time.Minute)
	c := host(t, ts)
	ids := make([]string, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tb, err := c.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "steady"})
			if err != nil {
				errs <- err
				return
			}
			ids[i] = tb.ID
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for {
		over, err := ts.DB.Tables(ctx, store.TableFilter{Status: []store.Status{store.Over}, Limit: n})
		if err != nil {
			t.Fatal(err)
		}
		if len(over) == n {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("only %d of %d tables finished", len(over), n)
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, id := range ids {
		tb, err := ts.DB.Table(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		acts, err := ts.DB.Actions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ts.DB.FinalRecord(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Actions != len(acts) || len(rec.Actions) != len(acts) {
			t.Fatalf("table %s: %d actions counted, %d stored, %d in the record", id, tb.Actions, len(acts), len(rec.Actions))
		}
		old := ordinary(t, rec)
		want := offline(t, old.Rules, rec.Players, tb.Seed, []string{"steady", "steady"})
		if got := ordinary(t, &game.Record{Kind: tb.Kind, Rules: tb.Rules, Actions: acts}).Actions; !reflect.DeepEqual(got, want) {
			t.Fatalf("table %s: stored %d actions differ from the %d of the same game played offline", id, len(acts), len(want))
		}
		if _, err := record.Verify(old); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTableRequestsAreValidated(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 10*time.Second)
	p := newPlayer(t, ts, "Ann")
	me := map[string]string{"type": "me"}
	botSeat := map[string]string{"type": "bot", "level": "steady"}
	cases := []struct {
		name  string
		rules any
		seats []map[string]string
		field string // the field the error must name
		text  string
	}{
		{"target 0", map[string]any{"game": map[string]any{"target": 0}}, nil, "game.target", ""},
		{"unknown field", map[string]any{"game": map[string]any{"targte": 100}}, nil, "game.targte", ""},
		{"negative triple", map[string]any{"scoring": map[string]any{"triple": []int{1000, -1, 300, 400, 500, 600}}}, nil, "scoring.triple", ""},
		{"unknown preset", "nope", nil, "", "classic"},
		{"too many seats for cardgames", "cardgames", []map[string]string{me, botSeat, botSeat}, "game.max_players", ""},
		{"unknown bot", "classic", []map[string]string{me, {"type": "bot", "level": "godlike"}}, "", "levels"},
		{"two me seats", "classic", []map[string]string{me, me}, "", "only one"},
		{"unknown seat type", "classic", []map[string]string{me, {"type": "alien"}}, "", "types"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seats := tc.seats
			if seats == nil {
				seats = []map[string]string{me, botSeat}
			}
			_, err := p.CreateTable(ctx, tc.rules, seats...)
			var se *wsclient.StatusError
			if !errors.As(err, &se) || se.Status != 400 {
				t.Fatalf("got %v, want HTTP 400", err)
			}
			var body struct{ Error, Field string }
			json.Unmarshal([]byte(se.Body), &body)
			if tc.field != "" && !strings.HasPrefix(body.Field, tc.field) {
				t.Fatalf("field %q, want %q (%s)", body.Field, tc.field, body.Error)
			}
			if !strings.Contains(body.Error, tc.text) {
				t.Fatalf("error %q does not mention %q", body.Error, tc.text)
			}
		})
	}
	list, err := ts.DB.Tables(ctx, store.TableFilter{})
	if err != nil || len(list) != 0 {
		t.Fatalf("refused requests stored %d tables (%v)", len(list), err)
	}
}

func TestNames(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 10*time.Second)
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"  Ann   Lee ", "Ann Lee", true},
		{"<script>alert(1)</script>", "<script>alert(1)</script>", false}, // 25 characters
		{"<b>Bo</b>", "<b>Bo</b>", true},
		{"", "", false},
		{"tab\tin", "tab in", true},
		{"bell\a", "", false},
		{strings.Repeat("é", 24), strings.Repeat("é", 24), true},
		{strings.Repeat("é", 25), "", false},
	} {
		c := wsclient.New(ts.URL)
		var out struct{ Name string }
		err := c.Do(ctx, "POST", "/api/players", map[string]string{"name": tc.in}, &out)
		if (err == nil) != tc.ok || (tc.ok && out.Name != tc.want) {
			t.Errorf("name %q: got %q, %v; want %q ok=%v", tc.in, out.Name, err, tc.want, tc.ok)
		}
	}
	// A name with markup travels escaped in JSON and is never HTML.
	c := wsclient.New(ts.URL)
	resp, err := c.HTTP.Post(ts.URL+"/api/players", "application/json", strings.NewReader(`{"name":"<b>Bo</b>"}`))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(data), "<b>") || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("name not escaped: %s (%s)", data, resp.Header.Get("Content-Type"))
	}
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == server.CookieName {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Secure {
		t.Fatalf("token cookie %+v: want HttpOnly, SameSite=Strict and not Secure on plain HTTP", cookie)
	}
}

func TestOperations(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 10*time.Second)
	get := func(path string) (*http.Response, string) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get("/healthz")
	if resp.StatusCode != 200 || !strings.Contains(body, "ok") {
		t.Fatalf("healthz: %d %s", resp.StatusCode, body)
	}
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Read(ctx)
	resp, err = http.Get(ts.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics on the metrics listener: HTTP %d, want 200", resp.StatusCode)
	}
	body = string(b)
	for _, want := range []string{"farkle_open_tables 1", "farkle_connected_clients 1", "farkle_action_latency_seconds_bucket", "farkle_actions_total"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	resp, body = get("/")
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q", csp)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("security headers missing: %v", resp.Header)
	}
	if !strings.Contains(body, "<html") {
		t.Errorf("home page: %s", body)
	}
	for _, path := range []string{"/t/" + tb.ID, "/lobby", "/static/app.js", "/static/style.css"} {
		if resp, _ := get(path); resp.StatusCode != 200 {
			t.Errorf("%s: HTTP %d", path, resp.StatusCode)
		}
	}
	if resp, body := get("/api/tables/nope"); resp.StatusCode != 404 || strings.Contains(body, "store:") {
		t.Errorf("unknown table: HTTP %d %s", resp.StatusCode, body)
	}
	if resp, _ := get("/metrics"); resp.StatusCode != 404 {
		t.Errorf("/metrics on the public listener: HTTP %d, want 404 (it has a listener of its own)", resp.StatusCode)
	}
}

func TestMessageLimits(t *testing.T) {
	ts := start(t, "", server.Options{MaxMessage: 512, ActionRate: 1, ActionBurst: 5})
	ctx := ctxT(t, 10*time.Second)
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	p.Read(ctx)
	limited := 0
	for i := range 10 {
		p.Send(ctx, map[string]string{"type": "ping", "id": fmt.Sprint(i)})
	}
	for range 10 {
		m, err := p.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" && m.Code == "rate_limited" {
			limited++
		}
	}
	if limited < 4 || limited > 5 {
		t.Errorf("%d of 10 quick messages were refused, want 5 (burst 5)", limited)
	}
	// A message over the size limit closes the connection.
	p.SendRaw(ctx, []byte(`{"type":"ping","id":"`+strings.Repeat("x", 600)+`"}`))
	for {
		_, err := p.Next(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Fatalf("closed with %v, want message too big", err)
			}
			break
		}
	}
}

func TestGracefulClose(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Hour})
	ctx := ctxT(t, 10*time.Second)
	p := newPlayer(t, ts, "Ann")
	tb, _ := p.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	p.Read(ctx)
	ts.Srv.Close()
	_, err := p.Next(ctx)
	if websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("after Close the client got %v, want going away", err)
	}
}
