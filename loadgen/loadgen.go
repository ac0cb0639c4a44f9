// Package loadgen is the work of `farkle load`: guests at two-player tables
// on the servers given, each pair of players on two connections (on two
// nodes when there are several, or on the one its table's ID chooses:
// route.go), acting as fast as their updates come back
// or paced to a rate in all, for a bounded time and number of actions. It
// measures every action's round trip (the action sent to the update that
// answers it) and reads the servers' CPU from their metrics.
//
// It talks only to the addresses it is given: no redirect is followed, and
// the WebSocket of a table is opened on the server that the pair's player
// uses.
package loadgen

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server/wsclient"
)

// Bounds of a run, so that a mistyped flag cannot start a run that never
// ends or opens more connections than a machine has.
const (
	MaxTables   = 5000           // tables played at once (two players each)
	MaxDuration = 24 * time.Hour // the longest run
	MaxServers  = 64             // servers (and metrics endpoints) in one run
)

// Config is one run.
type Config struct {
	Servers  []string      // the servers' base URLs (http:// or https://)
	Metrics  []string      // their metrics URLs (…/metrics), read before and after; may be empty
	Tables   int           // tables played at once
	Rate     float64       // actions a second in all; 0: as fast as the updates come back
	Duration time.Duration // how long the run lasts
	Actions  int           // the run ends after this many actions (0: only the duration ends it)
	Rules    string        // the preset of the tables
	// Target, when not 0, is the tables' target score instead of the
	// preset's (at most rules.MaxTarget): the highest, on servers started
	// with --max-turns 0, makes games that go on for a whole soak.
	Target int
	// Route is how a table's requests are spread over the servers:
	// RouteSpread ("" too) or RouteTable (route.go).
	Route string
	// Watchers, when not 0, is how many anonymous connections watch the
	// first pair's first table (watch.go): the delivery of its updates to
	// them is measured and reported.
	Watchers int
	// Progress, when set, is called about every 100 ms with the actions
	// so far and the time since the start.
	Progress func(actions int, elapsed time.Duration)
}

// Check says what is wrong with the configuration, naming the field and
// its bound, before anything is sent.
func (c Config) Check() error {
	if len(c.Servers) == 0 {
		return errors.New("no server given: name at least one URL")
	}
	if len(c.Servers) > MaxServers || len(c.Metrics) > MaxServers {
		return fmt.Errorf("at most %d servers and %d metrics URLs", MaxServers, MaxServers)
	}
	for _, s := range append(slices.Clone(c.Servers), c.Metrics...) {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%q is not a server's URL (http://host:port or https://host)", s)
		}
	}
	switch {
	case c.Tables < 1 || c.Tables > MaxTables:
		return fmt.Errorf("tables: %d is outside 1 to %d", c.Tables, MaxTables)
	case c.Rate < 0:
		return fmt.Errorf("rate: %g is negative (0 plays as fast as the servers answer)", c.Rate)
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return fmt.Errorf("duration: %v is outside (0, %v]", c.Duration, MaxDuration)
	case c.Actions < 0:
		return fmt.Errorf("actions: %d is negative (0: no bound but the duration)", c.Actions)
	case c.Watchers < 0 || c.Watchers > MaxWatchers:
		return fmt.Errorf("watchers: %d is outside 0 to %d", c.Watchers, MaxWatchers)
	case c.Target < 0 || c.Target > rules.MaxTarget:
		return fmt.Errorf("target: %d is outside 0 (the preset's) to %d", c.Target, rules.MaxTarget)
	}
	return checkRoute(c.Route)
}

