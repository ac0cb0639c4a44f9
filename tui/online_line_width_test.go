package tui

import (
	"regexp"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/lang"
)

// TestOnlineLineKeepsTheClock: the line under an online table's header
// fits the window and keeps the running clock whole (its value was cut at
// 60 columns: "klokka til kari 1…"); who this terminal is gives way first,
// and stays where there is room.
func TestOnlineLineKeepsTheClock(t *testing.T) {
	names := []string{"kari", "bob", "Steady bot"}
	clock := regexp.MustCompile(`\d:\d\d$`)
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for _, w := range []int{60, 80, 120} {
			o := &online{you: 1, table: "xYHd8PPhultQ", clock: Clock{Seat: 0, Deadline: time.Now().Add(89 * time.Second)}}
			line := ansi.Strip(onlineLineIn(c, newStyles(true), o, names, false, w))
			if ansi.StringWidth(line) > w || !clock.MatchString(line) {
				t.Errorf("%s at %d columns: %q (%d columns) does not end with the clock", code, w, line, ansi.StringWidth(line))
			}
			who := c.Msg("tui.online.youAre", "name", "bob")
			if w >= 80 && !regexp.MustCompile(regexp.QuoteMeta(who)).MatchString(line) {
				t.Errorf("%s at %d columns: %q does not say %q", code, w, line, who)
			}
		}
	}
}
