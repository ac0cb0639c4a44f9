package online_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/online"
)

// TestHostileDragonViewRefused: a server whose Dragon Farkle view has a
// count no card set holds (a deck of two billion cards, a negative hand,
// a seat out of range) ends the link at once with ErrBadMessage naming
// the field and the bound; the terminal neither builds two billion cards
// nor crashes nor reconnects for ever.
func TestHostileDragonViewRefused(t *testing.T) {
	v, _ := game.Preset("dragon")
	p, _, err := game.Start(v, []string{"Ann", "Bob"}, dice.SeedFrom("hostile"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(p.Record())
	if err != nil {
		t.Fatal(err)
	}
	view, err := json.Marshal(p.Game().View(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, field string }{
		{"item_deck", `"item_deck":2000000000`},
		{"players[1].item_count", `"item_count":-1`},
		{"turn", `"turn":7`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := mutate(t, view, tc.field)
			var dials atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/api/tables/x/record":
					w.Write(rec)
				case r.URL.Path == "/ws/tables/x":
					dials.Add(1)
					c, err := websocket.Accept(w, r, nil)
					if err != nil {
						return
					}
					defer c.CloseNow()
					msg := `{"type":"welcome","kind":"dragon","you":{"seat":0},"table":{"status":"playing"},"dragon":` + string(bad) + `,"log":[]}`
					c.Write(r.Context(), websocket.MessageText, []byte(msg))
					c.Read(r.Context()) // until the client goes
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			c := online.New(srv.URL)
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			r, err := c.Open(ctx, "x", true)
			if err != nil {
				t.Fatal(err)
			}
			for {
				u, err := r.Next(ctx)
				if err == nil {
					if u.Game != nil {
						t.Fatalf("the link took the view %s", bad)
					}
					continue
				}
				if !errors.Is(err, online.ErrBadMessage) || !strings.Contains(err.Error(), tc.name) {
					t.Fatalf("the link ended with %v; want ErrBadMessage naming %s", err, tc.name)
				}
				break
			}
			if n := dials.Load(); n != 1 {
				t.Fatalf("the link dialled %d times; a bad message is not worth another", n)
			}
		})
	}
}

// mutate sets one field of a JSON view (of the top level, or of the
// second player for item_count).
func mutate(t *testing.T, view []byte, field string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(view, &m); err != nil {
		t.Fatal(err)
	}
	var kv map[string]any
	if err := json.Unmarshal([]byte("{"+field+"}"), &kv); err != nil {
		t.Fatal(err)
	}
	for k, v := range kv {
		if k == "item_count" {
			m["players"].([]any)[1].(map[string]any)[k] = v
		} else {
			m[k] = v
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
