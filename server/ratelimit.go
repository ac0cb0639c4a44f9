package server

import (
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/farkle/farkle/internal/lru"
)

// limiterSet is a token bucket per key (a client address, a player) with
// a bounded memory: at most max keys are tracked. A bucket left alone long
// enough to be full again is forgotten (forgetting it changes nothing);
// when max keys are busy at once, the least recently used is forgotten.
type limiterSet struct {
	what  string // "address", "player": who the limit is per, for messages
	limit rate.Limit
	burst int
	max   int
	full  time.Duration // an idle bucket is full again after this long

	mu      sync.Mutex
	buckets *lru.Cache[string, *limEntry] // unbounded: evict keeps it to max
}

type limEntry struct {
	lim  *rate.Limiter
	last time.Time
}

// newLimiterSet returns the buckets of a limit of perSecond requests a
// second with bursts of burst, for at most max keys. perSecond < 0 is no
// limit.
func newLimiterSet(what string, perSecond float64, burst, max int) *limiterSet {
	ls := &limiterSet{what: what, limit: rate.Inf, burst: max1(burst), max: max1(max), buckets: lru.New[string, *limEntry](0)}
	if perSecond >= 0 {
		ls.limit = rate.Limit(perSecond)
		ls.full = time.Duration(math.Ceil(float64(ls.burst) / perSecond * float64(time.Second)))
	}
	return ls
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// reserve takes one token from key's bucket at now. The reservation's
// DelayFrom(now) is 0 when the request may go ahead; otherwise cancel
// it and refuse. It is nil when there is no limit.
func (ls *limiterSet) reserve(key string, now time.Time) *rate.Reservation {
	if ls == nil || ls.limit == rate.Inf {
		return nil
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	e, ok := ls.buckets.Get(key)
	if !ok {
		ls.evict(now)
		e = &limEntry{lim: rate.NewLimiter(ls.limit, ls.burst)}
		ls.buckets.Add(key, e, 1)
	}
	e.last = now
	return e.lim.ReserveN(now, 1)
}

// evict makes room for one more key: it forgets every bucket that is full
// again, then the least recently used ones while max are tracked.
func (ls *limiterSet) evict(now time.Time) {
	for key, e, ok := ls.buckets.Oldest(); ok; key, e, ok = ls.buckets.Oldest() {
		if ls.buckets.Len() < ls.max && now.Sub(e.last) < ls.full {
			return
		}
		ls.buckets.Remove(key)
	}
}

// len returns the number of keys tracked.
func (ls *limiterSet) len() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.buckets.Len()
}

// rateRefusal is a request refused by a rate limit.
type rateRefusal struct {
	set   *limiterSet
	delay time.Duration
}

// retryAfter is the whole number of seconds to wait, at least 1.
func (r rateRefusal) retryAfter() int {
	return max(1, int(math.Ceil(r.delay.Seconds())))
}

func (r rateRefusal) Error() string {
	return fmt.Sprintf("too many requests: at most %s a second (burst %d) from one %s; retry in %d s",
		fmtRate(float64(r.set.limit)), r.set.burst, r.set.what, r.retryAfter())
}

// allowAll takes a token for each (set, key) pair at once: when any of them
// would have to wait, none is taken and the refusal names the longest
// wait. A nil set or an empty key is skipped.
func allowAll(now time.Time, pairs ...setKey) *rateRefusal {
	var taken []*rate.Reservation
	var worst *rateRefusal
	for _, p := range pairs {
		if p.set == nil || p.key == "" {
			continue
		}
		res := p.set.reserve(p.key, now)
		if res == nil {
			continue
		}
		taken = append(taken, res)
		if d := res.DelayFrom(now); d > 0 && (worst == nil || d > worst.delay) {
			worst = &rateRefusal{set: p.set, delay: d}
		}
	}
	if worst != nil {
		for _, res := range taken {
			res.CancelAt(now)
		}
	}
	return worst
}

type setKey struct {
	set *limiterSet
	key string
}
