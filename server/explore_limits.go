package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// ExploreLimits bound the strategy explorer's requests (docs/API.md,
// "Limits and security"). Zero fields take the defaults shown; a negative
// rate or bound turns that limit off.
type ExploreLimits struct {
	// Timeout is each request's deadline, from its arrival: waiting for a
	// slot and the work together. The work is cancelled when it passes or
	// when the client goes. 10s.
	Timeout time.Duration
	// AddressRate is the explorer requests a second from one client
	// address (every route under /api/explore, GETs too) ...
	AddressRate float64 // 2
	// ... with bursts of AddressBurst.
	AddressBurst int // 20
	// SimTurns bounds the simulated games of one rule set of a comparison,
	// in turns (explore.CompareOptions.MaxTurns): 200,000, about a tenth
	// of a second of one core.
	SimTurns int
	// SoloMemory bounds the solo solve of a rule set asked about
	// (solve.SoloBytes), refused before any work: 16 MiB, about a second
	// of one core. A preset's takes about 2 MiB; rules whose scores have a
	// small unit and a bank minimum in the hundreds of thousands take
	// hundreds of MiB and tens of seconds, which the explorer cannot stop
	// (the solve is shared with the bots and hints).
	SoloMemory int64
}

// The defaults of ExploreLimits.
const (
	DefaultExploreTimeout      = 10 * time.Second
	DefaultExploreAddressRate  = 2
	DefaultExploreAddressBurst = 20
	DefaultExploreSimTurns     = 200_000
	DefaultExploreSoloMemory   = 16 << 20
)

// withDefaults fills the zero fields.
func (l ExploreLimits) withDefaults() ExploreLimits {
	setDefault(&l.Timeout, DefaultExploreTimeout)
	setDefault(&l.AddressRate, DefaultExploreAddressRate)
	setDefault(&l.AddressBurst, DefaultExploreAddressBurst)
	setDefault(&l.SimTurns, DefaultExploreSimTurns)
	if l.SoloMemory == 0 {
		l.SoloMemory = DefaultExploreSoloMemory
	}
	return l
}

// exploreClients is the most client addresses whose explorer rate is
// tracked at once; the least recently seen are forgotten.
const exploreClients = 65536

// The codes of the explorer's refusals.
const (
	codeExploreBusy    = "busy"    // every slot stayed taken until the request's deadline
	codeExploreTimeout = "timeout" // the work ran past the deadline and was stopped
)

// exploreRetryAfter is the Retry-After of a busy explorer, in seconds.
const exploreRetryAfter = 2

// lanes are the explorer's slots: at most GOMAXPROCS requests computed at
// once, and of them at most all but one comparisons (the heaviest
// request), so that a flood of comparisons never leaves the maps and
// positions of other users waiting.
type lanes struct {
	all   chan struct{}
	heavy chan struct{}
}

func newLanes(n int) lanes {
	n = max(n, 1)
	return lanes{all: make(chan struct{}, n), heavy: make(chan struct{}, max(n-1, 1))}
}

