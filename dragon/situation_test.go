package dragon

import (
	"testing"

	"github.com/farkle/farkle/lang"
)

// TestPhaseSituation: every phase has its own words, in every language,
// for the messages of actions not allowed now.
func TestPhaseSituation(t *testing.T) {
	for _, code := range lang.Codes() {
		c := lang.Get(code)
		seen := map[string]Phase{}
		for p := PhaseChoose; p <= PhaseHire; p++ {
			s := phaseWords(p).In(c)
			if s == "" || s == "dragon.err.phase."+p.String() {
				t.Errorf("%s: phase %s has no words: %q", code, p, s)
			}
			if q, ok := seen[s]; ok {
				t.Errorf("%s: phases %s and %s are both %q", code, q, p, s)
			}
			seen[s] = p
		}
	}
}
