package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/lang"
)

// TestOnlineLineNotes: the line mode's notes while it waits say what q
// does there (it ends the program; there is no lobby in the line mode),
// and the clock of the seat waited for; the screens' notes still send q
// to the lobby.
func TestOnlineLineNotes(t *testing.T) {
	names := []string{"Ann", "Bo"}
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for name, o := range map[string]*online{
			"watching": {you: -1},
			"lost":     {you: 0, closed: errors.New("gone")},
		} {
			line := waitingLineIn(c, o, names, 1)
			if strings.Contains(strings.ToLower(line), "lobby") || !strings.Contains(line, "q (quit)") {
				t.Errorf("%s %s: the line mode says %q", code, name, line)
			}
			if screen := waitingNoteIn(c, o, names, 1); !strings.Contains(strings.ToLower(screen), "lobby") {
				t.Errorf("%s %s: the screen says %q, not the lobby", code, name, screen)
			}
		}
		o := &online{you: 0, clock: Clock{Seat: 1, Deadline: time.Now().Add(75 * time.Second), Seconds: 90}}
		if line := waitingLineIn(c, o, names, 1); !strings.Contains(line, "Bo") || !strings.Contains(line, " 1:1") {
			t.Errorf("%s: waiting for Bo's move, the line mode says %q", code, line)
		}
		if line := clockLineIn(c, o, names); line != "" {
			t.Errorf("%s: Bo's clock is said as this player's: %q", code, line)
		}
		o.clock.Seat = 0
		if line := clockLineIn(c, o, names); !strings.Contains(line, " 1:1") || line == lang.Get("en").Msg("tui.lines.clock", "left", "1:15") && code != "en" {
			t.Errorf("%s: this player's clock reads %q", code, line)
		}
		if line := clockLineIn(c, nil, names); line != "" {
			t.Errorf("%s: a local game has a clock: %q", code, line)
		}
	}
}
