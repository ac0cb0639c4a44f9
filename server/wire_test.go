package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// wireGame plays a table of two human seats (no bots, so the messages do
// not depend on timing) from a fixed seed and time, and returns every
// message each seat's connection and a watcher's received, then the
// table's HTTP views, one JSON message a line. Playing stops after max
// actions or at the end of the game. The watcher's page is in the language
// watcherLang ("" for English), and so is the replay then fetched.
func wireGame(t *testing.T, tb store.Table, max int, choose func(msg map[string]any, seat int) (string, bool), watcherLang string) []byte {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "wire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, err := New(ctx, db, Options{Now: func() time.Time { return now }, BotDelay: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	players := []store.Player{{ID: "p0", Name: "Ann", TokenHash: "h0"}, {ID: "p1", Name: "Bo", TokenHash: "h1"}}
	for _, p := range players {
		if err := db.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
		tb.Seats = append(tb.Seats, store.Seat{Name: p.Name, PlayerID: p.ID})
	}
	tb.ID, tb.Seed, tb.Status, tb.Created, tb.Creator = "wire", dice.SeedFrom("wire"), store.Playing, now, "p0"
	if err := db.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	tt, err := s.getTable(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	clients := make([]*client, 3)
	for i := range clients {
		c := &client{srv: s, t: tt, out: make(chan *message, 1<<16), done: make(chan struct{})}
		if i < 2 {
			c.player = &players[i]
		} else if watcherLang != "" {
			c.lang = lang.Get(watcherLang)
		}
		clients[i] = c
		tt.mu.Lock()
		tt.clients[c] = struct{}{}
		c.sendWelcome()
		tt.mu.Unlock()
	}
	var out bytes.Buffer
	last := make([]map[string]any, len(clients))
	read := func(i int) map[string]any {
		select {
		case msg := <-clients[i].out:
			b := msg.payload()
			fmt.Fprintf(&out, "seat %d: %s\n", i, b)
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("seat %d: no message", i)
		}
		return nil
	}
	for i := range clients {
		last[i] = read(i)
	}
	for acts := 0; acts < max; acts++ {
		act := -1
		for seat := range 2 {
			if msg, ok := choose(last[seat], seat); ok {
				clients[seat].handle([]byte(msg))
				act = seat
				break
			}
		}
		if act < 0 {
			break
		}
		for i := range clients {
			last[i] = read(i)
		}
	}
	paths := []string{"/api/tables/wire", "/api/tables/wire/replay"}
	if watcherLang != "" {
		paths[1] += "?lang=" + watcherLang
	}
	for _, path := range paths {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Fprintf(&out, "GET %s: %d %s\n", path, rec.Code, bytes.TrimSpace(compactJSON(t, rec.Body.Bytes())))
	}
	return out.Bytes()
}

func compactJSON(t *testing.T, b []byte) []byte {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return b
	}
	return c.Bytes()
}

// checkWire compares got with the golden file, or rewrites it with
// -update (internal/testflags).
func checkWire(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "wire", name)
	if testflags.Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s: line %d differs:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}

// TestWireOrdinary pins the bytes of every message of an ordinary game,
// from the welcome to the end, and of the table's HTTP views: the wire is
// the server's own (docs/API.md), so no change in the engine may change it
// unnoticed.
func TestWireOrdinary(t *testing.T) {
	checkWire(t, "ordinary.jsonl", wireGame(t, ordinaryWireTable(t), 1000, ordinaryWireChoice, ""))
}

