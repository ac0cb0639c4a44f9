package online_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server/wsclient"
)

// finishedRecord is the record of a finished game (the first to act
// resigns), as a server sends it.
func finishedRecord(t *testing.T) []byte {
	t.Helper()
	v, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := game.Start(v, []string{"Ann", "Bob"}, dice.SeedFrom("limits"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Do(p.Game().ToAct(), engine.ResignBy(p.Game().ToAct())); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p.Record())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pad writes n bytes of c.
func pad(w io.Writer, c byte, n int) {
	chunk := []byte(strings.Repeat(string(c), 1<<16))
	for n > 0 {
		k := min(n, len(chunk))
		w.Write(chunk[:k])
		n -= k
	}
}

// TestHugeAnswersRefused: the terminal's client reads at most
// wsclient.DefaultMaxBody bytes of a server's answer, and at most
// game.MaxRecordBytes of a record; past them it fails, saying so, and
// saves nothing.
func TestHugeAnswersRefused(t *testing.T) {
	rec := finishedRecord(t)
	const head, tail = `{"id":"p1","name":"`, `","token":"tok"}`
	// An answer of /api/me is a player named "aaa…", whose size the token
	// asks for; a record is the game's padded with white space to the size
	// its table's ID asks for.
	sizes := map[string]int{"at-bound": wsclient.DefaultMaxBody, "past-bound": wsclient.DefaultMaxBody + 1,
		"nine-mib": 9 << 20, "past-record-bound": game.MaxRecordBytes + 1}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/me" || r.URL.Path == "/api/players":
			n := sizes[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
			if r.URL.Path == "/api/players" {
				n = sizes["past-bound"]
			}
			io.WriteString(w, head)
			pad(w, 'a', n-len(head)-len(tail))
			io.WriteString(w, tail)
		case strings.HasPrefix(r.URL.Path, "/api/tables/") && strings.HasSuffix(r.URL.Path, "/record"):
			n := sizes[strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/api/tables/"), "/record")]
			w.Write(rec)
			pad(w, ' ', n-len(rec))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()

	if p, err := online.New(srv.URL).SignIn(ctx, "", "at-bound"); err != nil || len(p.Name) != sizes["at-bound"]-len(head)-len(tail) {
		t.Fatalf("an answer of exactly %d bytes: %v", wsclient.DefaultMaxBody, err)
	}
	for _, tc := range []struct{ name, as, token string }{{"a saved token", "", "past-bound"}, {"a new guest", "Ann", ""}} {
		_, err := online.New(srv.URL).SignIn(ctx, tc.as, tc.token)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d bytes", wsclient.DefaultMaxBody)) {
			t.Errorf("signing in with %s, answered with %d bytes: %v, want an error naming the bound", tc.name, sizes["past-bound"], err)
		}
	}

	dir := t.TempDir()
	c := online.New(srv.URL)
	path, err := c.SaveRecord(ctx, "nine-mib", dir)
	if err != nil {
		t.Fatalf("a record of 9 MiB (within game.MaxRecordBytes): %v", err)
	}
	os.Remove(path)
	_, err = c.SaveRecord(ctx, "past-record-bound", dir)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d bytes", game.MaxRecordBytes)) {
		t.Fatalf("a record of %d bytes: %v, want an error naming the bound", game.MaxRecordBytes+1, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("a record too large was saved: %v", left)
	}
}
