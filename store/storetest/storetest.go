package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

// Run runs the conformance suite; open must return a new empty store, which
// Run closes.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Players", testPlayers},
		{"Keys", testKeys},
		{"Tables", testTables},
		{"ClaimSeat", testClaimSeat},
		{"AppendAction", testAppendAction},
		{"ConcurrentAppend", testConcurrentAppend},
		{"FinishAndStats", testFinishAndStats},
		{"FailTable", testFailTable},
		{"ExpireWaiting", testExpireWaiting},
		{"ExpireIdle", testExpireIdle},
		{"CountTables", testCountTables},
		{"Health", testHealth},
		{"Messages", testMessages},
		{"Ratings", testRatings},
		{"Accounts", testAccounts},
		{"Chat", testChat},
		{"Tournaments", testTournaments},
		{"Ceremonies", testCeremonies},
		{"Sessions", testSessions},
		{"LookAlikes", testLookAlikes},
		{"Invitations", testInvitations},
		{"OpenSeatsIndex", testOpenSeatsIndex},
		{"ExpireGuests", testExpireGuests},
		{"LocalGames", testLocalGames},
		{"ImportLong", testImportLong},
		{"Moderators", testModerators},
		{"Sanctions", testSanctions},
		{"ModeratedChat", testModeratedChat},
		{"Rename", testRename},
		{"Reports", testReports},
		{"LoseOnTime", testLoseOnTime},
		{"Adjourn", testAdjourn},
		{"Follows", testFollows},
		{"TableTournament", testTableTournament},
		{"AccountFlags", testAccountFlags},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			tc.fn(t, s)
		})
	}
}

func wantCode(t *testing.T, err error, code, what string) {
	t.Helper()
	if got := store.Code(err); got != code {
		t.Fatalf("%s: error %v (code %q), want code %q", what, err, got, code)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func testPlayers(t *testing.T, s store.Store) {
	ctx := context.Background()
	p := store.Player{ID: "p1", Name: "Ann <b>", TokenHash: "h1", Created: time.Unix(100, 0)}
	must(t, s.CreatePlayer(ctx, p))
	wantCode(t, s.CreatePlayer(ctx, p), store.ECONFLICT, "same ID twice")
	wantCode(t, s.CreatePlayer(ctx, store.Player{ID: "p2", Name: "B", TokenHash: "h1"}), store.ECONFLICT, "same token hash twice")
	got, err := s.PlayerByToken(ctx, "h1")
	must(t, err)
	if got.ID != "p1" || got.Name != "Ann <b>" || !got.Created.Equal(p.Created) {
		t.Fatalf("PlayerByToken = %+v, want %+v", got, p)
	}
	got, err = s.Player(ctx, "p1")
	must(t, err)
	if got.TokenHash != "h1" {
		t.Fatalf("Player = %+v", got)
	}
	_, err = s.PlayerByToken(ctx, "nope")
	wantCode(t, err, store.ENOTFOUND, "unknown token")
	_, err = s.Player(ctx, "nope")
	wantCode(t, err, store.ENOTFOUND, "unknown player")
	wantCode(t, s.CreatePlayer(ctx, store.Player{ID: "", TokenHash: "x"}), store.EINVALID, "empty ID")
}

func testKeys(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "h1"}))
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p2", Name: "Bob", TokenHash: "h2"}))
	_, err := s.PlayerByKey(ctx, "SHA256:a")
	wantCode(t, err, store.ENOTFOUND, "a key nobody has")
	must(t, s.AddKey(ctx, "SHA256:a", "p1"))
	must(t, s.AddKey(ctx, "SHA256:b", "p1")) // a second key of the same player
	must(t, s.AddKey(ctx, "SHA256:c", "p2"))
	wantCode(t, s.AddKey(ctx, "SHA256:a", "p2"), store.ECONFLICT, "a key that is another player's")
	wantCode(t, s.AddKey(ctx, "SHA256:d", "nobody"), store.ENOTFOUND, "a key for no player")
	wantCode(t, s.AddKey(ctx, "", "p1"), store.EINVALID, "a key without a fingerprint")
	for fp, want := range map[string]string{"SHA256:a": "Ann", "SHA256:b": "Ann", "SHA256:c": "Bob"} {
		p, err := s.PlayerByKey(ctx, fp)
		must(t, err)
		if p.Name != want {
			t.Errorf("PlayerByKey(%s) = %+v, want %s", fp, p, want)
		}
	}
	_, err = s.PlayerByKey(ctx, "SHA256:d")
	wantCode(t, err, store.ENOTFOUND, "the key refused above")
}

