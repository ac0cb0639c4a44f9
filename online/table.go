package online

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/tui"
)

// link is a terminal's connection to one table: the table's WebSocket,
// opened again when it drops, and the game mirrored from the server's
// messages. It is the tui.Remote of the table.
type link struct {
	c  *Client
	id string

	mu   sync.Mutex
	conn *wsclient.Client // nil while reconnecting

	ups  chan tui.RemoteUpdate
	stop chan struct{} // closed by Close
	once sync.Once
	done chan struct{} // closed when run ends
	err  error         // why run ended, read after done

	// Owned by run.
	f       follower // the game as the messages bring it; nil before it starts
	rematch string   // the rematch asked for at the end, if any
	try     int      // the reconnect being tried (from 1), 0 while connected
	you     int
	seats   []tui.Seat
	clock   tui.Clock
	ratings []tui.RatingChange // of the finished game, when rated
	unrated string             // why a game of a rated family moved none
	saved   string
	status  string
	ended   string // "expired" or "failed": the table ended without its game ("" while it lives)
	reason  string // the server's words for why it ended
}

// connect opens the table's link and starts reading it.
func (c *Client) connect(ctx context.Context, id string) (*link, error) {
	l := &link{c: c, id: id, you: -1, ups: make(chan tui.RemoteUpdate, 16), stop: make(chan struct{}), done: make(chan struct{})}
	conn, err := l.dial(ctx)
	if err != nil {
		return nil, err
	}
	l.conn = conn
	c.mu.Lock()
	if c.links == nil {
		c.links = map[*link]bool{}
	}
	c.links[l] = true
	c.mu.Unlock()
	go l.run(conn)
	return l, nil
}

// dial opens a WebSocket to the table with the player's token.
func (l *link) dial(ctx context.Context) (*wsclient.Client, error) {
	ws := wsclient.New(l.c.rest.Base)
	ws.HTTP = l.c.rest.HTTP
	ws.Token = l.c.rest.Token
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	path := url.PathEscape(l.id)
	if l.c.Lang != "" {
		path += "?" + url.Values{"lang": {l.c.Lang}}.Encode()
	}
	if err := ws.Connect(ctx, path); err != nil {
		if unreachable(err) {
			return nil, said(l.c.rest.Base, err)
		}
		return nil, fmt.Errorf("online: connecting to table %s: %w", l.id, err)
	}
	return ws, nil
}

// Act implements tui.Remote.
func (l *link) Act(version int, a game.Action) error {
	l.mu.Lock()
	conn := l.conn
	l.mu.Unlock()
	if conn == nil {
		return errors.New("not connected to the server: reconnecting…")
	}
	l.mu.Lock()
	f := l.f
	l.mu.Unlock()
	if f == nil {
		return errors.New("the game has not started")
	}
	act, err := f.wire(a)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return conn.Send(ctx, map[string]any{"type": "action", "version": version, "action": act})
}

// Next implements tui.Remote.
func (l *link) Next(ctx context.Context) (tui.RemoteUpdate, error) {
	select {
	case u, ok := <-l.ups:
		if ok {
			return u, nil
		}
		<-l.done
		return tui.RemoteUpdate{}, l.err
	case <-ctx.Done():
		return tui.RemoteUpdate{}, ctx.Err()
	}
}

// Close ends the link.
func (l *link) Close() {
	l.once.Do(func() { close(l.stop) })
	l.mu.Lock()
	conn := l.conn
	l.conn = nil
	l.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}

// stopped reports whether Close was called.
func (l *link) stopped() bool {
	select {
	case <-l.stop:
		return true
	default:
		return false
	}
}

