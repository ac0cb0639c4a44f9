package record_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
)

// playRandom plays a whole game with random legal actions through a Game.
func playRandom(t testing.TB, r rules.Rules, names []string, seed dice.Seed, rng *rand.Rand) *record.Game {
	t.Helper()
	g, err := record.Start(r, names, seed)
	if err != nil {
		t.Fatal(err)
	}
	for !g.State.Over() {
		legal := g.State.Legal()
		a := legal[rng.IntN(len(legal))]
		for _, l := range legal {
			if l.Kind == engine.Bank && rng.IntN(3) > 0 {
				a = l
			}
		}
		if _, err := g.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestRecordReplaysToTheSameGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			r := rules.MustPreset(name)
			g := playRandom(t, r, []string{"ana", "bob"}, dice.SeedFrom(name), rng)
			data, err := g.Record.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			rec, err := record.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			for _, check := range []func(*record.Record) (engine.State, error){
				record.Verify,
				func(rec *record.Record) (engine.State, error) { s, _, err := record.Replay(rec); return s, err },
			} {
				st, err := check(rec)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(st.Players, g.State.Players) || !reflect.DeepEqual(st.Winners, g.State.Winners) || st.Version != g.State.Version {
					t.Fatalf("replayed state differs:\n got %+v\nwant %+v", st, g.State)
				}
			}
			if !reflect.DeepEqual(rec.Meta.Winners, g.State.Winners) {
				t.Fatalf("meta winners %v, state %v", rec.Meta.Winners, g.State.Winners)
			}
		})
	}
}

func TestResumeContinuesIdentically(t *testing.T) {
	r := rules.MustPreset("classic")
	seed := dice.SeedFrom("resume")
	full := playRandom(t, r, []string{"ana", "bob"}, seed, rand.New(rand.NewPCG(9, 9)))
	// Cut the record half way, resume, and replay the rest of the actions:
	// the dice must continue exactly as in the uninterrupted game.
	half := *full.Record
	half.Seed = ""
	half.Actions = full.Record.Actions[:len(full.Record.Actions)/2]
	g, err := record.Resume(&half, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range full.Record.Actions[len(half.Actions):] {
		if _, err := g.Do(e.Action); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(g.Record.Actions, full.Record.Actions) {
		t.Fatal("resumed game threw different dice")
	}
	if _, err := record.Resume(&half, dice.SeedFrom("other")); !errors.Is(err, record.ErrDiscrepancy) {
		t.Fatalf("a wrong seed must be refused, got %v", err)
	}
}

func TestVerifyFindsTampering(t *testing.T) {
	r := rules.MustPreset("pocket-farkel")
	g := playRandom(t, r, []string{"ana", "bob", "cy"}, dice.SeedFrom("tamper"), rand.New(rand.NewPCG(1, 8)))
	firstThrow := -1
	for i, e := range g.Record.Actions {
		if e.Kind == engine.Throw && e.Threw.N() == 6 {
			firstThrow = i
			break
		}
	}
	cases := map[string]struct {
		edit func(*record.Record)
		want string
	}{
		"changed die": {func(rec *record.Record) {
			e := &rec.Actions[firstThrow]
			f := e.Threw.Faces()
			f[0] = f[0]%6 + 1
			e.Threw = dice.Of(f...)
		}, "the seed throws"},
		"wrong seed": {func(rec *record.Record) { rec.Seed = dice.SeedFrom("x").Hex() }, "committed to"},
		"no seed":    {func(rec *record.Record) { rec.Seed = "" }, "not revealed"},
		"bank too early": {func(rec *record.Record) {
			rec.Actions = append(rec.Actions[:firstThrow+1:firstThrow+1], record.Entry{Action: engine.BankBy(rec.Actions[firstThrow].Player)})
		}, "keep some dice first"},
		"out of turn": {func(rec *record.Record) {
			rec.Actions[firstThrow].Player = (rec.Actions[firstThrow].Player + 1) % 3
		}, "not your turn"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			data, _ := g.Record.Marshal()
			rec, err := record.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(rec)
			_, err = record.Verify(rec)
			if !errors.Is(err, record.ErrDiscrepancy) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a discrepancy saying %q", err, c.want)
			}
		})
	}
}

func TestParseRefusesBadRecords(t *testing.T) {
	g := playRandom(t, rules.MustPreset("classic"), []string{"a"}, dice.SeedFrom("p"), rand.New(rand.NewPCG(2, 2)))
	good, _ := g.Record.Marshal()
	cases := map[string]string{
		"not json":      "{",
		"unknown field": strings.Replace(string(good), `"format"`, `"colour": 1, "format"`, 1),
		"other format":  strings.Replace(string(good), record.Format, "farkle-record/9", 1),
		"bad rules":     strings.Replace(string(good), `"target": 10000`, `"target": 0`, 1),
		"short seed":    strings.Replace(string(good), g.Record.Seed, "abcd", 1),
		"bad action":    strings.Replace(string(good), `"type": "throw"`, `"type": "cheat"`, 1),
		"bad die":       strings.Replace(string(good), `"threw": [`, `"threw": [7,`, 1),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if data == string(good) {
				t.Fatal("the case did not change the record")
			}
			if _, err := record.Parse([]byte(data)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	if _, err := record.Parse(good); err != nil {
		t.Fatal(err)
	}
}

func TestGoldenRecordStillVerifies(t *testing.T) {
	// A record written by an earlier version must keep verifying: the dice
	// stream and the rules of play are a contract.
	path := filepath.Join("testdata", "classic-2p.json")
	if testflags.Update() {
		g := playRandom(t, rules.MustPreset("classic"), []string{"ana", "bob"}, dice.SeedFrom("golden"), rand.New(rand.NewPCG(42, 42)))
		data, _ := g.Record.Marshal()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := record.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Over() || !reflect.DeepEqual(st.Winners, rec.Meta.Winners) {
		t.Fatalf("final state %+v does not match the recorded result %v", st, rec.Meta)
	}
}

func FuzzParse(f *testing.F) {
	// A short game as the seed: long inputs slow the fuzzer down for no gain.
	g := playRandom(f, rules.MustPreset("classic"), []string{"a", "b"}, dice.SeedFrom("fuzz"), rand.New(rand.NewPCG(1, 1)))
	g.Record.Actions = g.Record.Actions[:min(12, len(g.Record.Actions))]
	short, _ := g.Record.Marshal()
	f.Add(short)
	f.Add([]byte(`{"format":"farkle-record/1"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := record.Parse(data)
		if err != nil {
			return
		}
		// Whatever parses must replay or fail cleanly, never panic.
		_, _, _ = record.Replay(rec)
		_, _ = record.Verify(rec)
		out, err := rec.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := record.Parse(out); err != nil {
			t.Fatalf("a parsed record does not parse again: %v", err)
		}
	})
}
