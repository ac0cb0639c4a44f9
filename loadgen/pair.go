package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/farkle/farkle/server/wsclient"
)

// refusalPause is how long a player waits after the server refused its
// action before it acts again.
const refusalPause = 20 * time.Millisecond

// seat is one player's connection to its table: a reader keeps the latest
// state it was sent (so the connection is always read, as a slow client
// would be dropped) and wakes whoever waits for a newer one.
type seat struct {
	c    *wsclient.Client
	seat int

	mu     sync.Mutex
	st     *wsclient.State
	err    error    // the connection's end, or nil
	refuse []string // refusal codes not yet taken
	wake   chan struct{}
}

// message is what a seat reads of a message from its table: its type,
// the seat (in the welcome), a refusal's code and the state. The rest (the
// table's view, the log's lines) is skipped, not decoded: the load client
// shares the machine with the server it measures, and decoding whole
// updates was most of its work. The decoder is encoding/json's successor
// (go-json-experiment/json), which reads the message in one pass where
// encoding/json checks it whole first: half the CPU an update
// (BenchmarkDecodeUpdate).
type message struct {
	Type string `json:"type"`
	You  struct {
		Seat int `json:"seat"`
	} `json:"you"`
	State *wsclient.State `json:"state"`
	Code  string          `json:"code"`
}

// decode reads the message in data into m.
func (m *message) decode(data []byte) error {
	*m = message{}
	if err := jsonv2.Unmarshal(data, m); err != nil {
		return fmt.Errorf("a bad message: %w", err)
	}
	return nil
}

