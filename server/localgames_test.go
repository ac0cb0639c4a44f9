package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/localplay"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
)

// localRecord plays a whole local game of seats (a person plays its first
// legal action) with localplay, as the page does, and returns its record.
func localRecord(t *testing.T, seed byte, seats ...localplay.Seat) []byte {
	t.Helper()
	var sd dice.Seed
	sd[0], sd[5] = seed, 0x77
	g, err := localplay.New(localplay.Setup{Rules: json.RawMessage(`{"base":"classic","name":"classic","game":{"target":1500}}`), Seats: seats, Seed: sd.Hex()}, "en")
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if g.BotToAct() {
			if _, r := g.BotAct(); r != nil {
				t.Fatal(r)
			}
			continue
		}
		w := g.Welcome(g.ToAct())
		l := w.State.Legal[len(w.State.Legal)-1] // bank when allowed, else the last keep
		msg, _ := json.Marshal(map[string]any{"type": "action", "version": w.State.Version, "action": map[string]any{"type": l.Type, "dice": l.Dice}})
		if _, r := g.Act(g.ToAct(), msg); r != nil {
			t.Fatal(r)
		}
	}
	return g.Record()
}

func upload(t *testing.T, ts *testServer, token string, record []byte, seat int) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"record": json.RawMessage(record), "seat": seat})
	hdr := []string{}
	if token != "" {
		hdr = append(hdr, "Authorization", "Bearer "+token)
	}
	return post(t, nil, ts.URL+"/api/local-games", string(body), hdr...)
}