// run reads the table until the link ends: a dropped connection is opened
// again (the server's welcome then brings the whole game) until the
// reconnect time runs out or the table is gone.
func (l *link) run(conn *wsclient.Client) {
	defer close(l.done)
	defer close(l.ups)
	for {
		err := l.read(conn)
		conn.Close() // dropped, or ended here
		l.mu.Lock()
		l.conn = nil
		l.mu.Unlock()
		if l.stopped() {
			l.err = errors.New("the link was closed")
			return
		}
		if l.over() {
			l.err = ErrOver // the server closes a finished table's connections in time: nothing lost
			return
		}
		if errors.Is(err, ErrBadMessage) {
			l.err = err
			return
		}
		if conn, err = l.redial(err); err != nil {
			l.err = err
			return
		}
		l.mu.Lock()
		l.conn = conn
		l.mu.Unlock()
		if l.stopped() { // closed while it reconnected
			conn.Close()
			l.err = errors.New("the link was closed")
			return
		}
	}
}

// ErrBadMessage is wrapped by the end of a link whose server sent what
// no game shows (a malformed message, a view out of bounds): the link is
// not opened again, as the server would only send it again.
var ErrBadMessage = errors.New("online: the server sent a message the terminal cannot follow")

// ErrOver ends the link of a table whose game is over once the server
// closes its connection: the game is complete on the terminal.
var ErrOver = errors.New("online: the game is over")

