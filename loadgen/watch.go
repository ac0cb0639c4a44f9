package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/farkle/farkle/server/wsclient"
)

// Watchers: with Config.Watchers, the first pair's first table is watched
// by that many anonymous connections to its server, opened before the
// pair's first action. Each watcher notes when each update reaches it:
// the delivery time of an update is from its action sent by the player to
// the update read by the watcher. Every update is expected by every
// watcher, from the version of its welcome to the last version the pair
// played; one a watcher never got is missed (a server that drops or skips
// a slow watcher misses some). The watchers read only the head of each
// message, as a browser elsewhere would cost this machine nothing: the
// load client shares the machine with the server it measures.

// MaxWatchers bounds Config.Watchers: each is a connection.
const MaxWatchers = 20000

// maxSamples bounds the delivery times kept for the percentiles (16 MB);
// beyond it they are a uniform sample of all (reservoir sampling).
const maxSamples = 2_000_000

// watchGrace is how long the watchers are given after the run to read the
// updates of its last actions.
const watchGrace = 5 * time.Second

// connectAtOnce is how many watchers connect at the same time.
const connectAtOnce = 32

// watch is the watchers of one table and what they measured.
type watch struct {
	n int

	mu     sync.Mutex
	sent   map[int]time.Time // by the version acted on: when the action was sent
	played int               // the last version the pair played (saw answered)
	lat    []time.Duration   // delivery times (a sample beyond maxSamples)
	seen   int               // deliveries measured
	missed int
	rng    *rand.Rand
	conns  []*watcher
	ready  chan struct{} // closed once every watcher has its welcome (or failed)
}

// watcher is one watching connection and where it is.
type watcher struct {
	c    *wsclient.Client
	mu   sync.Mutex
	last int // the last version read, -1 before the welcome
	done chan struct{}
}

func newWatch(n int) *watch {
	return &watch{n: n, sent: map[int]time.Time{}, rng: rand.New(rand.NewPCG(1, 2)), ready: make(chan struct{})}
}

// open connects the watchers to table on server (their own context,
// which outlives the run's by watchGrace: finish ends it) and returns once
// every one has its welcome or failed to connect. The run's ctx bounds
// the wait.
func (w *watch) open(ctx, wctx context.Context, r *run, server, table string) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, connectAtOnce)
	welcomed := make(chan struct{}, w.n)
	for range w.n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c := client(server)
			if err := c.Connect(ctx, table); err != nil {
				r.failed(ctx, "watcher connect", err)
				welcomed <- struct{}{}
				return
			}
			wt := &watcher{c: c, last: -1, done: make(chan struct{})}
			w.mu.Lock()
			w.conns = append(w.conns, wt)
			w.mu.Unlock()
			go wt.read(wctx, w, r, welcomed)
		}()
	}
	wg.Wait()
	for range w.n {
		select {
		case <-welcomed:
		case <-ctx.Done():
			return
		}
	}
}

// acting notes that the pair sends its action on version v now.
func (w *watch) acting(v int, at time.Time) {
	w.mu.Lock()
	w.sent[v] = at
	w.mu.Unlock()
}

// answered notes the latest version the pair saw answered.
func (w *watch) answered(v int) {
	w.mu.Lock()
	w.played = max(w.played, v)
	w.mu.Unlock()
}

// delivered records an update of version v read at now.
func (w *watch) delivered(v int, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	at, ok := w.sent[v-1]
	if !ok {
		return
	}
	d := now.Sub(at)
	w.seen++
	if len(w.lat) < maxSamples {
		w.lat = append(w.lat, d)
	} else if k := w.rng.IntN(w.seen); k < maxSamples {
		w.lat[k] = d
	}
}

var (
	updateHead  = []byte(`{"type":"update"`)
	welcomeHead = []byte(`{"type":"welcome"`)
	stateKey    = []byte(`"state":{`)
	versionKey  = []byte(`"version":`)
)

// versionOf reads the state's version of a welcome or an update: the
// first "version" after "state", or by decoding the message if its shape
// is another; -1 without a state.
func versionOf(msg []byte) int {
	if i := bytes.Index(msg, stateKey); i >= 0 {
		rest := msg[i+len(stateKey):]
		if j := bytes.Index(rest, versionKey); j >= 0 {
			rest = rest[j+len(versionKey):]
			end := 0
			for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
				end++
			}
			if v, err := strconv.Atoi(string(rest[:end])); err == nil {
				return v
			}
		}
	}
	var m struct {
		State *struct {
			Version int `json:"version"`
		} `json:"state"`
	}
	if json.Unmarshal(msg, &m) != nil || m.State == nil {
		return -1
	}
	return m.State.Version
}

// read is a watcher's reader: it runs until its connection or ctx ends.
func (wt *watcher) read(ctx context.Context, w *watch, r *run, welcomed chan<- struct{}) {
	defer close(wt.done)
	var buf bytes.Buffer
	greeted := false
	defer func() {
		if !greeted {
			welcomed <- struct{}{}
		}
	}()
	for {
		_, rd, err := wt.c.Conn.Reader(ctx)
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(rd)
		}
		if err != nil {
			if ctx.Err() == nil {
				r.failed(ctx, "watcher connection", err)
			}
			return
		}
		now := time.Now()
		msg := buf.Bytes()
		update := bytes.HasPrefix(msg, updateHead)
		if !update && !bytes.HasPrefix(msg, welcomeHead) {
			continue
		}
		v := versionOf(msg)
		if v < 0 {
			continue
		}
		wt.mu.Lock()
		last := wt.last
		if v > last {
			wt.last = v
		}
		wt.mu.Unlock()
		if update {
			w.delivered(v, now)
		}
		if last >= 0 && v > last+1 {
			w.mu.Lock()
			w.missed += v - last - 1
			w.mu.Unlock()
		}
		if !greeted {
			greeted = true
			welcomed <- struct{}{}
		}
	}
}

// finish waits up to watchGrace for every watcher to read the last
// version played, then ends them (cancel ends their context) and counts
// what each never got.
func (w *watch) finish(cancel context.CancelFunc) {
	w.mu.Lock()
	played, conns := w.played, w.conns
	w.mu.Unlock()
	deadline := time.Now().Add(watchGrace)
	for _, wt := range conns {
		for {
			wt.mu.Lock()
			last := wt.last
			wt.mu.Unlock()
			if last >= played || time.Now().After(deadline) {
				break
			}
			select {
			case <-wt.done:
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	cancel()
	for _, wt := range conns {
		wt.c.Conn.CloseNow() // the end of the run: no handshake to wait for
		<-wt.done
		wt.mu.Lock()
		last := wt.last
		wt.mu.Unlock()
		if last >= 0 && last < played {
			w.mu.Lock()
			w.missed += played - last
			w.mu.Unlock()
		}
	}
}
