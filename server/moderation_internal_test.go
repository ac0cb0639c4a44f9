package server

import (
	"net/netip"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// FuzzCheckRange: whatever a moderator types as a range, checkRange
// answers without panicking; what it accepts is a masked CIDR no wider
// than the bounds, accepted again as itself, and holds the address typed.
func FuzzCheckRange(f *testing.F) {
	for _, s := range []string{"203.0.113.7/24", "0.0.0.0/0", "10.0.0.0/8", "10.0.0.0/7", "2001:db8::/32", "2001:db8::/31", "::ffff:1.2.3.4/120", "1.2.3.4", "", "x/8", "1.2.3.4/33", "fe80::1%eth0/64"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := checkRange(raw)
		if err != nil {
			return
		}
		p, err := netip.ParsePrefix(got)
		if err != nil {
			t.Fatalf("%q accepted as %q, which does not parse: %v", raw, got, err)
		}
		if p != p.Masked() {
			t.Fatalf("%q accepted as %q, not masked", raw, got)
		}
		if p.Addr().Is4() && p.Bits() < minPrefixIPv4 || p.Addr().Is6() && p.Bits() < minPrefixIPv6 {
			t.Fatalf("%q accepted as %q, wider than the bounds", raw, got)
		}
		if again, err := checkRange(got); err != nil || again != got {
			t.Fatalf("%q accepted as %q, then as %q, %v", raw, got, again, err)
		}
		typed := netip.MustParsePrefix(raw)
		if !(store.Sanction{Range: got}).Covers("", typed.Addr()) {
			t.Fatalf("the range %q does not hold the address %s typed", got, typed.Addr())
		}
	})
}

// TestCheckMinutes: the lengths of mutes and bans at and around their
// bounds: a mute 1 minute to 30 days, a ban 0 (until lifted) to a year.
func TestCheckMinutes(t *testing.T) {
	now := time.Unix(1e9, 0)
	day := 24 * 60
	for _, c := range []struct {
		kind    store.SanctionKind
		minutes int
		ok      bool
	}{
		{store.Mute, -1, false}, {store.Mute, 0, false}, {store.Mute, 1, true}, {store.Mute, 30 * day, true}, {store.Mute, 30*day + 1, false},
		{store.Ban, -1, false}, {store.Ban, 0, true}, {store.Ban, 1, true}, {store.Ban, 365 * day, true}, {store.Ban, 365*day + 1, false},
	} {
		until, err := checkMinutes(c.kind, c.minutes, now)
		if (err == nil) != c.ok {
			t.Errorf("%s for %d minutes: %v, want ok %v", c.kind, c.minutes, err, c.ok)
			continue
		}
		if err != nil {
			if fe, isField := err.(*fieldError); !isField || fe.Field != "minutes" {
				t.Errorf("%s for %d minutes: %v, want a 400 naming minutes", c.kind, c.minutes, err)
			}
			continue
		}
		want := time.Time{}
		if c.minutes > 0 {
			want = now.Add(time.Duration(c.minutes) * time.Minute)
		}
		if !until.Equal(want) {
			t.Errorf("%s for %d minutes ends %v, want %v", c.kind, c.minutes, until, want)
		}
	}
}
