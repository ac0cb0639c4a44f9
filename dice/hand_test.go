package dice_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

func TestParse(t *testing.T) {
	want := dice.Of(1, 1, 3, 5, 5, 6)
	for _, s := range []string{"113556", "1 1 3 5 5 6", "1,1,3,5,5,6", "6 5 5 3 1 1", "1-1-3-5-5-6", " 11 35\t56 ", "1, 1, 3, 5, 5, 6"} {
		t.Run(s, func(t *testing.T) {
			got, err := dice.Parse(s)
			if err != nil || got != want {
				t.Fatalf("Parse(%q) = %v, %v; want %v", s, got, err, want)
			}
		})
	}
	for _, tt := range []struct {
		in   string
		want []int
	}{
		{"5", []int{5}},
		{"666666", []int{6, 6, 6, 6, 6, 6}},
		{"2,4", []int{2, 4}},
	} {
		got, err := dice.Parse(tt.in)
		if err != nil || !slices.Equal(got.Faces(), tt.want) {
			t.Errorf("Parse(%q) = %v, %v; want faces %v", tt.in, got.Faces(), err, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in      string
		mention []string // the error must name what was wrong and what is allowed
	}{
		{"7", []string{"7", "1 to 6"}},
		{"7 1", []string{"7", "1 to 6"}},
		{"0", []string{"0", "1 to 6"}},
		{"1111111", []string{"1111111", "1 to 6 dice"}},
		{"1 1 1 1 1 1 1", []string{"more than 6", "1 to 6 dice"}},
		{"", []string{"no dice", "1 to 6 dice"}},
		{"   ", []string{"no dice"}},
		{"abc", []string{"'a'", "113556"}},
		{"1 1 x", []string{"'x'"}},
		{"1.5", []string{"'.'"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			h, err := dice.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", tt.in, h)
			}
			if !errors.Is(err, dice.ErrBadThrow) {
				t.Errorf("Parse(%q) error %v does not wrap ErrBadThrow", tt.in, err)
			}
			for _, m := range tt.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("Parse(%q) error %q does not mention %q", tt.in, err, m)
				}
			}
		})
	}
}

