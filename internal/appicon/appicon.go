// Package appicon draws the web app's icons (a die showing five on the
// felt of the table) as PNG files, the sizes phones and Chromium ask of an
// installable web app: 192 and 512 pixels, a maskable 512 (the die inside
// the safe circle, the felt to every edge) and Apple's 180. The PNGs are
// committed under server/web/icons; `go generate ./server` draws them
// again (./gen) and the package's test fails when they differ.
package appicon

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// Icon is one icon file.
type Icon struct {
	Name     string // its file name under server/web/icons
	Size     int    // width and height in pixels
	Maskable bool   // drawn to every edge, the die inside the safe circle
}

// Dir is where the icons are, under the module's directory.
const Dir = "server/web/icons"

// Icons are the icons of the app.
var Icons = []Icon{
	{"icon-192.png", 192, false},
	{"icon-512.png", 512, false},
	{"icon-maskable-512.png", 512, true},
	{"apple-touch-icon.png", 180, true},
}

var (
	felt   = color.NRGBA{0x1f, 0x6f, 0x50, 0xff}
	rim    = color.NRGBA{0x6b, 0x4a, 0x2b, 0xff}
	face   = color.NRGBA{0xfb, 0xf7, 0xee, 0xff}
	pipRed = color.NRGBA{0xb2, 0x3a, 0x48, 0xff}
	pipInk = color.NRGBA{0x1f, 0x24, 0x30, 0xff}
)

// inRoundRect reports whether (x, y) lies in the square [lo, hi]² with
// corners of radius r.
func inRoundRect(x, y, lo, hi, r float64) bool {
	if x < lo || x > hi || y < lo || y > hi {
		return false
	}
	cx := min(max(x, lo+r), hi-r)
	cy := min(max(y, lo+r), hi-r)
	return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
}

// colorAt is the icon's colour at (x, y) in a unit square, or transparent.
func colorAt(x, y float64, maskable bool) color.NRGBA {
	// The die: a rounded square, its pips a five (the 1s and 5s score, so
	// the middle pip is red as on the page's dice).
	lo, hi := 0.2, 0.8
	if maskable {
		lo, hi = 0.27, 0.73
	}
	side := hi - lo
	if inRoundRect(x, y, lo, hi, side*0.18) {
		u, v := (x-lo)/side, (y-lo)/side
		for _, p := range [][2]float64{{0.28, 0.28}, {0.72, 0.28}, {0.5, 0.5}, {0.28, 0.72}, {0.72, 0.72}} {
			if (u-p[0])*(u-p[0])+(v-p[1])*(v-p[1]) <= 0.1*0.1 {
				if p == [2]float64{0.5, 0.5} {
					return pipRed
				}
				return pipInk
			}
		}
		return face
	}
	if maskable {
		return felt
	}
	switch {
	case inRoundRect(x, y, 0.06, 0.94, 0.2):
		return felt
	case inRoundRect(x, y, 0.02, 0.98, 0.24):
		return rim
	}
	return color.NRGBA{}
}

// Draw draws the icon, each pixel the mean of 4×4 samples.
func Draw(ic Icon) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, ic.Size, ic.Size))
	const ss = 4
	for py := range ic.Size {
		for px := range ic.Size {
			var r, g, b, a float64
			for sy := range ss {
				for sx := range ss {
					c := colorAt((float64(px)+(float64(sx)+0.5)/ss)/float64(ic.Size), (float64(py)+(float64(sy)+0.5)/ss)/float64(ic.Size), ic.Maskable)
					fa := float64(c.A)
					r, g, b, a = r+float64(c.R)*fa, g+float64(c.G)*fa, b+float64(c.B)*fa, a+fa
				}
			}
			if a > 0 {
				img.SetNRGBA(px, py, color.NRGBA{uint8(r/a + 0.5), uint8(g/a + 0.5), uint8(b/a + 0.5), uint8(a/(ss*ss) + 0.5)})
			}
		}
	}
	return img
}

// PNG returns the icon as a PNG file.
func PNG(ic Icon) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, Draw(ic)); err != nil {
		panic("appicon: " + err.Error()) // encoding to memory does not fail
	}
	return buf.Bytes()
}
