package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/solved"
)

// noEnv is an empty environment.
func noEnv(string) string { return "" }

func TestServeSolveFlags(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	build := solveFlags(fs, noEnv)
	dir := t.TempDir()
	if err := fs.Parse([]string{"--solve-memory", "1GiB", "--duel-cache-memory", "100MB", "--solves", "2", "--solve-queue", "0", "--cache", dir, "--cache-dir-max", "0",
		"--three-solve-triples", "1000", "--three-cache-memory", "10MiB"}); err != nil {
		t.Fatal(err)
	}
	ts, err := build()
	if err != nil {
		t.Fatal(err)
	}
	want := solved.Limits{Solves: 2, Queue: 0, Memory: 1 << 30, DuelCache: 100e6, SoloCache: serveSoloCache, CacheDirMax: 0, NoWait: true, ThreeSolve: 1000, ThreeCache: 10 << 20}
	if got := ts.Limits(); got != want || ts.Dir != dir {
		t.Fatalf("limits %+v in %q, want %+v in %q", got, ts.Dir, want, dir)
	}
	// The defaults; the cache directory from the command's environment.
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	envDir := t.TempDir()
	build = solveFlags(fs, func(k string) string {
		if k == "FARKLE_CACHE_DIR" {
			return envDir
		}
		return ""
	})
	fs.Parse(nil)
	ts, _ = build()
	want = solved.Limits{Solves: 1, Queue: 8, Memory: 512 << 20, DuelCache: 256 << 20, SoloCache: 64 << 20, CacheDirMax: 1 << 30, NoWait: true, ThreeSolve: 64000, ThreeCache: 256 << 20}
	if got := ts.Limits(); got != want || ts.Dir != envDir {
		t.Fatalf("default limits %+v in %q, want %+v in $FARKLE_CACHE_DIR %q", got, ts.Dir, want, envDir)
	}
	// --three-solve-triples 0: no three-player table solved here.
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	build = solveFlags(fs, noEnv)
	if err := fs.Parse([]string{"--three-solve-triples", "0"}); err != nil {
		t.Fatal(err)
	}
	if ts, err := build(); err != nil || ts.Limits().ThreeSolve != 0 {
		t.Fatalf("--three-solve-triples 0: %v, %+v", err, ts.Limits())
	}
	if f := fs.Lookup("solve-memory"); f.DefValue != "512MiB" {
		t.Fatalf("--solve-memory shows its default as %q", f.DefValue)
	}
	for _, bad := range []string{"12XB", "MiB", "-5MiB", "1e30GiB"} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		solveFlags(fs, noEnv)
		if err := fs.Parse([]string{"--solve-memory", bad}); err == nil || !strings.Contains(err.Error(), "solve-memory") {
			t.Errorf("--solve-memory %s: %v, want an error naming the flag", bad, err)
		}
	}
	_, errOut, code := execFarkle(t, "", "serve", "--solves", "-1")
	if code != 2 || !strings.Contains(errOut, "--solves -1: must be 0 or more") {
		t.Fatalf("serve --solves -1: exit %d, %s", code, errOut)
	}
	_, errOut, code = execFarkle(t, "", "serve", "--three-solve-triples", "-1")
	if code != 2 || !strings.Contains(errOut, "--three-solve-triples -1: must be 0 or more") {
		t.Fatalf("serve --three-solve-triples -1: exit %d, %s", code, errOut)
	}
}

