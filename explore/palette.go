package explore

import (
	"image/color"
	"math"
)

// WinPalette is the colour scale of win probabilities, from certain loss
// (dark orange) through even (pale) to certain win (dark purple): ten
// classes of a diverging scale that stays readable to colour-blind eyes.
// The terminal, the chart files and the web page all use it.
var WinPalette = []string{
	"#7f3b08", "#b35806", "#e08214", "#fdb863", "#fee0b6",
	"#d8daeb", "#b2abd2", "#8073ac", "#542788", "#2d004b",
}

// The colours of the turn map's decisions.
const (
	BankColor  = "#1b7837" // green
	ThrowColor = "#e08214" // orange
	OtherColor = "#bababa" // grey: one choice only, or none
)

// WinClass returns the class (0..9) of a win probability: the tenth it
// falls in, 1 counting as 9.
func WinClass(p float64) int {
	c := int(math.Floor(p * 10))
	return max(0, min(9, c))
}

// darkClass says whether text on class c's colour should be light.
func darkClass(c int) bool { return c <= 1 || c >= 7 }

// RGBA returns a "#rrggbb" colour.
func RGBA(hex string) color.RGBA {
	var v [3]uint8
	for i := range v {
		v[i] = hexByte(hex[1+2*i])<<4 | hexByte(hex[2+2*i])
	}
	return color.RGBA{R: v[0], G: v[1], B: v[2], A: 255}
}

func hexByte(c byte) uint8 {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