// ordinaryWireChoice plays the seat to act: the keep of the most points,
// the roll-off, a bank from 300, else a throw.
func ordinaryWireChoice(m map[string]any, seat int) (string, bool) {
	{
		st, _ := m["state"].(map[string]any)
		if st == nil || st["phase"] == "over" || int(st["actor"].(float64)) != seat {
			return "", false
		}
		v := int(st["version"].(float64))
		best, pts := []any(nil), -1
		var can = map[string]bool{}
		for _, l := range st["legal"].([]any) {
			l := l.(map[string]any)
			can[l["type"].(string)] = true
			if p, _ := l["points"].(float64); l["type"] == "keep" && int(p) > pts {
				best, pts = l["dice"].([]any), int(p)
			}
		}
		var a string
		switch {
		case best != nil:
			d, _ := json.Marshal(best)
			a = fmt.Sprintf(`{"type":"keep","dice":%s}`, d)
		case can["roll-off"]:
			a = `{"type":"roll-off"}`
		case can["bank"] && (st["total"].(float64) >= 300 || !can["throw"]):
			a = `{"type":"bank"}`
		default:
			a = `{"type":"throw"}`
		}
		return fmt.Sprintf(`{"type":"action","version":%d,"action":%s,"id":"a%d"}`, v, a, v), true
	}
}

// TestWireNorwegian plays the pinned ordinary game with a watcher whose
// page is in Norwegian: the players' English messages stay byte for byte
// those of the golden file (a table encodes an update once a language in
// use), and the watcher's log lines and replay are Norwegian, numbers
// grouped with a no-break space.
func TestWireNorwegian(t *testing.T) {
	got := wireGame(t, ordinaryWireTable(t), 1000, ordinaryWireChoice, "nb")
	want, err := os.ReadFile(filepath.Join("testdata", "wire", "ordinary.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	if len(gl) != len(wl) {
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
	var watcher, replay []byte
	for i, l := range gl {
		switch {
		case bytes.HasPrefix(l, []byte("seat 2: ")):
			watcher = append(watcher, l...)
		case bytes.HasPrefix(l, []byte("GET /api/tables/wire/replay")):
			replay = l
		case !bytes.Equal(l, wl[i]):
			t.Fatalf("line %d differs from the English golden file:\n got %s\nwant %s", i+1, l, wl[i])
		}
	}
	for name, b := range map[string][]byte{"watcher": watcher, "replay": replay} {
		for _, want := range []string{"Ann kaster ", "Bo setter inn ", " poeng", "spillet er over: "} {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s: no %q in the Norwegian log", name, want)
			}
		}
		for _, english := range []string{" throws ", " banks ", "game over"} {
			if bytes.Contains(b, []byte(english)) {
				t.Errorf("%s: English %q in the Norwegian log", name, english)
			}
		}
	}
	if !bytes.Contains(watcher, []byte("1\u00a0")) {
		t.Errorf("watcher: no number grouped with a no-break space (1 500) in the Norwegian log")
	}
}

// TestWireDragon pins the bytes of the first messages of a Dragon Farkle
// game, as each seat and a watcher see them.
func TestWireDragon(t *testing.T) {
	got := wireGame(t, dragonWireTable(t), 60, func(m map[string]any, seat int) (string, bool) {
		d, _ := m["dragon"].(map[string]any)
		if d == nil || int(d["to_act"].(float64)) != seat || int(d["seat"].(float64)) != seat {
			return "", false
		}
		legal, _ := d["legal"].([]any)
		if len(legal) == 0 {
			return "", false
		}
		v := int(d["version"].(float64))
		a, _ := json.Marshal(legal[v%len(legal)])
		return fmt.Sprintf(`{"type":"action","version":%d,"action":%s,"id":"a%d"}`, v, a, v), true
	}, "")
	checkWire(t, "dragon.jsonl", got)
}

// ordinaryWireTable is the classic rules to 1500 points.
func ordinaryWireTable(t *testing.T) store.Table {
	r := rules.MustPreset("classic")
	r.Game.Target = 1500
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	return store.Table{Kind: v.Kind(), Rules: v.Rules()}
}

// dragonWireTable is Dragon Farkle with the default rules.
func dragonWireTable(*testing.T) store.Table {
	v, _ := game.Preset(dragonPreset)
	return store.Table{Kind: v.Kind(), Rules: v.Rules()}
}
