package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"strconv"

	"strings"
	"time"

	"github.com/farkle/farkle/lang"
)

// BotPace is a speed bots can play at in the full-screen games: its name
// and the pause before each bot action (and roll-off throw), so that a
// person can follow.
type BotPace struct {
	Name  string
	Delay time.Duration
}

// BotPaces are the speeds on offer, slowest first: the setup screen's
// "Bots" row, + and - at the table, and farkle play --bot-speed.
var BotPaces = []BotPace{
	{"slow", 1500 * time.Millisecond},
	{"normal", 700 * time.Millisecond},
	{"fast", 250 * time.Millisecond},
	{"instant", 0},
}

// ParseBotPace returns the pace named name, or an error listing them.
func ParseBotPace(name string) (BotPace, error) {
	for _, p := range BotPaces {
		if p.Name == name {
			return p, nil
		}
	}
	names := make([]string, len(BotPaces))
	for i, p := range BotPaces {
		names[i] = p.Name
	}
	return BotPace{}, &textError{key: "tui.err.botSpeed", kv: []any{"speed", strconv.Quote(name), "speeds", strings.Join(names, ", ")}}
}

// paceOf returns the index in BotPaces of the pace nearest to delay.
func paceOf(delay time.Duration) int {
	best := 0
	for i, p := range BotPaces {
		if (p.Delay - delay).Abs() < (BotPaces[best].Delay - delay).Abs() {
			best = i
		}
	}
	return best
}

// stepPace returns the delay d paces faster (d > 0) or slower than delay,
// staying within BotPaces.
func stepPace(delay time.Duration, d int) time.Duration {
	return BotPaces[min(max(paceOf(delay)+d, 0), len(BotPaces)-1)].Delay
}

// paceNoteIn says how fast bots play at delay, in the language of c.
func paceNoteIn(c *lang.Catalogue, delay time.Duration) string {
	c = orEnglish(c)
	p := BotPaces[paceOf(delay)]
	if p.Delay == 0 {
		return c.Msg("tui.pace.instantly")
	}
	return c.Msg("tui.pace.note", "pace", paceName(c, p), "s", strings.TrimSuffix(c.Dec(p.Delay.Seconds(), 2), "0"))
}

// paceName is the name of p in the language of c (the flag
// --bot-speed takes the English one).
func paceName(c *lang.Catalogue, p BotPace) string {
	return orEnglish(c).Msg("tui.pace." + p.Name)
}

// paceNames lists the paces' names in the language of c, slowest first.
func paceNames(c *lang.Catalogue) string {
	names := make([]string, len(BotPaces))
	for i, p := range BotPaces {
		names[i] = paceName(c, p)
	}
	return strings.Join(names, ", ")
}

// paceKey returns +1 for the key that makes bots faster, -1 for the one
// that makes them slower, 0 for any other key.
func paceKey(msg tea.KeyPressMsg, k keyMap) int {
	switch {
	case key.Matches(msg, k.Faster):
		return 1
	case key.Matches(msg, k.Slower):
		return -1
	}
	return 0
}
