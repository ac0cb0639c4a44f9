package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/sqlite"
)

// fillStore stores players and tables of every kind and status in db: two
// finished games (ordinary and Dragon Farkle) with their results, one in
// play, one waiting, one failed and one expired. It returns the number of
// actions stored.
func fillStore(t *testing.T, db store.Store) int {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "h1", Created: time.Unix(0, 1_700_000_000_123_456_789)}))
	must(db.CreatePlayer(ctx, store.Player{ID: "p2", Name: "Bea", TokenHash: "h2"}))
	r := rules.MustPreset("classic")
	r.Game.Target = 1500
	fv, err := game.NewFarkle(r)
	must(err)
	dv := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	seats := func() []store.Seat {
		return []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}
	}
	actions := 0
	for i, tc := range []struct {
		id   string
		v    game.Variant
		upto int // actions to store; -1: the whole game
	}{{"over1", fv, -1}, {"over2", dv, -1}, {"play", fv, 7}, {"fail", fv, 3}, {"old", fv, 0}, {"wait", fv, 0}} {
		tb := store.Table{ID: tc.id, Kind: tc.v.Kind(), Rules: tc.v.Rules(), Seats: seats(), Seed: dice.SeedFrom(tc.id), Creator: "p1",
			Created: time.Unix(int64(1000+i), 0)}
		if tc.id == "wait" || tc.id == "old" {
			tb.Seats[1] = store.Seat{}
		}
		must(db.CreateTable(ctx, tb))
		p, _, err := game.Start(tc.v, []string{"Ann", "Bot"}, tb.Seed)
		must(err)
		pick := rand.New(rand.NewPCG(uint64(i), 7))
		for n := 1; !p.Game().Over() && (tc.upto < 0 || n <= tc.upto); n++ {
			g := p.Game()
			legal := g.Legal(g.ToAct())
			_, err := p.Do(g.ToAct(), legal[pick.IntN(len(legal))])
			must(err)
			var fin *store.Finish
			if p.Game().Over() {
				g := p.Game()
				fin = &store.Finish{Record: p.Record(), Winners: g.Winners(), Scores: g.Scores()}
				for s := range 2 {
					fin.Results = append(fin.Results, store.Result{Seat: s, PlayerKey: []string{"p1", "bot:steady"}[s], Name: "x", Score: g.Scores()[s], Turns: n, Won: s == g.Winners()[0]})
				}
			}
			must(db.AppendAction(ctx, tc.id, n, p.Record().Actions[n-1], fin))
			actions++
		}
	}
	must(db.FailTable(ctx, "fail", "its bots cannot be made"))
	ids, err := db.ExpireWaiting(ctx, time.Unix(1005, 0), "nobody joined")
	must(err)
	if fmt.Sprint(ids) != "[old]" {
		t.Fatalf("expired %v", ids)
	}
	return actions
}

