package server

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// Recovery codes are written in Crockford's base32: digits and capitals
// without I, L, O and U, so that no two characters are mistaken for each
// other when copied by hand. Reading one, a typed O is a zero and an I or
// an L is a one, in either case, and dashes and spaces are left out.
// Codes made before (standard base32, letters and the digits 2 to 7) are
// still read as typed.

// crockford is Crockford's base32 alphabet.
var crockford = base32.NewEncoding("0123456789ABCDEFGHJKMNPQRSTVWXYZ").WithPadding(base32.NoPadding)

// recoveryCode returns a new recovery code: 100 random bits in four
// groups of five characters of Crockford's base32.
func recoveryCode() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	c := crockford.EncodeToString(b)[:20]
	return c[0:5] + "-" + c[5:10] + "-" + c[10:15] + "-" + c[15:20]
}

// crockfordNormal returns a code as typed in Crockford's canonical form:
// capitals, O as 0, I and L as 1 (recoveryHash leaves out the dashes and
// spaces).
func crockfordNormal(code string) string {
	return strings.NewReplacer("O", "0", "I", "1", "L", "1").Replace(strings.ToUpper(code))
}
