package rules_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// fuzzSeeds are rule files: the example file, every preset as TOML, rules
// with every number at its bound, and a few broken ones.
func fuzzSeeds() []rules.Rules {
	var out []rules.Rules
	for _, r := range roundTripRules() {
		out = append(out, r)
	}
	for _, mode := range []string{rules.KindFixed, rules.KindMultiply, rules.KindDouble} {
		out = append(out, maxedRules(mode))
	}
	return out
}

// checkAccepted: rules a parser accepted validate, score without overflow
// and survive a round trip through TOML and JSON with the same hash.
func checkAccepted(t *testing.T, r rules.Rules) {
	t.Helper()
	if err := r.Validate(); err != nil {
		t.Fatalf("accepted rules do not validate: %v", err)
	}
	checkScoring(t, r)
	back, err := rules.ParseTOML(r.TOML())
	if err != nil {
		t.Fatalf("TOML() does not parse back: %v\n%s", err, r.TOML())
	}
	if !reflect.DeepEqual(back, r) {
		t.Fatalf("TOML round trip changed the rules:\n got %+v\nwant %+v", back, r)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err = rules.ParseJSON(b)
	if err != nil {
		t.Fatalf("JSON does not parse back: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(back, r) || back.Hash() != r.Hash() {
		t.Fatalf("JSON round trip changed the rules:\n got %+v\nwant %+v", back, r)
	}
}

func FuzzParseTOML(f *testing.F) {
	if b, err := os.ReadFile("testdata/kitchen.toml"); err == nil {
		f.Add(b)
	}
	for _, r := range fuzzSeeds() {
		f.Add(r.TOML())
	}
	for _, s := range []string{"", "base = \"pocket-farkel\"\ndice = 5", "[scoring]\nsingle = {}", "[turn.farkle_penalty]\ncount = 1", "Name = 1", "[scoring]\ntriple = [1]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := rules.ParseTOML(data)
		if err != nil {
			return
		}
		checkAccepted(t, r)
	})
}

func FuzzParseJSON(f *testing.F) {
	for _, r := range fuzzSeeds() {
		b, err := json.Marshal(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{"{}", "null", `{"base":"cardgames","scoring":{"single":{"6":60}}}`, `{"scoring":{"triple":[1,2]}}`, `{"turn":{"farkle_penalty":null}}`, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := rules.ParseJSON(data)
		if err != nil {
			return
		}
		checkAccepted(t, r)
	})
}

// checkScoring: every keep of every throw scores what its melds add up to
// in int64 (so the table's points did not wrap), positive and at most
// rules.MaxKeepPoints.
func checkScoring(t *testing.T, r rules.Rules) {
	t.Helper()
	tab := dice.NewTable(r)
	for _, h := range dice.AllThrows() {
		if h.N() > r.Dice {
			continue
		}
		for _, k := range tab.Keeps(h) {
			var sum int64
			for _, m := range tab.Split(k.Hand) {
				sum += int64(m.Points)
			}
			if int64(k.Points) != sum || k.Points <= 0 || k.Points > rules.MaxKeepPoints {
				t.Fatalf("keep %v of %v scores %d; its melds add up to %d (bound %d)", k.Hand, h, k.Points, sum, rules.MaxKeepPoints)
			}
		}
	}
}
