package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
)

type oddsJSON struct {
	Rules string `json:"rules"`
	Dice  []struct {
		N             int     `json:"n"`
		Farkle        string  `json:"farkle"`
		PFarkle       float64 `json:"p_farkle"`
		Expected      float64 `json:"expected"`
		ExpectedExact string  `json:"expected_exact"`
	} `json:"dice"`
}

func oddsFor(t *testing.T, args ...string) oddsJSON {
	t.Helper()
	stdout, stderr, code := runFarkle(t, "", append([]string{"odds", "--json"}, args...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var o oddsJSON
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	return o
}

// TestOddsByHand checks values worked out on paper.
//
// Classic, 1 die: only a 1 (100) or a 5 (50) scores: farkle 4/6 = 2/3,
// expected (100+50)/6 = 25. 2 dice: no two-dice meld, so the best keep is
// the sum of the singles: farkle (4/6)² = 4/9, expected 2 × 25 = 50.
// 3 dice: a farkle has no 1, no 5 and no triple: (4³ - 4)/216 = 5/18;
// expected = 3 × 25 plus what each triple adds over its singles:
// (1000-300) + (500-150) + 200 + 300 + 400 + 600 = 2550 over 216,
// i.e. 75 + 2550/216 = 3125/36.
// Pocket Farkel (three 1s = 300, so 1-1-1 adds nothing): 3 dice expected
// 75 + (350 + 1500)/216 = 9025/108.
func TestOddsByHand(t *testing.T) {
	tests := []struct {
		preset   string
		n        int
		farkle   string
		pFarkle  float64
		expected string
	}{
		{"classic", 1, "2/3", 0.666667, "25"},
		{"classic", 2, "4/9", 0.444444, "50"},
		{"classic", 3, "5/18", 0.277778, "3125/36"},
		{"pocket-farkel", 1, "2/3", 0.666667, "25"},
		{"pocket-farkel", 2, "4/9", 0.444444, "50"},
		{"pocket-farkel", 3, "5/18", 0.277778, "9025/108"},
	}
	got := map[string]oddsJSON{}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.preset, tt.n), func(t *testing.T) {
			o, ok := got[tt.preset]
			if !ok {
				o = oddsFor(t, "--rules", tt.preset)
				got[tt.preset] = o
			}
			if o.Rules != tt.preset || len(o.Dice) != 6 {
				t.Fatalf("rules %q with %d rows", o.Rules, len(o.Dice))
			}
			d := o.Dice[tt.n-1]
			if d.N != tt.n || d.Farkle != tt.farkle || d.PFarkle != tt.pFarkle || d.ExpectedExact != tt.expected {
				t.Fatalf("%+v, want farkle %s (%v), expected %s", d, tt.farkle, tt.pFarkle, tt.expected)
			}
			want, _ := new(big.Rat).SetString(tt.expected)
			f, _ := want.Float64()
			if math.Abs(d.Expected-f) > 1e-4 {
				t.Fatalf("expected %v, want %v", d.Expected, f)
			}
		})
	}
}

// TestOddsClassicBruteForce counts every ordered outcome of 1..6 dice under
// classic, where the best keep is every scoring die: per face, c/3 triples
// and c%3 singles.
func TestOddsClassicBruteForce(t *testing.T) {
	o := oddsFor(t)
	triple := [7]int{0, 1000, 200, 300, 400, 500, 600}
	single := [7]int{0, 100, 0, 0, 0, 50, 0}
	for n := 1; n <= 6; n++ {
		total := int64(math.Pow(6, float64(n)))
		var farkles, points int64
		for outcome := range total {
			var c [7]int
			for x, i := outcome, 0; i < n; i, x = i+1, x/6 {
				c[x%6+1]++
			}
			best := 0
			for f := 1; f <= 6; f++ {
				best += c[f]/3*triple[f] + c[f]%3*single[f]
			}
			if best == 0 {
				farkles++
			}
			points += int64(best)
		}
		d := o.Dice[n-1]
		if want := big.NewRat(farkles, total).RatString(); d.Farkle != want {
			t.Errorf("%d dice: farkle %s, want %s", n, d.Farkle, want)
		}
		if want := big.NewRat(points, total).RatString(); d.ExpectedExact != want {
			t.Errorf("%d dice: expected %s, want %s", n, d.ExpectedExact, want)
		}
		pf := float64(farkles) / float64(total)
		if math.Abs(d.PFarkle-pf) > 5e-7 || fmt.Sprintf("%.6f", pf) != fmt.Sprintf("%.6f", d.PFarkle) {
			t.Errorf("%d dice: p_farkle %v, want %.6f", n, d.PFarkle, pf)
		}
	}
}

func TestOddsSixDiceNothing(t *testing.T) {
	bonus := writeTestFile(t, "bonus.toml", "name = \"bonus\"\n[scoring]\nsix_dice_nothing = 500\n")
	plain, withBonus := oddsFor(t), oddsFor(t, "--rules", bonus)
	if withBonus.Rules != "bonus" {
		t.Errorf("rules %q, want the file's name", withBonus.Rules)
	}
	for n := 1; n <= 5; n++ {
		if plain.Dice[n-1] != withBonus.Dice[n-1] {
			t.Errorf("%d dice: the bonus changed %+v to %+v", n, plain.Dice[n-1], withBonus.Dice[n-1])
		}
	}
	// Six dice: every classic farkle of six dice (5/162 of throws) now scores 500.
	p, b := plain.Dice[5], withBonus.Dice[5]
	if p.Farkle != "5/162" || b.Farkle != "0" || b.PFarkle != 0 {
		t.Errorf("six dice: farkle %s without, %s with the bonus", p.Farkle, b.Farkle)
	}
	pe, _ := new(big.Rat).SetString(p.ExpectedExact)
	be, _ := new(big.Rat).SetString(b.ExpectedExact)
	if diff := new(big.Rat).Sub(be, pe); diff.Cmp(big.NewRat(500*5, 162)) != 0 {
		t.Errorf("six dice: the bonus adds %s, want 500 × 5/162", diff.RatString())
	}
}

func TestOddsTable(t *testing.T) {
	for _, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			stdout, stderr, code := runner.run(t, "", "odds")
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(lines) != 8 || !strings.Contains(lines[0], "classic") {
				t.Fatalf("want a title, a head and 6 rows:\n%s", stdout)
			}
			width := len(lines[1])
			for i, line := range lines[2:] {
				f := strings.Fields(line)
				if len(line) != width || len(f) != 4 || f[0] != fmt.Sprint(i+1) {
					t.Errorf("row %q is not aligned with %q", line, lines[1])
				}
			}
			if f := strings.Fields(lines[2]); strings.Join(f, " ") != "1 2/3 0.666667 25.00" {
				t.Errorf("1 die: %q", lines[2])
			}
		})
	}
}