// redial connects again after the connection dropped with cause, telling
// the player, with growing pauses until the reconnect time is out.
func (l *link) redial(cause error) (*wsclient.Client, error) {
	limit := l.c.Reconnect
	if limit <= 0 {
		limit = DefaultReconnect
	}
	give := time.Now().Add(limit)
	pause := 250 * time.Millisecond
	for try := 1; ; try++ {
		l.try = try
		l.push(tui.RemoteUpdate{})
		conn, err := l.dial(context.Background())
		if err == nil {
			l.try = 0
			return conn, nil
		}
		var se *wsclient.StatusError
		if errors.As(err, &se) && se.Status == http.StatusNotFound {
			return nil, tableGone(l.id, err)
		}
		if time.Now().Add(pause).After(give) {
			return nil, lostFor(l.c.rest.Base, limit, errors.Join(cause, err))
		}
		select {
		case <-time.After(pause): // the pause between tries is the point
		case <-l.stop:
			return nil, errors.New("the link was closed")
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// push hands an update to the terminal, with what the link knows.
func (l *link) push(u tui.RemoteUpdate) {
	u.You, u.Table, u.Clock, u.Status, u.Record, u.Rematch, u.Reconnecting = l.you, l.id, l.clock, l.status, l.saved, l.rematch, l.try
	u.Ended, u.EndReason = l.ended, l.reason
	u.Ratings, u.Unrated = l.ratings, l.unrated
	if u.Seats == nil {
		u.Seats = l.seats
	}
	select {
	case l.ups <- u:
	case <-l.stop:
	}
}

// wireTable is the part of a table a message carries that the terminal
// reads.
type wireTable struct {
	Status string          `json:"status"`
	Seats  []wsclient.Seat `json:"seats"`
	Clock  *struct {
		Seconds  float64    `json:"seconds"`
		Seat     *int       `json:"seat"`
		Deadline *time.Time `json:"deadline"`
	} `json:"clock"`
	Reason string `json:"reason"`
	// Ratings are the rating changes of a finished rated game; Unrated
	// why a game of a rated family moved none.
	Ratings []wireChange `json:"ratings"`
	Unrated string       `json:"unrated"`
}

// wireChange is a player's rating change as a table's message has it.
type wireChange struct {
	Player string  `json:"player"`
	Name   string  `json:"name"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Bot    bool    `json:"bot"`
}

// maxRating bounds the ratings the terminal takes from the server: a
// Glicko-2 rating is near 1500, within a few thousand of it.
const maxRating = 1e5

// ratings are the people's rating changes of t, as the terminal shows
// them: at most one a seat, each within ±maxRating (a change out of
// bounds is dropped), you the player of seat you.
func ratings(t wireTable, you int) []tui.RatingChange {
	var out []tui.RatingChange
	for _, c := range t.Ratings {
		if len(out) == len(t.Seats) {
			break
		}
		if c.Bot || math.Abs(c.Before) > maxRating || math.Abs(c.After) > maxRating {
			continue
		}
		mine := you >= 0 && you < len(t.Seats) && c.Player != "" && t.Seats[you].PlayerID == c.Player
		out = append(out, tui.RatingChange{Name: c.Name, Before: c.Before, After: c.After, You: mine})
	}
	return out
}

// wireMsg is a message from the server, as far as the terminal reads it
// whatever the kind of game (a kind's follower reads the rest).
type wireMsg struct {
	Type string    `json:"type"`
	Kind game.Kind `json:"kind"` // "" for the ordinary game
	You  struct {
		Seat int `json:"seat"`
	} `json:"you"`
	Table   wireTable `json:"table"`
	Message string    `json:"message"`
	Code    string    `json:"code"` // an error's code (the terminal says it in its language)
	Reason  string    `json:"reason"`
	Rematch *struct {
		Table string `json:"table"`
	} `json:"rematch"`
}

// kindOf is the kind of game of a message.
func (m wireMsg) kindOf() game.Kind {
	if m.Kind == "" {
		return game.Farkle
	}
	return m.Kind
}

// read handles the connection's messages until it fails.
func (l *link) read(conn *wsclient.Client) error {
	for {
		raw, err := conn.Next(context.Background())
		if err != nil {
			return err
		}
		var msg wireMsg
		if err := json.Unmarshal(raw.Raw, &msg); err != nil {
			return fmt.Errorf("%w: %v", ErrBadMessage, err)
		}
		if msg.Type == "welcome" {
			l.you = msg.You.Seat
		}
		l.table(msg.Table)
		switch msg.Type {
		case "welcome":
			fk, ok := followers[msg.kindOf()]
			if !ok {
				return fmt.Errorf("online: a table of %s, which the terminal does not play", msg.kindOf())
			}
			if !fk.started(raw.Raw) {
				l.push(tui.RemoteUpdate{}) // waiting for players
				continue
			}
			if err := l.reset(raw.Raw); err != nil {
				return err
			}
		case "update":
			if err := l.update(raw.Raw); err != nil {
				return err
			}
		case "rematch":
			if msg.Rematch != nil {
				l.rematch = msg.Rematch.Table
				l.push(tui.RemoteUpdate{})
			}
		case "error":
			l.push(tui.RemoteUpdate{Refused: msg.Message, RefusedCode: msg.Code})
		case "expired", "failed":
			// The type is the code the terminal says in its language; the
			// reason is the server's own words (English).
			l.ended, l.reason = msg.Type, msg.Reason
			l.push(tui.RemoteUpdate{})
		}
	}
}

// table takes the seats and the clock of a message's table; a message
// without one (an error) leaves them.
func (l *link) table(t wireTable) {
	if t.Status == "" {
		return
	}
	if t.Seats != nil {
		l.seats = make([]tui.Seat, len(t.Seats))
		for i, s := range t.Seats {
			name := s.Name
			if s.Free {
				name = "(free seat)"
			}
			l.seats[i] = tui.Seat{Name: name, Bot: s.Bot}
		}
	}
	l.ratings, l.unrated = ratings(t, l.you), t.Unrated
	l.clock = tui.Clock{Seat: -1}
	if c := t.Clock; c != nil {
		l.clock.Seconds = int(c.Seconds)
		if c.Seat != nil && c.Deadline != nil {
			l.clock.Seat, l.clock.Deadline = *c.Seat, *c.Deadline
		}
	}
}

// reset rebuilds the whole game: from the table's record so far (its
// variant, and for a kind that records its dice, every action) and the
// message that brought it (a welcome, or an update after a gap).
func (l *link) reset(msg []byte) error {
	var raw json.RawMessage
	if err := l.c.rest.DoLimit(context.Background(), http.MethodGet, "/api/tables/"+url.PathEscape(l.id)+"/record", nil, &raw, game.MaxRecordBytes); err != nil {
		return fmt.Errorf("online: reading the game so far: %w", l.c.apiErr(err))
	}
	rec, err := game.ParseRecord(raw)
	if err != nil {
		return err
	}
	fk, ok := followers[rec.Kind]
	if !ok {
		return fmt.Errorf("online: a table of %s, which the terminal does not play", rec.Kind)
	}
	f, evs, err := fk.start(rec, msg, l.you)
	if err != nil {
		if !errors.Is(err, ErrBadMessage) {
			err = fmt.Errorf("%w: %w", ErrBadMessage, err)
		}
		return err
	}
	l.mu.Lock()
	l.f = f // Act reads it
	l.mu.Unlock()
	l.finish()
	u := tui.RemoteUpdate{Game: f.game(), Events: evs, Reset: true}
	if e, ok := f.(earlierLines); ok {
		u.Earlier = e.earlier()
	}
	l.push(u)
	return nil
}

// earlierLines is a follower that cannot rebuild the events before it
// joined (Dragon Farkle: the server keeps the dice), and gives the log's
// lines of them as the server wrote them instead.
type earlierLines interface{ earlier() []string }

// update plays an update on the game; one it cannot follow (after a gap)
// brings the whole game again.
func (l *link) update(msg []byte) error {
	if l.f == nil {
		return l.reset(msg)
	}
	evs, moved, err := l.f.update(msg)
	switch {
	case err != nil:
		return l.reset(msg)
	case !moved:
		l.push(tui.RemoteUpdate{}) // the table changed, not the game (or already here)
		return nil
	}
	l.finish()
	l.push(tui.RemoteUpdate{Game: l.f.game(), Events: evs})
	return nil
}

// over reports whether the game at the table has ended.
func (l *link) over() bool { return l.f != nil && l.f.game().Over() }

// finish saves the record of a game that is over, once, when the client
// keeps records: the server's record with the seed revealed, checked
// here (game.Verify) before it is written. A client that keeps none but
// gives links (LinkBase) names the record's address instead.
func (l *link) finish() {
	if !l.over() || l.saved != "" {
		return
	}
	if l.c.RecordDir == "" {
		// Nowhere to save it here (an SSH session): say where it is.
		if l.c.LinkBase != "" {
			l.saved = strings.TrimRight(l.c.LinkBase, "/") + "/api/tables/" + url.PathEscape(l.id) + "/record"
		}
		return
	}
	path, err := l.c.SaveRecord(context.Background(), l.id, l.c.RecordDir)
	if err != nil {
		l.status = err.Error()
		return
	}
	l.saved = path
}

// SaveRecord downloads the record of a finished table, checks it
// (game.Verify: the seed matches the commitment and gives every throw)
// and writes it to dir as farkle-ID.json, returning the file's path.
func (c *Client) SaveRecord(ctx context.Context, id, dir string) (string, error) {
	var raw json.RawMessage
	if err := c.rest.DoLimit(ctx, http.MethodGet, "/api/tables/"+url.PathEscape(id)+"/record", nil, &raw, game.MaxRecordBytes); err != nil {
		return "", fmt.Errorf("online: downloading the record: %w", c.apiErr(err))
	}
	rec, err := game.ParseRecord(raw)
	if err != nil {
		return "", fmt.Errorf("online: the server's record: %w", err)
	}
	if _, _, err := game.Verify(rec); err != nil {
		return "", fmt.Errorf("online: the server's record does not verify: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, string(rec.Kind)+"-"+safeName(id)+".json")
	return path, os.WriteFile(path, append(raw, '\n'), 0o644)
}

// safeName keeps a table id to the characters the server gives ids.
func safeName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, id)
}

// decodeJSON reads a JSON text.
func decodeJSON(s string, v any) error { return json.Unmarshal([]byte(s), v) }
