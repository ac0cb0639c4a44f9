package online

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/tui"
)

// Client is a terminal's session with a farkle server: its player (a
// guest, by its token) and the REST routes of docs/API.md. It is the
// tui.Lobby of the terminal's lobby screen.
type Client struct {
	rest *wsclient.Client
	// RecordDir is where the record of a finished game is saved
	// (farkle-ID.json); "" saves none.
	RecordDir string
	// Reconnect is how long a table's link keeps trying to reconnect
	// after the connection drops (0: DefaultReconnect).
	Reconnect time.Duration
	// LinkBase is the server's address in the links to tables given to
	// friends ("": the address the client uses).
	LinkBase string
	// Lang is the language (a catalogue's code) the server is asked to
	// write its log lines in: those of a game joined mid-way that the
	// terminal cannot rebuild (RemoteUpdate.Earlier). "": the server's
	// default, English.
	Lang   string
	player Player

	mu    sync.Mutex
	links map[*link]bool // open, for Close
}

// DefaultReconnect is how long a dropped table link keeps trying.
const DefaultReconnect = 2 * time.Minute

// Player is the guest a Client plays as.
type Player struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token,omitempty"`
}

// New returns a client of the server at base ("http://host:8080"; a
// table's link, ".../t/ID", gives its server too: see ParseLink).
func New(base string) *Client {
	return &Client{rest: wsclient.New(base)}
}

// NewHTTP returns a client of the server at base whose requests and
// WebSockets go through hc.
func NewHTTP(base string, hc *http.Client) *Client {
	c := New(base)
	c.rest.HTTP = hc
	return c
}

// Close closes the links to tables the client opened.
func (c *Client) Close() {
	c.mu.Lock()
	links := c.links
	c.links = nil
	c.mu.Unlock()
	for l := range links {
		l.Close()
	}
}

// Base returns the server's address.
func (c *Client) Base() string { return c.rest.Base }

// Player returns the guest the client plays as (after SignIn).
func (c *Client) Player() Player { return c.player }

// ParseLink splits a table's link ("https://host/t/ID") into the server
// and the table; anything else is taken as the server's address.
func ParseLink(link string) (base, table string, err error) {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", &netError{key: "tui.online.badLink", args: []any{"link", strconv.Quote(link)}}
	}
	path := strings.TrimRight(u.Path, "/")
	if i := strings.LastIndex(path, "/t/"); i >= 0 {
		table = path[i+len("/t/"):]
		path = path[:i]
	}
	return u.Scheme + "://" + u.Host + path, table, nil
}

// SignIn makes the client's player: the guest of token, or else a new
// guest called name. The new guest's token is in Player().Token, for the
// next session.
func (c *Client) SignIn(ctx context.Context, name, token string) (Player, error) {
	if token != "" {
		c.rest.Token = token
		var p Player
		if err := c.rest.Do(ctx, http.MethodGet, "/api/me", nil, &p); err != nil {
			c.rest.Token = ""
			if unreachable(err) {
				return Player{}, said(c.rest.Base, err)
			}
			return Player{}, fmt.Errorf("online: the saved token is not a player of %s: %w", c.rest.Base, c.apiErr(err))
		}
		if p.ID == "" {
			// The server answers null for a token it does not know (its
			// database was made anew, or it is another server at that
			// address): no player, so the caller signs in anew.
			c.rest.Token = ""
			return Player{}, fmt.Errorf("online: the saved token is not a player of %s", c.rest.Base)
		}
		p.Token = token
		c.player = p
		return p, nil
	}
	var p Player
	c.rest.Token = "" // a new guest, not the one signed in before
	if err := c.rest.Do(ctx, http.MethodPost, "/api/players", map[string]string{"name": name}, &p); err != nil {
		if unreachable(err) {
			return Player{}, said(c.rest.Base, err)
		}
		var se *wsclient.StatusError
		var body nameWhy
		if errors.As(err, &se) && se.Status < 500 && decodeJSON(se.Body, &body) == nil && body.Error != "" {
			// The server refuses the name: said as a sentence, why in
			// the player's language where the server gives its reason
			// as a word, else in the server's own (English) words.
			return Player{}, &netError{key: "online.nameRefused", args: []any{"name", strconv.Quote(name), "why", body}, err: err}
		}
		return Player{}, fmt.Errorf("online: signing in as %q: %w", name, c.apiErr(err))
	}
	c.rest.Token = p.Token
	c.player = p
	return p, nil
}

