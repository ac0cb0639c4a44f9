package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// testLoseOnTime: a seat marked lost on time reads back so, with every
// other seat as it was, at a playing or an over table; a bot's seat, a
// seat that does not exist and a table that does not exist are refused.
func testLoseOnTime(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "h1"}))
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p2", Name: "Bea", TokenHash: "h2"}))
	tb := newTable(t, "t1", store.Seat{Name: "Ann", PlayerID: "p1", Clock: time.Minute}, store.Seat{Name: "Bea", PlayerID: "p2", Clock: time.Minute}, store.Seat{Name: "Bot", Bot: "steady"})
	tb.Status = store.Playing
	must(t, s.CreateTable(ctx, tb))
	must(t, s.LoseOnTime(ctx, "t1", 1))
	got, err := s.Table(ctx, "t1")
	must(t, err)
	want := append([]store.Seat(nil), tb.Seats...)
	want[1].LostOnTime = true
	if a, b := jsonOf(got.Seats), jsonOf(want); a != b {
		t.Fatalf("seats after seat 1 lost on time:\n%s\nwant\n%s", a, b)
	}
	if got.Status != store.Playing || got.Actions != 0 {
		t.Fatalf("the table changed beyond its seat: %+v", got)
	}
	wantCode(t, s.LoseOnTime(ctx, "t1", 2), store.EINVALID, "a bot's seat")
	wantCode(t, s.LoseOnTime(ctx, "t1", 3), store.EINVALID, "no seat 3")
	wantCode(t, s.LoseOnTime(ctx, "t1", -1), store.EINVALID, "seat -1")
	wantCode(t, s.LoseOnTime(ctx, "nope", 0), store.ENOTFOUND, "no table")
	over := newTable(t, "t2", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bea", PlayerID: "p2"})
	over.Status = store.Over
	must(t, s.CreateTable(ctx, over))
	must(t, s.LoseOnTime(ctx, "t2", 0))
	got, err = s.Table(ctx, "t2")
	must(t, err)
	if !got.Seats[0].LostOnTime || got.Seats[1].LostOnTime {
		t.Fatalf("an over table's seats: %+v", got.Seats)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// testAdjourn: a playing table is adjourned only as it was counted (no
// action since) and only while playing; adjourned, it is not open (no
// cap's count, no player's open tables, no action) nor ended; resumed, it
// is playing again with its actions, and open.
func testAdjourn(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "h1"}))
	tb := newTable(t, "t1", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
	tb.Status, tb.Creator = store.Playing, "p1"
	must(t, s.CreateTable(ctx, tb))
	must(t, s.AppendAction(ctx, "t1", 1, json.RawMessage(`{"kind":"roll-off","player":0}`), nil))
	open := []store.Status{store.Waiting, store.Playing}
	count := func(f store.TableFilter) int {
		t.Helper()
		n, err := s.CountTables(ctx, f)
		must(t, err)
		return n
	}
	if n := count(store.TableFilter{Creator: "p1", Status: open}); n != 1 {
		t.Fatalf("p1's open tables before: %d", n)
	}
	wantCode(t, s.Adjourn(ctx, "t1", 0), store.ECONFLICT, "adjourning a table that has moved on since its actions were counted")
	wantCode(t, s.Resume(ctx, "t1"), store.ECONFLICT, "resuming a playing table")
	wantCode(t, s.Adjourn(ctx, "nope", 0), store.ENOTFOUND, "adjourning no table")
	must(t, s.Adjourn(ctx, "t1", 1))
	got, err := s.Table(ctx, "t1")
	must(t, err)
	if got.Status != store.Adjourned || got.Status.Ended() || got.Actions != 1 {
		t.Fatalf("adjourned: %+v", got)
	}
	if n := count(store.TableFilter{Creator: "p1", Status: open}); n != 0 {
		t.Fatalf("p1's open tables while adjourned: %d, want 0", n)
	}
	mine, err := s.Tables(ctx, store.TableFilter{PlayerID: "p1", Status: open})
	wantIDs(t, "p1's open tables while adjourned", mine, err)
	mine, err = s.Tables(ctx, store.TableFilter{PlayerID: "p1", Status: []store.Status{store.Adjourned}})
	wantIDs(t, "p1's adjourned tables", mine, err, "t1")
	wantCode(t, s.AppendAction(ctx, "t1", 2, json.RawMessage(`{"kind":"roll-off","player":1}`), nil), store.ECONFLICT, "an action at an adjourned table")
	wantCode(t, s.Adjourn(ctx, "t1", 1), store.ECONFLICT, "adjourning twice")
	must(t, s.Resume(ctx, "t1"))
	wantCode(t, s.Resume(ctx, "t1"), store.ECONFLICT, "resuming twice")
	got, err = s.Table(ctx, "t1")
	must(t, err)
	if got.Status != store.Playing || got.Actions != 1 {
		t.Fatalf("resumed: %+v", got)
	}
	mine, err = s.Tables(ctx, store.TableFilter{PlayerID: "p1", Status: open})
	wantIDs(t, "p1's open tables once resumed", mine, err, "t1")
	must(t, s.AppendAction(ctx, "t1", 2, json.RawMessage(`{"kind":"roll-off","player":1}`), nil))
}