// enter takes a slot (and a heavy one for a heavy request) once free, or
// returns ctx's error; the function it returns frees them.
func (l lanes) enter(ctx context.Context, heavy bool) (func(), error) {
	if heavy {
		select {
		case l.heavy <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case l.all <- struct{}{}:
	case <-ctx.Done():
		if heavy {
			<-l.heavy
		}
		return nil, ctx.Err()
	}
	return func() {
		<-l.all
		if heavy {
			<-l.heavy
		}
	}, nil
}

// exploreCall is one explorer request under way: its context (the
// deadline of ExploreLimits.Timeout, ended also when the client goes) and
// the explorer.
type exploreCall struct {
	ctx    context.Context
	x      *Explorer
	cancel context.CancelFunc
	done   func() // frees the slot
}

// end frees the request's slot and ends its context.
func (c *exploreCall) end() {
	if c.done != nil {
		c.done()
	}
	c.cancel()
}

// exploreBegin admits an explorer request: 503 without an explorer, 429
// with Retry-After past the rate of its client address, then the deadline
// begins. check, if not nil, reads and bounds the request before anything
// waits (a 4xx names the field and the bound); then the request waits
// for a slot (heavy: a comparison's) and is answered 503 with Retry-After
// when none frees before its deadline. ok is false when the request has
// been answered (or its client went); else c.end must be called.
func (s *Server) exploreBegin(w http.ResponseWriter, r *http.Request, heavy bool, check func() error) (c *exploreCall, ok bool) {
	x := s.opt.Explorer
	if x == nil {
		writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "the strategy explorer is not available on this server", Code: "unavailable"})
		return nil, false
	}
	now := time.Now()
	if res := x.rate.reserve(addrKey(s.clientAddr(r)), now); res != nil {
		if d := res.DelayFrom(now); d > 0 {
			res.CancelAt(now)
			ref := rateRefusal{set: x.rate, delay: d}
			w.Header().Set("Retry-After", strconv.Itoa(ref.retryAfter()))
			writeJSON(w, http.StatusTooManyRequests, apiError{Error: fmt.Sprintf("too many explorer requests: at most %s a second (burst %d) from one address; retry in %d s",
				fmtRate(float64(x.rate.limit)), x.rate.burst, ref.retryAfter()), Code: codeRateLimited})
			return nil, false
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), x.lim.Timeout)
	c = &exploreCall{ctx: ctx, x: x, cancel: cancel}
	if check != nil {
		if err := check(); err != nil {
			cancel()
			s.httpError(w, err)
			return nil, false
		}
	}
	done, err := x.lanes.enter(ctx, heavy)
	if err != nil {
		cancel()
		if r.Context().Err() == nil { // the deadline, not a client gone
			w.Header().Set("Retry-After", strconv.Itoa(exploreRetryAfter))
			writeJSON(w, http.StatusServiceUnavailable, apiError{Error: fmt.Sprintf("the strategy explorer is busy: no slot came free within %s; retry in %d s",
				x.lim.Timeout, exploreRetryAfter), Code: codeExploreBusy})
		}
		return nil, false
	}
	c.done = done
	return c, true
}

// fail answers an error of the request's work: the deadline passed (503
// with Retry-After, saying the work was stopped), the client went
// (nothing: nobody reads), or err as httpError maps it.
func (c *exploreCall) fail(s *Server, w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case r.Context().Err() != nil:
		return
	case errors.Is(err, context.DeadlineExceeded) || c.ctx.Err() != nil:
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(c.x.lim.Timeout.Seconds()))))
		writeJSON(w, http.StatusServiceUnavailable, apiError{Error: fmt.Sprintf("the request ran past the strategy explorer's limit of %s and was stopped: ask for less (fewer rule sets, a lower target) or retry later",
			c.x.lim.Timeout), Code: codeExploreTimeout})
	default:
		s.httpError(w, err)
	}
}

// checkRules refuses, before any work, rules whose solo solve would need
// more than ExploreLimits.SoloMemory: 400 naming field.
func (x *Explorer) checkRules(field string, r rules.Rules) error {
	if x.lim.SoloMemory < 0 {
		return nil
	}
	need, err := solve.SoloBytes(r)
	if err != nil {
		return fieldErrorf(field, "%s", cleanMessage(err.Error()))
	}
	if need > x.lim.SoloMemory {
		return fieldErrorf(field, "the solo solve of these rules needs %s, more than the strategy explorer's %s (--explore-solo-memory)",
			mib(need), mib(x.lim.SoloMemory))
	}
	return nil
}

// mib writes a size in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// solo returns the solo policy of r, waiting for it at most until the
// request's deadline. The solve itself is shared with every request for
// the same rules (bot.Tables runs it in its scheduler and keeps it), so
// it goes on for them: only the wait ends.
func (c *exploreCall) solo(r rules.Rules) (*solve.Policy, error) {
	type result struct {
		p   *solve.Policy
		err error
	}
	ch := make(chan result, 1)
	go func() {
		p, err := c.x.tables.Solo(r)
		ch <- result{p, err}
	}()
	select {
	case res := <-ch:
		return res.p, res.err
	case <-c.ctx.Done():
		return nil, c.ctx.Err()
	}
}

// source is the explorer as an explore.Source for one request: solo
// policies waited for at most until its deadline, duel tables never.
type exploreSource struct{ c *exploreCall }

func (s exploreSource) Solo(r rules.Rules) (*solve.Policy, error) { return s.c.solo(r) }
func (s exploreSource) Duel(r rules.Rules) (*solve.Table, error)  { return s.c.x.Duel(r) }