// read is the seat's reader: it runs until the connection ends. Each
// message is read into the same buffer.
func (s *seat) read(ctx context.Context) {
	var buf bytes.Buffer
	var m message
	for {
		_, rd, err := s.c.Conn.Reader(ctx)
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(rd)
		}
		if err == nil {
			err = m.decode(buf.Bytes())
		}
		s.mu.Lock()
		switch {
		case err != nil:
			s.err = err
		case m.Type == "welcome":
			s.seat = m.You.Seat
		case m.Type == "error":
			s.refuse = append(s.refuse, m.Code)
		}
		if err == nil && m.State != nil {
			s.st = m.State
		}
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// latest returns the seat's latest state, its seat number, the refusals
// received since the last call and the connection's error.
func (s *seat) latest() (*wsclient.State, int, []string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ref := s.refuse
	s.refuse = nil
	return s.st, s.seat, ref, s.err
}

// open connects c to the table and starts its reader.
func open(ctx context.Context, c *wsclient.Client, table string) (*seat, error) {
	if err := c.Connect(ctx, table); err != nil {
		return nil, err
	}
	s := &seat{c: c, seat: -1, wake: make(chan struct{}, 1)}
	go s.read(ctx)
	return s, nil
}

// waitFor waits until ok holds of the seat's state, the connection ends or
// ctx does.
func (s *seat) waitFor(ctx context.Context, ok func(*wsclient.State) bool) (*wsclient.State, []string, error) {
	var refused []string
	for {
		st, _, ref, err := s.latest()
		refused = append(refused, ref...)
		if st != nil && ok(st) {
			return st, refused, nil
		}
		if err != nil {
			return st, refused, err
		}
		if len(ref) > 0 {
			return st, refused, nil // a refusal answers the action too
		}
		select {
		case <-ctx.Done():
			return st, refused, ctx.Err()
		case <-s.wake:
		}
	}
}

// pair plays tables between two guests, one after the other, until the
// run ends: player a creates each table on its server, player b joins it
// from the next server (with RouteTable, both join and play on the
// table's server), and both play their seats.
func (r *run) pair(ctx context.Context, i int) {
	settled := false // the first table set up
	ready := sync.OnceFunc(func() { settled = true; r.setUp.Done() })
	defer func() {
		if !settled && ctx.Err() != nil {
			r.fail(SettingUpAtEnd) // play never started: say why
		}
		ready() // a pair that gives up before its first table holds no one back
	}()
	n := len(r.cfg.Servers)
	a := client(r.cfg.Servers[i%n])
	b := client(r.cfg.Servers[(i+1)%n])
	for k, c := range []*wsclient.Client{a, b} {
		_, tok, err := c.NewPlayer(ctx, fmt.Sprintf("load%d%c", i, 'a'+k))
		if err != nil {
			r.failed(ctx, "new player", err)
			return
		}
		c.Token = tok
	}
	r.add(0, 0, 2)
	for k := 0; ctx.Err() == nil; k++ {
		over, ok := r.table(ctx, a, b, r.watch != nil && i == 0 && k == 0, ready)
		if over {
			r.add(0, 1, 0)
		}
		if !ok {
			return
		}
	}
}

// SettingUpAtEnd is the error kind (Report.Errors) of a pair whose first
// table was not set up when the run ended: every other pair waited for it,
// so no table played.
const SettingUpAtEnd = "a first table still being set up when the run ended, so play never started (a server slow to answer?)"

// table sets up one table for a and b and plays it to its end or the run's;
// it says whether the game ended and whether the pair may go on. A
// watched table has the run's watchers, connected before the first action.
// Once the table is set up it calls ready (the pair's first table counts,
// later calls do nothing) and plays only once play has started
// (run.playing).
func (r *run) table(ctx context.Context, a, b *wsclient.Client, watched bool, ready func()) (over, goOn bool) {
	var rs any = r.cfg.Rules
	if r.cfg.Target > 0 {
		rs = map[string]any{"base": r.cfg.Rules, "game": map[string]any{"target": r.cfg.Target}}
	}
	t, err := a.CreateTable(ctx, rs, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		r.failed(ctx, "create table", err)
		return false, false
	}
	watchAt := r.cfg.Servers[0]
	if r.cfg.Route == RouteTable { // every request naming the table to its server
		watchAt = TableServer(t.ID, r.cfg.Servers)
		a, b = atServer(a, watchAt), atServer(b, watchAt)
	}
	if _, err := b.Join(ctx, t.ID); err != nil {
		r.failed(ctx, "join", err)
		return false, false
	}
	r.add(1, 0, 0)
	sa, err := open(ctx, a, t.ID)
	if err != nil {
		r.failed(ctx, "connect", err)
		return false, false
	}
	defer a.Close()
	sb, err := open(ctx, b, t.ID)
	if err != nil {
		r.failed(ctx, "connect", err)
		return false, false
	}
	defer b.Close()
	if watched {
		r.watch.open(ctx, r.wctx, r, watchAt, t.ID)
	}
	ready()
	select {
	case <-ctx.Done():
		return false, false
	case <-r.playing:
	}
	seats := []*seat{sa, sb}
	for {
		// Each seat's view is read until one of them has to act.
		var actor *seat
		var st *wsclient.State
		for actor == nil {
			for _, s := range seats {
				got, n, _, err := s.latest()
				if err != nil {
					r.failed(ctx, "connection", err)
					return false, ctx.Err() == nil
				}
				if got != nil && got.Phase == "over" {
					return true, true
				}
				if got != nil && n >= 0 && got.Actor == n && len(got.Legal) > 0 {
					actor, st = s, got
					break
				}
			}
			if actor == nil {
				select {
				case <-ctx.Done():
					return false, false
				case <-sa.wake:
				case <-sb.wake:
				}
			}
		}
		if r.limit != nil {
			if err := r.limit.Wait(ctx); err != nil {
				return false, false
			}
		}
		typ, dice := wsclient.Choose(st)
		v := st.Version
		t0 := time.Now()
		if watched {
			r.watch.acting(v, t0)
		}
		if err := actor.c.Act(ctx, v, typ, dice); err != nil {
			r.failed(ctx, "send", err)
			return false, false
		}
		got, refused, err := actor.waitFor(ctx, func(s *wsclient.State) bool { return s.Version > v })
		d := time.Since(t0)
		if watched && got != nil {
			r.watch.answered(got.Version)
		}
		for _, code := range refused {
			r.fail("refused: " + code)
		}
		if err != nil {
			r.failed(ctx, "connection", err)
			return false, ctx.Err() == nil
		}
		if len(refused) > 0 {
			// A refusal (a rate limit, say) is answered by waiting a
			// little before acting again, not by hammering the server.
			select {
			case <-ctx.Done():
				return false, false
			case <-time.After(refusalPause):
			}
			continue
		}
		if !r.took(d) {
			return false, false
		}
	}
}