// testFollows: a follow is stored once, listed latest first with the
// name, capped, refused for oneself or nobody, and removed; the followed
// players' open games are listed (their seats held, not their
// invitations, not their ended tables), and only those of players
// followed.
func testFollows(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, p := range []string{"p1", "p2", "p3", "p4"} {
		must(t, s.CreatePlayer(ctx, store.Player{ID: p, Name: "Name " + p, TokenHash: "h" + p}))
	}
	follow := func(by, whom string, at int64, max int) error {
		return s.Follow(ctx, store.Follow{Follower: by, Followed: whom, Created: time.Unix(at, 0)}, max)
	}
	must(t, follow("p1", "p2", 10, 2))
	must(t, follow("p1", "p2", 11, 2)) // again: nothing changes
	must(t, follow("p1", "p3", 20, 2))
	wantCode(t, follow("p1", "p4", 30, 2), store.ECONFLICT, "a third follow over a cap of 2")
	wantCode(t, follow("p1", "p1", 30, 0), store.EINVALID, "following oneself")
	wantCode(t, follow("p1", "nobody", 30, 0), store.ENOTFOUND, "following nobody")
	got, err := s.Following(ctx, "p1", 0)
	must(t, err)
	if len(got) != 2 || got[0].Followed != "p3" || got[0].Name != "Name p3" || got[1].Followed != "p2" || !got[1].Created.Equal(time.Unix(10, 0)) {
		t.Fatalf("p1 follows %+v", got)
	}
	table := func(id string, updated int64, status store.Status, seats ...store.Seat) {
		t.Helper()
		tb := newTable(t, id, seats...)
		tb.Created, tb.Status = time.Unix(updated, 0), status
		must(t, s.CreateTable(ctx, tb))
	}
	table("t1", 100, store.Playing, store.Seat{Name: "p2", PlayerID: "p2"}, store.Seat{Name: "Bot", Bot: "steady"})
	table("t2", 200, store.Waiting, store.Seat{Name: "p3", PlayerID: "p3"}, store.Seat{Name: "free"})
	table("t3", 300, store.Over, store.Seat{Name: "p2", PlayerID: "p2"}, store.Seat{Name: "Bot", Bot: "steady"})
	table("t4", 400, store.Waiting, store.Seat{Name: "p4", PlayerID: "p4"}, store.Seat{Name: "p2", Invited: "p2"})
	table("t5", 500, store.Playing, store.Seat{Name: "p4", PlayerID: "p4"}, store.Seat{Name: "Bot", Bot: "steady"})
	games, err := s.FollowedGames(ctx, "p1", 0)
	wantIDs(t, "the games of those p1 follows", games, err, "t2", "t1")
	games, err = s.FollowedGames(ctx, "p1", 1)
	wantIDs(t, "the first game of those p1 follows", games, err, "t2")
	games, err = s.FollowedGames(ctx, "p2", 0)
	wantIDs(t, "the games of those p2 follows (nobody)", games, err)
	must(t, s.Unfollow(ctx, "p1", "p3"))
	must(t, s.Unfollow(ctx, "p1", "p3")) // again: no error
	got, err = s.Following(ctx, "p1", 0)
	must(t, err)
	if len(got) != 1 || got[0].Followed != "p2" {
		t.Fatalf("p1 follows after unfollowing p3: %+v", got)
	}
	games, err = s.FollowedGames(ctx, "p1", 0)
	wantIDs(t, "the games of those p1 follows after unfollowing p3", games, err, "t1")
	must(t, follow("p1", "p4", 40, 2))
}
