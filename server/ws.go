package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

const (
	goingAway   = websocket.StatusGoingAway
	sendBuffer  = 256             // messages queued for a client before it is dropped as too slow
	writeWait   = 5 * time.Second // a write slower than this drops the client (watchWrites)
	closeReason = "too slow: messages were not read"
)

// clientMsg is a message from a client. Type is one of clientMessages.
type clientMsg struct {
	Type    string          `json:"type"`
	Seat    *int            `json:"seat,omitempty"`    // the seat acting; default: the connection's seat
	Version *int            `json:"version,omitempty"` // the state version the client saw (required for actions)
	Action  json.RawMessage `json:"action,omitempty"`
	ID      string          `json:"id,omitempty"`   // echoed in the reply, so clients can match them
	Text    string          `json:"text,omitempty"` // a chat line (chat.go)
}

type youView struct {
	PlayerID string `json:"player_id,omitempty"`
	Name     string `json:"name,omitempty"`
	Seat     int    `json:"seat"` // -1: watching
}

type errorMsg struct {
	Type    string `json:"type"` // "error"
	Code    string `json:"code"`
	Message string `json:"message"`
	Version int    `json:"version"` // the current state version
	ID      string `json:"id,omitempty"`
}

// client is one WebSocket connection to a table.
type client struct {
	srv    *Server
	t      *table
	conn   *websocket.Conn
	cork   *corkConn     // conn's connection underneath (wscork.go); nil in tests without a network
	player *store.Player // nil: an anonymous watcher
	addr   netip.Addr    // the client's address (a banned range's check)
	out    chan *message // framed messages, shared with other clients where the same (wsframe.go)
	// queued counts the messages put in out and not yet written: while
	// any is, a message may not be written at once (tryWrite), or it
	// would pass them.
	queued atomic.Int32
	done   chan struct{}
	once   sync.Once
	limits messageLimits
	// lang is the language of the connection's log lines and hints (the
	// page's, from ?lang=); nil is English.
	lang *lang.Catalogue
	// writing is when the write under way began (Unix ns), 0 between
	// writes: the server's write watch drops a client whose write takes
	// longer than writeWait (watchWrites), so that a write needs no
	// timer of its own.
	writing atomic.Int64
}

// cat returns the catalogue of the client's language.
func (c *client) cat() *lang.Catalogue {
	if c.lang == nil {
		return lang.Get(lang.Default)
	}
	return c.lang
}

// langOf reads the language a request asks for with ?lang= (nb, nb-NO, en):
// one there is a catalogue for, else English. The value is hostile input:
// anything long or unknown is English.
func langOf(r *http.Request) *lang.Catalogue {
	v := r.URL.Query().Get("lang")
	if len(v) > 16 {
		v = ""
	}
	code, ok := lang.Parse(v)
	if !ok {
		code = lang.Default
	}
	return lang.Get(code)
}

// send sends the message b: at once if the socket takes it whole and
// nothing is queued before it (wscork.go), else through the client's
// queue; a client whose queue is full is dropped at once (it gets no
// later message, so it never sees a gap), so one slow reader never holds
// up the table. It never blocks.
func (c *client) send(b []byte) { c.sendMessage(newMessage(b)) }

// sendMessage sends m as send does b: the same m may go to many clients.
func (c *client) sendMessage(m *message) { c.deliver(m, true) }

// tailOnly is queued to wake the writer to send what a write at once
// left (tryWrite, corkConn.flushTail): it is nothing of its own.
var tailOnly = &message{}

