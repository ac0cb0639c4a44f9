package dragon

import "testing"

// TestPhaseSituation: every phase has its own words for the messages of
// actions not allowed now.
func TestPhaseSituation(t *testing.T) {
	seen := map[string]Phase{}
	for p := PhaseChoose; p <= PhaseOver; p++ {
		s := p.situation()
		if s == "" || s == "in "+p.String() {
			t.Errorf("phase %s has no words: %q", p, s)
		}
		if q, ok := seen[s]; ok {
			t.Errorf("phases %s and %s are both %q", q, p, s)
		}
		seen[s] = p
	}
}
