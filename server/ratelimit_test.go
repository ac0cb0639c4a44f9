package server

import (
	"fmt"
	"testing"
	"time"
)

// TestLimiterSetIsBounded: however many addresses ask, at most max are
// tracked; a bucket full again is forgotten; a busy one is kept.
func TestLimiterSetIsBounded(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	ls := newLimiterSet("address", 1, 2, 100)
	for i := range 10_000 { // an attacker with 10,000 addresses, all at once
		if res := ls.reserve(fmt.Sprint("10.0.", i/256, ".", i%256), t0); res.DelayFrom(t0) != 0 {
			t.Fatalf("a new address waits %v", res.DelayFrom(t0))
		}
		if n := ls.len(); n > 100 {
			t.Fatalf("%d addresses tracked, cap 100", n)
		}
	}
	// Two seconds later every bucket is full again: the next new address
	// finds them all forgotten.
	ls.reserve("192.0.2.1", t0.Add(2*time.Second))
	if n := ls.len(); n != 1 {
		t.Fatalf("%d addresses tracked after all went idle, want 1", n)
	}

	// Under pressure the least recently used goes; a busy key keeps its
	// (empty) bucket and stays refused.
	ls = newLimiterSet("address", 1, 2, 3)
	now := t0
	for _, k := range []string{"a", "a", "b", "c"} {
		ls.reserve(k, now)
	}
	if ls.reserve("a", now).DelayFrom(now) == 0 {
		t.Fatal(`"a" used its burst of 2 but a third request went through`)
	}
	ls.reserve("d", now) // evicts "b", the least recently used
	if _, ok := ls.buckets.Get("b"); ok || ls.len() != 3 {
		t.Fatalf(`after "d": "b" tracked %v, %d tracked`, ok, ls.len())
	}
	if ls.reserve("a", now).DelayFrom(now) == 0 {
		t.Fatal(`"a" was forgotten while busy`)
	}
}

// TestAllowAllTakesNothingOnRefusal: when one limit refuses, the others
// keep their tokens.
func TestAllowAllTakesNothingOnRefusal(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	addr := newLimiterSet("address", 1, 10, 10)
	player := newLimiterSet("player", 1, 1, 10)
	if ref := allowAll(now, setKey{addr, "a"}, setKey{player, "p"}); ref != nil {
		t.Fatal(ref)
	}
	ref := allowAll(now, setKey{addr, "a"}, setKey{player, "p"})
	if ref == nil || ref.set != player || ref.retryAfter() != 1 {
		t.Fatalf("the player's second request: %v", ref)
	}
	if got := ref.Error(); got != "too many requests: at most 1 a second (burst 1) from one player; retry in 1 s" {
		t.Fatalf("message %q", got)
	}
	// The address lost only the one token that went through.
	for i := range 9 {
		if ref := allowAll(now, setKey{addr, "a"}); ref != nil {
			t.Fatalf("address request %d of the 9 left: %v", i, ref)
		}
	}
	if ref := allowAll(now, setKey{addr, "a"}); ref == nil {
		t.Fatal("the address's 11th request went through")
	}
	// No limit, no key: nothing tracked.
	none := newLimiterSet("player", -1, 1, 10)
	if ref := allowAll(now, setKey{none, "p"}, setKey{player, ""}); ref != nil || none.len() != 0 {
		t.Fatalf("no limit: %v, %d tracked", ref, none.len())
	}
}

func TestCleanMessage(t *testing.T) {
	for in, want := range map[string]string{
		`store: no table "x"`:                            `no table "x"`,
		`store: rules: rules: json: unknown field "foo"`: `rules: unknown field "foo"`,
		`not a message: json: unknown field "bogus"`:     `not a message: unknown field "bogus"`,
		`no player: choose a name first`:                 `no player: choose a name first`,
		`json`:                                           `json`,
		`seats[1]: bot: unknown level "x"`:               `seats[1]: unknown level "x"`,
	} {
		if got := cleanMessage(in); got != want {
			t.Errorf("cleanMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
