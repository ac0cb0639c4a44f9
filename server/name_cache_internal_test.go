package server

import (
	"bytes"
	"runtime/pprof"
	"testing"
	"time"
)

// TestLookAlikesExpire: a name's look-up is kept for lookAlikeTTL by the
// server's clock and is a miss from then on, or once purged; and the
// cache runs no goroutine (the expiring cache it replaces ran one for each
// server, never ended).
func TestLookAlikesExpire(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLookAlikes(func() time.Time { return now })
	if _, ok := l.Get("Tessa"); ok {
		t.Fatal("a name never looked up is a hit")
	}
	l.Add("Tessa", "acct1")
	l.Add("Vera", "")
	now = now.Add(lookAlikeTTL - time.Second)
	if owner, ok := l.Get("Tessa"); !ok || owner != "acct1" {
		t.Fatalf("Tessa within the TTL: %q, %v", owner, ok)
	}
	if owner, ok := l.Get("Vera"); !ok || owner != "" {
		t.Fatalf("Vera (no account) within the TTL: %q, %v", owner, ok)
	}
	now = now.Add(time.Second)
	if _, ok := l.Get("Tessa"); ok {
		t.Fatal("Tessa is still a hit at the TTL")
	}
	l.Add("Tessa", "acct2") // looked up again
	if owner, ok := l.Get("Tessa"); !ok || owner != "acct2" {
		t.Fatalf("Tessa looked up again: %q, %v", owner, ok)
	}
	l.Purge()
	if _, ok := l.Get("Tessa"); ok {
		t.Fatal("Tessa is a hit after a purge")
	}
	for range 10 {
		newLookAlikes(time.Now)
	}
	var stacks bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&stacks, 1); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stacks.Bytes(), []byte("golang-lru")) {
		t.Fatalf("a cache runs a goroutine:\n%s", stacks.String())
	}
}
