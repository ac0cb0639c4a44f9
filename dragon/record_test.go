package dragon

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// TestRecordReplays saves a bot game as a Record, reads it back and
// replays it to the very same final state.
func TestRecordReplays(t *testing.T) {
	g := MustGame(DefaultRules(), DefaultCards())
	brains := NewBrains(g)
	names := []string{"ann", "bob", "cy"}
	bots := []*Bot{NewBot(Smart, brains), NewBot(Simple, brains), NewBot(Random, brains)}
	seed := dice.SeedFrom("record")
	final, actions, _, err := playGame(g, names, bots, seed, 0)
	if err != nil || !final.Over() {
		t.Fatalf("game: %v", err)
	}
	rec := NewRecord(g, names, seed)
	rec.Actions, rec.Winners, rec.Slain = actions, final.Winners, final.Slain
	if rec.Cards != "" {
		t.Fatal("the default card set is written out")
	}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	_, s, evs, err := back.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, final) {
		t.Fatal("the replayed record differs from the game played")
	}
	if evs[len(evs)-1].Kind != EvWin {
		t.Fatalf("last event %v, want a win", evs[len(evs)-1].Kind)
	}

	t.Run("wrong winner", func(t *testing.T) {
		bad := *back
		bad.Winners = []int{(final.Winners[0] + 1) % 3}
		if _, _, _, err := bad.Replay(); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "winners") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("illegal action", func(t *testing.T) {
		bad := *back
		bad.Actions = append([]Action{Stop()}, bad.Actions...)
		if _, _, _, err := bad.Replay(); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "action 1") {
			t.Fatalf("got %v", err)
		}
	})
}

// TestRecordCustomCards keeps a card set that is not the default in the
// record, and replays with it.
func TestRecordCustomCards(t *testing.T) {
	text := strings.Replace(string(DefaultCardsTOML()), "Sack of Holding", "Bag of Holding", 1)
	if text == string(DefaultCardsTOML()) {
		t.Fatal("the default cards have no Sack of Holding")
	}
	cards, err := ParseCards([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	g := MustGame(DefaultRules(), cards)
	brains := NewBrains(g)
	names := []string{"a", "b"}
	seed := dice.SeedFrom("custom")
	final, actions, _, err := playGame(g, names, []*Bot{NewBot(Smart, brains), NewBot(Smart, brains)}, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(g, names, seed)
	rec.Actions = actions
	if !strings.Contains(rec.Cards, "Bag of Holding") {
		t.Fatal("the card set is not in the record")
	}
	data, _ := rec.Marshal()
	back, err := ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	g2, s, _, err := back.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, final) || g2.Cards().Card(g2.Cards().Items[0].ID) == nil {
		t.Fatal("the replay differs")
	}
}

func TestParseRecordErrors(t *testing.T) {
	g := MustGame(DefaultRules(), DefaultCards())
	good, _ := NewRecord(g, []string{"a", "b"}, dice.SeedFrom("x")).Marshal()
	for _, c := range []struct{ name, data, want string }{
		{"not json", "{", "unexpected"},
		{"format", strings.Replace(string(good), RecordFormat, "other/1", 1), "format"},
		{"unknown field", strings.Replace(string(good), `"players"`, `"player"`, 1), "unknown field"},
		{"seed", strings.Replace(string(good), `"seed": "`, `"seed": "zz`, 1), "seed"},
		{"rules", strings.Replace(string(good), `"battle_minimum": 5000`, `"battle_minimum": -1`, 1), "rules"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRecord([]byte(c.data))
			if !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an ErrRecord naming %q", err, c.want)
			}
		})
	}
	if _, err := ParseRecord(good); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseRecord(f *testing.F) {
	g := MustGame(DefaultRules(), DefaultCards())
	good, _ := NewRecord(g, []string{"a", "b"}, dice.SeedFrom("x")).Marshal()
	f.Add(good)
	f.Add([]byte(`{"format":"farkle-dragon-record/1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseRecord(data)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v does not wrap ErrRecord", err)
			}
			return
		}
		// A parsed record replays or says why, without panicking.
		if len(rec.Players) <= 5 && len(rec.Actions) < 200 {
			_, _, _, _ = rec.Replay()
		}
	})
}

// TestClassicRecordReplays: a record written before the army battle (by
// the previous version of this package: a three-player bot game with three
// battles) still parses, replays with the classic battle to the outcome it
// records, and is written back as the current format that says so.
func TestClassicRecordReplays(t *testing.T) {
	rec, s, evs := replayTestdata(t, "testdata/classic-record.json", EvWave, EvFire, EvPass, EvHire)
	if rec.Rules.Battle != BattleClassic || rec.Rules.SeatBonus != 0 || rec.Rules.CardTiming != TimingOwnTurn {
		t.Fatalf("classic record read as battle %q, seat bonus %d, card timing %q", rec.Rules.Battle, rec.Rules.SeatBonus, rec.Rules.CardTiming)
	}
	if battles := countEvents(evs, EvBattleStart); !s.Over() || battles != 3 {
		t.Fatalf("over %v, %d battles", s.Over(), battles)
	}
	// The same actions under the army battle do not give the same game.
	rec.Rules = DefaultRules()
	if _, s2, _, err := rec.Replay(); err == nil && s2.Over() && slices.Equal(s2.Winners, s.Winners) && s2.Meal == s.Meal {
		t.Fatal("the army battle replays the classic game identically: the test proves nothing")
	}
	// Written back, it reads the same.
	rec.Rules = ClassicRules()
	out, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseRecord(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := again.Replay(); err != nil || again.Rules.Battle != BattleClassic {
		t.Fatalf("rewritten record: %v, battle %q", err, again.Rules.Battle)
	}
}

// TestOwnTurnRecordReplays: a record written before card timing (format
// farkle-dragon-record/2, by the previous version of this package: a
// three-player bot game in which brawls met defenders holding rethrow and
// two_as_five cards) replays with own-turn cards to the outcome it records.
// Under today's card timing the same actions do not replay.
func TestOwnTurnRecordReplays(t *testing.T) {
	rec, s, evs := replayTestdata(t, "testdata/own-turn-record.json", EvPass, EvHire)
	if rec.Rules.CardTiming != TimingOwnTurn || rec.Rules.HireCost != 0 || rec.Rules.Battle != BattleArmy {
		t.Fatalf("read as card timing %q, hire cost %d, battle %q", rec.Rules.CardTiming, rec.Rules.HireCost, rec.Rules.Battle)
	}
	if brawls := countEvents(evs, EvBrawl); !s.Over() || brawls == 0 {
		t.Fatalf("over %v, %d brawls", s.Over(), brawls)
	}
	now := *rec
	now.Rules = DefaultRules()
	if _, _, _, err := now.Replay(); err == nil {
		t.Fatal("the old actions replay under today's card timing: the test proves nothing")
	}
}

// replayTestdata reads a record written by an earlier version, checks it
// is read as today's format and replays it; none of the events may be of
// the kinds that version did not have.
func replayTestdata(t *testing.T, file string, newer ...EventKind) (*Record, State, []Event) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Format != RecordFormat {
		t.Fatalf("%s read as format %q", file, rec.Format)
	}
	_, s, evs, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range newer {
		if n := countEvents(evs, k); n > 0 {
			t.Fatalf("%s replayed with %d %s events", file, n, k)
		}
	}
	return rec, s, evs
}

func countEvents(evs []Event, k EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}
