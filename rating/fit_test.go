package rating

import (
	"math"
	"testing"
)

// TestFitRecovers: duels whose scores are exactly the expected scores of
// known ratings fit back to those ratings (the likelihood's maximum is
// where the expected and actual scores agree), shifted to the base.
func TestFitRecovers(t *testing.T) {
	truth := map[string]float64{"a": 1500, "b": 1620, "c": 1410, "d": 1790}
	names := []string{"a", "b", "c", "d"}
	var duels []Duel
	for i, x := range names {
		for _, y := range names[i+1:] {
			e := Expected(Rating{R: truth[x]}, Rating{R: truth[y]})
			duels = append(duels, Duel{A: x, B: y, Games: 1000, Score: 1000 * e})
		}
	}
	got, err := Fit(duels, "a")
	if err != nil {
		t.Fatal(err)
	}
	for p, r := range truth {
		if math.Abs(got[p].R-r) > 1e-6 {
			t.Errorf("%s: fitted %.6f, want %.0f", p, got[p].R, r)
		}
		if got[p].RD <= 0 || got[p].RD > 30 {
			t.Errorf("%s: deviation %.3f after 3000 games", p, got[p].RD)
		}
	}
}

func TestFitRefusesPerfectRecords(t *testing.T) {
	if _, err := Fit([]Duel{{A: "a", B: "b", Games: 10, Score: 10}}, "a"); err == nil {
		t.Fatal("a player who won every game was fitted")
	}
	if _, err := Fit([]Duel{{A: "a", B: "b", Games: 10, Score: 5}}, "z"); err == nil {
		t.Fatal("a base that played no duel was accepted")
	}
}
