package game_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// variants are the variants every test of the contract runs on.
func variants(t testing.TB) []game.Variant {
	t.Helper()
	var out []game.Variant
	for _, name := range []string{"classic", "farkle-dice", "pocket-farkel"} {
		v, err := game.NewFarkle(rules.MustPreset(name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return append(out, game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil)), game.NewDragon(dragon.MustGame(dragon.ClassicRules(), nil)))
}

// playRandom plays a whole game choosing uniformly among the legal actions
// of the seat to act, checking on the way that Check and Apply agree with
// Legal and that a refused action changes nothing.
func playRandom(t testing.TB, v game.Variant, seed dice.Seed, pick *rand.Rand) *game.Play {
	t.Helper()
	p, _, err := game.Start(v, []string{"Ana", "Bo", "Cy"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !p.Game().Over(); i++ {
		if i > 5000 {
			t.Fatalf("%s: no end after 5000 actions", v.Name())
		}
		g := p.Game()
		seat := g.ToAct()
		legal := g.Legal(seat)
		if len(legal) == 0 {
			t.Fatalf("%s: seat %d to act has no legal action", v.Name(), seat)
		}
		other := (seat + 1) % len(g.Players())
		if len(g.Legal(other)) != 0 || g.Check(other, legal[0]) == nil {
			t.Fatalf("%s: seat %d may act when it is seat %d's turn", v.Name(), other, seat)
		}
		before := string(mustJSON(t, g.View(seat)))
		if _, _, err := g.Apply(other, legal[0], dice.NewSource(seed)); err == nil || string(mustJSON(t, g.View(seat))) != before {
			t.Fatalf("%s: a refused action was accepted or changed the game (%v)", v.Name(), err)
		}
		a := legal[pick.IntN(len(legal))]
		if err := g.Check(seat, a); err != nil {
			t.Fatalf("%s: Check refuses the legal %s: %v", v.Name(), a, err)
		}
		if _, err := p.Do(seat, a); err != nil {
			t.Fatalf("%s: Do refuses the legal %s: %v", v.Name(), a, err)
		}
		if p.Game().Version() != g.Version()+1 {
			t.Fatalf("%s: version %d after %d", v.Name(), p.Game().Version(), g.Version())
		}
	}
	return p
}

func TestRandomGamesRecordAndVerify(t *testing.T) {
	pick := rand.New(rand.NewPCG(1, 2))
	for _, v := range variants(t) {
		for i := range 4 {
			seed := dice.SeedFrom(fmt.Sprintf("%s-%d", v.Name(), i))
			p := playRandom(t, v, seed, pick)
			data, err := p.Record().Marshal()
			if err != nil {
				t.Fatal(err)
			}
			rec, err := game.ParseRecord(data)
			if err != nil {
				t.Fatalf("%s: the record does not parse: %v", v.Name(), err)
			}
			g, steps, err := game.Verify(rec)
			if err != nil {
				t.Fatalf("%s: the record does not verify: %v", v.Name(), err)
			}
			if len(steps) != len(rec.Actions) || !reflect.DeepEqual(g.Winners(), p.Game().Winners()) || !reflect.DeepEqual(g.Scores(), p.Game().Scores()) {
				t.Fatalf("%s: verify gives winners %v scores %v, the game %v %v", v.Name(), g.Winners(), g.Scores(), p.Game().Winners(), p.Game().Scores())
			}
			if rec.Kind != v.Kind() || rec.Seed != seed.Hex() || !reflect.DeepEqual(rec.Meta.Winners, g.Winners()) {
				t.Fatalf("%s: record kind %q seed %q winners %v", v.Name(), rec.Kind, rec.Seed, rec.Meta.Winners)
			}
		}
	}
}

func TestResumeContinuesTheSameGame(t *testing.T) {
	for _, v := range variants(t) {
		seed := dice.SeedFrom("resume " + v.Name())
		whole := playRandom(t, v, seed, rand.New(rand.NewPCG(3, 4)))
		n := len(whole.Record().Actions) / 2
		half := *whole.Record()
		half.Actions = half.Actions[:n]
		half.Seed, half.Meta = "", whole.Record().Meta
		half.Meta.Winners, half.Meta.Scores = nil, nil
		p, steps, err := game.Resume(&half, seed)
		if err != nil || len(steps) != n {
			t.Fatalf("%s: resume at %d: %d steps, %v", v.Name(), n, len(steps), err)
		}
		for _, raw := range whole.Record().Actions[n:] {
			a, err := v.ParseAction(raw)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Do(p.Game().ToAct(), a); err != nil {
				t.Fatalf("%s: the resumed game refuses %s: %v", v.Name(), a, err)
			}
		}
		if got, want := string(mustJSON(t, p.Record().Actions)), string(mustJSON(t, whole.Record().Actions)); got != want {
			t.Fatalf("%s: the resumed game's record differs from the whole game's", v.Name())
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestTamperingIsFound(t *testing.T) {
	for _, v := range variants(t) {
		seed := dice.SeedFrom("tamper " + v.Name())
		p := playRandom(t, v, seed, rand.New(rand.NewPCG(5, 6)))
		rec := *p.Record()
		// Another seed: the commitment no longer matches.
		bad := rec
		bad.Seed = dice.SeedFrom("other").Hex()
		if _, _, err := game.Verify(&bad); !errors.Is(err, game.ErrDiscrepancy) {
			t.Fatalf("%s: a wrong seed verifies: %v", v.Name(), err)
		}
		// An action swapped for another legal one at the same point.
		_, steps, err := game.Verify(&rec)
		if err != nil {
			t.Fatal(err)
		}
		changed := false
		for i, st := range steps {
			legal := st.Before.Legal(st.Seat)
			for _, a := range legal {
				alt := v.Entry(st.Seat, a, nil)
				if string(alt) == string(rec.Actions[i]) || strings.Contains(string(rec.Actions[i]), "threw") {
					continue
				}
				bad := rec
				bad.Actions = append([]json.RawMessage(nil), rec.Actions...)
				bad.Actions[i] = alt
				if _, _, err := game.Verify(&bad); err == nil {
					t.Fatalf("%s: action %d changed to %s still verifies", v.Name(), i+1, alt)
				}
				changed = true
				break
			}
			if changed {
				break
			}
		}
		if !changed {
			t.Fatalf("%s: found no action to change", v.Name())
		}
	}
}

// TestOlderFormatsVerify reads a record of each format written before
// game.Format and checks it through the one contract.
func TestOlderFormatsVerify(t *testing.T) {
	for _, c := range []struct {
		file string
		kind game.Kind
	}{{"../record/testdata/classic-2p.json", game.Farkle}, {"../dragon/testdata/classic-record.json", game.Dragon},
		{"../dragon/testdata/own-turn-record.json", game.Dragon}, {"../dragon/testdata/own-turn-game-record.json", game.Dragon}} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if rec.Kind != c.kind || rec.Format != game.Format {
			t.Fatalf("%s: kind %q format %q", c.file, rec.Kind, rec.Format)
		}
		g, _, err := game.Verify(rec)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if !g.Over() {
			t.Fatalf("%s: the game is not over after the replay", c.file)
		}
	}
}

func TestParseRecordRefuses(t *testing.T) {
	for _, bad := range []string{
		`{"format":"farkle-record/9"}`,
		`{"format":"farkle-record/2","kind":"chess","rules":{},"players":["a"],"commitment":"","actions":[]}`,
		`{"format":"farkle-record/2","kind":"farkle","rules":{"base":"classic","game":{"target":-1}},"players":["a"],"commitment":"","actions":[]}`,
		`{"format":"farkle-record/2","kind":"farkle","rules":{"base":"classic"},"players":["a"],"commitment":"","seed":"zz","actions":[]}`,
		`{"format":"farkle-record/2","kind":"dragon","rules":{},"players":["a"],"commitment":"","actions":[],"extra":1}`,
	} {
		if _, err := game.ParseRecord([]byte(bad)); !errors.Is(err, game.ErrBadRecord) {
			t.Errorf("ParseRecord(%s) = %v, want ErrBadRecord", bad, err)
		}
	}
}

// TestOwnTurnGameRecordNeedsItsTiming: a record of this format written
// before card timing (its rules have no card_timing) replays with active
// cards on their owner's turn only; read as a game of today's rules, the
// same actions are not the same game (a defender's card opens a brawl
// window the old game never had), so the versioning is what keeps it.
func TestOwnTurnGameRecordNeedsItsTiming(t *testing.T) {
	data, err := os.ReadFile("../dragon/testdata/own-turn-game-record.json")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("card_timing")) {
		t.Fatal("the old record names a card timing: it is not a record from before card timing")
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rec.Variant()
	if err != nil {
		t.Fatal(err)
	}
	if r := v.(*game.DragonVariant).Game().Rules(); r.CardTiming != dragon.TimingOwnTurn || r.HireCost != 0 {
		t.Fatalf("read with card timing %q and hire cost %d", r.CardTiming, r.HireCost)
	}
	if _, _, err := game.Verify(rec); err != nil {
		t.Fatal(err)
	}
	now := *rec
	now.Rules = bytes.Replace(rec.Rules, []byte(`"card_timing":"own_turn"`), []byte(`"card_timing":"anytime"`), 1)
	now.Rules = bytes.Replace(now.Rules, []byte(`"hire_cost":0`), []byte(`"hire_cost":200`), 1)
	if bytes.Equal(now.Rules, rec.Rules) {
		t.Fatalf("the parsed rules do not name their card timing: %s", rec.Rules)
	}
	if _, _, err := game.Verify(&now); !errors.Is(err, game.ErrDiscrepancy) {
		t.Fatalf("the old actions under today's card timing: %v, want a discrepancy", err)
	}
}

// TestDragonDefenderActsOffTurn: in Dragon Farkle the game waits for a
// brawl's defender, on the challenger's turn, while the defender's card may
// change their throw. Through the contract ToAct is then the defender, who
// alone has legal actions, and the record of such a game verifies with
// those actions as the defender's.
func TestDragonDefenderActsOffTurn(t *testing.T) {
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	pick := rand.New(rand.NewPCG(5, 6))
	found := 0
	for i := 0; i < 30 && found == 0; i++ {
		p := playRandom(t, v, dice.SeedFrom(fmt.Sprint("defender ", i)), pick)
		data, err := p.Record().Marshal()
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		_, steps, err := game.Verify(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			dg := st.Before.(*game.DragonGame)
			s := dg.State()
			if st.Seat == s.Turn {
				continue
			}
			found++
			if s.Phase != dragon.PhaseBrawl || s.Brawl == nil || st.Seat != s.Brawl.Defender || dg.ToAct() != st.Seat {
				t.Fatalf("seat %d acted on seat %d's turn in phase %s (brawl %+v)", st.Seat, s.Turn, s.Phase, s.Brawl)
			}
			if len(dg.Legal(s.Turn)) != 0 || dg.Check(s.Turn, st.Action) == nil {
				t.Fatalf("the challenger may act while the defender decides")
			}
			if view := dg.View(st.Seat).(dragon.View); view.ToAct != st.Seat || len(view.Legal) == 0 {
				t.Fatalf("the defender's view: to act %d, legal %v", view.ToAct, view.Legal)
			}
		}
	}
	if found == 0 {
		t.Fatal("no defender used a card or passed in 30 random games")
	}
}

// TestCapped: every variant's Capped ends its games after at most the
// rounds asked for, keeping a lower limit of its own, and leaves the
// variant as it is for a cap of 0.
func TestCapped(t *testing.T) {
	classic, err := game.NewFarkle(rules.MustPreset("classic"))
	if err != nil {
		t.Fatal(err)
	}
	dragonPreset, ok := game.Preset("dragon")
	if !ok {
		t.Fatal("no preset dragon")
	}
	for name, v := range map[string]game.Variant{"classic": classic, "dragon": dragonPreset} {
		if v.Capped(0) != v {
			t.Errorf("%s: a cap of 0 changed the variant", name)
		}
		limit := func(v game.Variant) int {
			var r struct {
				Game struct {
					MaxTurns int `json:"max_turns"`
				} `json:"game"`
				RoundLimit int `json:"round_limit"`
			}
			if err := json.Unmarshal(v.Rules(), &r); err != nil {
				t.Fatal(err)
			}
			return r.Game.MaxTurns + r.RoundLimit
		}
		c := v.Capped(7)
		if got := limit(c); got != 7 {
			t.Errorf("%s capped at 7 has a limit of %d", name, got)
		}
		if c.Capped(9) != c || limit(c.Capped(5)) != 5 {
			t.Errorf("%s: a higher cap replaced a lower limit, or a lower one was not taken", name)
		}
		reopened, err := game.Open(c.Kind(), c.Rules())
		if err != nil || limit(reopened) != 7 {
			t.Errorf("%s: the capped rules do not reopen with their limit: %v", name, err)
		}
		// A capped game ends: two players who always stop at once.
		g, _, err := c.Start([]string{"a", "b"}, dice.NewSource([32]byte{1}))
		if err != nil {
			t.Fatal(err)
		}
		src := dice.NewSource([32]byte{2})
		for steps := 0; !g.Over(); steps++ {
			if steps > 100_000 {
				t.Fatalf("%s capped at 7 rounds has not ended after %d actions", name, steps)
			}
			legal := g.Legal(g.ToAct())
			if g, _, err = g.Apply(g.ToAct(), legal[len(legal)-1], src); err != nil {
				t.Fatal(err)
			}
		}
	}
}
