package server_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// TestBodyLimit: a JSON body of 16 KiB is read, one byte more is refused
// with 400 naming the bound.
func TestBodyLimit(t *testing.T) {
	ts := start(t, "", server.Options{})
	const limit = 16 << 10
	padded := func(name string, size int) string {
		b := `{"name":"` + name + `"}`
		return b + strings.Repeat(" ", size-len(b)) // JSON allows white space after the value
	}
	a := post(t, nil, ts.URL+"/api/players", padded("Ann", limit))
	if a.Status != http.StatusCreated {
		t.Fatalf("a body of exactly %d bytes: %v, want 201", limit, a)
	}
	a = post(t, nil, ts.URL+"/api/players", padded("Bob", limit+1))
	if a.Status != http.StatusBadRequest || a.Err.Error != fmt.Sprintf("the body is longer than %d bytes", limit) {
		t.Fatalf("a body of %d bytes: %v, want 400 naming the bound", limit+1, a)
	}
	if len(a.Cookies) != 0 {
		t.Errorf("the refused request made a guest: cookies %v", a.Cookies)
	}
}

// wsFrame is one frame the server sent, as read off the wire.
type wsFrame struct {
	op      byte
	payload []byte
}

// readFrame reads one unmasked frame (the server's) from r.
func readFrame(r *bufio.Reader) (wsFrame, error) {
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return wsFrame{}, err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return wsFrame{}, err
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return wsFrame{}, err
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	if n > 1<<20 {
		return wsFrame{}, fmt.Errorf("a frame of %d bytes", n)
	}
	p := make([]byte, n)
	_, err := io.ReadFull(r, p)
	return wsFrame{op: h[0] & 0x0f, payload: p}, err
}

// TestUnansweredPingsClose: a client that never answers the server's pings
// (a raw connection: the bytes are read, but no pong is ever sent) has its
// connection closed once a ping goes unanswered for Options.PingTimeout,
// while a client that answers stays.
func TestUnansweredPingsClose(t *testing.T) {
	ts := start(t, "", server.Options{PingEvery: 50 * time.Millisecond, PingTimeout: 200 * time.Millisecond, BotDelay: time.Hour})
	ctx := ctxT(t, 30*time.Second)
	h := host(t, ts)
	tb, err := h.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	// A watcher that answers pings: it reads all the time.
	if err := h.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	msgs := make(chan string, 64)
	go func() {
		defer close(msgs)
		for {
			m, err := h.Next(ctx)
			if err != nil {
				return
			}
			msgs <- m.Type
		}
	}()

	// A watcher that never answers: the upgrade by hand.
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	key := make([]byte, 16)
	rand.Read(key)
	fmt.Fprintf(conn, "GET /ws/tables/%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		tb.ID, strings.TrimPrefix(ts.URL, "http://"), base64.StdEncoding.EncodeToString(key))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the upgrade: HTTP %d", resp.StatusCode)
	}
	// Everything the server sends is read, up to the end of the connection.
	conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // 50 times the time to answer: the server must have given up long before
	pings := 0
	for {
		f, err := readFrame(br)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("after %d pings unanswered the connection is still open", pings)
			}
			break // closed (EOF or reset)
		}
		if f.op == 0x9 {
			pings++
		}
	}
	if pings == 0 {
		t.Fatal("the connection was closed without a ping")
	}

	// The watcher that answers is still there, pinged as often.
	if err := h.Send(ctx, map[string]string{"type": "ping", "id": "still-here"}); err != nil {
		t.Fatalf("the answering watcher: %v", err)
	}
	for typ := range msgs {
		if typ == "pong" {
			return
		}
	}
	t.Fatal("the answering watcher's connection closed")
}

