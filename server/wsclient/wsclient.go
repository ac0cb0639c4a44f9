package wsclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"

	"github.com/coder/websocket"
)

// Client is one browser-like client: a cookie jar for its guest token and
// at most one WebSocket.
type Client struct {
	Base string // e.g. http://127.0.0.1:8080
	HTTP *http.Client
	Conn *websocket.Conn
	// Header is added to the WebSocket handshake (e.g. another Cookie).
	Header http.Header
	// Token, when set, is sent as "Authorization: Bearer TOKEN" with every
	// request and the handshake: the way of clients without cookies.
	Token string
	// MaxBody is the most bytes of an HTTP answer Do reads (0:
	// DefaultMaxBody); a longer answer is an error, read no further.
	MaxBody int64
}

// DefaultMaxBody is the most bytes of an HTTP answer Do reads unless the
// client says otherwise: 8 MiB, far more than any answer of the server
// but a record (which DoLimit reads with its own bound).
const DefaultMaxBody = 8 << 20

// ErrTooLarge is the error of an answer longer than the client reads.
var ErrTooLarge = errors.New("wsclient: the server's answer is too large")

// New returns a client of the server at base.
func New(base string) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{Base: strings.TrimRight(base, "/"), HTTP: &http.Client{Jar: jar}}
}

// Legal is one legal action of a state.
type Legal struct {
	Type   string `json:"type"`
	Dice   []int  `json:"dice,omitempty"`
	Points int    `json:"points,omitempty"`
}

// State is the part of the state clients usually read.
type State struct {
	Players []struct {
		Name  string `json:"name"`
		Score int    `json:"score"`
	} `json:"players"`
	Phase   string  `json:"phase"`
	Step    string  `json:"step"`
	Current int     `json:"current"`
	Total   int     `json:"total"`
	Throw   []int   `json:"throw"`
	Winners []int   `json:"winners"`
	Version int     `json:"version"`
	Actor   int     `json:"actor"`
	Legal   []Legal `json:"legal"`
}

// Seat is a seat of a table.
type Seat struct {
	Name     string `json:"name"`
	Bot      string `json:"bot"`
	Free     bool   `json:"free"`
	PlayerID string `json:"player_id"`
}

// Table is a table as the server shows it.
type Table struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	Seats      []Seat `json:"seats"`
	Commitment string `json:"commitment"`
	Seed       string `json:"seed"`
	Actions    int    `json:"actions"`
	Winners    []int  `json:"winners"`
}

// Msg is any message from the server; the fields of its type are set and
// Raw holds the whole message.
type Msg struct {
	Type string          `json:"type"`
	Raw  json.RawMessage `json:"-"`
	You  struct {
		PlayerID string `json:"player_id"`
		Seat     int    `json:"seat"`
	} `json:"you"`
	Table   Table                   `json:"table"`
	State   *State                  `json:"state"`
	RawSt   json.RawMessage         `json:"-"`
	Log     []struct{ Text string } `json:"log"`
	Code    string                  `json:"code"`
	Message string                  `json:"message"`
	Version int                     `json:"version"`
	ID      string                  `json:"id"`
}

// Do sends a JSON request (body may be nil) and decodes the answer into
// out (may be nil); a status of 400 or more is an error holding the body.
// It reads at most MaxBody bytes of the answer: a longer one is an error
// wrapping ErrTooLarge.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	limit := c.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	return c.DoLimit(ctx, method, path, body, out, limit)
}

// DoLimit is Do reading at most limit bytes of the answer.
func (c *Client) DoLimit(ctx context.Context, method, path string, body, out any, limit int64) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return err
	}
	if body != nil || method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json") // the server refuses any other POST
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if int64(len(data)) > limit {
		return fmt.Errorf("%w: %s %s answered more than %d bytes", ErrTooLarge, method, path, limit)
	}
	if err != nil && resp.StatusCode < 400 {
		return err
	}
	if resp.StatusCode >= 400 {
		return &StatusError{Status: resp.StatusCode, Body: string(data)}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// StatusError is an HTTP answer of 400 or more.
type StatusError struct {
	Status int
	Body   string
}

func (e *StatusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body) }

// NewPlayer creates a guest named name; its token lands in the cookie jar.
func (c *Client) NewPlayer(ctx context.Context, name string) (id, token string, err error) {
	var out struct{ ID, Token string }
	err = c.Do(ctx, "POST", "/api/players", map[string]string{"name": name}, &out)
	return out.ID, out.Token, err
}

// CreateTable creates a table: rules is a preset name or a rule object
// (nil: the server's default), seats as in docs/API.md.
func (c *Client) CreateTable(ctx context.Context, rules any, seats ...map[string]string) (Table, error) {
	body := map[string]any{"seats": seats}
	if rules != nil {
		body["rules"] = rules
	}
	var t Table
	err := c.Do(ctx, "POST", "/api/tables", body, &t)
	return t, err
}

// Join takes a free seat at the table.
func (c *Client) Join(ctx context.Context, table string) (int, error) {
	var out struct{ Seat int }
	err := c.Do(ctx, "POST", "/api/tables/"+table+"/join", nil, &out)
	return out.Seat, err
}

// Connect opens the table's WebSocket with the client's cookies.
func (c *Client) Connect(ctx context.Context, table string) error {
	u := "ws" + strings.TrimPrefix(c.Base, "http") + "/ws/tables/" + table
	h := http.Header{}
	for k, v := range c.Header {
		h[k] = v
	}
	if c.Token != "" {
		h.Set("Authorization", "Bearer "+c.Token)
	}
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c.HTTP, HTTPHeader: h})
	if err != nil {
		return err
	}
	conn.SetReadLimit(1 << 22)
	c.Conn = conn
	return nil
}

// Send writes v as one JSON text message.
func (c *Client) Send(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.Conn.Write(ctx, websocket.MessageText, b)
}

// SendRaw writes b as one text message.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	return c.Conn.Write(ctx, websocket.MessageText, b)
}

// Act sends an action for the connection's seat at the version seen.
func (c *Client) Act(ctx context.Context, version int, typ string, dice []int) error {
	a := map[string]any{"type": typ}
	if dice != nil {
		a["dice"] = dice
	}
	return c.Send(ctx, map[string]any{"type": "action", "version": version, "action": a})
}

// Next reads the next message.
func (c *Client) Next(ctx context.Context) (Msg, error) {
	_, data, err := c.Conn.Read(ctx)
	if err != nil {
		return Msg{}, err
	}
	var m Msg
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("wsclient: bad message %s: %w", data, err)
	}
	m.Raw = data
	return m, nil
}

// Close closes the WebSocket.
func (c *Client) Close() {
	if c.Conn != nil {
		c.Conn.Close(websocket.StatusNormalClosure, "")
	}
}

// Choose is a simple player's action in state st of the ordinary game: the
// keep with the most points, else the roll-off when due, else bank at 350
// or more (or when throwing is not allowed), else throw.
func Choose(st *State) (string, []int) {
	best := -1
	for i, l := range st.Legal {
		if l.Type == "keep" && (best < 0 || l.Points > st.Legal[best].Points) {
			best = i
		}
	}
	if best >= 0 {
		return "keep", st.Legal[best].Dice
	}
	var canThrow, canBank bool
	for _, l := range st.Legal {
		switch l.Type {
		case "roll-off":
			return "roll-off", nil
		case "throw":
			canThrow = true
		case "bank":
			canBank = true
		}
	}
	if canBank && (st.Total >= 350 || !canThrow) {
		return "bank", nil
	}
	return "throw", nil
}
