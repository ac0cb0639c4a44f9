package tui

import (
	"context"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

func FuzzParsePlayers(f *testing.F) {
	for _, s := range []string{"you,bot:steady", "a,b,c", "rob=bot:steady,ana", "bot:steady,bot:steady", ",", "a=b", "ana,ANA", "Zoë"} {
		f.Add(s)
	}
	r := rules.MustPreset("classic")
	f.Fuzz(func(t *testing.T, spec string) {
		seats, err := ParsePlayers(spec, r)
		if err != nil {
			return
		}
		if len(seats) < r.Game.MinPlayers || len(seats) > r.Game.MaxPlayers {
			t.Fatalf("%q: %d seats accepted", spec, len(seats))
		}
		seen := map[string]bool{}
		var parts []string
		for _, s := range seats {
			if s.Name == "" || utf8.RuneCountInString(s.Name) > maxName || strings.ContainsAny(s.Name, ",=") {
				t.Fatalf("%q: bad name %q accepted", spec, s.Name)
			}
			if seen[strings.ToLower(s.Name)] {
				t.Fatalf("%q: %q twice", spec, s.Name)
			}
			seen[strings.ToLower(s.Name)] = true
			parts = append(parts, s.String())
		}
		again, err := ParsePlayers(strings.Join(parts, ","), r)
		if err != nil || len(again) != len(seats) {
			t.Fatalf("%q: the seats %v do not read back: %v", spec, seats, err)
		}
		for i := range seats {
			if again[i] != seats[i] {
				t.Fatalf("%q: seat %d reads back as %v, was %v", spec, i, again[i], seats[i])
			}
		}
	})
}

// FuzzLineCommands feeds any input to line mode: it must never panic, and
// whatever it accepted must be a record that replays.
func FuzzLineCommands(f *testing.F) {
	for _, s := range []string{"keep 1\nroll\nbank\n", "k 115\nr\nb\nhint\nscore\nhelp\n", "keep\nkeep 7\nbank\nquit\n", "keep 1 1 1 1 1 1 1\n", "roll now\n\x00\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		g, err := NewGame(seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom("fuzz"), "", fixedNow, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := RunLines(context.Background(), g, strings.NewReader(input), io.Discard, nil); err != nil {
			return // a line too long for the scanner
		}
		data, err := g.Record().Marshal()
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := game.Replay(rec, g.play.Seed())
		if err != nil {
			t.Fatalf("the record of %q does not replay: %v", input, err)
		}
		if st.Version() != g.State().Version {
			t.Fatalf("replayed %d actions, played %d", st.Version(), g.State().Version)
		}
	})
}
