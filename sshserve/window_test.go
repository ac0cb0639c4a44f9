package sshserve

import (
	"errors"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// TestFitExhaustive: every window of 0..7 columns and rows, from every
// previous window of 1..3, under every bound of 0..5 (0: none), is fitted
// as RFC 4254 and the bound say, derived here cell by cell: a zero
// dimension keeps the previous one, then each is at most the bound;
// pixels are at most 64 a cell of the bound.
func TestFitExhaustive(t *testing.T) {
	for bc := 0; bc <= 5; bc++ {
		for br := 0; br <= 5; br++ {
			if (bc == 0) != (br == 0) {
				continue // a bound is both or neither (ParseSize)
			}
			bound := Size{bc, br}
			for pc := 1; pc <= 3; pc++ {
				for pr := 1; pr <= 3; pr++ {
					prev := Size{pc, pr}
					for c := 0; c <= 7; c++ {
						for r := 0; r <= 7; r++ {
							cols, rows, pxW, pxH := uint32(c), uint32(r), uint32(1000*c), uint32(1000*r)
							asked, given := fit(&cols, &rows, &pxW, &pxH, prev, bound)
							want := Size{c, r}
							if c == 0 {
								want.Cols = pc
							}
							if r == 0 {
								want.Rows = pr
							}
							wantPx := [2]uint32{uint32(1000 * c), uint32(1000 * r)}
							if bc > 0 {
								for want.Cols > bc {
									want.Cols--
								}
								for want.Rows > br {
									want.Rows--
								}
								if wantPx[0] > uint32(64*bc) {
									wantPx[0] = uint32(64 * bc)
								}
								if wantPx[1] > uint32(64*br) {
									wantPx[1] = uint32(64 * br)
								}
							}
							if asked != (Size{c, r}) || given != want || cols != uint32(want.Cols) || rows != uint32(want.Rows) || pxW != wantPx[0] || pxH != wantPx[1] {
								t.Fatalf("fit %dx%d (%d×%d px) from %v under %v: asked %v, given %v (%d×%d, %d×%d px); want %v, %d×%d px",
									c, r, 1000*c, 1000*r, prev, bound, asked, given, cols, rows, pxW, pxH, want, wantPx[0], wantPx[1])
							}
						}
					}
				}
			}
		}
	}
}

// TestFitHuge: the sizes of the issue (and the largest a request can
// carry) are clamped to the bound, and told as asked.
func TestFitHuge(t *testing.T) {
	bound := Size{500, 200}
	for _, n := range []uint32{4000, 12000, 1<<32 - 1} {
		cols, rows, pxW, pxH := n, n, n, n
		asked, given := fit(&cols, &rows, &pxW, &pxH, defaultSize, bound)
		if given != bound || cols != 500 || rows != 200 || pxW != min(n, 32000) || pxH != min(n, 12800) || asked.Cols < 4000 || asked.Rows < 4000 {
			t.Fatalf("%d×%d: asked %v, given %v (%d×%d, %d×%d px)", n, n, asked, given, cols, rows, pxW, pxH)
		}
	}
}

// TestFitPayloads: a pty request and a window change are rewritten with
// the fitted window and nothing else changed; a zero pty size is 80×24,
// whatever the environment says; a malformed payload or a TERM past 256
// bytes is refused.
func TestFitPayloads(t *testing.T) {
	modes := string(gossh.Marshal(struct{ Op uint8 }{0}))
	in := gossh.Marshal(&ptyRequest{Term: "xterm-256color", Cols: 4000, Rows: 4000, PxW: 1 << 30, PxH: 3, Modes: modes})
	out, asked, given, err := fitPty(in, Size{500, 200})
	if err != nil {
		t.Fatal(err)
	}
	var p ptyRequest
	if err := gossh.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	if p != (ptyRequest{Term: "xterm-256color", Cols: 500, Rows: 200, PxW: 32000, PxH: 3, Modes: modes}) || asked != (Size{4000, 4000}) || given != (Size{500, 200}) {
		t.Fatalf("pty 4000×4000 became %+v (asked %v, given %v)", p, asked, given)
	}

	out, _, given, err = fitPty(gossh.Marshal(&ptyRequest{Term: "vt100"}), Size{500, 200})
	if err != nil || given != defaultSize {
		t.Fatalf("a pty of 0×0 was given %v (%v)", given, err)
	}
	if err := gossh.Unmarshal(out, &p); err != nil || p.Cols != 80 || p.Rows != 24 {
		t.Fatalf("a pty of 0×0 became %+v (%v)", p, err)
	}

	out, _, given, err = fitWindow(gossh.Marshal(&windowChange{Cols: 0, Rows: 12000}), Size{120, 40}, Size{500, 200})
	var w windowChange
	if err != nil || gossh.Unmarshal(out, &w) != nil || w != (windowChange{Cols: 120, Rows: 200}) || given != (Size{120, 200}) {
		t.Fatalf("a window change of 0×12000 from 120×40 became %+v, given %v (%v)", w, given, err)
	}

	long := gossh.Marshal(&ptyRequest{Term: strings.Repeat("x", 257), Cols: 80, Rows: 24})
	if _, _, _, err := fitPty(long, Size{500, 200}); !errors.Is(err, errTermTooLong) {
		t.Fatalf("a TERM of 257 bytes: %v", err)
	}
	for _, bad := range [][]byte{nil, {0}, in[:len(in)-1], append(append([]byte{}, in...), 0)} {
		if _, _, _, err := fitPty(bad, Size{500, 200}); err == nil {
			t.Fatalf("the pty payload %q was taken", bad)
		}
		if _, _, _, err := fitWindow(bad, defaultSize, Size{500, 200}); err == nil {
			t.Fatalf("the window payload %q was taken", bad)
		}
	}
}

// FuzzFitPty: whatever a client sends as a pty request, either it is
// refused or what the library gets is a well-formed request whose window
// is within the bound and whose TERM and modes are the client's.
func FuzzFitPty(f *testing.F) {
	f.Add(gossh.Marshal(&ptyRequest{Term: "xterm", Cols: 4000, Rows: 4000, Modes: "\x00"}))
	f.Add(gossh.Marshal(&ptyRequest{Term: "", Cols: 0, Rows: 0}))
	f.Add([]byte("\x00\x00\x00\x05xterm"))
	f.Fuzz(func(t *testing.T, payload []byte) {
		bound := Size{500, 200}
		out, _, given, err := fitPty(payload, bound)
		if err != nil {
			return
		}
		var in, p ptyRequest
		if gossh.Unmarshal(payload, &in) != nil || gossh.Unmarshal(out, &p) != nil {
			t.Fatalf("%q was taken as %q", payload, out)
		}
		if p.Cols < 1 || p.Rows < 1 || p.Cols > 500 || p.Rows > 200 || p.PxW > 32000 || p.PxH > 12800 || given != (Size{int(p.Cols), int(p.Rows)}) {
			t.Fatalf("%+v was given %+v (%v)", in, p, given)
		}
		if p.Term != in.Term || p.Modes != in.Modes || len(p.Term) > maxTermBytes {
			t.Fatalf("%+v became %+v", in, p)
		}
	})
}

// FuzzParseSize: a size read is written back as read, and anything else
// is refused.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"500x200", "0", "0x0", "80X24", "x", "-1x5", "5x0", "1e3x2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		s, err := ParseSize(v)
		if err != nil {
			return
		}
		if s.Cols < 0 || s.Rows < 0 || (s.Cols == 0) != (s.Rows == 0) {
			t.Fatalf("%q read as %v", v, s)
		}
		again, err := ParseSize(s.String())
		if err != nil || again != s {
			t.Fatalf("%q read as %v, written %q, read again as %v (%v)", v, s, s.String(), again, err)
		}
	})
}