// Run plays the load of c until its duration passes, its actions are done
// or ctx ends, and reports what it measured. It fails only when no table
// could be set up at all; the errors of single tables and actions are
// counted in the report.
func Run(ctx context.Context, c Config) (Report, error) {
	if err := c.Check(); err != nil {
		return Report{}, err
	}
	before, err := readStats(ctx, c.Metrics)
	if err != nil {
		return Report{}, err
	}
	ctx, stop := context.WithTimeout(ctx, c.Duration)
	defer stop()
	r := &run{cfg: c, errs: map[string]int{}, stop: stop, playing: make(chan struct{})}
	if c.Rate > 0 {
		r.limit = rate.NewLimiter(rate.Limit(c.Rate), 1)
	}
	// The watchers' reads outlive the run by watchGrace (watch.finish).
	wctx, wcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer wcancel()
	if c.Watchers > 0 {
		r.watch, r.wctx = newWatch(c.Watchers), wctx
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	r.setUp.Add(c.Tables)
	for i := range c.Tables {
		wg.Go(func() { r.pair(ctx, i) })
	}
	// Play starts once every pair's first table is ready (or the pair
	// gave up), so that the first actions are spread over every table and
	// every server, not taken by the tables that happened to be ready
	// first; the run's clock starts then (from the run's start if it ended
	// first).
	go func() {
		r.setUp.Wait()
		r.mu.Lock()
		if ctx.Err() == nil {
			r.start = time.Now()
		}
		r.mu.Unlock()
		close(r.playing)
	}()
	done := make(chan struct{})
	if c.Progress != nil {
		go func() {
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					c.Progress(r.count(), time.Since(t0))
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	end := time.Now()
	r.mu.Lock()
	elapsed := end.Sub(cmp.Or(r.start, t0))
	r.mu.Unlock()
	if r.watch != nil {
		r.watch.finish(wcancel)
	}
	rep := r.report(elapsed)
	rep.Servers = c.Servers
	rep.Route = c.Route
	if rep.Route == "" {
		rep.Route = RouteSpread
	}
	if len(c.Metrics) > 0 {
		after, err := readStats(context.WithoutCancel(ctx), c.Metrics)
		if err != nil {
			return rep, err
		}
		rep.CPUSeconds = after.cpu - before.cpu
		if rep.Actions > 0 {
			rep.CPUPerAction = time.Duration(rep.CPUSeconds / float64(rep.Actions) * float64(time.Second))
		}
		if b := after.batches - before.batches; b > 0 {
			rep.ActionsPerCommit = (after.committed - before.committed) / b
		}
	}
	if rep.Tables == 0 {
		return rep, fmt.Errorf("no table could be set up: %s", rep.ErrorText())
	}
	return rep, nil
}

// run is the shared state of one run.
type run struct {
	cfg   Config
	limit *rate.Limiter
	stop  context.CancelFunc
	// setUp counts the pairs whose first table is not ready yet; playing
	// is closed when none is left (every pair ready or given up).
	setUp   sync.WaitGroup
	playing chan struct{}
	watch   *watch          // nil without watchers
	wctx    context.Context // the watchers' reads: it outlives the run's

	mu      sync.Mutex
	start   time.Time // when play started (playing closed), zero if the run ended first
	lat     []time.Duration
	errs    map[string]int
	tables  int
	games   int
	players int
}

// count returns the actions done so far.
func (r *run) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lat)
}

// took records one action's round trip; it ends the run when its actions
// are done, and says whether the pair may act again.
func (r *run) took(d time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cfg.Actions > 0 && len(r.lat) >= r.cfg.Actions {
		r.stop()
		return false
	}
	r.lat = append(r.lat, d)
	if r.cfg.Actions > 0 && len(r.lat) >= r.cfg.Actions {
		r.stop()
		return false
	}
	return true
}

// fail counts an error by its kind.
func (r *run) fail(kind string) {
	r.mu.Lock()
	r.errs[kind]++
	r.mu.Unlock()
}

// failed counts err of what, unless the run has ended: a connection cut
// by the end of the run is no error of the servers.
func (r *run) failed(ctx context.Context, what string, err error) {
	if kind := errKind(what, err); kind != "" && ctx.Err() == nil {
		r.fail(kind)
	}
}

// add counts tables, games and players set up.
func (r *run) add(tables, games, players int) {
	r.mu.Lock()
	r.tables += tables
	r.games += games
	r.players += players
	r.mu.Unlock()
}

// errRedirect is the error of a server that sends the tool elsewhere.
var errRedirect = errors.New("the server redirects elsewhere, which farkle load does not follow")

// client returns a client of the server base that follows no redirect, so
// that a run stays on the addresses it was given.
func client(base string) *wsclient.Client {
	c := wsclient.New(base)
	c.HTTP.CheckRedirect = func(*http.Request, []*http.Request) error { return errRedirect }
	c.HTTP.Timeout = requestTimeout
	return c
}

// requestTimeout bounds each request of a run (the WebSocket handshakes
// included).
const requestTimeout = 30 * time.Second

// hostOf returns the host of the URL an error of a request names, or "its
// address".
func hostOf(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return u.Host
		}
	}
	return "its address"
}

// handshakeStatus finds the HTTP status of a refused WebSocket upgrade in
// the dialer's error.
var handshakeStatus = regexp.MustCompile(`status code 101 but got (\d{3})`)

// errKind names an error for the report: the HTTP status, the server's
// refusal code, or what failed.
func errKind(what string, err error) string {
	var se *wsclient.StatusError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%s: HTTP %d", what, se.Status)
	case errors.Is(err, errRedirect):
		return what + ": " + errRedirect.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		// The run's end cuts requests (failed drops those); a request of
		// a run still going that timed out met a server that does not
		// answer in time.
		var ue *url.Error
		if errors.As(err, &ue) && ue.Timeout() {
			return fmt.Sprintf("%s: the server at %s did not answer within %v", what, hostOf(err), requestTimeout)
		}
		return ""
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return fmt.Sprintf("%s: the server at %s does not answer (is farkle serve running there?)", what, hostOf(err))
	}
	if m := handshakeStatus.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Sprintf("%s: HTTP %s", what, m[1]) // a refused WebSocket upgrade
	}
	return what + ": " + err.Error()
}