// deliver sends m: at once from this goroutine if now (and the socket
// takes it without waiting, nothing queued before it), else through the
// queue. A table's watchers are not sent to at once: their writers share
// the cores, where one goroutine writing to thousands would not.
func (c *client) deliver(m *message, now bool) {
	if now && c.cork != nil && c.queued.Load() == 0 {
		select {
		case <-c.done:
			return
		default:
		}
		if done, tail := c.cork.tryWrite(m.frame); done {
			if !tail {
				return
			}
			m = tailOnly
		}
	}
	c.queued.Add(1)
	select {
	case <-c.done:
	case c.out <- m:
	default:
		// Drop it now: no later message may reach it after this gap.
		c.srv.log.Warn("dropping slow client", "table", c.t.id)
		c.close(websocket.StatusPolicyViolation, closeReason)
	}
}

// sendAll sends v, encoded and framed once, to every client of the table
// that to accepts (nil: every client). t.mu is held.
func (t *table) sendAll(v any, to func(*client) bool) {
	b, err := json.Marshal(v)
	if err != nil {
		t.srv.log.Error("encode message", "err", err)
		return
	}
	m := newMessage(b)
	for c := range t.clients {
		if to == nil || to(c) {
			c.deliver(m, c.seat() >= 0)
		}
	}
}

func (c *client) sendJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.srv.log.Error("encode message", "err", err)
		return
	}
	c.send(b)
}

// close ends the connection once: with the closing handshake, or at
// once for a client dropped as too slow (it would not read the handshake).
func (c *client) close(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		close(c.done)
		if c.cork != nil {
			c.cork.end() // no message after the close frame
		}
		if code == websocket.StatusPolicyViolation {
			_ = c.conn.CloseNow()
			return
		}
		go func() {
			_ = c.conn.Close(code, reason)
		}()
	})
}

// seat returns the seat the client's player holds, -1 if none. t.mu is held.
func (c *client) seat() int {
	if c.player == nil {
		return -1
	}
	for i, s := range c.t.meta.Seats {
		if s.PlayerID == c.player.ID {
			return i
		}
	}
	return -1
}

// sendWelcome sends the whole table as the client's seat sees it. t.mu is
// held.
func (c *client) sendWelcome() {
	seat := c.seat()
	you := youView{Seat: seat}
	if c.player != nil {
		you.PlayerID, you.Name = c.player.ID, c.player.Name
	}
	if c.t.kind == nil { // a table that failed at load: no game to show
		c.sendJSON(struct {
			Type  string     `json:"type"`
			You   youView    `json:"you"`
			Table tableView  `json:"table"`
			State *stateView `json:"state"`
			Log   []logLine  `json:"log"`
		}{"welcome", you, c.t.view(), nil, []logLine{}})
		return
	}
	c.sendJSON(c.t.kind.welcome(c.t, seat, you, c.cat()))
}

// handleWS serves GET /ws/tables/{id}: the table's live connection for
// players and watchers.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	p, _ := s.playerOf(r)
	conn, cork, limits, release, ok := s.acceptWS(w, r, p.ID)
	if !ok {
		return
	}
	defer release()
	c := &client{srv: s, t: t, conn: conn, cork: cork, out: make(chan *message, sendBuffer), done: make(chan struct{}), limits: limits, lang: langOf(r), addr: s.clientAddr(r)}
	var sanction *store.Sanction
	if p.ID != "" {
		c.player = &p
		var serr error // not err: that one says below whether the table was loaded
		if sanction, serr = s.sanctionOn(r.Context(), p.ID, c.addr, false); serr != nil {
			s.log.Error("sanctions not read", "err", serr)
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		conn.Close(goingAway, "the server is shutting down")
		return
	}
	s.clients[c] = struct{}{}
	s.mu.Unlock()
	s.mClients.Inc()
	for { // a table that fell asleep meanwhile (idle.go) is loaded again
		s.watch(t)
		t.mu.Lock()
		if !t.slept {
			break
		}
		t.mu.Unlock()
		if t, err = s.getTable(r.Context(), t.id); err != nil {
			s.log.Warn("table not loaded again", "table", c.t.id, "err", err)
			break
		}
		c.t = t
	}
	if err != nil {
		s.mu.Lock()
		delete(s.clients, c)
		s.mu.Unlock()
		s.mClients.Dec()
		conn.Close(websocket.StatusInternalError, "the table could not be loaded: try again")
		return
	}
	if len(t.clients) == 0 && !t.leased && !t.over.Load() && s.asked.q != nil {
		// The first client here of a table another node holds: ask
		// for its hints now, not at the next lease round, and read the
		// table again before the welcome, as the actions its holder
		// committed while nobody here asked were not heard (quiet.go).
		go s.askHints(context.Background(), []string{t.id})
		if err := t.catchUp(r.Context()); err != nil {
			s.log.Warn("cannot follow a table", "table", t.id, "err", err)
		}
	}
	t.clients[c] = struct{}{}
	t.presenceChanged()
	c.sendWelcome()
	c.sendChat()
	if sanction != nil {
		c.sendJSON(sanctionMsgOf(*sanction, ""))
	}
	t.mu.Unlock()

	ctx, cancel := context.WithCancel(context.Background())
	go c.writeLoop(ctx)
	c.readLoop(ctx)
	cancel()
	c.close(websocket.StatusNormalClosure, "")

	t.mu.Lock()
	delete(t.clients, c)
	t.presenceChanged()
	t.mu.Unlock()
	t.touch() // idle from now
	s.mu.Lock()
	delete(s.clients, c)
	s.mu.Unlock()
	s.mClients.Dec()
	s.release(t)
}

