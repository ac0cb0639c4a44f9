package servertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server/wsclient"
)

// Answer is one HTTP answer, read whole.
type Answer struct {
	Status int
	Header http.Header
	Body   string
	Err    struct {
		Error, Code, Field string
	}
	Cookies []*http.Cookie
}

// Post sends a POST with the body and headers (Content-Type
// application/json unless given) with the client's cookies.
func Post(t *testing.T, c *http.Client, url, body string, hdr ...string) Answer {
	t.Helper()
	return Send(t, c, "POST", url, body, append([]string{"Content-Type", "application/json"}, hdr...)...)
}

func Send(t *testing.T, c *http.Client, method, url, body string, hdr ...string) Answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := Answer{Status: resp.StatusCode, Header: resp.Header, Body: string(b), Cookies: resp.Cookies()}
	_ = json.Unmarshal(b, &a.Err)
	return a
}

func (a Answer) String() string {
	return fmt.Sprintf("HTTP %d %s", a.Status, strings.TrimSpace(a.Body))
}

// Call sends a request as the player with the token (none: no player),
// with a JSON body unless nil.
func Call(t *testing.T, ts *Server, token, method, path string, body any) Answer {
	t.Helper()
	b := []byte{}
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	hdr := []string{"Content-Type", "application/json"}
	if token != "" {
		hdr = append(hdr, "Authorization", "Bearer "+token)
	}
	return Send(t, nil, method, ts.URL+path, string(b), hdr...)
}

// Invite creates a table at which p sits and a seat is kept for name.
func Invite(t *testing.T, ts *Server, p *Player, name string) Answer {
	t.Helper()
	return Call(t, ts, p.Token, "POST", "/api/tables", map[string]any{"pace": "1d", "rules": ShortRules,
		"seats": []map[string]string{{"type": "me"}, {"type": "invite", "name": name}}})
}

// SeatOf returns seat i of a table's JSON as a map.
func SeatOf(t *testing.T, data string, i int) map[string]any {
	t.Helper()
	var tb struct{ Seats []map[string]any }
	if err := json.Unmarshal([]byte(data), &tb); err != nil || len(tb.Seats) <= i {
		t.Fatalf("seat %d of %s: %v", i, data, err)
	}
	return tb.Seats[i]
}

func IDOf(t *testing.T, a Answer) string {
	t.Helper()
	var tb struct{ ID string }
	if err := json.Unmarshal([]byte(a.Body), &tb); err != nil || tb.ID == "" {
		t.Fatalf("no table in %s", a)
	}
	return tb.ID
}

// APIAnswer is an error answer of the API, with a sanction's fields.
type APIAnswer struct {
	Status   int
	Error    string
	Code     string
	Field    string
	Sanction *struct {
		Kind   string
		Until  *time.Time
		Reason string
	}
}

// ModCall does a request and returns its status and error body (zero for a
// 2xx answer, whose body goes to out).
func ModCall(t *testing.T, c *wsclient.Client, method, path string, body, out any) APIAnswer {
	t.Helper()
	err := c.Do(context.Background(), method, path, body, out)
	var se *wsclient.StatusError
	if err == nil {
		return APIAnswer{Status: 200}
	}
	if !errors.As(err, &se) {
		t.Fatal(err)
	}
	a := APIAnswer{Status: se.Status}
	if err := json.Unmarshal([]byte(se.Body), &a); err != nil {
		t.Fatalf("%s %s: %d %q", method, path, se.Status, se.Body)
	}
	return a
}

type RematchAnswer struct {
	Table       string `json:"table"`
	By          int    `json:"by"`
	WinnerFirst bool   `json:"winner_first"`
}

type TableAnswer struct {
	Status string
	Rules  struct {
		Name string
		Game struct {
			FirstPlayer string `json:"first_player"`
			Target      int
		}
	}
	Seats []struct {
		Name     string
		PlayerID string `json:"player_id"`
		Free     bool
	}
	Winners []int
	Rematch *RematchAnswer
}

// TableInfo is what GET /api/tables/{id} says of a table's life.
type TableInfo struct {
	Unrated string `json:"unrated"` // why a game of a rated family moves no rating ("aborted", …)
	ID      string `json:"id"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Seed    string `json:"seed"`
	Clock   *struct {
		Seconds  float64    `json:"seconds"`
		Seat     *int       `json:"seat"`
		Deadline *time.Time `json:"deadline"`
		Timeouts int        `json:"timeouts"`
	} `json:"clock"`
}

func GetInfo(t testing.TB, ctx context.Context, c *wsclient.Client, id string) TableInfo {
	t.Helper()
	var v TableInfo
	if err := c.Do(ctx, "GET", "/api/tables/"+id, nil, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
