package tui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/internal/syncbuf"
)

func TestRunLinesStopsOnCancelWhileReading(t *testing.T) {
	dir := t.TempDir()
	g, err := NewGame(seatOrder("classic"), []Seat{{Name: "ana"}}, dice.SeedFrom("cancel"), GamePath(dir, fixedNow(), []string{"ana"}), fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := io.Pipe() // nothing is ever typed
	out := &syncbuf.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- RunLines(ctx, g, in, out, nil) }()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(out.String(), "throw: ") {
		select {
		case <-deadline:
			t.Fatalf("no throw printed: %q", out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunLines did not stop when its context was cancelled")
	}
	if !strings.Contains(out.String(), "saved: "+g.Path()) {
		t.Fatalf("the game was not saved on the way out:\n%s", out.String())
	}
}

func TestRunLinesHotSeat(t *testing.T) {
	// Two people at one keyboard: each turn is announced by name and each
	// answers their own throws.
	g, err := NewGame(seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "bob"}}, dice.SeedFrom("hot-seat"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &syncbuf.Buffer{}
	// Whatever the dice, "bank" is refused right after a throw, and
	// "quit" ends: the game is at ana's first throw.
	if err := RunLines(context.Background(), g, strings.NewReader("bank\nscore\nquit\n"), out, nil); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"turn: ana (score 0)", "throw: ", "error: bank: keep some dice first", "score: ana 0, to play", "score: bob 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "saved:") {
		t.Error("a game without a file claims to be saved")
	}
}

// TestEmptyLineIsAnswered: an empty line (or one of blanks) is answered
// with what the game waits for, in both games' line modes, and changes
// nothing.
func TestEmptyLineIsAnswered(t *testing.T) {
	g, err := NewGame(seatOrder("classic"), []Seat{{Name: "ana"}}, dice.SeedFrom("empty-line"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &syncbuf.Buffer{}
	if err := RunLines(context.Background(), g, strings.NewReader("\n   \nquit\n"), out, nil); err != nil {
		t.Fatal(err)
	}
	want := "choose: keep scoring dice of " + g.State().Throw.String() // line mode threw at once
	if n := strings.Count(out.String(), want); n != 2 {
		t.Fatalf("%d answers %q to two empty lines:\n%s", n, want, out.String())
	}
	if len(g.Record().Actions) != 1 {
		t.Fatalf("empty lines played: %v", g.Record().Actions)
	}

	dg := newDragonGame(t, "you,bot:smart", dice.SeedFrom("empty-line"), "")
	out = &syncbuf.Buffer{}
	if err := RunDragonLines(context.Background(), dg, strings.NewReader("\nquit\n"), out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "choose: "); n < 2 {
		t.Fatalf("the empty line is not answered with the choice again:\n%s", out.String())
	}
}

// TestLinesSoloTurnCounter: a game of one counts its turns in line mode
// too: the first turn is 1 and each bank starts the next.
func TestLinesSoloTurnCounter(t *testing.T) {
	g, err := NewGame(seatOrder("classic"), []Seat{{Name: "ana"}}, dice.SeedFrom("solo-lines"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &syncbuf.Buffer{}
	// Keeping what scores most and banking, three times over (a farkle
	// ends a turn too; either way the next turn line comes).
	var script strings.Builder
	for range 6 {
		script.WriteString("k 1\nk 5\nbank\n")
	}
	script.WriteString("quit\n")
	if err := RunLines(context.Background(), g, strings.NewReader(script.String()), out, nil); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for turn := 1; turn <= min(g.State().Players[0].Turns, 3); turn++ {
		if want := fmt.Sprintf(", turn %d)", turn); !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if g.State().Players[0].Turns < 2 {
		t.Fatalf("the script played %d turns:\n%s", g.State().Players[0].Turns, text)
	}
}
