package server

import (
	"strings"
	"testing"
)

// TestRecoveryCodeAlphabet: recovery codes are four groups of five
// characters of Crockford's base32 (no I, L, O or U), all different, and a
// code typed in small letters with O for 0 and l or I for 1 reads as the
// code.
func TestRecoveryCodeAlphabet(t *testing.T) {
	seen := map[string]bool{}
	for range 2000 {
		c := recoveryCode()
		groups := strings.Split(c, "-")
		if len(groups) != 4 {
			t.Fatalf("%q: not four groups", c)
		}
		for _, g := range groups {
			if len(g) != 5 {
				t.Fatalf("%q: a group of %d", c, len(g))
			}
			for _, r := range g {
				if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
					t.Fatalf("%q holds %q, not in Crockford's alphabet", c, r)
				}
			}
		}
		if seen[c] {
			t.Fatalf("%q made twice", c)
		}
		seen[c] = true
		typed := strings.NewReplacer("0", "o", "1", "l", "-", " ").Replace(strings.ToLower(c))
		if recoveryHash(crockfordNormal(typed)) != recoveryHash(c) {
			t.Fatalf("%q typed as %q does not read as the code", c, typed)
		}
	}
	// A code made before, in standard base32, reads as typed.
	old := "ABCDO-EFGHI-JKLMN-PQRS2"
	if recoveryHash(old) == recoveryHash(crockfordNormal(old)) {
		t.Fatal("the test's old code has no letter Crockford reads otherwise")
	}
}