func TestFromFacesErrors(t *testing.T) {
	for _, faces := range [][]int{{0}, {7}, {1, -1}, {1, 1, 1, 1, 1, 1, 1}} {
		if _, err := dice.FromFaces(faces); !errors.Is(err, dice.ErrBadThrow) {
			t.Errorf("FromFaces(%v) = %v, want ErrBadThrow", faces, err)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, h := range dice.AllThrows() {
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var faces []int
		if err := json.Unmarshal(b, &faces); err != nil || !slices.Equal(faces, h.Faces()) || !slices.IsSorted(faces) {
			t.Fatalf("Marshal(%v) = %s, not the ascending faces", h, b)
		}
		var back dice.Hand
		if err := json.Unmarshal(b, &back); err != nil || back != h {
			t.Fatalf("Unmarshal(%s) = %v, %v; want %v", b, back, err, h)
		}
	}
	var h dice.Hand
	if err := json.Unmarshal([]byte("[6,1,5]"), &h); err != nil || h != dice.Of(1, 5, 6) {
		t.Fatalf("unordered faces: %v, %v", h, err)
	}
	for _, bad := range []string{`[7]`, `[0,1]`, `[1,1,1,1,1,1,1]`, `"115"`, `{}`, `[1.5]`} {
		before := dice.Of(2, 2)
		h := before
		if err := json.Unmarshal([]byte(bad), &h); !errors.Is(err, dice.ErrBadThrow) {
			t.Errorf("Unmarshal(%s) = %v, want ErrBadThrow", bad, err)
		}
		if h != before {
			t.Errorf("Unmarshal(%s) changed the hand to %v", bad, h)
		}
	}
}

func TestIndexIsABijection(t *testing.T) {
	want := map[string]bool{} // every multiset of 0..6 dice, by its faces
	for n := 0; n <= 6; n++ {
		for _, c := range allCounts(n) {
			want[fmt.Sprint(c.faces())] = true
		}
	}
	if len(want) != dice.NumHands {
		t.Fatalf("%d multisets of 0..6 dice, NumHands = %d", len(want), dice.NumHands)
	}
	seen := map[dice.Hand]bool{}
	for i := range dice.NumHands {
		h := dice.HandAt(i)
		if h.Index() != i {
			t.Fatalf("HandAt(%d).Index() = %d", i, h.Index())
		}
		if seen[h] {
			t.Fatalf("HandAt(%d) = %v twice", i, h)
		}
		seen[h] = true
		if !want[fmt.Sprint(h.Faces())] {
			t.Fatalf("HandAt(%d) = %v is not a multiset of 0..6 dice", i, h)
		}
		if i > 0 && compareFaces(dice.HandAt(i-1), h) >= 0 {
			t.Fatalf("HandAt(%d) = %v does not follow %v", i, h, dice.HandAt(i-1))
		}
	}
	if dice.HandAt(0) != 0 {
		t.Fatalf("HandAt(0) = %v, want the empty hand", dice.HandAt(0))
	}
	total := 0
	for n := 0; n <= 6; n++ {
		th := dice.Throws(n)
		if len(th) != len(allCounts(n)) {
			t.Fatalf("Throws(%d) has %d hands, want %d", n, len(th), len(allCounts(n)))
		}
		for _, h := range th {
			if h.N() != n {
				t.Fatalf("Throws(%d) holds %v", n, h)
			}
		}
		total += len(th)
	}
	if total != dice.NumHands || len(dice.AllThrows()) != dice.NumHands-1 {
		t.Fatalf("Throws cover %d hands, AllThrows %d", total, len(dice.AllThrows()))
	}
}

// TestWays counts the ordered outcomes of n dice one by one.
func TestWays(t *testing.T) {
	for n := 0; n <= 6; n++ {
		count := map[dice.Hand]int64{}
		outcomes := 1
		for range n {
			outcomes *= 6
		}
		faces := make([]int, n)
		for o := range outcomes {
			x := o
			for i := range faces {
				faces[i] = x%6 + 1
				x /= 6
			}
			count[dice.Of(faces...)]++
		}
		if dice.Outcomes(n) != int64(outcomes) {
			t.Fatalf("Outcomes(%d) = %d, want %d", n, dice.Outcomes(n), outcomes)
		}
		var sum int64
		var psum float64
		for _, h := range dice.Throws(n) {
			if h.Ways() != count[h] {
				t.Fatalf("%v: Ways = %d, counted %d", h, h.Ways(), count[h])
			}
			sum += h.Ways()
			psum += h.Prob()
		}
		if sum != int64(outcomes) || len(count) != len(dice.Throws(n)) {
			t.Fatalf("n=%d: ways sum to %d over %d hands, want %d over %d", n, sum, len(dice.Throws(n)), outcomes, len(count))
		}
		if psum < 1-1e-12 || psum > 1+1e-12 {
			t.Fatalf("n=%d: probabilities sum to %v", n, psum)
		}
	}
}

// TestHandArithmetic checks Count, N, Contains, Minus and Plus on every
// pair of hands against face counts.
func TestHandArithmetic(t *testing.T) {
	for i := range dice.NumHands {
		a := dice.HandAt(i)
		if a.N() != len(a.Faces()) {
			t.Fatalf("%v: N = %d", a, a.N())
		}
		for j := range dice.NumHands {
			b := dice.HandAt(j)
			if got, want := a.Contains(b), isSubMultiset(b, a); got != want {
				t.Fatalf("%v.Contains(%v) = %v", a, b, got)
			}
			if a.Contains(b) {
				rest := a.Minus(b)
				for f := 1; f <= 6; f++ {
					if rest.Count(f) != a.Count(f)-b.Count(f) {
						t.Fatalf("%v minus %v = %v", a, b, rest)
					}
				}
				if rest.Plus(b) != a {
					t.Fatalf("(%v minus %v) plus %v = %v", a, b, b, rest.Plus(b))
				}
			}
		}
	}
}

func TestStringAndJoin(t *testing.T) {
	h := dice.Of(5, 1, 2, 2)
	if h.String() != "1 2 2 5" || h.Join("-") != "1-2-2-5" || dice.Hand(0).String() != "" {
		t.Fatalf("String = %q, Join = %q", h.String(), h.Join("-"))
	}
}

// FuzzParseThrow: Parse never panics; it accepts exactly the strings made of
// separators and 1..6 faces 1 to 6, and String() parses back.
func FuzzParseThrow(f *testing.F) {
	for _, s := range []string{"113556", "1 1 3 5 5 6", "1,1,3,5,5,6", "7", "1111111", "", "abc", "1-2", "\t6\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := dice.Parse(s)
		digits, other := 0, false
		for _, c := range s {
			switch {
			case c >= '1' && c <= '6':
				digits++
			case c == ' ' || c == ',' || c == '-' || c == '\t':
			default:
				other = true
			}
		}
		wantOK := !other && digits >= 1 && digits <= 6
		if (err == nil) != wantOK {
			t.Fatalf("Parse(%q) = %v, %v; want ok = %v", s, h, err, wantOK)
		}
		if err != nil {
			if !errors.Is(err, dice.ErrBadThrow) {
				t.Fatalf("Parse(%q): %v does not wrap ErrBadThrow", s, err)
			}
			return
		}
		if n := h.N(); n < 1 || n > 6 || n != digits {
			t.Fatalf("Parse(%q) = %v with %d dice", s, h, n)
		}
		back, err := dice.Parse(h.String())
		if err != nil || back != h {
			t.Fatalf("Parse(String(%v)) = %v, %v", h, back, err)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dice.Parse("1 1 3 5 5 6"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndex(b *testing.B) {
	all := dice.AllThrows()
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		s += all[i%len(all)].Index()
	}
	if s == 0 {
		b.Fatal("no index")
	}
}
