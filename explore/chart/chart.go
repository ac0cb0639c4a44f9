// Package chart draws the strategy explorer's data (package explore) as
// charts with gonum's plot, for farkle explore --svg and --png: the win
// map, the turn map, the bank thresholds and rule sets side by side.
package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/lang"
)

// colors is a palette.Palette of fixed colours.
type colors []color.Color

func (c colors) Colors() []color.Color { return c }

func hexColors(hex ...string) colors {
	out := make(colors, len(hex))
	for i, h := range hex {
		out[i] = explore.RGBA(h)
	}
	return out
}

// grid is a plotter.GridXYZ over the explorer's axes.
type grid struct {
	xs, ys []int
	z      func(c, r int) float64
}

func (g grid) Dims() (int, int)   { return len(g.xs), len(g.ys) }
func (g grid) Z(c, r int) float64 { return g.z(c, r) }
func (g grid) X(c int) float64    { return float64(g.xs[c]) }
func (g grid) Y(r int) float64    { return float64(g.ys[r]) }
func (g grid) Min() float64       { return 0 }
func (g grid) Max() float64       { return 1 }

var _ palette.Palette = colors(nil)

// WinMap is the heat map of P(the player to move wins) over both scores,
// with its colour scale beside the map and the position me to them
// marked.
func WinMap(c *lang.Catalogue, m *explore.WinMap, me, them int) (*plot.Plot, error) {
	c = orEnglish(c)
	p := plot.New()
	p.Title.Text = c.Msg("chart.win.title", "rules", m.Rules)
	p.X.Label.Text = c.Msg("chart.theirScore")
	p.Y.Label.Text = c.Msg("chart.myScore")
	h := plotter.NewHeatMap(grid{xs: m.Scores, ys: m.Scores, z: func(c, r int) float64 {
		// Classes, so the colours are those of the terminal and the web.
		return (float64(explore.WinClass(m.Win[r][c])) + 0.5) / 10
	}}, hexColors(explore.WinPalette...))
	p.Add(h)
	ring, err := plotter.NewScatter(plotter.XYs{{X: float64(them), Y: float64(me)}})
	if err != nil {
		return nil, err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.CircleGlyph{}}
	dot, err := plotter.NewScatter(plotter.XYs{{X: float64(them), Y: float64(me)}})
	if err != nil {
		return nil, err
	}
	dot.GlyphStyle = draw.GlyphStyle{Color: color.White, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	p.Add(ring, dot)
	// The scale: the classes' colours, highest first, right of the map.
	for c := len(explore.WinPalette) - 1; c >= 0; c-- {
		p.Legend.Add(fmt.Sprintf("P %.1f-%.1f", float64(c)/10, float64(c+1)/10), swatch{hexColors(explore.WinPalette[c])[0]})
	}
	p.Legend.Add(c.Msg("chart.position"), ring, dot) // --me and --them
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(12)
	roomRight(p, scaleWidth)
	return p, nil
}

// swatch is a legend thumbnail filled with one colour: an entry of a
// colour scale.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.SetColor(s.c)
	c.Fill(c.Rectangle.Path())
}

// The room kept clear for a legend, as fractions of a chart's data area
// (6 by 4.5 inches, less its title and axes): scaleWidth for the win
// map's scale on the right, entryHeight for each line of a legend on top.
const (
	scaleWidth  = 0.22
	entryHeight = 0.06
)

// roomRight widens the x axis so that the right frac of the data area is
// beyond the data, for a legend there, with no ticks over it.
func roomRight(p *plot.Plot, frac float64) {
	lo, hi := p.X.Min, p.X.Max
	p.X.Max = hi + (hi-lo)*frac/(1-frac)
	p.X.Tick.Marker = ticksUpTo(hi)
}

// roomOnTop puts the legend at the top and raises the y axis so that its
// entries take, in lines of the data area's height, are above every curve, with no
// ticks beside them.
func roomOnTop(p *plot.Plot, entries int) {
	frac := entryHeight * float64(entries+1) // and a line of margin
	lo, hi := p.Y.Min, p.Y.Max
	p.Y.Max = hi + (hi-lo)*frac/(1-frac)
	p.Y.Tick.Marker = ticksUpTo(hi)
	p.Legend.Top = true
}