// tableJSON is a table as the REST routes show it.
type tableJSON struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Rules  struct {
		Name string `json:"name"`
	} `json:"rules"`
	Seats []wsclient.Seat `json:"seats"`
	Clock *struct {
		Seconds float64 `json:"seconds"`
	} `json:"clock"`
}

func (t tableJSON) lobby() tui.LobbyTable {
	lt := tui.LobbyTable{ID: t.ID, Status: t.Status, Rules: t.Rules.Name}
	if t.Kind != "" {
		lt.Rules = t.Kind
	}
	for _, s := range t.Seats {
		lt.Seats = append(lt.Seats, tui.LobbySeat{Name: s.Name, Bot: s.Bot, Free: s.Free})
	}
	if t.Clock != nil {
		lt.Clock = time.Duration(t.Clock.Seconds * float64(time.Second))
	}
	return lt
}

// Tables lists the tables waiting for players and being played, latest
// first.
func (c *Client) Tables(ctx context.Context) ([]tui.LobbyTable, error) {
	var ts []tableJSON
	if err := c.rest.Do(ctx, http.MethodGet, "/api/tables?status=waiting,playing&limit=50", nil, &ts); err != nil {
		return nil, c.apiErr(err)
	}
	out := make([]tui.LobbyTable, 0, len(ts))
	for _, t := range ts {
		lt := t.lobby()
		for i, s := range t.Seats {
			lt.Seats[i].Mine = s.PlayerID != "" && s.PlayerID == c.player.ID
		}
		out = append(out, lt)
	}
	return out, nil
}

// Create opens the table nt: the first person's seat is the player's,
// every other person's a free seat for a friend, and the bots play at
// their levels. Its clock is the time for each decision (0: the
// server's).
func (c *Client) Create(ctx context.Context, nt tui.NewTable) (string, error) {
	var wire []map[string]string
	me := false
	for _, s := range nt.Seats {
		switch {
		case s.IsBot():
			wire = append(wire, map[string]string{"type": "bot", "level": s.Bot})
		case !me:
			wire = append(wire, map[string]string{"type": "me"})
			me = true
		default:
			wire = append(wire, map[string]string{"type": "human"})
		}
	}
	body := map[string]any{"rules": nt.Rules, "seats": wire}
	if nt.Preset != "" {
		body["rules"] = nt.Preset
	}
	if nt.Clock > 0 {
		body["clock"] = int(nt.Clock.Round(time.Second) / time.Second)
	}
	var t tableJSON
	if err := c.rest.Do(ctx, http.MethodPost, "/api/tables", body, &t); err != nil {
		return "", c.apiErr(err)
	}
	return t.ID, nil
}

// Rematch asks for the rematch of the finished table id (or finds the one
// asked already: docs/API.md) and returns the new table's id, where the
// player's seat is kept for them.
func (c *Client) Rematch(ctx context.Context, id string) (string, error) {
	var out struct {
		Table string `json:"table"`
	}
	if err := c.rest.Do(ctx, http.MethodPost, "/api/tables/"+url.PathEscape(id)+"/rematch", nil, &out); err != nil {
		return "", c.apiErr(err)
	}
	if out.Table == "" {
		return "", fmt.Errorf("online: the server named no rematch of table %s", id)
	}
	return out.Table, nil
}

// Link returns the link to a table, for friends (their browser, or farkle
// play --online LINK).
func (c *Client) Link(id string) string {
	if c.LinkBase != "" {
		return strings.TrimRight(c.LinkBase, "/") + "/t/" + id
	}
	return c.rest.Base + "/t/" + id
}

// Open sits at the table (a free seat, or the player's own again) or,
// with watch or when the table is full, watches it, and connects to it.
func (c *Client) Open(ctx context.Context, id string, watch bool) (tui.Remote, error) {
	if !watch {
		err := c.rest.Do(ctx, http.MethodPost, "/api/tables/"+url.PathEscape(id)+"/join", nil, nil)
		var se *wsclient.StatusError
		switch {
		case errors.As(err, &se) && se.Status == http.StatusConflict:
			// Full, or over: watch it.
		case err != nil:
			return nil, c.apiErr(err)
		}
	}
	return c.connect(ctx, id)
}

// apiErr turns a REST error into the server's own words, and a network
// failure into a sentence (said).
func (c *Client) apiErr(err error) error {
	var se *wsclient.StatusError
	if !errors.As(err, &se) {
		return said(c.rest.Base, err)
	}
	var body struct{ Error string }
	if jsonErr := decodeJSON(se.Body, &body); jsonErr == nil && body.Error != "" {
		return fmt.Errorf("%s (HTTP %d)", body.Error, se.Status)
	}
	return err
}