func TestDBCopy(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	path := filepath.Join(t.TempDir(), "farkle.db")
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	actions := fillStore(t, src)
	src.Close()

	out, errOut, code := runFarkle(t, "", "db", "copy", "--from", path, "--to", dsn)
	if code != 0 {
		t.Fatalf("db copy: exit %d: %s", code, errOut)
	}
	want := fmt.Sprintf("copied 2 players, 6 tables (2 over, every record verified), %d actions and 4 results", actions)
	if !strings.Contains(out, want) || !strings.Contains(out, "checked") {
		t.Fatalf("db copy said %q, want %q", out, want)
	}
	// The copy is the same through the store interface: every table, its
	// actions, its record.
	dst, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	for _, st := range []store.Status{store.Over, store.Playing, store.Waiting, store.Failed, store.Expired} {
		n, err := dst.CountTables(ctx, store.TableFilter{Status: []store.Status{st}})
		if err != nil || n == 0 {
			t.Errorf("%d %s tables copied (%v)", n, st, err)
		}
	}
	if p, err := dst.Player(ctx, "p1"); err != nil || p.Created.UnixNano() != 1_700_000_000_123_456_789 {
		t.Errorf("player p1 after the copy: %+v, %v (want its creation time to the nanosecond)", p, err)
	}

	// A second copy to the same target is refused, and with --force it
	// stops at the first row already there.
	_, errOut, code = runFarkle(t, "", "db", "copy", "--from", path, "--to", dsn)
	if code == 0 || !strings.Contains(errOut, "already holds") {
		t.Fatalf("copy to a non-empty target: exit %d, %q", code, errOut)
	}
	_, errOut, code = runFarkle(t, "", "db", "copy", "--force", "--from", path, "--to", dsn)
	if code == 0 || !strings.Contains(errOut, "already exists") {
		t.Fatalf("forced copy over the same rows: exit %d, %q", code, errOut)
	}

	// The check finds a changed action.
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE actions SET entry = '{"type":"bank"}' WHERE table_id = 'play' AND n = 2`); err != nil {
		t.Fatal(err)
	}
	src, err = sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := checkCopy(ctx, src, dst); err == nil || !strings.Contains(err.Error(), "action 2 of table play") {
		t.Fatalf("check of a changed copy: %v", err)
	}
}

func TestDBCopyUsage(t *testing.T) {
	for _, args := range [][]string{{"db"}, {"db", "move"}, {"db", "copy", "--from", "x.db"}} {
		_, errOut, code := runFarkle(t, "", args...)
		checkBadInput(t, errOut, code, "db")
	}
}

// TestDBCopyLeavesNothingSilently: a source with data the copy does not
// move (an SSH key, a chat line) is refused, naming what would be left;
// with --partial the games are copied all the same.
func TestDBCopyLeavesNothingSilently(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	path := filepath.Join(t.TempDir(), "farkle.db")
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fillStore(t, src)
	if err := src.AddKey(ctx, "SHA256:abc", "p1"); err != nil {
		t.Fatal(err)
	}
	if _, err := src.AddChat(ctx, store.ChatLine{TableID: "play", PlayerID: "p1", Name: "Ann", Text: "hello"}, 0); err != nil {
		t.Fatal(err)
	}
	src.Close()
	_, errOut, code := runFarkle(t, "", "db", "copy", "--from", path, "--to", dsn)
	if code == 0 || !strings.Contains(errOut, "1 SSH keys") || !strings.Contains(errOut, "1 chat lines") || !strings.Contains(errOut, "--partial") {
		t.Fatalf("copy of a source with keys and chat: exit %d, %q", code, errOut)
	}
	dst, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if n, err := dst.CountTables(ctx, store.TableFilter{}); err != nil || n != 0 {
		t.Fatalf("a refused copy wrote %d tables (%v)", n, err)
	}
	out, errOut, code := runFarkle(t, "", "db", "copy", "--partial", "--from", path, "--to", dsn)
	if code != 0 || !strings.Contains(out, "copied 2 players") {
		t.Fatalf("copy --partial: exit %d, %q %q", code, out, errOut)
	}
}

// TestDBCopyCreatesNothing: a copy from a file that does not exist, from a
// directory, from a PostgreSQL URL, or to a SQLite path is bad usage that
// says what is wrong, and leaves no file behind (opening a SQLite path
// would create one).
func TestDBCopyCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	missing, target := filepath.Join(dir, "missing.db"), filepath.Join(dir, "target.db")
	for _, c := range []struct {
		args    []string
		mention string
	}{
		{[]string{"--from", missing, "--to", "postgres://127.0.0.1:1/none"}, missing},
		{[]string{"--from", dir, "--to", "postgres://127.0.0.1:1/none"}, dir},
		{[]string{"--from", "postgres://127.0.0.1:1/none", "--to", "postgres://127.0.0.1:1/other"}, "SQLite"},
		{[]string{"--from", missing, "--to", target}, "PostgreSQL"},
	} {
		_, errOut, code := runFarkle(t, "", append([]string{"db", "copy"}, c.args...)...)
		checkBadInput(t, errOut, code, c.mention)
		for _, p := range []string{missing, target, missing + "-wal", missing + "-shm"} {
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("db copy %v left %s behind (%v)", c.args, p, err)
			}
		}
	}
}
