package tui

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// TestColorProfile checks the colours of the full-screen game under each
// combination of a terminal (TTY_FORCE stands for one, the output being
// a buffer), its TERM, COLORTERM and NO_COLOR: NO_COLOR set to anything
// but "" allows no colour (https://no-color.org), whatever it says.
func TestColorProfile(t *testing.T) {
	terms := map[string]colorprofile.Profile{ // what each TERM supports on a terminal
		"":               colorprofile.NoTTY,
		"dumb":           colorprofile.NoTTY,
		"vt100":          colorprofile.ANSI,
		"xterm":          colorprofile.ANSI,
		"xterm-256color": colorprofile.ANSI256,
	}
	noColors := map[string]bool{"": false, "1": true, "true": true, "yes": true, "0": true, "false": true, "off": true}
	for term, supported := range terms {
		for _, truecolor := range []bool{false, true} {
			for noColor, off := range noColors {
				for _, tty := range []bool{false, true} {
					var env []string
					if term != "" {
						env = append(env, "TERM="+term)
					}
					if truecolor {
						env = append(env, "COLORTERM=truecolor")
					}
					env = append(env, "NO_COLOR="+noColor)
					if tty {
						env = append(env, "TTY_FORCE=1")
					}
					want := supported
					switch {
					case !tty || want == colorprofile.NoTTY:
						want = colorprofile.NoTTY
					case off:
						want = colorprofile.ASCII
					case truecolor:
						want = colorprofile.TrueColor
					}
					t.Run(fmt.Sprint(env), func(t *testing.T) {
						if got := colorProfile(&bytes.Buffer{}, env); got != want {
							t.Errorf("colorProfile(%q) = %v, want %v", env, got, want)
						}
					})
				}
			}
		}
	}
}
