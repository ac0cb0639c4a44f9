package tui

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// drawn returns the screen of m (a Model or a DragonModel) as the
// program writes it where there is no terminal: the text without colours
// or emphasis (the NoTTY colour profile).
func drawn(m tea.Model) string {
	return plain(m.View().Content)
}

// plain returns s as the program writes it under the NoTTY colour
// profile.
func plain(s string) string {
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.NoTTY}
	if _, err := io.WriteString(w, s); err != nil {
		panic(err) // a strings.Builder does not fail
	}
	return b.String()
}

// fixedNow is the clock of every test.
func fixedNow() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }

// seatOrder returns preset name with seat 0 starting (no roll-off).
func seatOrder(name string) rules.Rules {
	r := rules.MustPreset(name)
	r.Game.FirstPlayer = rules.SeatOrder
	return r
}

// seedWhere returns the first seed "name-0", "name-1", ... whose first
// throw of six dice satisfies ok. The dice come from the engine's ChaCha
// source, so the search is deterministic.
func seedWhere(t testing.TB, name string, ok func(dice.Hand) bool) dice.Seed {
	t.Helper()
	for i := range 10000 {
		seed := dice.SeedFrom(fmt.Sprintf("%s-%d", name, i))
		if ok(dice.Throw(dice.NewSource(seed), 6)) {
			return seed
		}
	}
	t.Fatalf("no seed for %s", name)
	return dice.Seed{}
}

// newModel returns a model of a game under r with seats, sized w×h, with
// no colours, bots playing at once and games saved in a temp dir.
func newModel(t testing.TB, r rules.Rules, seats []Seat, seed dice.Seed, w, h int) *Model {
	t.Helper()
	m := New(Options{Rules: r, Seats: seats, Seed: seed, GamesDir: t.TempDir(), Now: fixedNow})
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	run(m, m.Init())
	return m
}

// run executes cmd and every command that follows from it, feeding the
// messages to m (a Model or a DragonModel), as the Bubble Tea loop would
// (ticks included: tests that run commands use no bot delay).
func run(m tea.Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// namedKeys are the codes of the keys tests name.
var namedKeys = map[string]rune{
	"space": tea.KeySpace, "left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
	"esc": tea.KeyEscape, "enter": tea.KeyEnter, "backspace": tea.KeyBackspace, "tab": tea.KeyTab,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
}

// keyMsg returns the message of a key: a named one ("space", "left",
// "esc", ...), "ctrl+c", or one character typed.
func keyMsg(k string) tea.KeyPressMsg {
	if code, ok := namedKeys[k]; ok {
		if code == tea.KeySpace {
			return tea.KeyPressMsg{Code: code, Text: " "}
		}
		return tea.KeyPressMsg{Code: code}
	}
	if k == "ctrl+c" {
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic(fmt.Sprintf("keyMsg(%q): not one key", k))
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// keyMsgs returns the messages of keys: one key (as keyMsg), or a text,
// one message per character as a terminal's keys arrive.
func keyMsgs(keys string) []tea.KeyPressMsg {
	if _, named := namedKeys[keys]; named || keys == "ctrl+c" || len([]rune(keys)) == 1 {
		return []tea.KeyPressMsg{keyMsg(keys)}
	}
	var out []tea.KeyPressMsg
	for _, r := range keys {
		out = append(out, keyMsg(string(r)))
	}
	return out
}

// press sends keys to m (a Model or a DragonModel) and runs the commands
// that follow each; a text stands for its characters typed one by one.
func press(m tea.Model, keys ...string) {
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			_, cmd := m.Update(msg)
			run(m, cmd)
		}
	}
}

// pressOnly sends one key and returns its command without running it.
func pressOnly(m *Model, k string) tea.Cmd {
	_, cmd := m.Update(keyMsg(k))
	return cmd
}

// faceKeys returns the number keys that choose the dice of k (their
// faces: the keys choose by face), failing t when the throw faces does not
// hold k.
func faceKeys(t testing.TB, faces []int, k dice.Hand) []string {
	t.Helper()
	var out []string
	used := make([]bool, len(faces))
	for _, f := range k.Faces() {
		found := false
		for i, g := range faces {
			if g == f && !used[i] {
				used[i], found = true, true
				out = append(out, fmt.Sprint(f))
				break
			}
		}
		if !found {
			t.Fatalf("no %d in %v", f, faces)
		}
	}
	return out
}

// keyMsgSize is a window size message.
func keyMsgSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// recordedActions returns the actions of the table's record, read back
// as the variant's action type A.
func recordedActions[A game.Action](t *testing.T, tb *table) []A {
	t.Helper()
	v := tb.play.Game().Variant()
	out := make([]A, len(tb.Record().Actions))
	for i, raw := range tb.Record().Actions {
		a, err := v.ParseAction(raw)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a.(A)
	}
	return out
}
