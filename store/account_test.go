package store_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/mtibben/confusables"

	"github.com/farkle/farkle/store"
)

// lookAlike reports whether two account names may not both be taken: one
// NameKey, or one of the two skeletons of NameLooks.
func lookAlike(x, y string) bool {
	xa, xu := store.NameLooks(x)
	ya, yu := store.NameLooks(y)
	return store.NameKey(x) == store.NameKey(y) || xa == ya || xu == yu
}

// TestNameLooks: the look-alikes the issue names collide (a Cyrillic і,
// fullwidth letters, capitals, a Greek ν, a Cyrillic В), names that only
// share letters do not, and, for every letter of the Latin, Greek and
// Cyrillic blocks and the fullwidth forms, the letter collides with its
// capital, its small letter and its UTS #39 skeleton.
func TestNameLooks(t *testing.T) {
	for _, p := range [][2]string{{"Victim", "Vіctim"}, {"Victim", "Ｖｉｃｔｉｍ"}, {"Victim", "VICTIM"}, {"VICTIM", "vіctim"},
		{"VIСTIM", "victim"}, {"Bob", "Вob"}, {"vera", "νera"}, {"Ian", "lan"}, {"Ann Lee", "ann  lee"}, {"Tessa", "Ｔｅｓｓａ"}} {
		if !lookAlike(p[0], p[1]) {
			t.Errorf("%q and %q do not collide", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"Ann", "Bob"}, {"Tessa", "Tess"}, {"Ola", "Olga"}, {"Victim", "Victor"}} {
		if lookAlike(p[0], p[1]) {
			t.Errorf("%q and %q collide", p[0], p[1])
		}
	}
	n := 0
	for r := rune(0x41); r < 0xFFEF; r++ {
		if !unicode.IsLetter(r) || (r >= 0x530 && r < 0xFF00) {
			continue
		}
		if r == 'İ' { // its small letter is i with a combining dot: the skeleton drops the dot, case folding keeps it
			continue
		}
		s := string(r)
		for _, o := range []string{strings.ToUpper(s), strings.ToLower(s), confusables.Skeleton(s)} {
			n++
			if !lookAlike(s, o) {
				t.Errorf("%U %q and %q do not collide", r, s, o)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d pairs checked", n)
	}
}
