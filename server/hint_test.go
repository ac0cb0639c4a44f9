package server_test

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// countingAdvisor is pointsAdvisor counting the positions it is asked.
type countingAdvisor struct {
	pointsAdvisor
	asked atomic.Int32
}

func (a *countingAdvisor) Advise(g game.Game, seat int) (*game.Advice, error) {
	a.asked.Add(1)
	return a.pointsAdvisor.Advise(g, seat)
}

// hintBody is a hint message as a client reads it.
type hintBody struct {
	Version int
	Advice  struct {
		Measure string
		Choices []struct {
			Action json.RawMessage
			Text   string
			Value  float64
			Best   bool
		}
		Odds *struct {
			Seat     int
			Dice     int
			Turn     int
			PFarkle  float64 `json:"p_farkle"`
			Expected float64
		}
	}
}

// askHint sends a hint request and returns the answer, skipping updates.
func askHint(t *testing.T, ctx context.Context, p *player) (wsclient.Msg, hintBody) {
	t.Helper()
	if err := p.Send(ctx, map[string]any{"type": "hint", "id": "h"}); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := p.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "update" {
			continue
		}
		var h hintBody
		if m.Type == "hint" {
			if err := json.Unmarshal(m.Raw, &h); err != nil {
				t.Fatal(err)
			}
		}
		return m, h
	}
}

// classicPFarkle is the chance that n dice score nothing under classic
// (1s, 5s and triples score): 2/3, 4/9 (no 1 or 5 and no pair can make
// a triple), 60/216 (four faces, no triple).
var classicPFarkle = map[int]float64{1: 2.0 / 3, 2: 16.0 / 36, 3: 60.0 / 216}

