package solved

import (
	"testing"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solve"
)

// A reason's sizes are written with the reader's decimal mark: the
// server sends them as solve.ByteSize wrote them, and In says them.
func TestWhySizesInTheLanguage(t *testing.T) {
	w := WhyOf(&solve.TooLargeError{What: "the table", Need: 223_234_567, Limit: 64 << 20})
	for _, c := range []struct{ code, want string }{
		{"en", "its table would need 212.9 MiB, more than the 64.0 MiB the solver allows"},
		{"nb", "tabellen ville trenge 212,9 MiB, mer enn de 64,0 MiB løseren tillater"},
	} {
		if got := w.In(lang.Get(c.code)); got != c.want {
			t.Errorf("%s: %q, want %q", c.code, got, c.want)
		}
	}
	for _, s := range []string{"512 B", "1.5 GiB extra", "v1.2 MiB", "3.14"} {
		if got := SizeIn(lang.Get("nb"), s); got != s {
			t.Errorf("SizeIn(%q) = %q: not a size, left alone", s, got)
		}
	}
}
