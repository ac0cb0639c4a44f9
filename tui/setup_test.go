package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// setupAt returns the setup screen at w×h with the rules r.
func setupAt(t *testing.T, r rules.Rules, w, h int) *Model {
	t.Helper()
	m := New(Options{Rules: r, Now: fixedNow, GamesDir: t.TempDir(), BotDelay: 700 * time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestSetupDescribesEachPreset: the lines under the rules are that
// preset's own: its target, its players (a count when min and max agree),
// and its penalty and entry minimum exactly when it has them; no two
// presets read alike.
func TestSetupDescribesEachPreset(t *testing.T) {
	seen := map[string]string{}
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		m := setupAt(t, r, 100, 35)
		screen := drawn(m)
		players := fmt.Sprintf("%d–%d players", r.Game.MinPlayers, r.Game.MaxPlayers)
		if r.Game.MinPlayers == r.Game.MaxPlayers {
			players = fmt.Sprintf("%d players", r.Game.MinPlayers)
		}
		checks := map[string]bool{
			"first to " + lang.Get("en").Num(int64(r.Game.Target)): true,
			players:               true,
			"farkles in a row":    r.Turn.FarklePenalty.Count > 0,
			"to get on the board": r.Turn.EntryMinimum > 0,
		}
		for want, there := range checks {
			if strings.Contains(screen, want) != there {
				t.Errorf("%s: %q on the screen is %v, want %v:\n%s", name, want, !there, there, screen)
			}
		}
		text := strings.Join(m.setup.describe(200), " ")
		for other, d := range seen {
			if d == text {
				t.Errorf("%s and %s are described alike: %q", name, other, text)
			}
		}
		seen[name] = text
	}
}

// TestSetupHelp: ? on the setup screen shows its keys, every bot level
// and the rules chosen; esc goes back to the setup screen as it was.
func TestSetupHelp(t *testing.T) {
	m := setupAt(t, rules.MustPreset("farkle-dice"), 80, 24)
	press(m, "down", "down") // on seat 1's name: ? is help there too
	before := drawn(m)
	press(m, "?")
	if m.screen != screenHelp {
		t.Fatalf("? did not open the help:\n%s", drawn(m))
	}
	all := strings.Join(m.helpLines(), "\n")
	for _, want := range []string{"move between the rows", "start the game", "perfect:", "steady:", "Rules: farkle-dice", "Getting on the board: while your score is 0 you bank only 500"} {
		if !strings.Contains(all, want) {
			t.Errorf("the setup help lacks %q:\n%s", want, all)
		}
	}
	press(m, "esc")
	if m.screen != screenSetup || drawn(m) != before {
		t.Fatalf("esc did not go back to the setup screen as it was:\n%s", drawn(m))
	}
}

// TestSetupBotTextByTable: the perfect bot's text says what it does at
// this table: exact with two players, an approximation with more.
func TestSetupBotTextByTable(t *testing.T) {
	m := setupAt(t, rules.MustPreset("classic"), 100, 35)
	m.setup.seats[1].Bot = "perfect"
	for n, want := range map[int]string{2: "solves them", 3: "with 3 players it plays the two-player solution", 5: "with 5 players"} {
		m.setup.n = n
		m.setup.row = 3 // seat 2
		if screen := drawn(m); !strings.Contains(strings.Join(strings.Fields(screen), " "), want) {
			t.Errorf("%d players: no %q:\n%s", n, want, screen)
		}
	}
}

// TestSetupSpaceInAName: a space typed in a name is one space.
func TestSetupSpaceInAName(t *testing.T) {
	m := setupAt(t, rules.MustPreset("classic"), 80, 24)
	press(m, "down", "down", "backspace", "backspace", "backspace", "A", "n", "n", "space", "L", "e", "e")
	if got := m.setup.seats[0].Name; got != "Ann Lee" {
		t.Fatalf("typed \"Ann Lee\", got %q", got)
	}
}

// TestSetupBotPace: the Bots row sets the pace the game starts with, and
// + and - at the table change it.
func TestSetupBotPace(t *testing.T) {
	m := setupAt(t, rules.MustPreset("classic"), 80, 24)
	for m.setup.row != m.setup.paceRow() {
		press(m, "down")
	}
	if !strings.Contains(drawn(m), "◀ normal ▶") {
		t.Fatalf("the pace of 700 ms is not normal:\n%s", drawn(m))
	}
	press(m, "right")
	if !strings.Contains(drawn(m), "◀ fast ▶") {
		t.Fatalf("→ did not make the bots fast:\n%s", drawn(m))
	}
	press(m, "enter")
	if m.game == nil || m.o.BotDelay != BotPaces[2].Delay {
		t.Fatalf("the game starts with a bot delay of %v, want %v", m.o.BotDelay, BotPaces[2].Delay)
	}
	press(m, "+")
	if m.o.BotDelay != 0 || !strings.Contains(drawn(m), "instantly") {
		t.Fatalf("+ from fast: %v\n%s", m.o.BotDelay, drawn(m))
	}
	press(m, "+", "-", "-", "-", "-")
	if m.o.BotDelay != BotPaces[0].Delay {
		t.Fatalf("- four times from instant: %v, want the slowest", m.o.BotDelay)
	}
}

// TestSetupFitsLowWindows: with eight players in a 60×20 window the bot's
// description under the seats and the keys stay on screen.
func TestSetupFitsLowWindows(t *testing.T) {
	m := setupAt(t, rules.MustPreset("classic"), 60, 20)
	press(m, "down")
	for range 6 {
		press(m, "right")
	}
	for m.setup.row != 9 { // seat 8
		press(m, "down")
	}
	screen := drawn(m)
	if lines := strings.Split(screen, "\n"); len(lines) > 20 {
		t.Fatalf("%d lines in a window of 20", len(lines))
	}
	for _, want := range []string{"Seat 8", "steady: banks 300", "esc quit", "Start the game"} {
		if !strings.Contains(screen, want) {
			t.Errorf("no %q:\n%s", want, screen)
		}
	}
}