// TestHintsForTheSeatToActOnly: the player to act gets the advisor's
// values, best first, each action sendable as is; watchers and the player
// out of turn get the odds of the throw ahead, and the advisor is not
// asked for them.
func TestHintsForTheSeatToActOnly(t *testing.T) {
	adv := &countingAdvisor{}
	ts := start(t, "", server.Options{Cast: advising(adv), Analyzer: adv})
	ctx := ctxT(t, time.Minute)
	a, b := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bo")
	tb := tableWithFriend(t, ctx, a.Client, b.Client, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	watcher := &player{Client: wsclient.New(ts.URL), Seat: -1}
	for _, p := range []*player{a, b, watcher} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if m, err := p.Read(ctx); err != nil || m.Type != "welcome" {
			t.Fatalf("welcome: %s %v", m.Type, err)
		}
	}
	players := map[int]*player{a.Seat: a, b.Seat: b}
	// The roll-off has no hint.
	st := a.Last
	if m, _ := askHint(t, ctx, players[st.Actor]); m.Type != "error" || m.Code != "unavailable" {
		t.Fatalf("hint in the roll-off: %s", m.Raw)
	}
	for st.Phase != "play" {
		if err := players[st.Actor].Act(ctx, st.Version, "roll-off", nil); err != nil {
			t.Fatal(err)
		}
		for _, p := range []*player{a, b, watcher} {
			for p.Last.Version == st.Version {
				if _, err := p.Read(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		st = a.Last
	}
	sorted, withDice, banksOrThrows := 0, 0, 0
	for range 40 {
		if st.Phase == "over" {
			break
		}
		actor, other := players[st.Actor], players[1-st.Actor]
		// Those not to act: the odds, no advisor.
		for _, p := range []*player{watcher, other} {
			m, h := askHint(t, ctx, p)
			o := h.Advice.Odds
			if m.Type != "hint" || h.Advice.Measure != "odds" || o == nil || len(h.Advice.Choices) != 0 || h.Version != st.Version {
				t.Fatalf("hint out of turn: %s", m.Raw)
			}
			if o.Seat != st.Actor || o.Turn != st.Total || o.Dice < 1 || o.Dice > 6 || o.PFarkle <= 0 || o.PFarkle >= 1 || o.Expected <= 0 {
				t.Fatalf("odds %+v at %+v", *o, st)
			}
			if want, ok := classicPFarkle[o.Dice]; ok && math.Abs(o.PFarkle-want) > 1e-12 {
				t.Fatalf("P(farkle) of %d dice = %v, want %v", o.Dice, o.PFarkle, want)
			}
			if o.Dice == 1 && math.Abs(o.Expected-25) > 1e-12 {
				t.Fatalf("expected points of one die = %v, want 25 (100 or 50, a third of the time)", o.Expected)
			}
		}
		if n := adv.asked.Load(); n != 0 {
			t.Fatalf("the advisor was asked %d times for hints out of turn", n)
		}
		// The player to act: every legal action, best first.
		m, h := askHint(t, ctx, actor)
		adv.asked.Store(0)
		if m.Type != "hint" || h.Advice.Measure != "points" || len(h.Advice.Choices) != len(st.Legal) {
			t.Fatalf("hint for the seat to act: %s (legal %+v)", m.Raw, st.Legal)
		}
		cs := h.Advice.Choices
		for i := 1; i < len(cs); i++ {
			if cs[i].Value > cs[i-1].Value {
				t.Fatalf("choices not best first: %s", m.Raw)
			}
			sorted++
		}
		if !cs[0].Best {
			t.Fatalf("the first choice is not marked best: %s", m.Raw)
		}
		var first map[string]any
		if err := json.Unmarshal(cs[0].Action, &first); err != nil {
			t.Fatal(err)
		}
		if _, ok := first["player"]; ok || first["type"] == nil {
			t.Fatalf("a choice's action %s is not an action message's", cs[0].Action)
		}
		if first["dice"] != nil {
			withDice++
		} else {
			banksOrThrows++
		}
		// Sent back exactly as given, it is accepted.
		if err := actor.SendRaw(ctx, []byte(`{"type":"action","version":`+strconv.Itoa(st.Version)+`,"action":`+string(cs[0].Action)+`}`)); err != nil {
			t.Fatal(err)
		}
		for _, p := range []*player{a, b, watcher} {
			for p.Last.Version == st.Version {
				m, err := p.Read(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if m.Type == "error" {
					t.Fatalf("the hint's action %s was refused: %s", cs[0].Action, m.Raw)
				}
			}
		}
		st = a.Last
	}
	if withDice == 0 || banksOrThrows == 0 || sorted == 0 {
		t.Fatalf("followed %d keeps and %d throws or banks, %d orderings checked: want some of each", withDice, banksOrThrows, sorted)
	}
}

// TestHintsOnlyWhereTheCastAdvises: the hints of every kind come from the
// server's Cast. A server given none has hints of the ordinary game
// unavailable (its table says so and a hint request is refused), as has
// one whose Cast's ordinary Players give no hints (server.NoHints), however
// good their advisor; a Cast that advises answers.
func TestHintsOnlyWhereTheCastAdvises(t *testing.T) {
	for _, c := range []struct {
		name  string
		cast  game.Cast
		hints bool
	}{
		{"no Cast", nil, false},
		{"NoHints", server.NoHints(advising(pointsAdvisor{}), game.Farkle), false},
		{"advising", advising(pointsAdvisor{}), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ts := start(t, "", server.Options{Cast: c.cast})
			ctx := ctxT(t, time.Minute)
			p := newPlayer(t, ts, "Ann")
			tb, err := p.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Connect(ctx, tb.ID); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			m, err := p.Read(ctx)
			if err != nil || m.Type != "welcome" {
				t.Fatalf("welcome: %s %v", m.Type, err)
			}
			var w struct{ Table struct{ Hints bool } }
			if err := json.Unmarshal(m.Raw, &w); err != nil {
				t.Fatal(err)
			}
			if w.Table.Hints != c.hints {
				t.Errorf("the table says hints %v, want %v", w.Table.Hints, c.hints)
			}
			got, h := askHint(t, ctx, p)
			switch {
			case c.hints && (got.Type != "hint" || h.Advice.Measure != "points" || len(h.Advice.Choices) == 0):
				t.Errorf("hint: %s", got.Raw)
			case !c.hints && (got.Type != "error" || got.Code != "unavailable" || !strings.Contains(got.Message, "no advisor")):
				t.Errorf("hint without an advisor: %s", got.Raw)
			}
		})
	}
}