// farkle is the ordinary game the suite plays: the classic rules to 2000.
func farkle(t *testing.T) game.Variant {
	t.Helper()
	r := rules.MustPreset("classic")
	r.Game.Target = 2000
	v, err := game.NewFarkle(r)
	must(t, err)
	return v
}

// dragonFarkle is Dragon Farkle with its default rules and cards: the
// preset of its kind, found through game alone.
func dragonFarkle() game.Variant {
	name, ok := game.PresetOf(game.Dragon)
	if !ok {
		panic("storetest: no preset of Dragon Farkle")
	}
	v, _ := game.Preset(name)
	return v
}

// newTable is a waiting table of the ordinary game.
func newTable(t *testing.T, id string, seats ...store.Seat) store.Table {
	return tableOf(farkle(t), id, seats...)
}

// tableOf is a waiting table of v.
func tableOf(v game.Variant, id string, seats ...store.Seat) store.Table {
	return store.Table{ID: id, Kind: v.Kind(), Rules: v.Rules(), Seats: seats, Seed: dice.SeedFrom(id), Status: store.Waiting}
}

func testTables(t *testing.T, s store.Store) {
	ctx := context.Background()
	pocket, err := game.NewFarkle(rules.MustPreset("pocket-farkel"))
	must(t, err)
	a := tableOf(pocket, "a", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
	a.Created = time.Unix(10, 0)
	must(t, s.CreateTable(ctx, a))
	wantCode(t, s.CreateTable(ctx, a), store.ECONFLICT, "same table twice")
	wantCode(t, s.CreateTable(ctx, store.Table{ID: "x", Kind: game.Farkle, Rules: a.Rules}), store.EINVALID, "no seats")
	wantCode(t, s.CreateTable(ctx, store.Table{ID: "x", Rules: a.Rules, Seats: a.Seats}), store.EINVALID, "no kind")
	wantCode(t, s.CreateTable(ctx, store.Table{ID: "x", Kind: game.Farkle, Rules: json.RawMessage(`{"name":`), Seats: a.Seats}), store.EINVALID, "rules not JSON")
	b := tableOf(dragonFarkle(), "b", store.Seat{Name: "Bea", PlayerID: "p2"}, store.Seat{})
	b.Created = time.Unix(20, 0)
	must(t, s.CreateTable(ctx, b))
	for _, want := range []store.Table{a, b} {
		got, err := s.Table(ctx, want.ID)
		must(t, err)
		v, err := got.Variant()
		if err != nil || got.Kind != want.Kind || v.Kind() != want.Kind || !sameJSON(v.Rules(), want.Rules) {
			t.Errorf("Table(%s): kind %q rules %s (%v), want %q %s", want.ID, got.Kind, got.Rules, err, want.Kind, want.Rules)
		}
	}

	got, err := s.Table(ctx, "a")
	must(t, err)
	if !reflect.DeepEqual(got.Seats, a.Seats) || got.Seed != a.Seed || got.Status != store.Waiting || got.Actions != 0 {
		t.Errorf("Table(a) = %+v, want %+v", got, a)
	}
	if got.Commitment() != dice.SeedFrom("a").Commitment() {
		t.Error("commitment differs from the seed's")
	}
	_, err = s.Table(ctx, "zz")
	wantCode(t, err, store.ENOTFOUND, "unknown table")

	list, err := s.Tables(ctx, store.TableFilter{})
	must(t, err)
	if ids(list) != "[b a]" {
		t.Errorf("Tables() = %s, want [b a] (latest first)", ids(list))
	}
	list, err = s.Tables(ctx, store.TableFilter{PlayerID: "p1"})
	must(t, err)
	if ids(list) != "[a]" {
		t.Errorf("Tables(p1) = %s, want [a]", ids(list))
	}
	list, err = s.Tables(ctx, store.TableFilter{Status: []store.Status{store.Playing, store.Over}})
	must(t, err)
	if len(list) != 0 {
		t.Errorf("Tables(playing, over) = %s, want none", ids(list))
	}
	list, err = s.Tables(ctx, store.TableFilter{Limit: 1})
	must(t, err)
	if len(list) != 1 {
		t.Errorf("Tables(limit 1) = %s", ids(list))
	}
}

func ids(ts []store.Table) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return fmt.Sprint(out)
}