// seedGames stores n finished games, each of another player (p01, p02…)
// against "p00", where the first to act resigns at once (the first seat,
// which the roll-off starts with): n+1 players with stats, "p00" in every
// game and its winner.
func seedGames(t *testing.T, db store.Store, n int) {
	t.Helper()
	ctx := context.Background()
	r := rules.MustPreset("classic")
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n + 1 {
		id := fmt.Sprintf("p%02d", i)
		if err := db.CreatePlayer(ctx, store.Player{ID: id, Name: "Player " + id, TokenHash: "seed-" + id, Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("g%02d", i)
		keys := []string{fmt.Sprintf("p%02d", i), "p00"}
		names := []string{"Player " + keys[0], "Player p00"}
		seed := dice.SeedFrom(id)
		p, _, err := game.Start(v, names, seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(p.Game().ToAct(), engine.ResignBy(p.Game().ToAct())); err != nil {
			t.Fatal(err)
		}
		g := p.Game()
		tb := store.Table{ID: id, Kind: v.Kind(), Rules: v.Rules(), Seed: seed, Status: store.Waiting,
			Seats: []store.Seat{{Name: names[0], PlayerID: keys[0]}, {Name: names[1], PlayerID: keys[1]}}}
		if err := db.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		fin := &store.Finish{Record: p.Record(), Winners: g.Winners(), Scores: g.Scores()}
		for seat, key := range keys {
			fin.Results = append(fin.Results, store.Result{Seat: seat, PlayerKey: key, Name: names[seat], Score: g.Scores()[seat],
				Won: slicesContains(g.Winners(), seat), Turns: 1})
		}
		if err := db.AppendAction(ctx, id, 1, p.Record().Actions[0], fin); err != nil {
			t.Fatal(err)
		}
	}
}

// seededServer is a server over a database holding 51 finished games of
// p00 against 51 others (seedGames).
func seededServer(t *testing.T) *testServer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "farkle.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	seedGames(t, db, 51)
	db.Close()
	return start(t, path, server.Options{})
}

// TestStatsHistoryBounded: a player's stats count every game, and the
// history beside them is the 50 most recently finished of its tables.
func TestStatsHistoryBounded(t *testing.T) {
	ts := seededServer(t)
	ctx := ctxT(t, 10*time.Second)
	want, err := ts.DB.Stats(ctx, "p00")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Player  string
		Name    string
		Games   int
		Wins    int
		History []struct{ ID, Status string }
	}
	if a := send(t, nil, "GET", ts.URL+"/api/players/p00/stats", ""); a.Status != 200 || json.Unmarshal([]byte(a.Body), &got) != nil {
		t.Fatalf("stats: %v", a)
	}
	if got.Player != "p00" || got.Games != 51 || got.Wins != 51 || want.Wins != 51 || got.Name != "Player p00" {
		t.Fatalf("stats %+v (the store's %+v), want 51 games and 51 wins of p00", got, want)
	}
	all, err := ts.DB.Tables(ctx, store.TableFilter{PlayerID: "p00", Status: []store.Status{store.Over}, Limit: 1000})
	if err != nil || len(all) != 51 {
		t.Fatalf("%d tables of p00 in the store (%v), want 51", len(all), err)
	}
	if len(got.History) != 50 {
		t.Fatalf("a history of %d tables, want the last 50 of 51", len(got.History))
	}
	for i, h := range got.History {
		if h.ID != all[i].ID || h.Status != "over" {
			t.Fatalf("history[%d] = %+v, want %s, the store's %dth most recently updated", i, h, all[i].ID, i+1)
		}
	}
	for _, h := range got.History {
		if h.ID == "g01" {
			t.Fatal("the first game finished is in the history of the last 50")
		}
	}
	// Anyone's stats: an unknown player has none, and an empty history.
	if a := send(t, nil, "GET", ts.URL+"/api/players/nobody/stats", ""); a.Status != 200 || !strings.Contains(a.Body, `"games":0`) || !strings.Contains(a.Body, `"history":[]`) {
		t.Fatalf("stats of nobody: %v", a)
	}
}

// TestLeaderboardBounded: the leaderboard is the store's first 50 players
// by wins, of 52 with games.
func TestLeaderboardBounded(t *testing.T) {
	ts := seededServer(t)
	ctx := ctxT(t, 10*time.Second)
	all, err := ts.DB.Leaderboard(ctx, "", 1, 1000)
	if err != nil || len(all) != 52 {
		t.Fatalf("%d players with games in the store (%v), want 52", len(all), err)
	}
	var got []struct {
		Player string
		Games  int
		Wins   int
	}
	if a := send(t, nil, "GET", ts.URL+"/api/leaderboard", ""); a.Status != 200 || json.Unmarshal([]byte(a.Body), &got) != nil {
		t.Fatalf("leaderboard: %v", a)
	}
	if len(got) != 50 {
		t.Fatalf("a leaderboard of %d rows, want 50", len(got))
	}
	for i, row := range got {
		if row.Player != all[i].PlayerKey || row.Games != all[i].Games || row.Wins != all[i].Wins {
			t.Fatalf("row %d = %+v, want %+v", i, row, all[i])
		}
	}
	if got[0].Player != "p00" || got[0].Wins != 51 || got[1].Player != "p01" || got[49].Player != "p49" {
		t.Fatalf("rows %+v, want p00 with 51 wins, then p01 to p49 (no win, one game, by key)", got)
	}
	if a := send(t, nil, "GET", ts.URL+"/api/leaderboard?kind=chess", ""); a.Status != 400 || !strings.Contains(a.Body, `"field":"kind"`) ||
		!strings.Contains(a.Body, `\"chess\": farkle, dragon, or none for every kind`) {
		t.Fatalf("a leaderboard of an unknown kind: %v, want 400 naming kind and the kinds", a)
	}
}

// TestTournamentListBounded: GET /api/tournaments answers the 50 most
// recently updated tournaments of the statuses asked for, and refuses an
// unknown status naming it.
func TestTournamentListBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t, 20*time.Second)
	v, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 51; i++ {
		tr := store.Tournament{ID: fmt.Sprintf("t%02d", i), Name: fmt.Sprintf("Cup %d", i), Format: "swiss", Kind: v.Kind(), Rules: v.Rules(), Size: 4,
			Creator: "p00", Entrants: []store.Entrant{{Bot: "steady", Name: "Steady bot"}}, Created: time.Now()}
		if err := db.CreateTournament(ctx, tr); err != nil {
			t.Fatal(err)
		}
		tr, err := db.Tournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		tr.Status, tr.Reason = store.TournamentOver, "cancelled"
		if _, err := db.UpdateTournament(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	all, err := db.Tournaments(ctx, nil, 1000)
	if err != nil || len(all) != 51 {
		t.Fatalf("%d tournaments in the store (%v), want 51", len(all), err)
	}
	db.Close()
	ts := start(t, path, server.Options{})
	list := func(query string) (int, []struct{ ID, Status string }, answer) {
		var got []struct{ ID, Status string }
		a := send(t, nil, "GET", ts.URL+"/api/tournaments"+query, "")
		if a.Status == 200 {
			if err := json.Unmarshal([]byte(a.Body), &got); err != nil {
				t.Fatalf("%s: %v", query, err)
			}
		}
		return a.Status, got, a
	}
	for _, q := range []string{"", "?status=over", "?status=open,over"} {
		st, got, _ := list(q)
		if st != 200 || len(got) != 50 {
			t.Fatalf("GET /api/tournaments%s: HTTP %d with %d tournaments, want 50 of 51", q, st, len(got))
		}
		for i, tr := range got {
			if tr.ID != all[i].ID || tr.Status != "over" {
				t.Fatalf("GET /api/tournaments%s [%d] = %+v, want %s, the store's %dth most recently updated", q, i, tr, all[i].ID, i+1)
			}
		}
	}
	if st, got, a := list("?status=open,playing"); st != 200 || len(got) != 0 || strings.TrimSpace(a.Body) != "[]" {
		t.Fatalf("no tournament open or playing: %v", a)
	}
	if st, _, a := list("?status=bogus"); st != http.StatusBadRequest || !strings.Contains(a.Err.Error, `status "bogus"`) {
		t.Fatalf("an unknown status: %v, want 400 naming it", a)
	}
}

// TestHistoryPage: GET /history is the site's one fixed page, never cached
// stale, whatever the query.
func TestHistoryPage(t *testing.T) {
	ts := start(t, "", server.Options{})
	home := send(t, nil, "GET", ts.URL+"/", "")
	for _, path := range []string{"/history", "/history?limit=100000&player=" + strings.Repeat("x", 1000)} {
		a := send(t, nil, "GET", ts.URL+path, "")
		if a.Status != 200 || a.Body != home.Body || !strings.Contains(a.Body, "<html") || a.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("GET %s: %v (Cache-Control %q), want the page of /", path, a, a.Header.Get("Cache-Control"))
		}
	}
	if a := send(t, nil, "GET", ts.URL+"/history/more", ""); a.Status != http.StatusNotFound {
		t.Fatalf("GET /history/more: %v, want 404", a)
	}
}
