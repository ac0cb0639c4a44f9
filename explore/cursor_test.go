package explore

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
)

func TestReadKeys(t *testing.T) {
	var got []string
	in := "\x1b[A\x1b[B\x1bOC\x1b[Dhjklx\x1b"
	if err := ReadKeys(strings.NewReader(in), func(k string) bool { got = append(got, k); return true }); err != nil {
		t.Fatal(err)
	}
	want := []string{KeyUp, KeyDown, KeyRight, KeyLeft, KeyLeft, KeyDown, KeyUp, KeyRight}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	got = nil
	if err := ReadKeys(strings.NewReader("kqk"), func(k string) bool { got = append(got, k); return true }); err != nil || len(got) != 1 {
		t.Errorf("q did not stop the keys: %v %v", got, err)
	}
}

// TestCursor moves over every cell of a small map and checks the line of
// the cell against the solver, and that the marked cell is the cursor's.
func TestCursor(t *testing.T) {
	tb := duel(t, small("classic", 2000, true))
	m, err := NewWinMap(tb, 5)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCursor(m, 0, 0)
	for _, k := range []string{KeyLeft, KeyDown} {
		c.Move(k) // off the map: stays
	}
	n := len(m.Scores)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			me, them := c.Scores()
			if me != m.Scores[i] || them != m.Scores[j] {
				t.Fatalf("cursor at %d-%d, want %d-%d", me, them, m.Scores[i], m.Scores[j])
			}
			var b bytes.Buffer
			if err := (Text{}).Frame(&b, c); err != nil {
				t.Fatal(err)
			}
			p, _ := tb.WinProbability(me, them, 0, 0)
			comp, compP, _ := Compensation(tb, me, them)
			en := lang.Get(lang.Default)
			if line := fmt.Sprintf("at %s to %s: P(win) %.6f; fair compensation %s\n", en.Num(int64(me)), en.Num(int64(them)), p, compText(en, comp, compP)); !strings.Contains(b.String(), wrap(strings.TrimSuffix(line, "\n"), 2)) {
				t.Fatalf("no %q in\n%s", line, b.String())
			}
			// The marked cell is in my score's row, at their score's column.
			row := ""
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(l, fmt.Sprintf("%6d ", me)) {
					row = l
				}
			}
			if k := strings.Index(row, "<"); k != 7+2*j+1 || strings.Count(b.String(), "<") != 1 {
				t.Fatalf("at %d-%d the mark is at %d of %q", me, them, k, row)
			}
			c.Move(KeyRight)
		}
		c.Them = 0
		c.Move(KeyUp)
	}
	if got := NewCursor(m, 1e6, 1e6); got.Me != n-1 || got.Them != n-1 {
		t.Errorf("a cursor beyond the map: %+v", got)
	}
}
