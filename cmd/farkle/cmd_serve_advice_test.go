package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/solved"
)

// TestServeHintsAndAnalysis asks for hints during a solo game and for the
// analysis at its end, through the whole server with package advise.
func TestServeHintsAndAnalysis(t *testing.T) {
	m := &serveMain{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "h.db"), BotDelay: 0,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		Advisor: newServeAdvisor(solved.NewTables(""), false)}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := wsclient.New(m.URL)
	if _, _, err := c.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	tb, err := c.CreateTable(ctx, map[string]any{"base": "classic", "game": map[string]any{"target": 1500}}, map[string]string{"type": "me"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg, err := c.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := msg.State
	hints := 0
	for st.Phase != "over" {
		h, err := ask(ctx, c, map[string]string{"type": "hint", "id": "h"})
		if err != nil || h.Type != "hint" {
			t.Fatalf("hint: %s %s %v", h.Type, h.Raw, err)
		}
		var body struct {
			Version int
			Advice  struct {
				Measure string
				Choices []struct {
					Action struct {
						Type   string
						Dice   []int
						Player *int
					}
					Text  string
					Value float64
					Best  bool
				}
			}
		}
		if err := json.Unmarshal(h.Raw, &body); err != nil {
			t.Fatal(err)
		}
		if body.Version != st.Version || body.Advice.Measure != "points" || len(body.Advice.Choices) != len(st.Legal) {
			t.Fatalf("hint at version %d: %+v for %d legal actions", st.Version, body, len(st.Legal))
		}
		best, bestV := -1, -1.0
		for i, ch := range body.Advice.Choices {
			found := false
			for _, l := range st.Legal {
				found = found || (l.Type == ch.Action.Type && reflect.DeepEqual(l.Dice, ch.Action.Dice))
			}
			if !found || ch.Text == "" || ch.Action.Player != nil {
				t.Fatalf("hint choice %+v is not a legal action %+v as an action message", ch, st.Legal)
			}
			if ch.Value > bestV {
				best, bestV = i, ch.Value
			}
		}
		if best != 0 || !body.Advice.Choices[0].Best {
			t.Fatalf("the highest value %v is not first and marked best: %+v", bestV, body.Advice.Choices)
		}
		hints++
		// Follow the hint: its action sent back as given.
		var raw struct {
			Advice struct {
				Choices []struct{ Action json.RawMessage }
			}
		}
		if err := json.Unmarshal(h.Raw, &raw); err != nil {
			t.Fatal(err)
		}
		if msg, err = ask(ctx, c, map[string]any{"type": "action", "version": st.Version, "action": raw.Advice.Choices[0].Action}); err != nil || msg.Type != "update" {
			t.Fatalf("%s %s %v", msg.Type, msg.Raw, err)
		}
		st = msg.State
	}
	var an struct {
		Measure string
		Players []struct {
			Name      string
			Decisions int
			Mistakes  int
			Lost      float64
		}
	}
	if err := c.Do(ctx, "GET", "/api/tables/"+tb.ID+"/analysis", nil, &an); err != nil {
		t.Fatal(err)
	}
	if len(an.Players) != 1 || an.Players[0].Decisions == 0 {
		t.Fatalf("analysis %+v", an)
	}
	// Every move followed the best hint: no mistakes, nothing lost.
	if an.Players[0].Mistakes != 0 || an.Players[0].Lost > 1e-6 {
		t.Fatalf("following every hint gave %d mistakes, %.3f lost", an.Players[0].Mistakes, an.Players[0].Lost)
	}
	if hints == 0 {
		t.Fatal("no hint asked")
	}
	// The record downloaded at the end passes farkle verify; the same
	// record with one throw changed does not.
	resp, err := c.HTTP.Get(m.URL + "/api/tables/" + tb.ID + "/record")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	file := writeTestFile(t, "game.json", string(data))
	if out, errOut, code := execFarkle(t, "", "verify", file); code != 0 {
		t.Fatalf("farkle verify exit %d: %s %s", code, out, errOut)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, a := range raw["actions"].([]any) {
		e := a.(map[string]any)
		if th, ok := e["threw"].([]any); ok && len(th) == 6 {
			th[0] = float64(7 - int(th[0].(float64))) // another face
			break
		}
	}
	bad, _ := json.Marshal(raw)
	if _, _, code := execFarkle(t, "", "verify", writeTestFile(t, "bad.json", string(bad))); code == 0 {
		t.Fatal("farkle verify accepted a record with a changed throw")
	}
}

// ask sends m and returns the answer, waiting and sending again while the
// server says the client is too quick (20 messages a second).
func ask(ctx context.Context, c *wsclient.Client, m any) (wsclient.Msg, error) {
	for {
		if err := c.Send(ctx, m); err != nil {
			return wsclient.Msg{}, err
		}
		r, err := c.Next(ctx)
		if err != nil || r.Type != "error" || r.Code != "rate_limited" {
			return r, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
