package lang

import "testing"

// TestOnlyIn: the English-only words hold English words that Norwegian
// never uses, and none of the words both use, nor the names of values.
func TestOnlyIn(t *testing.T) {
	en, nb := Get("en"), Get("nb")
	only := OnlyIn(en, nb)
	for _, w := range []string{"soldiers", "keeps", "waiting"} {
		if !only[w] {
			t.Errorf("%q is not English-only", w)
		}
	}
	for _, w := range []string{"soldater", "farkle", "dragon"} {
		if only[w] {
			t.Errorf("%q is English-only", w)
		}
	}
	norsk := wordsOf(nb)
	for w := range only {
		if norsk[w] {
			t.Fatalf("%q is a Norwegian word too", w)
		}
	}
}
