package game_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// FuzzParseRecord: ParseRecord never panics, and what it accepts is a
// record within its bounds (this format, a known kind whose rules open
// and validate, a seed that parses, every action compact JSON) that
// marshals and parses again to the same record. It refuses the rest with
// ErrBadRecord. The seeds are real records: the older formats' files and
// random games of every variant, whole and a few actions in.
func FuzzParseRecord(f *testing.F) {
	for _, file := range []string{"../record/testdata/classic-2p.json", "../dragon/testdata/classic-record.json",
		"../dragon/testdata/own-turn-record.json", "../dragon/testdata/own-turn-game-record.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	pick := rand.New(rand.NewPCG(5, 6))
	for _, v := range variants(f) {
		p := playRandom(f, v, dice.SeedFrom("fuzz "+v.Name()), pick)
		whole := p.Record()
		short := *whole // a game under way, small for the fuzzer to work on
		short.Actions, short.Seed = short.Actions[:min(len(short.Actions), 6)], ""
		for _, rec := range []*game.Record{whole, &short} {
			data, err := rec.Marshal()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"format":"farkle-record/2","kind":"farkle","rules":{"base":"classic"},"players":["a","b"],"commitment":"","actions":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := game.ParseRecord(data)
		if err != nil {
			if !errors.Is(err, game.ErrBadRecord) {
				t.Fatalf("ParseRecord refuses with %v, which does not wrap ErrBadRecord", err)
			}
			return
		}
		checkBounds(t, rec)
		m1, err := rec.Marshal()
		if err != nil {
			t.Fatalf("an accepted record does not marshal: %v", err)
		}
		again, err := game.ParseRecord(m1)
		if err != nil {
			t.Fatalf("the record ParseRecord accepted, marshalled, is refused: %v\n%s", err, m1)
		}
		m2, err := again.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m1, m2) {
			t.Fatalf("parsed again the record changes:\n%s\nthen\n%s", m1, m2)
		}
		if again.Kind != rec.Kind || again.Commitment != rec.Commitment || again.Seed != rec.Seed ||
			!reflect.DeepEqual(again.Players, rec.Players) || !reflect.DeepEqual(again.Actions, rec.Actions) {
			t.Fatalf("parsed again the record is another: %+v, then %+v", rec, again)
		}
	})
}

// checkBounds checks what ParseRecord promises of a record it accepts.
func checkBounds(t *testing.T, rec *game.Record) {
	t.Helper()
	if rec.Format != game.Format {
		t.Fatalf("accepted with format %q, not %q", rec.Format, game.Format)
	}
	v, err := game.Open(rec.Kind, rec.Rules)
	if err != nil {
		t.Fatalf("accepted with rules its kind %q refuses: %v", rec.Kind, err)
	}
	if !bytes.Equal(v.Rules(), rec.Rules) {
		t.Fatalf("accepted rules %s are not the variant's own %s", rec.Rules, v.Rules())
	}
	if rec.Seed != "" {
		if _, err := dice.ParseSeed(rec.Seed); err != nil {
			t.Fatalf("accepted with seed %q: %v", rec.Seed, err)
		}
	}
	if rec.Actions == nil {
		t.Fatal("accepted with no actions list")
	}
	for i, raw := range rec.Actions {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil || !bytes.Equal(b.Bytes(), raw) {
			t.Fatalf("action %d %q is not compact JSON (%v)", i+1, raw, err)
		}
	}
}
