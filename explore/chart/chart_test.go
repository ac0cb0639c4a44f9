package chart

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

var tables = solved.NewTables("")

func smallRules() rules.Rules {
	r := rules.MustPreset("classic")
	r.Name = "classic-small"
	r.Game.Target = 2000
	r.Turn.FarklePenalty = rules.Penalty{}
	return r
}

// TestWinMapColours draws the win map and reads the colour at the middle
// of every cell: it is the palette's colour of the solver's value there.
func TestWinMapColours(t *testing.T) {
	r := smallRules()
	tb, err := tables.Duel(r)
	if err != nil {
		t.Fatal(err)
	}
	m, err := explore.NewWinMap(tb, 10)
	if err != nil {
		t.Fatal(err)
	}
	markMe, markThem := m.Scores[3], m.Scores[5]
	p, err := WinMap(nil, m, markMe, markThem)
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 6 * vg.Inch, 6 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	p.Draw(dc)
	data := p.DataCanvas(dc)
	tx, ty := p.Transforms(&data)
	pic := img.Image()
	scale := float64(vgimg.DefaultDPI) / vg.Inch.Points()
	for i, me := range m.Scores {
		for j, them := range m.Scores {
			x := int(tx(float64(them)).Points() * scale)
			y := pic.Bounds().Dy() - int(ty(float64(me)).Points()*scale)
			got := pic.At(x, y)
			if me == markMe && them == markThem { // the position's mark: white in a black ring
				if r, g, b, _ := got.RGBA(); r>>8 != 255 || g>>8 != 255 || b>>8 != 255 {
					t.Errorf("the mark at %d-%d is %v, not white", me, them, got)
				}
				continue
			}
			want, _ := tb.WinProbability(me, them, 0, 0)
			wc := explore.RGBA(explore.WinPalette[explore.WinClass(want)])
			r, g, b, _ := got.RGBA()
			if uint8(r>>8) != wc.R || uint8(g>>8) != wc.G || uint8(b>>8) != wc.B {
				t.Fatalf("cell %d-%d (%d,%d): colour %v, want %v for P %.4f (map %v)", me, them, x, y, got, wc, want, m.Win[i][j])
			}
		}
	}
}

func charts(t *testing.T, c ...*lang.Catalogue) []*plot.Plot {
	var lc *lang.Catalogue
	if len(c) > 0 {
		lc = c[0]
	}
	t.Helper()
	r := smallRules()
	tb, err := tables.Duel(r)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := tables.Solo(r)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := explore.NewWinMap(tb, 20)
	tm, err := explore.NewTurnMap(tb, 1000, 1200, 1500, 50)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := explore.NewSoloThresholds(pol)
	dt, err := explore.NewDuelThresholds(tb, pol, 1000, []int{0, 500, 1000, 1500})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := SoloThresholds(lc, st)
	if err != nil {
		t.Fatal(err)
	}
	dp, err := DuelThresholds(lc, dt)
	if err != nil {
		t.Fatal(err)
	}
	wp, err := WinMap(lc, m, 1000, 1200)
	if err != nil {
		t.Fatal(err)
	}
	return []*plot.Plot{wp, TurnMap(lc, tm), sp, dp}
}

// render draws p alone, w by h, and returns its pixels.
func render(p *plot.Plot, w, h vg.Length) *image.RGBA {
	img := vgimg.New(w, h)
	p.Draw(draw.New(img))
	return img.Image().(*image.RGBA)
}

// differ is the pixels where a and b differ.
func differ(a, b *image.RGBA) []image.Point {
	var out []image.Point
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				out = append(out, image.Pt(x, y))
			}
		}
	}
	return out
}

