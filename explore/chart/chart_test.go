package chart

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/farkle/farkle/explore"
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
	p := WinMap(m)
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
			want, _ := tb.WinProbability(me, them, 0, 0)
			wc := explore.RGBA(explore.WinPalette[explore.WinClass(want)])
			r, g, b, _ := got.RGBA()
			if uint8(r>>8) != wc.R || uint8(g>>8) != wc.G || uint8(b>>8) != wc.B {
				t.Fatalf("cell %d-%d (%d,%d): colour %v, want %v for P %.4f (map %v)", me, them, x, y, got, wc, want, m.Win[i][j])
			}
		}
	}
}

func charts(t *testing.T) []*plot.Plot {
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
	sp, err := SoloThresholds(st)
	if err != nil {
		t.Fatal(err)
	}
	dp, err := DuelThresholds(dt)
	if err != nil {
		t.Fatal(err)
	}
	return []*plot.Plot{WinMap(m), TurnMap(tm), sp, dp}
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
