package tui

import (
	"bufio"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// FuzzDragonLines feeds arbitrary command lines to the line mode of a game
// in progress: nothing panics, and a command answered with "error:"
// changes nothing.
func FuzzDragonLines(f *testing.F) {
	for _, s := range []string{"recruit", "brawl smart", "battle", "keep 1 1 5", "keep 1 5 double", "keep 5 item",
		"roll", "stop", "retreat", "accept", "use horseshoe 2", "discard sack", "hint", "help", "score", "hand", "keep", "use", "brawl", "keep 7", "keep 1 1 1 1 1 1 1"} {
		f.Add(s)
	}
	seed := dice.SeedFrom("fuzz")
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		g := newDragonGame(t, "you,bot:smart", seed, "")
		var out strings.Builder
		w := bufio.NewWriter(&out)
		l := &dragonLines{g: g, w: w}
		l.intro()
		for _, cmd := range []string{"", "recruit"} {
			if cmd != "" {
				l.command(cmd)
			}
			w.Flush()
			out.Reset()
			before := g.State()
			l.command(line)
			w.Flush()
			if strings.HasPrefix(out.String(), "error: ") && !reflect.DeepEqual(before, g.State()) {
				t.Fatalf("%q was refused but changed the game", line)
			}
		}
	})
}