// watchWrites drops, a few times in writeWait, every client whose write
// has taken longer than writeWait: its reader's window stays full. One
// watch for all the clients costs less than a timer for every write of
// every client (2,000 watchers of a table: 2,000 timers an update).
func (s *Server) watchWrites() {
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		tick := time.NewTicker(writeWait / 4)
		defer tick.Stop()
		var late []*client
		for {
			select {
			case <-s.stop:
				return
			case now := <-tick.C:
				late = late[:0]
				s.mu.Lock()
				for c := range s.clients {
					if w := c.writing.Load(); w != 0 && now.UnixNano()-w > int64(writeWait) {
						late = append(late, c)
					}
				}
				s.mu.Unlock()
				for _, c := range late {
					s.log.Warn("dropping slow client: a write took longer than "+writeWait.String(), "table", c.t.id)
					c.close(websocket.StatusPolicyViolation, closeReason)
				}
			}
		}
	}()
}

func (c *client) writeLoop(ctx context.Context) {
	ping := time.NewTicker(c.srv.opt.PingEvery)
	defer ping.Stop()
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			select {
			case <-c.done: // dropped or closing: write nothing more
				return
			default:
			}
			c.writing.Store(time.Now().UnixNano())
			err := c.write(b)
			c.writing.Store(0)
			if err != nil {
				c.close(websocket.StatusPolicyViolation, closeReason)
				return
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, c.srv.opt.PingTimeout)
			err := c.conn.Ping(pctx)
			cancel()
			if err != nil {
				c.close(websocket.StatusPolicyViolation, "no answer to ping")
				return
			}
		}
	}
}

// write sends m and, when the client is behind, the messages queued after
// it, corked into one write to the network (wscork.go).
func (c *client) write(m *message) error {
	if c.cork == nil { // a connection the server did not accept itself (tests)
		// A context that is never done: the library then sets up nothing
		// to watch it; the write watch bounds the write.
		return c.conn.Write(context.Background(), websocket.MessageText, m.payload())
	}
	queued := len(c.out) // only this goroutine takes from out: they are there
	if queued == 0 {
		err := c.cork.writeFrame(m.frame)
		c.queued.Add(-1)
		return err
	}
	c.cork.hold()
	err := c.cork.writeFrame(m.frame)
	c.queued.Add(-1)
	for ; err == nil && queued > 0 && c.cork.holding() < maxCork; queued-- {
		select {
		case <-c.done: // dropped or closing: write nothing more
			c.cork.release()
			return nil
		default:
		}
		err = c.cork.writeFrame((<-c.out).frame)
		c.queued.Add(-1)
	}
	if rerr := c.cork.release(); err == nil {
		err = rerr
	}
	return err
}