// ticksUpTo is the default ticks up to max (the data's), none in the room
// kept for a legend.
func ticksUpTo(max float64) plot.Ticker {
	return plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var out []plot.Tick
		for _, t := range (plot.DefaultTicks{}).Ticks(lo, math.Min(hi, max)) {
			if t.Value <= max {
				out = append(out, t)
			}
		}
		return out
	})
}

// TurnMap is the map of the perfect decision over turn totals and dice.
func TurnMap(c *lang.Catalogue, m *explore.TurnMap) *plot.Plot {
	c = orEnglish(c)
	p := plot.New()
	p.Title.Text = c.Msg("chart.turn.title", "me", m.Me, "them", m.Them)
	p.X.Label.Text = c.Msg("chart.turnTotal")
	p.Y.Label.Text = c.Msg("chart.diceToThrow")
	value := map[string]float64{explore.Throw: 0.1, explore.Bank: 0.9, explore.OnlyBank: 0.5, explore.OnlyThrow: 0.5, explore.None: 0.5}
	h := plotter.NewHeatMap(grid{xs: m.Totals, ys: m.Dice, z: func(c, r int) float64 {
		return value[m.Cells[r][c].Decision]
	}}, hexColors(explore.ThrowColor, explore.OtherColor, explore.BankColor))
	p.Add(h)
	return p
}