func testClaimSeat(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreateTable(ctx, newTable(t, "t", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{}, store.Seat{}, store.Seat{Name: "Bot", Bot: "steady"})))
	wantCode(t, s.ClaimSeat(ctx, "t", 0, "p2", "Bea", ""), store.ECONFLICT, "taken seat")
	wantCode(t, s.ClaimSeat(ctx, "t", 3, "p2", "Bea", ""), store.ECONFLICT, "bot seat")
	wantCode(t, s.ClaimSeat(ctx, "t", 4, "p2", "Bea", ""), store.ECONFLICT, "no such seat")
	wantCode(t, s.ClaimSeat(ctx, "zz", 1, "p2", "Bea", ""), store.ENOTFOUND, "no such table")
	must(t, s.ClaimSeat(ctx, "t", 1, "p2", "Bea", ""))
	wantCode(t, s.ClaimSeat(ctx, "t", 1, "p3", "Cy", ""), store.ECONFLICT, "seat just taken")
	got, _ := s.Table(ctx, "t")
	if got.Seats[1].PlayerID != "p2" || got.Seats[1].Name != "Bea" || got.Status != store.Waiting {
		t.Fatalf("after claim: %+v", got)
	}
	must(t, s.ClaimSeat(ctx, "t", 2, "p3", "Cy", store.Playing))
	got, _ = s.Table(ctx, "t")
	if got.Status != store.Playing || got.Seats[2].PlayerID != "p3" {
		t.Fatalf("after the last claim: %+v", got)
	}
	wantCode(t, s.ClaimSeat(ctx, "t", 1, "p4", "Di", ""), store.ECONFLICT, "claim on a playing table")
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// play plays a whole game of the ordinary game, choosing among the legal
// actions at random from the table's id, and returns it.
func play(t *testing.T, id string) *game.Play { return playOf(t, farkle(t), id) }

// playOf is play for v.
func playOf(t *testing.T, v game.Variant, id string) *game.Play {
	t.Helper()
	p, _, err := game.Start(v, []string{"Ann", "Bot"}, dice.SeedFrom(id))
	must(t, err)
	h := fnv.New64a()
	h.Write([]byte(id))
	pick := rand.New(rand.NewPCG(h.Sum64(), 1))
	for n := 0; !p.Game().Over(); n++ {
		if n > 5000 {
			t.Fatalf("game %s: no end after 5000 actions", id)
		}
		seat := p.Game().ToAct()
		legal := p.Game().Legal(seat)
		_, err := p.Do(seat, legal[pick.IntN(len(legal))])
		must(t, err)
	}
	return p
}

// sameActions reports whether the stored actions are those appended.
func sameActions(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(bytes.TrimSpace(a[i]), bytes.TrimSpace(b[i])) && !sameJSON(a[i], b[i]) {
			return false
		}
	}
	return true
}