// TestLegendsClearOfCurves draws each chart with lines and a legend
// three times, at the size farkle explore writes: whole, without its
// legend and without its legend and lines. The pixels the legend adds
// span a box; no pixel the curves add may be inside it.
func TestLegendsClearOfCurves(t *testing.T) {
	plots := charts(t)
	r := smallRules()
	r2 := rules.MustPreset("farkle-dice")
	r2.Game.Target = 2000
	r2.Name = "farkle-dice-small"
	stats, err := explore.Compare(context.Background(), []rules.Rules{r, r2}, tables, tables, 0, solved.Reason)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Compare(nil, stats)
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 6 * vg.Inch, 4.5 * vg.Inch
	for _, p := range append(plots[2:], cmp...) {
		whole := render(p, w, h)
		noLegend := *p
		noLegend.Legend = plot.NewLegend()
		bare := plot.New()
		bare.Title, bare.X, bare.Y = p.Title, p.X, p.Y
		lines := render(&noLegend, w, h)
		legend := differ(whole, lines)
		curves := differ(lines, render(bare, w, h))
		if len(legend) == 0 || len(curves) == 0 {
			t.Fatalf("%s: %d legend pixels, %d curve pixels", p.Title.Text, len(legend), len(curves))
		}
		box := image.Rectangle{Min: legend[0], Max: legend[0].Add(image.Pt(1, 1))}
		for _, pt := range legend {
			box = box.Union(image.Rectangle{Min: pt, Max: pt.Add(image.Pt(1, 1))})
		}
		for _, pt := range curves {
			if pt.In(box) {
				t.Errorf("%s: a curve passes through the legend's box %v at %v", p.Title.Text, box, pt)
				break
			}
		}
	}
}

// TestWinMapScaleAndMark: the win map's SVG has its colour scale, every
// class, and the position's mark.
func TestWinMapScaleAndMark(t *testing.T) {
	var svg bytes.Buffer
	if err := Write(&svg, charts(t)[:1], 1, 6*vg.Inch, 4.5*vg.Inch, "svg"); err != nil {
		t.Fatal(err)
	}
	for c := 0; c < 10; c++ {
		if want := fmt.Sprintf("P %d.%d-", c/10, c%10); !strings.Contains(svg.String(), want) {
			t.Errorf("the scale has no %q", want)
		}
	}
	if !strings.Contains(svg.String(), ">position<") {
		t.Error("the position is not marked")
	}
}

func TestWriteSVGAndPNG(t *testing.T) {
	plots := charts(t)
	var svg bytes.Buffer
	if err := Write(&svg, plots, 2, 5*vg.Inch, 4*vg.Inch, "svg"); err != nil {
		t.Fatal(err)
	}
	// Well-formed XML with every chart's title.
	dec := xml.NewDecoder(bytes.NewReader(svg.Bytes()))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well formed: %v", err)
		}
	}
	for _, title := range []string{"P(player to move wins)", "bank (green)", "solo optimum", "perfect duel player"} {
		if !strings.Contains(svg.String(), title) {
			t.Errorf("the SVG has no %q", title)
		}
	}
	var pngOut bytes.Buffer
	if err := Write(&pngOut, plots, 2, 5*vg.Inch, 4*vg.Inch, "png"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&pngOut)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 10*vgimg.DefaultDPI || b.Dy() != 8*vgimg.DefaultDPI {
		t.Errorf("PNG of %v", b)
	}
	if _, err := Format("x.pdf"); err == nil {
		t.Error("a PDF name was taken")
	}
	if f, err := Format("a/B.SVG"); err != nil || f != "svg" {
		t.Errorf("B.SVG: %q %v", f, err)
	}
}

// TestChartsInNorwegian: the charts' titles, axes and legends come from
// the catalogue: in Norwegian none of the English ones is left.
func TestChartsInNorwegian(t *testing.T) {
	var svg bytes.Buffer
	if err := Write(&svg, charts(t, lang.Get("nb")), 2, 5*vg.Inch, 4*vg.Inch, "svg"); err != nil {
		t.Fatal(err)
	}
	nb, en := lang.Get("nb"), lang.Get("en")
	for _, key := range []string{"chart.theirScore", "chart.myScore", "chart.position", "chart.turnTotal", "chart.diceToThrow", "chart.theirMinusMine"} {
		if !strings.Contains(svg.String(), ">"+nb.Msg(key)+"<") {
			t.Errorf("the SVG has no %q", nb.Msg(key))
		}
		if strings.Contains(svg.String(), ">"+en.Msg(key)+"<") {
			t.Errorf("the SVG says %q in English", en.Msg(key))
		}
	}
	for _, w := range []string{"P(spilleren i trekket vinner)", "sett inn (grønt)", "beste alene", "perfekt spiller i duell", "terninger"} {
		if !strings.Contains(svg.String(), w) {
			t.Errorf("the SVG has no %q", w)
		}
	}
	for _, w := range []string{"player to move", "bank (green)", "solo optimum", "duel player", "farkle behind", "farkles behind", " dice<", "on the board"} {
		if strings.Contains(svg.String(), w) {
			t.Errorf("the SVG says %q", w)
		}
	}
}
