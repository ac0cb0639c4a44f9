package localplay_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/localplay"
	"github.com/farkle/farkle/rules"
)

func seedHex(i int) string {
	var s dice.Seed
	s[0], s[1] = byte(i), byte(i>>8)
	s[31] = 0x5a
	return s.Hex()
}

func start(t *testing.T, preset string, seats []localplay.Seat, seed int) *localplay.Game {
	t.Helper()
	g, err := localplay.New(localplay.Setup{Rules: json.RawMessage(`"` + preset + `"`), Seats: seats, Seed: seedHex(seed)}, "en")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playBots plays the bots' moves until a person is to act or the game is
// over.
func playBots(t *testing.T, g *localplay.Game) {
	t.Helper()
	for g.BotToAct() {
		if _, refusal := g.BotAct(); refusal != nil {
			t.Fatalf("bot refused: %+v", refusal)
		}
	}
}

// A local game of bots is the game the server's way gives (game.Start and
// each bot's Choose on the engine state) for the same seed, and its record
// verifies once over, its seed hidden until then.
func TestBotGameIsTheServersGame(t *testing.T) {
	for _, preset := range []string{"classic", "pocket-farkel", "farkle-dice", "cardgames"} {
		for seed := range 3 {
			levels := []string{"expert", "steady", "bold"}[:2+seed%2]
			if preset == "cardgames" {
				levels = levels[:2]
			}
			seats := make([]localplay.Seat, len(levels))
			names := make([]string, len(levels))
			for i, lv := range levels {
				seats[i] = localplay.Seat{Name: fmt.Sprintf("B%d", i), Bot: lv}
				names[i] = seats[i].Name
			}
			g := start(t, preset, seats, seed)
			if strings.Contains(string(g.Record()), `"seed"`) {
				t.Fatal("the seed is in the record before the end")
			}
			playBots(t, g)
			if !g.Over() {
				t.Fatalf("%s seed %d: bots stopped before the end", preset, seed)
			}
			rec, err := game.ParseRecord(g.Record())
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := game.Verify(rec); err != nil {
				t.Fatalf("%s seed %d: %v", preset, seed, err)
			}
			// The server's way.
			r := rules.MustPreset(preset)
			r.Game.MaxTurns = localplay.MaxTurns
			v, _ := game.NewFarkle(r)
			sd, _ := dice.ParseSeed(seedHex(seed))
			p, _, err := game.Start(v, names, sd)
			if err != nil {
				t.Fatal(err)
			}
			for !p.Game().Over() {
				seat := p.Game().ToAct()
				b, _ := bot.New(levels[seat], r)
				if _, err := p.Do(seat, b.Choose(p.Game().(*game.FarkleGame).State())); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := rec.Actions, p.Record().Actions; len(got) != len(want) || fmt.Sprint(rec.Meta.Scores) != fmt.Sprint(p.Record().Meta.Scores) {
				t.Fatalf("%s seed %d: %d actions scoring %v, the server's way %d scoring %v", preset, seed, len(got), rec.Meta.Scores, len(want), p.Record().Meta.Scores)
			}
			for i := range rec.Actions {
				if string(rec.Actions[i]) != string(p.Record().Actions[i]) {
					t.Fatalf("%s seed %d: action %d is %s, the server's way %s", preset, seed, i+1, rec.Actions[i], p.Record().Actions[i])
				}
			}
		}
	}
}

// A game resumed from its record and seed is the game it was: the same
// welcome (state and log), and the same game on from there.
func TestResumeIsTheSameGame(t *testing.T) {
	seats := []localplay.Seat{{Name: "Ann"}, {Name: "Steady bot", Bot: "steady"}}
	g := start(t, "classic", seats, 7)
	playPerson := func(g *localplay.Game, n int) {
		for range n {
			playBots(t, g)
			if g.Over() {
				return
			}
			w := g.Welcome(0)
			l := w.State.Legal[0]
			msg, _ := json.Marshal(map[string]any{"type": "action", "version": w.State.Version, "action": map[string]any{"type": l.Type, "dice": l.Dice}})
			if _, refusal := g.Act(0, msg); refusal != nil {
				t.Fatalf("refused %s: %+v", msg, refusal)
			}
		}
	}
	playPerson(g, 25)
	r, err := localplay.Resume(g.Record(), seedHex(7), "en")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(g.Welcome(0))
	b, _ := json.Marshal(r.Welcome(0))
	if string(a) != string(b) {
		t.Fatalf("resumed welcome differs:\n%s\n%s", a, b)
	}
	playPerson(g, 40)
	playPerson(r, 40)
	if string(g.Record()) != string(r.Record()) {
		t.Fatal("the resumed game went another way")
	}
	if _, err := localplay.Resume(g.Record(), seedHex(8), "en"); err == nil {
		t.Fatal("resumed with another seed")
	}
}

// Every refusal says why in the server's code and changes nothing.
func TestRefusalsChangeNothing(t *testing.T) {
	g := start(t, "classic", []localplay.Seat{{Name: "Ann"}, {Name: "Bea"}}, 3)
	w := g.Welcome(0)
	actor := w.State.Actor
	other := 1 - actor
	good := fmt.Sprintf(`{"type":"action","version":%d,"action":{"type":"roll-off"}}`, w.State.Version)
	for _, c := range []struct {
		seat int
		msg  string
		code string
	}{
		{actor, `not json`, "bad_message"},
		{actor, `{"type":"chat","version":0,"action":{"type":"roll-off"}}`, "bad_message"},
		{actor, `{"type":"action","version":0,"action":{"type":"fly"}}`, "bad_message"},
		{actor, `{"type":"action","version":0,"action":{"type":"roll-off"},"extra":1}`, "bad_message"},
		{5, good, "not_seated"},
		{other, good, "not_your_turn"},
		{actor, `{"type":"action","version":0,"action":{"type":"bank"}}`, "illegal"},
		{actor, `{"type":"action","version":3,"action":{"type":"roll-off"}}`, "stale"},
	} {
		before := string(g.Record())
		up, refusal := g.Act(c.seat, []byte(c.msg))
		if up != nil || refusal == nil || refusal.Code != c.code {
			t.Errorf("seat %d %s: %+v, want %s", c.seat, c.msg, refusal, c.code)
		}
		if string(g.Record()) != before {
			t.Errorf("%s changed the game", c.msg)
		}
	}
	if up, refusal := g.Act(actor, []byte(good)); refusal != nil || up.State.Version != 1 || len(up.Threw) != 1 || up.Log[0].Type != "roll-off" {
		t.Fatalf("the roll-off: %+v %+v", up, refusal)
	}
	if _, refusal := g.BotAct(); refusal == nil || refusal.Code != "not_your_turn" {
		t.Fatalf("a bot acted at a table of people: %+v", refusal)
	}
}

// A hint values every choice of the person to act, best first, in the
// page's language; others get the odds.
func TestHint(t *testing.T) {
	g, err := localplay.New(localplay.Setup{Rules: json.RawMessage(`"classic"`), Seats: []localplay.Seat{{Name: "Ann"}, {Name: "Bob", Bot: "cautious"}}, Seed: seedHex(11)}, "nb")
	if err != nil {
		t.Fatal(err)
	}
	if _, refusal := g.Hint(0); refusal == nil || refusal.Code != "unavailable" {
		t.Fatalf("a hint in the roll-off: %+v", refusal)
	}
	seen := 0
	for range 400 {
		playBots(t, g)
		if g.Over() {
			break
		}
		w := g.Welcome(0)
		if w.State.Phase == "play" && w.State.Step == "keep" {
			h, refusal := g.Hint(0)
			if refusal != nil {
				t.Fatal(refusal)
			}
			if h.Advice.Measure != "points" || len(h.Advice.Choices) != len(w.State.Legal) || !h.Advice.Choices[0].Best {
				t.Fatalf("hint %+v for legal %+v", h.Advice, w.State.Legal)
			}
			for i, c := range h.Advice.Choices {
				if !strings.HasPrefix(c.Text, "behold ") || (i > 0 && c.Value > h.Advice.Choices[i-1].Value) {
					t.Fatalf("choice %d: %+v", i, c)
				}
			}
			if h2, _ := g.Hint(1); h2.Advice.Measure != "odds" || h2.Advice.Odds.Seat != 0 {
				t.Fatalf("the other seat's hint: %+v", h2)
			}
			seen++
			// Play the best choice, as the page's button does.
			msg, _ := json.Marshal(map[string]any{"type": "action", "version": w.State.Version, "action": h.Advice.Choices[0].Action})
			if _, refusal := g.Act(0, msg); refusal != nil {
				t.Fatalf("the hint's action %s: %+v", msg, refusal)
			}
			continue
		}
		l := w.State.Legal[0]
		msg, _ := json.Marshal(map[string]any{"type": "action", "version": w.State.Version, "action": map[string]any{"type": l.Type, "dice": l.Dice}})
		if _, refusal := g.Act(0, msg); refusal != nil {
			t.Fatal(refusal)
		}
	}
	if seen < 5 {
		t.Fatalf("only %d keeps hinted", seen)
	}
}

// A bad setup is refused, saying what.
func TestSetupRefused(t *testing.T) {
	ok := localplay.Setup{Rules: json.RawMessage(`"classic"`), Seats: []localplay.Seat{{Name: "Ann"}, {Name: "B", Bot: "steady"}}, Seed: seedHex(1)}
	for _, c := range []struct {
		name string
		set  func(*localplay.Setup)
		want string
	}{
		{"preset", func(s *localplay.Setup) { s.Rules = json.RawMessage(`"nope"`) }, "nope"},
		{"rules", func(s *localplay.Setup) { s.Rules = json.RawMessage(`{"game":{"target":0}}`) }, "game.target"},
		{"seed", func(s *localplay.Setup) { s.Seed = "12" }, "seed"},
		{"level", func(s *localplay.Setup) { s.Seats[1].Bot = "perfect" }, "perfect"},
		{"name", func(s *localplay.Setup) { s.Seats[0].Name = "  " }, "name"},
		{"long", func(s *localplay.Setup) { s.Seats[0].Name = strings.Repeat("é", 25) }, "name"},
		{"players", func(s *localplay.Setup) { s.Seats = nil }, "players"},
	} {
		s := ok
		s.Seats = append([]localplay.Seat(nil), ok.Seats...)
		c.set(&s)
		_, err := localplay.New(s, "en")
		if !errors.Is(err, localplay.ErrSetup) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := localplay.New(ok, "en"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range localplay.Levels() {
		names = append(names, l.Name)
	}
	if reflect.DeepEqual(names, bot.LevelNames()) || len(names) != len(bot.LevelNames())-1 {
		t.Fatalf("local levels %v of %v", names, bot.LevelNames())
	}
}