func testAppendAction(t *testing.T, s store.Store) {
	ctx := context.Background()
	g := play(t, "g")
	tb := newTable(t, "g", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
	must(t, s.CreateTable(ctx, tb))
	acts := g.Record().Actions
	wantCode(t, s.AppendAction(ctx, "g", 2, acts[1], nil), store.ECONFLICT, "action 2 first")
	wantCode(t, s.AppendAction(ctx, "g", 1, json.RawMessage(`{"type":`), nil), store.EINVALID, "an action that is not JSON")
	wantCode(t, s.AppendAction(ctx, "zz", 1, acts[0], nil), store.ENOTFOUND, "unknown table")
	for i, e := range acts[:5] {
		must(t, s.AppendAction(ctx, "g", i+1, e, nil))
	}
	wantCode(t, s.AppendAction(ctx, "g", 5, acts[4], nil), store.ECONFLICT, "action 5 twice")
	got, err := s.Table(ctx, "g")
	must(t, err)
	if got.Actions != 5 || got.Status != store.Playing {
		t.Fatalf("after 5 actions: actions %d status %s", got.Actions, got.Status)
	}
	stored, err := s.Actions(ctx, "g")
	must(t, err)
	if !sameActions(stored, acts[:5]) {
		t.Fatalf("Actions = %s, want %s", stored, acts[:5])
	}
	// From action k on: the last 5-k+1 (all from 1 or less; none after 5).
	for from := -1; from <= 7; from++ {
		tail, err := s.ActionsFrom(ctx, "g", from)
		must(t, err)
		want := acts[min(max(from, 1), 6)-1 : 5]
		if !sameActions(tail, want) || len(tail) != len(want) {
			t.Fatalf("ActionsFrom(%d) = %s, want %s", from, tail, want)
		}
	}
	// The stored actions and the seed resume the same game.
	v, err := got.Variant()
	must(t, err)
	rec := game.NewRecord(v, []string{"Ann", "Bot"}, got.Seed)
	rec.Actions = stored
	res, _, err := game.Resume(rec, got.Seed)
	must(t, err)
	if res.Game().Version() != 5 {
		t.Fatalf("resumed version %d", res.Game().Version())
	}
	_, err = s.FinalRecord(ctx, "g")
	wantCode(t, err, store.ENOTFOUND, "final record of a game in play")
}

// testConcurrentAppend races writers for every action number: exactly one
// wins each, so no action is lost or doubled.
func testConcurrentAppend(t *testing.T, s store.Store) {
	ctx := context.Background()
	g := play(t, "c")
	must(t, s.CreateTable(ctx, newTable(t, "c", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})))
	acts := g.Record().Actions[:20]
	var wins atomic.Int64
	for i, e := range acts {
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := s.AppendAction(ctx, "c", i+1, e, nil)
				switch store.Code(err) {
				case "":
					if err == nil {
						wins.Add(1)
					} else {
						t.Error(err)
					}
				case store.ECONFLICT:
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	if wins.Load() != int64(len(acts)) {
		t.Fatalf("%d appends won, want %d", wins.Load(), len(acts))
	}
	stored, err := s.Actions(ctx, "c")
	must(t, err)
	if !sameActions(stored, acts) {
		t.Fatal("stored actions differ from those appended")
	}
}

// results are the result lines of a finished game: its scores and
// winners, and counts made up from its length (the store keeps what it is
// given).
func results(p *game.Play, keys []string) []store.Result {
	var out []store.Result
	g := p.Game()
	n := len(p.Record().Actions)
	for i, name := range g.Players() {
		won := false
		for _, w := range g.Winners() {
			won = won || w == i
		}
		out = append(out, store.Result{Seat: i, PlayerKey: keys[i], Name: name, Score: g.Scores()[i], Won: won,
			Turns: n/2 + i, Farkles: n / 7, Banked: g.Scores()[i], BestTurn: n * (i + 1), Penalties: i})
	}
	return out
}

// finish is what is stored with the last action of p.
func finish(p *game.Play, keys []string) *store.Finish {
	return &store.Finish{Record: p.Record(), Winners: p.Game().Winners(), Scores: p.Game().Scores(), Results: results(p, keys)}
}

func testFinishAndStats(t *testing.T, s store.Store) {
	ctx := context.Background()
	var want [2]store.Stats
	byKind := map[game.Kind]*[2]store.Stats{game.Farkle: {}, game.Dragon: {}}
	keys := []string{"p1", "bot:steady"}
	// Games of every kind count alike.
	for id, v := range map[string]game.Variant{"f1": farkle(t), "f2": dragonFarkle(), "f3": farkle(t)} {
		g := playOf(t, v, id)
		must(t, s.CreateTable(ctx, tableOf(v, id, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})))
		acts := g.Record().Actions
		for i, e := range acts[:len(acts)-1] {
			must(t, s.AppendAction(ctx, id, i+1, e, nil))
		}
		fin := finish(g, keys)
		must(t, s.AppendAction(ctx, id, len(acts), acts[len(acts)-1], fin))
		wantCode(t, s.AppendAction(ctx, id, len(acts)+1, acts[0], nil), store.ECONFLICT, "action after the end")
		got, err := s.Table(ctx, id)
		must(t, err)
		if got.Status != store.Over || !reflect.DeepEqual(got.Winners, fin.Winners) || !reflect.DeepEqual(got.Scores, fin.Scores) {
			t.Fatalf("finished table %+v", got)
		}
		rec, err := s.FinalRecord(ctx, id)
		must(t, err)
		if rec.Kind != v.Kind() {
			t.Fatalf("stored record of kind %q, want %q", rec.Kind, v.Kind())
		}
		if _, _, err := game.Verify(rec); err != nil {
			t.Fatalf("stored record does not verify: %v", err)
		}
		if rec.Seed != dice.SeedFrom(id).Hex() {
			t.Fatal("stored record lacks the revealed seed")
		}
		for i, r := range fin.Results {
			for _, w := range []*store.Stats{&want[i], &byKind[v.Kind()][i]} {
				w.PlayerKey, w.Name = keys[i], r.Name
				w.Games++
				w.Turns += r.Turns
				w.Farkles += r.Farkles
				w.Banked += r.Banked
				w.BestTurn = max(w.BestTurn, r.BestTurn)
				w.Score += r.Score
				w.BestScore = max(w.BestScore, r.Score)
				if r.Won {
					w.Wins++
				}
			}
		}
	}
	for i, k := range keys {
		got, err := s.Stats(ctx, k)
		must(t, err)
		if got != want[i] {
			t.Errorf("Stats(%s) = %+v, want %+v", k, got, want[i])
		}
	}
	none, err := s.Stats(ctx, "nobody")
	must(t, err)
	if none.Games != 0 || none.PlayerKey != "nobody" {
		t.Errorf("Stats(nobody) = %+v", none)
	}
	lb, err := s.Leaderboard(ctx, "", 1, 10)
	must(t, err)
	if len(lb) != 2 {
		t.Fatalf("leaderboard has %d lines, want 2", len(lb))
	}
	if lb[0].Wins < lb[1].Wins {
		t.Errorf("leaderboard not by wins: %+v", lb)
	}
	lb, err = s.Leaderboard(ctx, "", 4, 10)
	must(t, err)
	if len(lb) != 0 {
		t.Errorf("leaderboard with min 4 games: %+v, want none", lb)
	}
	// A kind's leaderboard sums that kind's games only (Dragon Farkle's
	// wins table is its own).
	for kind, want := range byKind {
		lb, err := s.Leaderboard(ctx, kind, 1, 10)
		must(t, err)
		got := map[string]store.Stats{}
		for _, st := range lb {
			got[st.PlayerKey] = st
		}
		for i, k := range keys {
			if got[k] != want[i] {
				t.Errorf("the %s leaderboard's %s = %+v, want %+v", kind, k, got[k], want[i])
			}
		}
	}
	over, err := s.Tables(ctx, store.TableFilter{Status: []store.Status{store.Over}})
	must(t, err)
	if len(over) != 3 {
		t.Errorf("%d tables over, want 3", len(over))
	}
	// A bot's games are those of its results (it holds no player's seat).
	for key, want := range map[string]int{"bot:steady": 3, "p1": 3, "bot:nobody": 0} {
		got, err := s.Tables(ctx, store.TableFilter{ResultOf: key, Status: []store.Status{store.Over}})
		must(t, err)
		if len(got) != want {
			t.Errorf("the tables of %s's results: %d, want %d", key, len(got), want)
		}
	}
}

// testFailTable: a waiting or playing table fails with its reason, keeps
// its actions, and takes no more; an ended table cannot fail.
func testFailTable(t *testing.T, s store.Store) {
	ctx := context.Background()
	g := play(t, "pf")
	must(t, s.CreateTable(ctx, newTable(t, "pf", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})))
	must(t, s.CreateTable(ctx, newTable(t, "wf", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{})))
	acts := g.Record().Actions
	for i, e := range acts[:3] {
		must(t, s.AppendAction(ctx, "pf", i+1, e, nil))
	}
	must(t, s.FailTable(ctx, "pf", "the bots could not be prepared"))
	must(t, s.FailTable(ctx, "wf", "the rules are refused"))
	for id, reason := range map[string]string{"pf": "the bots could not be prepared", "wf": "the rules are refused"} {
		got, err := s.Table(ctx, id)
		must(t, err)
		if got.Status != store.Failed || got.Reason != reason {
			t.Fatalf("table %s after FailTable: status %q reason %q, want failed %q", id, got.Status, got.Reason, reason)
		}
	}
	stored, err := s.Actions(ctx, "pf")
	must(t, err)
	if !sameActions(stored, acts[:3]) {
		t.Fatalf("actions of a failed table: %d, want its 3", len(stored))
	}
	wantCode(t, s.AppendAction(ctx, "pf", 4, acts[3], nil), store.ECONFLICT, "append to a failed table")
	wantCode(t, s.ClaimSeat(ctx, "wf", 1, "p2", "Bea", ""), store.ECONFLICT, "claim at a failed table")
	wantCode(t, s.FailTable(ctx, "pf", "again"), store.ECONFLICT, "failing a failed table")
	wantCode(t, s.FailTable(ctx, "zz", "x"), store.ENOTFOUND, "failing no table")
	if got, _ := s.Table(ctx, "pf"); got.Reason != "the bots could not be prepared" || got.Actions != 3 {
		t.Fatalf("a refused FailTable changed the table: %+v", got)
	}

	// A finished table cannot fail.
	h := play(t, "of")
	must(t, s.CreateTable(ctx, newTable(t, "of", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})))
	hs := h.Record().Actions
	for i, e := range hs[:len(hs)-1] {
		must(t, s.AppendAction(ctx, "of", i+1, e, nil))
	}
	fin := finish(h, []string{"p1", "bot:steady"})
	must(t, s.AppendAction(ctx, "of", len(hs), hs[len(hs)-1], fin))
	wantCode(t, s.FailTable(ctx, "of", "late"), store.ECONFLICT, "failing a table that is over")
	if got, _ := s.Table(ctx, "of"); got.Status != store.Over || got.Reason != "" {
		t.Fatalf("finished table after a refused FailTable: %+v", got)
	}
	list, err := s.Tables(ctx, store.TableFilter{Status: []store.Status{store.Failed}})
	must(t, err)
	if ids(list) != "[wf pf]" && ids(list) != "[pf wf]" {
		t.Fatalf("failed tables = %s, want pf and wf", ids(list))
	}
}

