package tui

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// TestSetupPasteAndShiftTab checks the setup screen's keys that are not
// one printable key: pasted text (a tea.PasteMsg) goes into the name of
// the seat on the current row without the characters --players reserves
// and up to the longest name, and nowhere else; shift+tab goes up a row.
func TestSetupPasteAndShiftTab(t *testing.T) {
	m := New(Options{Rules: rules.MustPreset("classic"), Seed: dice.SeedFrom("paste"), Now: fixedNow})
	m.Update(keyMsgSize(80, 24))
	before := drawn(m)
	m.Update(tea.PasteMsg{Content: "ana"}) // on the rules row
	if drawn(m) != before {
		t.Fatalf("a paste on the rules row changed the screen:\n%s", drawn(m))
	}
	press(m, "down", "down") // seat 1
	for range maxName {
		press(m, "backspace")
	}
	m.Update(tea.PasteMsg{Content: "zoë, the=1st of the seats"})
	if got, want := m.setup.seats[0].Name, "zoë the1st of th"; got != want {
		t.Fatalf("pasted name %q, want %q", got, want)
	}
	if !strings.Contains(drawn(m), "Seat 1    zoë the1st of th") {
		t.Fatalf("the pasted name is not shown:\n%s", drawn(m))
	}
	row := m.setup.row
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	if m.setup.row != row-1 {
		t.Fatalf("shift+tab went from row %d to %d, want %d", row, m.setup.row, row-1)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if m.setup.row != row {
		t.Fatalf("tab went to row %d, want %d", m.setup.row, row)
	}
}

// TestBackgroundColour checks that the styles follow the terminal's
// answer about its background: the dark colours until it answers, the
// light ones on a light background, in both models (the Dragon Farkle one
// also when started from the setup screen after the answer).
func TestBackgroundColour(t *testing.T) {
	const darkAccent, lightAccent = "38;2;190;149;255", "38;2;138;63;252" // #be95ff, #8a3ffc
	m := New(Options{Rules: rules.MustPreset("classic"), Seed: dice.SeedFrom("bg"), Now: fixedNow})
	m.Update(keyMsgSize(80, 24))
	accent := func(what string, v string, want, not string) {
		t.Helper()
		if !strings.Contains(v, want) || strings.Contains(v, not) {
			t.Fatalf("%s: the accent is not %s:\n%q", what, want, v)
		}
	}
	accent("before the answer", m.View().Content, darkAccent, lightAccent)
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	accent("on white", m.View().Content, lightAccent, darkAccent)
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	accent("on black", m.View().Content, darkAccent, lightAccent)
	solarizedLight := color.RGBA{R: 0xfd, G: 0xf6, B: 0xe3, A: 0xff}
	m.Update(tea.BackgroundColorMsg{Color: solarizedLight})
	press(m, "left", "enter") // the last rules: Dragon Farkle
	if m.dragon == nil {
		t.Fatalf("Dragon Farkle did not start:\n%s", drawn(m))
	}
	accent("Dragon Farkle on light", m.View().Content, lightAccent, darkAccent)
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	accent("Dragon Farkle on black", m.View().Content, darkAccent, lightAccent)
}