// SoloThresholds draws the solo bank thresholds against the dice to throw,
// one line per farkle streak (and for a player still to enter).
func SoloThresholds(c *lang.Catalogue, s *explore.SoloThresholds) (*plot.Plot, error) {
	c = orEnglish(c)
	p := plot.New()
	p.Title.Text = c.Msg("chart.solo.title", "rules", s.Rules)
	p.X.Label.Text = c.Msg("chart.diceToThrow")
	p.Y.Label.Text = c.Msg("chart.turnTotal")
	add := func(name string, row []int, i int) error {
		var xy plotter.XYs
		for d, v := range row {
			// A threshold at the target or above is never reached in a game.
			if v != explore.NeverBank && v < s.Target {
				xy = append(xy, plotter.XY{X: float64(s.Dice[d]), Y: float64(v)})
			}
		}
		if len(xy) == 0 {
			return nil
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		col := hexColors(lineColors[i%len(lineColors)])[0]
		l.Color, pts.Color = col, col
		p.Add(l, pts)
		p.Legend.Add(name, l, pts)
		return nil
	}
	for streak, row := range s.BankAt {
		name := c.Msg("chart.onBoard")
		if s.Penalty.Count > 0 {
			name = farklesBehind(c, streak)
		}
		if err := add(name, row, streak); err != nil {
			return nil, err
		}
	}
	for streak, row := range s.Entry {
		if err := add(c.Msg("chart.toEnter", "behind", farklesBehind(c, streak)), row, len(s.BankAt)+streak); err != nil {
			return nil, err
		}
	}
	roomOnTop(p, len(s.BankAt)+len(s.Entry))
	return p, nil
}

// farklesBehind names a farkle streak: "no farkle behind", "1 farkle
// behind", "2 farkles behind".
func farklesBehind(c *lang.Catalogue, n int) string {
	if n == 0 {
		return c.Msg("chart.noFarkleBehind")
	}
	return c.Msg("chart.farklesBehind", "n", n)
}

// orEnglish is c, or English for nil.
func orEnglish(c *lang.Catalogue) *lang.Catalogue {
	if c == nil {
		return lang.Get(lang.Default)
	}
	return c
}

var lineColors = []string{"#1b7837", "#762a83", "#e08214", "#2166ac", "#b2182b", "#4d4d4d", "#35978f", "#8c510a"}

// DuelThresholds draws the duel's bank thresholds against the score
// difference (theirs minus mine), one line per number of dice, with the
// solo optimum's as dashed lines.
func DuelThresholds(c *lang.Catalogue, d *explore.DuelThresholds) (*plot.Plot, error) {
	c = orEnglish(c)
	p := plot.New()
	p.Title.Text = c.Msg("chart.duel.title", "me", d.Me)
	p.X.Label.Text = c.Msg("chart.theirMinusMine")
	p.Y.Label.Text = c.Msg("chart.turnTotal")
	for di, n := range d.Dice {
		var xy, solo plotter.XYs
		for k, o := range d.Them {
			if v := d.BankAt[di][k]; v != explore.NeverBank {
				xy = append(xy, plotter.XY{X: float64(o - d.Me), Y: float64(v)})
			}
		}
		if len(xy) == 0 {
			continue
		}
		col := hexColors(lineColors[di%len(lineColors)])[0]
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color = col
		p.Add(l)
		p.Legend.Add(c.Msg("chart.dice", "n", n), l)
		if s := d.Solo[di]; s != explore.NeverBank && s < d.Target {
			solo = plotter.XYs{{X: xy[0].X, Y: float64(s)}, {X: xy[len(xy)-1].X, Y: float64(s)}}
			sl, err := plotter.NewLine(solo)
			if err != nil {
				return nil, err
			}
			sl.Color, sl.Dashes = col, []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(sl)
		}
	}
	roomOnTop(p, len(d.Dice))
	return p, nil
}

// ByDice draws one figure by dice for each rule set: value returns it for
// the d-th number of dice, and false to leave that point out.
func ByDice(c *lang.Catalogue, stats []explore.RuleStats, title, yLabel string, value func(s explore.RuleStats, d int) (float64, bool)) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = orEnglish(c).Msg("chart.diceAxis")
	p.Y.Label.Text = yLabel
	for i, s := range stats {
		var xy plotter.XYs
		for d, n := range s.Dice {
			if v, ok := value(s, d); ok {
				xy = append(xy, plotter.XY{X: float64(n), Y: v})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		c := hexColors(lineColors[i%len(lineColors)])[0]
		l.Color, pts.Color = c, c
		p.Add(l, pts)
		p.Legend.Add(s.Name, l, pts)
	}
	roomOnTop(p, len(stats))
	return p, nil
}

// Compare draws the rule sets side by side: P(farkle), the expected points
// of a throw and the solo bank thresholds, by dice.
func Compare(lc *lang.Catalogue, stats []explore.RuleStats) ([]*plot.Plot, error) {
	lc = orEnglish(lc)
	var out []*plot.Plot
	for _, c := range []struct {
		title, y string
		value    func(s explore.RuleStats, d int) (float64, bool)
	}{
		{lc.Msg("chart.cmp.farkle"), "P(farkle)", func(s explore.RuleStats, d int) (float64, bool) { return s.PFarkle[d], true }},
		{lc.Msg("chart.cmp.points"), lc.Msg("chart.cmp.expected"), func(s explore.RuleStats, d int) (float64, bool) { return s.Expected[d], true }},
		{lc.Msg("chart.cmp.bankFrom"), lc.Msg("chart.turnTotal"), func(s explore.RuleStats, d int) (float64, bool) {
			v := s.BankAt[d]
			return float64(v), v != explore.NeverBank && v < s.Target
		}},
	} {
		p, err := ByDice(lc, stats, c.title, c.y, c.value)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Write draws plots in a grid of cols columns, each w by h, in format
// ("svg" or "png"), to out.
func Write(out io.Writer, plots []*plot.Plot, cols int, w, h vg.Length, format string) error {
	if len(plots) == 0 {
		return fmt.Errorf("chart: nothing to draw")
	}
	rows := (len(plots) + cols - 1) / cols
	c, err := draw.NewFormattedCanvas(w*vg.Length(cols), h*vg.Length(rows), format)
	if err != nil {
		return err
	}
	tiled := make([][]*plot.Plot, rows)
	for i := range tiled {
		tiled[i] = make([]*plot.Plot, cols)
	}
	for i, p := range plots {
		tiled[i/cols][i%cols] = p
	}
	canvases := plot.Align(tiled, draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}, draw.New(c))
	for i, p := range plots {
		p.Draw(canvases[i/cols][i%cols])
	}
	_, err = c.WriteTo(out)
	return err
}

// Format returns the chart format of a file name: "svg" or "png".
func Format(file string) (string, error) {
	f := strings.ToLower(strings.TrimPrefix(filepath.Ext(file), "."))
	if f != "svg" && f != "png" {
		return "", fmt.Errorf("%s: want a file name ending in .svg or .png", file)
	}
	return f, nil
}
