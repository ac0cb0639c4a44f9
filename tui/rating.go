package tui

import (
	"fmt"
	"math"

	"github.com/farkle/farkle/lang"
)

// ratingLines are the end screen's lines on the ratings of a finished
// game at a server: the player's change ("rating 1500 → 1523 (+23)"), a
// watcher's each person's, or why the game moved none; nothing when the
// game was never to be rated. Each line is wrapped to width.
func (o *online) ratingLines(lc *lang.Catalogue, width int) []string {
	if o == nil {
		return nil
	}
	var out []string
	if len(o.ratings) == 0 {
		key := "tui.end.unrated." + o.unrated
		if o.unrated != "" && lc.Has(key) {
			out = append(out, wrapStyled(lc.Msg(key), width-2, "    ")...)
		}
	}
	for _, c := range o.ratings { // none when unrated
		if o.you >= 0 && !c.You {
			continue // at a seat: the player's own
		}
		line := lc.Msg("tui.end.rating", "before", ratingNumber(c.Before), "after", ratingNumber(c.After), "change", ratingDelta(c.Before, c.After))
		if o.you < 0 {
			line = lc.Msg("tui.end.ratingOf", "name", SafeLine(c.Name, 40), "rating", line)
		}
		out = append(out, wrapStyled(line, width-2, "    ")...)
	}
	for i := range out {
		out[i] = "  " + out[i] // as endLines
	}
	return out
}

// ratingNumber is a rating as a whole number without grouping (1500), in
// every language, as the web page writes it.
func ratingNumber(r float64) string { return fmt.Sprintf("%d", int(math.Round(r))) }

// ratingDelta is a rating change with its sign: +23, −7, ±0, the
// difference of the ratings as shown (before + change = after).
func ratingDelta(before, after float64) string {
	n := int(math.Round(after)) - int(math.Round(before))
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "±0"
}