// testExpireWaiting: waiting tables last updated before the time expire,
// the others (newer, playing) do not.
func testExpireWaiting(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i, id := range []string{"old1", "old2", "new"} {
		tb := newTable(t, id, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{})
		tb.Created = time.Unix(int64(10+10*i), 0) // 10, 20, 30
		must(t, s.CreateTable(ctx, tb))
	}
	pl := newTable(t, "busy", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
	pl.Created = time.Unix(5, 0)
	pl.Status = store.Playing
	must(t, s.CreateTable(ctx, pl))
	got, err := s.ExpireWaiting(ctx, time.Unix(25, 0), "nobody joined within a day")
	must(t, err)
	if fmt.Sprint(got) != "[old1 old2]" {
		t.Fatalf("ExpireWaiting = %v, want [old1 old2]", got)
	}
	for id, want := range map[string]store.Status{"old1": store.Expired, "old2": store.Expired, "new": store.Waiting, "busy": store.Playing} {
		tb, err := s.Table(ctx, id)
		must(t, err)
		if tb.Status != want {
			t.Errorf("table %s is %q, want %q", id, tb.Status, want)
		}
		if want == store.Expired && tb.Reason != "nobody joined within a day" {
			t.Errorf("table %s reason %q", id, tb.Reason)
		}
	}
	wantCode(t, s.ClaimSeat(ctx, "old1", 1, "p2", "Bea", ""), store.ECONFLICT, "claim at an expired table")
	g := play(t, "old2")
	wantCode(t, s.AppendAction(ctx, "old2", 1, g.Record().Actions[0], nil), store.ECONFLICT, "append to an expired table")
	wantCode(t, s.FailTable(ctx, "old2", "x"), store.ECONFLICT, "failing an expired table")
	again, err := s.ExpireWaiting(ctx, time.Unix(25, 0), "again")
	must(t, err)
	if len(again) != 0 {
		t.Fatalf("second ExpireWaiting = %v, want none", again)
	}
}

// testCountTables: counts by status, seat holder and creator, without the
// limit.
func testCountTables(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i := range 5 {
		tb := newTable(t, fmt.Sprint("c", i), store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
		tb.Creator = "p1"
		if i >= 3 {
			tb.Creator = "p2"
			tb.Seats[0].PlayerID = "p2"
		}
		must(t, s.CreateTable(ctx, tb))
	}
	old := newTable(t, "legacy", store.Seat{Name: "X"})
	must(t, s.CreateTable(ctx, old))
	must(t, s.FailTable(ctx, "c0", "broken"))
	for _, tc := range []struct {
		f    store.TableFilter
		want int
	}{
		{store.TableFilter{}, 6},
		{store.TableFilter{Limit: 1}, 6},
		{store.TableFilter{Creator: "p1"}, 3},
		{store.TableFilter{Creator: "p2"}, 2},
		{store.TableFilter{Creator: "p1", Status: []store.Status{store.Waiting, store.Playing}}, 2},
		{store.TableFilter{PlayerID: "p2"}, 2},
		{store.TableFilter{Status: []store.Status{store.Failed}}, 1},
		{store.TableFilter{Creator: "nobody"}, 0},
	} {
		n, err := s.CountTables(ctx, tc.f)
		must(t, err)
		if n != tc.want {
			t.Errorf("CountTables(%+v) = %d, want %d", tc.f, n, tc.want)
		}
		if tc.f.Limit == 0 {
			list, err := s.Tables(ctx, tc.f)
			must(t, err)
			if len(list) != n {
				t.Errorf("Tables(%+v) has %d tables, CountTables says %d", tc.f, len(list), n)
			}
		}
	}
	got, err := s.Table(ctx, "c4")
	must(t, err)
	if got.Creator != "p2" {
		t.Errorf("creator of c4 = %q, want p2", got.Creator)
	}
	if got, _ := s.Table(ctx, "legacy"); got.Creator != "" {
		t.Errorf("creator of a table stored without one = %q", got.Creator)
	}
}

// testHealth: a working store is healthy, again and again, concurrently
// with writes.
func testHealth(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreateTable(ctx, newTable(t, "h", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})))
	g := play(t, "h")
	done := make(chan error, 1)
	go func() {
		for i, e := range g.Record().Actions[:10] {
			if err := s.AppendAction(ctx, "h", i+1, e, nil); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range 5 {
		must(t, s.Health(ctx))
	}
	must(t, <-done)
	must(t, s.Health(ctx))
}

// testMessages: the errors that reach clients read as sentences without
// the package prefix.
func testMessages(t *testing.T, s store.Store) {
	ctx := context.Background()
	_, err := s.Table(ctx, "nope")
	checkMessage(t, err, store.ENOTFOUND)
	must(t, s.CreateTable(ctx, newTable(t, "m", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{})))
	checkMessage(t, s.CreateTable(ctx, newTable(t, "m", store.Seat{Name: "Ann"})), store.ECONFLICT)
	checkMessage(t, s.ClaimSeat(ctx, "m", 0, "p2", "Bea", ""), store.ECONFLICT)
	checkMessage(t, s.CreateTable(ctx, store.Table{ID: "e"}), store.EINVALID)
	checkMessage(t, s.AppendAction(ctx, "m", 1, json.RawMessage("{"), nil), store.EINVALID)
	must(t, s.FailTable(ctx, "m", "r"))
	checkMessage(t, s.FailTable(ctx, "m", "r"), store.ECONFLICT)
}

func checkMessage(t *testing.T, err error, code string) {
	t.Helper()
	wantCode(t, err, code, "message check")
	var e *store.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is not a *store.Error", err)
	}
	m := e.Message()
	if m == "" || m != store.Message(err) || strings.Contains(m, "store:") || strings.Contains(m, "sqlite") || !strings.HasSuffix(err.Error(), m) {
		t.Errorf("message %q of %q: want the error without any package prefix", m, err)
	}
}