func (c *client) readLoop(ctx context.Context) {
	for {
		// A context never done: the library then watches nothing for
		// each message; closing the connection ends the read.
		typ, data, err := c.conn.Read(context.Background())
		if err != nil {
			return
		}
		if msg := c.limits.allow(time.Now()); msg != "" {
			c.srv.mActions.WithLabelValues("refused", "player").Inc()
			c.replyError("", codeRateLimited, msg)
			continue
		}
		if typ != websocket.MessageText {
			c.replyError("", codeBadMessage, "messages are JSON text")
			continue
		}
		c.handle(data)
	}
}

func (c *client) currentVersion() int {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	if c.t.play == nil {
		return 0
	}
	return c.t.play.Game().Version()
}

func (c *client) replyError(id, code, msg string) {
	c.sendJSON(errorMsg{Type: "error", Code: code, Message: cleanMessage(msg), Version: c.currentVersion(), ID: id})
}

// decodeStrict decodes JSON refusing unknown fields and trailing data:
// anything but white space after the value. (The decoder's More, used
// before, let a stray ']' or '}' after it through.)
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return errors.New("data after the message")
	}
	return nil
}

// handle answers one message.
func (c *client) handle(data []byte) {
	var m clientMsg
	if err := decodeStrict(data, &m); err != nil {
		c.srv.mActions.WithLabelValues("refused", "player").Inc()
		c.replyError("", codeBadMessage, "not a message: "+err.Error())
		return
	}
	answer, ok := clientMessages[m.Type]
	if !ok {
		c.srv.mActions.WithLabelValues("refused", "player").Inc()
		c.replyError(m.ID, codeBadMessage, fmt.Sprintf("unknown message type %q (types: %s)", m.Type, strings.Join(slices.Sorted(maps.Keys(clientMessages)), ", ")))
		return
	}
	answer(c, m)
}

// clientMessages answers each type of message a client may send. Each is
// listed in docs/SECURITY.md with its bounds (TestInventoryMessages holds
// them to it).
var clientMessages = map[string]func(*client, clientMsg){
	"ping":   func(c *client, m clientMsg) { c.sendJSON(map[string]string{"type": "pong", "id": m.ID}) },
	"hint":   (*client).hint,
	"action": (*client).act,
	"chat":   (*client).say,
}

// act checks and plays an action message, in the documented order: the
// message, the seat's token, the game started and not over, the seat's
// turn, the action legal, the version current.
func (c *client) act(m clientMsg) {
	fail := func(code, msg string) {
		c.srv.mActions.WithLabelValues("refused", "player").Inc()
		c.replyError(m.ID, code, msg)
	}
	if len(m.Action) == 0 || m.Version == nil {
		fail(codeBadMessage, `an action message needs "action" and "version"`)
		return
	}
	t := c.t
	var a game.Action
	if t.kind != nil { // nil at a table that failed at load: the checks refuse any action
		var err error
		if a, err = t.kind.parseAction(m.Action); err != nil {
			fail(codeBadMessage, err.Error())
			return
		}
	}
	start := time.Now()
	t.mu.Lock()
	seat := c.seat()
	if m.Seat != nil {
		seat = *m.Seat
	}
	r := t.playerAct(c.player, seat, *m.Version, a)
	t.mu.Unlock()
	if r != nil {
		fail(r.Code, r.Msg)
		return
	}
	c.srv.mActions.WithLabelValues("accepted", "player").Inc()
	c.srv.mLatency.Observe(time.Since(start).Seconds())
}

// hint answers a hint message as the table's kind does.
func (c *client) hint(m clientMsg) {
	if c.t.kind == nil {
		c.replyError(m.ID, codeGameOver, "there is no position to advise on")
		return
	}
	c.t.kind.hint(c, m)
}