// A finished local game is kept in the player's history once its record
// verifies with the real engine: stored over, local and unrated, in no
// stats, readable as any finished table (record, replay), and kept once
// when sent again. Everything else is refused, naming the field, and
// stores nothing: no player, a record that does not verify (a throw, the
// seed, an action), a game not over, a seat that is a bot's, a bot of a
// level no local game has, a name no player may have, a body over the
// size cap, another player's game, and games past the count cap.
func TestLocalGameUpload(t *testing.T) {
	ts := start(t, "", server.Options{MaxLocalGames: 2, MaxLocalGameBytes: 64 << 10})
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	rec := localRecord(t, 1, localplay.Seat{Name: "Ann"}, localplay.Seat{Name: "Steady bot", Bot: "steady"})

	a := upload(t, ts, ann.Token, rec, 0)
	if a.Status != http.StatusCreated {
		t.Fatalf("upload: %v", a)
	}
	var tv struct {
		ID     string
		Status string
		Local  bool
		Rated  string
		Seed   string
		Seats  []struct {
			Name, Bot string
			PlayerID  string `json:"player_id"`
			Free      bool
		}
	}
	if err := json.Unmarshal([]byte(a.Body), &tv); err != nil {
		t.Fatal(err)
	}
	if tv.Status != "over" || !tv.Local || tv.Rated != "" || tv.Seed == "" || tv.Seats[0].PlayerID != ann.ID || tv.Seats[1].Bot != "steady" || tv.Seats[0].Free || tv.Seats[1].Free {
		t.Fatalf("kept as %s", a.Body)
	}
	if again := upload(t, ts, ann.Token, rec, 0); again.Status != http.StatusOK || !strings.Contains(again.Body, tv.ID) {
		t.Fatalf("sent again: %v", again)
	}
	if other := upload(t, ts, bea.Token, rec, 0); other.Status != http.StatusConflict {
		t.Fatalf("another player's game: %v", other)
	}
	// It is in Ann's history, its record verifies, it replays, and her
	// stats count no game.
	hist := send(t, nil, "GET", ts.URL+"/api/players/"+ann.ID+"/stats", "")
	if !strings.Contains(hist.Body, tv.ID) || !strings.Contains(hist.Body, `"games":0`) {
		t.Fatalf("Ann's stats and history: %v", hist)
	}
	got := send(t, nil, "GET", ts.URL+"/api/tables/"+tv.ID+"/record", "")
	stored, err := game.ParseRecord([]byte(got.Body))
	if err != nil {
		t.Fatalf("%v: %v", got, err)
	}
	if _, _, err := game.Verify(stored); err != nil {
		t.Fatal(err)
	}
	if rp := send(t, nil, "GET", ts.URL+"/api/tables/"+tv.ID+"/replay", ""); rp.Status != http.StatusOK || !strings.Contains(rp.Body, "Steady bot") {
		t.Fatalf("replay: %v", rp)
	}
	n, err := ts.Store.CountTables(context.Background(), store.TableFilter{Local: true})
	if err != nil || n != 1 {
		t.Fatalf("%d local games stored (%v)", n, err)
	}

	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		_ = json.Unmarshal(rec, &m)
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	otherSeed := edit(func(m map[string]any) {
		var s dice.Seed
		m["seed"] = s.Hex()
	})
	threw := edit(func(m map[string]any) {
		acts := m["actions"].([]any)
		for _, a := range acts {
			if e := a.(map[string]any); e["threw"] != nil {
				e["threw"] = []int{1, 1, 1, 1, 1, 1}
				break
			}
		}
	})
	unfinished := edit(func(m map[string]any) { delete(m, "seed") })
	perfect := localRecord(t, 2, localplay.Seat{Name: "Ann"}, localplay.Seat{Name: "Steady bot", Bot: "steady"})
	perfect = bytes.Replace(perfect, []byte(`"bot:steady"`), []byte(`"bot:perfect"`), 1)
	botName := localRecord(t, 3, localplay.Seat{Name: "Ann"}, localplay.Seat{Name: "Robo bot"})
	big := edit(func(m map[string]any) {
		m["meta"].(map[string]any)["extra"].(map[string]any)["pad"] = strings.Repeat("x", 70<<10)
	})
	for _, c := range []struct {
		what   string
		token  string
		record []byte
		seat   int
		status int
		field  string
	}{
		{"no player", "", localRecord(t, 4, localplay.Seat{Name: "Ann"}, localplay.Seat{Name: "B", Bot: "bold"}), 0, 401, ""},
		{"another seed", bea.Token, otherSeed, 0, 400, "record"},
		{"a throw changed", bea.Token, threw, 0, 400, "record"},
		{"not over", bea.Token, unfinished, 0, 400, "record"},
		{"the bot's seat", bea.Token, localRecord(t, 5, localplay.Seat{Name: "Bea"}, localplay.Seat{Name: "Steady bot", Bot: "steady"}), 1, 400, "seat"},
		{"no such seat", bea.Token, localRecord(t, 6, localplay.Seat{Name: "Bea"}, localplay.Seat{Name: "Steady bot", Bot: "steady"}), 7, 400, "seat"},
		{"a perfect bot", bea.Token, perfect, 0, 400, "record"},
		{"a person named as a bot", bea.Token, botName, 0, 400, "record.players"},
		{"over the size cap", bea.Token, big, 0, 400, "record"},
		{"not a record", bea.Token, []byte(`{"format":"farkle-record/2"}`), 0, 400, "record"},
	} {
		a := upload(t, ts, c.token, c.record, c.seat)
		if a.Status != c.status || a.Err.Field != c.field || a.Err.Error == "" {
			t.Errorf("%s: %v, want %d naming %q", c.what, a, c.status, c.field)
		}
	}
	if n, _ := ts.Store.CountTables(context.Background(), store.TableFilter{Local: true}); n != 1 {
		t.Fatalf("refused uploads stored %d tables", n-1)
	}
	// Ann may keep two local games (max-local-games 2).
	if a := upload(t, ts, ann.Token, localRecord(t, 8, localplay.Seat{Name: "Ann"}, localplay.Seat{Name: "Bo"}), 0); a.Status != http.StatusCreated {
		t.Fatalf("second game: %v", a)
	}
	third := upload(t, ts, ann.Token, localRecord(t, 9, localplay.Seat{Name: "Ann"}, localplay.Seat{Name: "Bo"}), 0)
	if third.Status != http.StatusTooManyRequests || third.Err.Code != "quota" || !strings.Contains(third.Body, "max-local-games 2") {
		t.Fatalf("third game: %v", third)
	}
}

// The module of the local games is served gzipped to a browser, with an
// ETag that answers 304, and unpacked to a client that takes no gzip: the
// same bytes, a WebAssembly module.
func TestWasmServed(t *testing.T) {
	ts := start(t, "", server.Options{})
	get := func(hdr ...string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", ts.URL+"/static/farkle.wasm", nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	zr, zb := get("Accept-Encoding", "gzip, br")
	if zr.StatusCode != 200 || zr.Header.Get("Content-Encoding") != "gzip" || zr.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("gzip: %d %v", zr.StatusCode, zr.Header)
	}
	gr, err := gzip.NewReader(bytes.NewReader(zb))
	if err != nil {
		t.Fatal(err)
	}
	unz, _ := io.ReadAll(gr)
	rr, raw := get("Accept-Encoding", "gzip;q=0")
	if rr.Header.Get("Content-Encoding") != "" || !bytes.Equal(raw, unz) || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatalf("unpacked: %v, %d bytes, %d gzipped unpacked", rr.Header, len(raw), len(unz))
	}
	if nm, _ := get("Accept-Encoding", "gzip", "If-None-Match", zr.Header.Get("ETag")); nm.StatusCode != http.StatusNotModified {
		t.Fatalf("with its ETag: %d", nm.StatusCode)
	}
	t.Logf("the module: %d bytes, %d gzipped", len(raw), len(zb))
}