// TestServeHintsUnderLimits: at a table whose duel table is over the
// server's solver memory, the player to act gets hints from the solo
// policy saying why, a watcher gets the odds, and no duel solve runs.
func TestServeHintsUnderLimits(t *testing.T) {
	ts := solved.NewLimitedTables("", solved.Limits{Solves: 1, Queue: 8, Memory: 512 << 20, DuelCache: 256 << 20, SoloCache: 64 << 20, NoWait: true})
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := serveWith(ctx, t, ts)
	big := map[string]any{"base": "classic", "game": map[string]any{"target": 500000}}
	tb, err := c.CreateTable(ctx, big, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "perfect"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	watcher := wsclient.New(c.Base)
	if err := watcher.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	if _, err := watcher.Next(ctx); err != nil { // welcome
		t.Fatal(err)
	}
	rollToMyTurn(ctx, t, c)
	h, err := ask(ctx, watcher, map[string]string{"type": "hint"})
	for err == nil && h.Type == "update" {
		h, err = watcher.Next(ctx)
	}
	if err != nil || h.Type != "hint" || !strings.Contains(string(h.Raw), `"measure":"odds"`) {
		t.Fatalf("watcher's hint: %s %v", h.Raw, err)
	}
	if h, err = ask(ctx, c, map[string]string{"type": "hint"}); err != nil || h.Type != "hint" {
		t.Fatalf("Ann's hint: %s %v", h.Raw, err)
	}
	var body struct {
		Advice struct {
			Measure, Note string
			Choices       []json.RawMessage
		}
	}
	json.Unmarshal(h.Raw, &body)
	if body.Advice.Measure != "points" || !strings.Contains(body.Advice.Note, "win chances are not available: its table would need") || len(body.Advice.Choices) == 0 {
		t.Fatalf("Ann's hint: %s", h.Raw)
	}
	if st := ts.Stats(); st.DuelSolves != 0 || st.Loads != 0 || st.SoloSolves != 1 || st.TooLarge == 0 {
		t.Fatalf("solver stats %+v: want no duel solve, one solo solve shared, the duel refused", st)
	}
}

// TestServeReadsThreeTableOfSolve: a three-player table that farkle solve
// --players 3 (the real binary) wrote to the cache directory is read by
// farkle serve on that directory, which solves none itself
// (--three-solve-triples 0): at a three-seat table of those rules the
// perfect bot plays with it, with no note, while at a table of other
// rules its note says there is no table and how it is made.
func TestServeReadsThreeTableOfSolve(t *testing.T) {
	dir := t.TempDir()
	if out, errOut, code := execFarkle(t, "", "solve", "--players", "3", "--rules", "pocket-farkel", "--target", "800", "--cache", dir); code != 0 || !strings.Contains(out, "three players") {
		t.Fatalf("solve --players 3: exit %d\n%s%s", code, out, errOut)
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	build := solveFlags(fs, noEnv)
	if err := fs.Parse([]string{"--cache", dir, "--three-solve-triples", "0"}); err != nil {
		t.Fatal(err)
	}
	ts, err := build()
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := serveWith(ctx, t, ts)
	type seats struct {
		Seats []struct {
			Note string      `json:"note"`
			Why  *solved.Why `json:"why"`
		} `json:"seats"`
	}
	table := func(target int) string {
		t.Helper()
		r := map[string]any{"base": "pocket-farkel", "game": map[string]any{"target": target}}
		tb, err := c.CreateTable(ctx, r, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "perfect"}, map[string]string{"type": "bot", "level": "steady"})
		if err != nil {
			t.Fatal(err)
		}
		return tb.ID
	}
	note := func(id string) (string, *solved.Why) {
		t.Helper()
		var v seats
		if err := c.Do(ctx, "GET", "/api/tables/"+id, nil, &v); err != nil {
			t.Fatal(err)
		}
		return v.Seats[1].Note, v.Seats[1].Why
	}
	// Other rules: no table, and the server does not make it.
	other := table(900)
	deadline := time.Now().Add(30 * time.Second)
	for n, why := note(other); why == nil || why.Key != "solved.why.noThree" || !strings.Contains(n, "farkle solve --players 3"); n, why = note(other) {
		if time.Now().After(deadline) {
			t.Fatalf("the perfect seat's note at target 900: %q %+v", n, why)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The rules solved: the table read from the directory, no note.
	id := table(800)
	deadline = time.Now().Add(30 * time.Second)
	for {
		// A load counts from its start: once one began, the note goes
		// when it ends.
		loading := ts.Stats().ThreeLoads > 0
		n, why := note(id)
		if loading && n == "" && why == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the three-player table was not read: %+v; note %q", ts.Stats(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := ts.Stats(); st.ThreeLoads != 1 || st.ThreeSolves != 0 || st.CachedThree == 0 {
		t.Fatalf("solver stats %+v: want the table read once, none solved", st)
	}
	// The hints: win chances from the table, points without one.
	hint := func(target int) (measure, note string) {
		t.Helper()
		if err := c.Connect(ctx, table(target)); err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		rollToMyTurn(ctx, t, c)
		h, err := ask(ctx, c, map[string]string{"type": "hint"})
		for err == nil && h.Type != "hint" {
			h, err = c.Next(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Advice struct{ Measure, Note string }
		}
		json.Unmarshal(h.Raw, &body)
		return body.Advice.Measure, body.Advice.Note
	}
	if measure, note := hint(800); measure != "win" || note != "" {
		t.Fatalf("the hint with the table: %q %q", measure, note)
	}
	if measure, note := hint(900); measure != "points" || !strings.Contains(note, "win chances are not available: no three-player table") {
		t.Fatalf("the hint without the table: %q %q", measure, note)
	}
}

// rollToMyTurn reads the messages of c's table, just connected, until its
// player is to act in play, playing the roll-off on the way.
func rollToMyTurn(ctx context.Context, t *testing.T, c *wsclient.Client) {
	t.Helper()
	msg, err := c.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seat, st := msg.You.Seat, msg.State
	for st.Phase != "play" || st.Actor != seat {
		if st.Actor == seat {
			if msg, err = ask(ctx, c, map[string]any{"type": "action", "version": st.Version, "action": map[string]string{"type": "roll-off"}}); err != nil {
				t.Fatal(err)
			}
		} else if msg, err = c.Next(ctx); err != nil {
			t.Fatal(err)
		}
		if msg.State != nil {
			st = msg.State
		}
	}
}

// serveWith runs farkle serve's main on a new database with the solver
// results and limits of ts (its hints live, as the command's) until the
// test ends, and returns a client with a new player, Ann.
func serveWith(ctx context.Context, t *testing.T, ts *solved.Tables) *wsclient.Client {
	t.Helper()
	m := &serveMain{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "farkle.db"), BotDelay: 0,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Advisor: newServeAdvisor(ts, true), Tables: ts}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	c := wsclient.New(m.URL)
	if _, _, err := c.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	return c
}
