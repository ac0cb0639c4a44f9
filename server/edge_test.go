package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

func TestRateLimitPerAddress(t *testing.T) {
	ts := start(t, "", server.Options{AddressRate: 0.1, AddressBurst: 3, PlayerRate: -1})
	for i := range 3 { // below the limit: served
		if a := post(t, nil, ts.URL+"/api/players", fmt.Sprintf(`{"name":"P%d"}`, i)); a.Status != http.StatusCreated {
			t.Fatalf("request %d within the burst: %v", i, a)
		}
	}
	for range 5 { // reads are not limited
		if a := send(t, nil, "GET", ts.URL+"/api/tables", ""); a.Status != 200 {
			t.Fatalf("GET after the burst: %v", a)
		}
	}
	a := post(t, nil, ts.URL+"/api/players", `{"name":"P4"}`)
	want := "too many requests: at most 0.1 a second (burst 3) from one address; retry in 10 s"
	if a.Status != http.StatusTooManyRequests || a.Err.Error != want || a.Err.Code != "rate_limited" || a.Header.Get("Retry-After") != "10" {
		t.Fatalf("over the limit: %v Retry-After %q; want 429 %q with Retry-After 10", a, a.Header.Get("Retry-After"), want)
	}
	// A refused request costs nothing: the refusals did not push the wait further.
	a = post(t, nil, ts.URL+"/api/players", `{"name":"P5"}`)
	if a.Status != http.StatusTooManyRequests || a.Header.Get("Retry-After") != "10" {
		t.Fatalf("again: %v Retry-After %q", a, a.Header.Get("Retry-After"))
	}
	// A WebSocket upgrade counts as well (the table need not exist: the
	// limit comes first).
	_, st, body, _ := wsDial(ctxT(t, 10*time.Second), wsclient.New(ts.URL), "nope", nil)
	if st != http.StatusTooManyRequests || !strings.Contains(body, "from one address") {
		t.Fatalf("a WebSocket upgrade over the limit: %d %s", st, body)
	}
}

func TestRateLimitPerPlayer(t *testing.T) {
	ts := start(t, "", server.Options{AddressRate: -1, PlayerRate: 0.1, PlayerBurst: 3, BotDelay: time.Hour})
	ctx := ctxT(t, 10*time.Second)
	ann, bob := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bob") // one POST each
	seats := []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}
	for i := range 3 {
		if _, err := ann.CreateTable(ctx, nil, seats...); err != nil {
			t.Fatalf("Ann's table %d, within her burst: %v", i, err)
		}
	}
	_, err := ann.CreateTable(ctx, nil, seats...)
	se, ok := err.(*wsclient.StatusError)
	if !ok || se.Status != http.StatusTooManyRequests || !strings.Contains(se.Body, "at most 0.1 a second (burst 3) from one player; retry in 10 s") {
		t.Fatalf("Ann's fourth POST: %v, want 429 from one player", err)
	}
	if _, err := bob.CreateTable(ctx, nil, seats...); err != nil {
		t.Fatalf("Bob, from the same address, is not held back by Ann: %v", err)
	}
	// A player who shows its token in a header counts as itself too.
	a := post(t, nil, ts.URL+"/api/tables", `{}`, "Authorization", "Bearer "+ann.Token)
	if a.Status != http.StatusTooManyRequests {
		t.Fatalf("Ann by bearer token: %v", a)
	}
}

func TestTrustedProxies(t *testing.T) {
	proxies, err := server.ParseProxies("127.0.0.1, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.ParseProxies("10.0.0.0/8,nonsense"); err == nil || !strings.Contains(err.Error(), `"nonsense"`) {
		t.Fatalf("bad proxy list: %v", err)
	}
	behind := start(t, "", server.Options{AddressRate: 0.1, AddressBurst: 1, PlayerRate: -1, TrustedProxies: proxies})
	direct := start(t, "", server.Options{AddressRate: 0.1, AddressBurst: 1, PlayerRate: -1})
	for _, tc := range []struct {
		ts      *testServer
		xff     string
		allowed bool
	}{
		{behind, "203.0.113.1", true},
		{behind, "203.0.113.1", false},
		{behind, "198.51.100.7, 203.0.113.2", true}, // the last entry not a proxy of ours is the client
		{behind, "203.0.113.2, 10.1.2.3", false},    // 10.1.2.3 is our proxy: the client is 203.0.113.2 again
		{behind, "2001:db8:1:2::1", true},           // IPv6 counts by its /64
		{behind, "2001:db8:1:2::ffff", false},       // the same /64
		{direct, "203.0.113.1", true},               // an untrusted peer's header means nothing:
		{direct, "203.0.113.9", false},              // both are 127.0.0.1
	} {
		a := post(t, nil, tc.ts.URL+"/api/players", `{"name":"X"}`, "X-Forwarded-For", tc.xff)
		if (a.Status == http.StatusCreated) != tc.allowed {
			t.Errorf("X-Forwarded-For %q: %v, want allowed=%v", tc.xff, a, tc.allowed)
		}
	}
	// X-Real-IP from a trusted proxy.
	a := post(t, nil, behind.URL+"/api/players", `{"name":"X"}`, "X-Real-IP", "192.0.2.44")
	b := post(t, nil, behind.URL+"/api/players", `{"name":"X"}`, "X-Real-IP", "192.0.2.44")
	if a.Status != http.StatusCreated || b.Status != http.StatusTooManyRequests {
		t.Errorf("X-Real-IP twice: %v then %v", a, b)
	}
}

// TestCrossSiteRefused: state-changing requests from another site, or not
// in JSON, are refused before any handler; scripts without Origin pass.
func TestCrossSiteRefused(t *testing.T) {
	ts := start(t, "", server.Options{})
	host := strings.TrimPrefix(ts.URL, "http://")
	body := `{"name":"Eve"}`
	for _, tc := range []struct {
		name   string
		hdr    []string
		status int
		msg    string
	}{
		{"a script (no Origin)", nil, 201, ""},
		{"the site itself", []string{"Origin", ts.URL, "Sec-Fetch-Site", "same-origin"}, 201, ""},
		{"the site, older browser", []string{"Origin", ts.URL}, 201, ""},
		{"another site", []string{"Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"}, 403, "cross-site request refused"},
		{"a sibling subdomain", []string{"Origin", "http://a." + host, "Sec-Fetch-Site", "same-site"}, 403, "Sec-Fetch-Site: same-site"},
		{"another site, older browser", []string{"Origin", "http://evil.example"}, 403, "Origin http://evil.example is not this site"},
		{"a sandboxed page", []string{"Origin", "null"}, 403, "cross-site request refused"},
		{"a form", []string{"Content-Type", "text/plain"}, 415, `Content-Type must be application/json (got "text/plain")`},
		{"an urlencoded form", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "must be application/json"},
		{"no type", []string{"Content-Type", ""}, 415, "Content-Type must be application/json (none was sent)"},
		{"JSON with a charset", []string{"Content-Type", "application/json; charset=utf-8"}, 201, ""},
	} {
		a := post(t, nil, ts.URL+"/api/players", body, tc.hdr...)
		if a.Status != tc.status || !strings.Contains(a.Err.Error, tc.msg) {
			t.Errorf("%s: %v, want %d %q", tc.name, a, tc.status, tc.msg)
		}
	}
	// Every POST route is behind the same guard.
	for _, path := range []string{"/api/tables", "/api/tables/x/join", "/api/signout"} {
		if a := post(t, nil, ts.URL+path, `{}`, "Content-Type", "text/plain"); a.Status != 415 {
			t.Errorf("%s as text/plain: %v", path, a)
		}
		if a := post(t, nil, ts.URL+path, `{}`, "Origin", "http://evil.example"); a.Status != 403 {
			t.Errorf("%s from another origin: %v", path, a)
		}
	}
	// The WebSocket refuses another origin too.
	p := newPlayer(t, ts, "Ann")
	ctx := ctxT(t, 10*time.Second)
	tb, err := p.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	p.Header = http.Header{"Origin": {"http://evil.example"}}
	if err := p.Connect(ctx, tb.ID); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("WebSocket from another origin: %v, want 403", err)
	}
}

// TestIdentityIsNeverReplaced: with a valid token, POST /api/players is a
// conflict that leaves the cookie alone; signing out is explicit, and
// ends the token's session.
func TestIdentityIsNeverReplaced(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 10*time.Second)
	ann := newPlayer(t, ts, "Ann")
	a := post(t, ann.HTTP, ts.URL+"/api/players", `{"name":"Mallory"}`)
	if a.Status != http.StatusConflict || a.Err.Error != "you already are Ann; sign out first (POST /api/signout)" || len(a.Cookies) != 0 {
		t.Fatalf("a second player over a valid token: %v, cookies %v", a, a.Cookies)
	}
	var me struct{ ID, Name string }
	if err := ann.Do(ctx, "GET", "/api/me", nil, &me); err != nil || me.ID != ann.ID || me.Name != "Ann" {
		t.Fatalf("after the refusal /api/me is %+v, %v; want Ann (%s)", me, err, ann.ID)
	}
	// An unknown token (say, from a wiped database) is not an identity.
	stale := wsclient.New(ts.URL)
	if a := post(t, stale.HTTP, ts.URL+"/api/players", `{"name":"Zed"}`, "Authorization", "Bearer nope"); a.Status != http.StatusCreated {
		t.Fatalf("over an unknown token: %v", a)
	}
	// Sign out: the cookie goes, and the session with it: the token no
	// longer reaches the player.
	a = post(t, ann.HTTP, ts.URL+"/api/signout", ``)
	if a.Status != 200 || len(a.Cookies) != 1 || a.Cookies[0].Name != server.CookieName || a.Cookies[0].MaxAge >= 0 {
		t.Fatalf("sign out: %v, cookies %v", a, a.Cookies)
	}
	if a := send(t, ann.HTTP, "GET", ts.URL+"/api/me", ""); a.Status != http.StatusOK || strings.TrimSpace(a.Body) != "null" {
		t.Fatalf("after sign out /api/me is %v, want 200 null (no player, no error)", a)
	}
	if a := send(t, nil, "GET", ts.URL+"/api/me", "", "Authorization", "Bearer "+ann.Token); a.Status != 200 || strings.TrimSpace(a.Body) != "null" {
		t.Fatalf("Ann by token after sign out: %v, want 200 null (the session ended)", a)
	}
	if id, _, err := ann.NewPlayer(ctx, "Ann again"); err != nil || id == ann.ID {
		t.Fatalf("a new player after sign out: %q, %v", id, err)
	}
}

// TestHTTPSMarks: a https public URL, or a trusted proxy's
// X-Forwarded-Proto, makes the cookie Secure and adds HSTS; plain HTTP
// gets neither.
func TestHTTPSMarks(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	plain := start(t, "", server.Options{})
	public := start(t, "", server.Options{PublicURL: "https://farkle.example"})
	proxied := start(t, "", server.Options{TrustedProxies: proxies})
	for _, tc := range []struct {
		name   string
		ts     *testServer
		hdr    []string
		secure bool
	}{
		{"plain HTTP", plain, nil, false},
		{"an untrusted X-Forwarded-Proto", plain, []string{"X-Forwarded-Proto", "https"}, false},
		{"a https public URL", public, nil, true},
		{"a trusted proxy's X-Forwarded-Proto", proxied, []string{"X-Forwarded-Proto", "https"}, true},
		{"a trusted proxy over http", proxied, []string{"X-Forwarded-Proto", "http"}, false},
	} {
		a := post(t, nil, tc.ts.URL+"/api/players", `{"name":"Ann"}`, tc.hdr...)
		if a.Status != 201 || len(a.Cookies) != 1 {
			t.Fatalf("%s: %v", tc.name, a)
		}
		ck := a.Cookies[0]
		hsts := a.Header.Get("Strict-Transport-Security")
		if ck.Secure != tc.secure || (hsts != "") != tc.secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
			t.Errorf("%s: cookie Secure=%v HttpOnly=%v SameSite=%v, HSTS %q; want secure=%v", tc.name, ck.Secure, ck.HttpOnly, ck.SameSite, hsts, tc.secure)
		}
		if g := send(t, nil, "GET", tc.ts.URL+"/", "", tc.hdr...); (g.Header.Get("Strict-Transport-Security") != "") != tc.secure {
			t.Errorf("%s: the home page's HSTS is %q", tc.name, g.Header.Get("Strict-Transport-Security"))
		}
	}
	// The public URL is this site to a browser behind the proxy.
	if a := post(t, nil, public.URL+"/api/players", `{"name":"Bo"}`, "Origin", "https://farkle.example", "Sec-Fetch-Site", "same-origin"); a.Status != 201 {
		t.Errorf("from the public URL's origin: %v", a)
	}
	if a := post(t, nil, public.URL+"/api/players", `{"name":"Bo"}`, "Origin", "https://farkle.example"); a.Status != 201 {
		t.Errorf("from the public URL's origin, an older browser behind a proxy: %v", a)
	}
	if a := post(t, nil, public.URL+"/api/players", `{"name":"Bo"}`, "Origin", "https://evil.example"); a.Status != 403 {
		t.Errorf("from another origin: %v", a)
	}
	ctx := context.Background()
	if _, err := server.New(ctx, public.DB, server.Options{PublicURL: "farkle.example"}); err == nil || !strings.Contains(err.Error(), "farkle.example") {
		t.Errorf("a public URL without a scheme: %v", err)
	}
}

// TestErrorsWithoutPrefixes: what clients read carries no package prefix.
func TestErrorsWithoutPrefixes(t *testing.T) {
	ts := start(t, "", server.Options{})
	c := newPlayer(t, ts, "Ann")
	for _, tc := range []struct {
		path, body, want, field string
	}{
		{"/api/tables", `{"rules":{"foo":1}}`, `rules: foo: unknown field`, "foo"},
		{"/api/tables", `{"rules":{"game":{"target":"far"}}}`, `rules: game.target: want a whole number, not a JSON string`, "game.target"},
		{"/api/tables", `{"rules":{"game":{"target":-5}}}`, `rules: game.target: `, "game.target"},
		{"/api/tables", `{"rules":[1]}`, `rules: want a preset name or an object of rule fields, not a JSON array`, ""},
		{"/api/tables", `{"rules":"nope"}`, `rules: unknown preset "nope"`, ""},
		{"/api/tables", `{"rulez":1}`, `bad JSON: unknown field "rulez"`, ""},
		{"/api/tables/nope/join", ``, `no table "nope"`, ""},
	} {
		a := post(t, c.HTTP, ts.URL+tc.path, tc.body)
		if a.Status != 400 && a.Status != 404 {
			t.Errorf("%s %s: %v", tc.path, tc.body, a)
			continue
		}
		msg := a.Err.Error
		if !strings.HasPrefix(msg, tc.want) || a.Err.Field != tc.field {
			t.Errorf("%s %s: %q field %q, want %q… field %q", tc.path, tc.body, msg, a.Err.Field, tc.want, tc.field)
		}
		for _, bad := range []string{"store:", "json:", "sqlite:", "rules: rules:", "Go struct", "Go value"} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s %s: %q carries %q", tc.path, tc.body, msg, bad)
			}
		}
	}
	if a := send(t, nil, "GET", ts.URL+"/api/tables/nope", ""); a.Err.Error != `no table "nope"` {
		t.Errorf("unknown table: %v", a)
	}
	// WebSocket errors too.
	ctx := ctxT(t, 10*time.Second)
	tb, err := c.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Read(ctx)
	c.SendRaw(ctx, []byte(`{"type":"ping","bogus":1}`))
	m, err := c.Next(ctx)
	if err != nil || m.Type != "error" || m.Message != `not a message: unknown field "bogus"` {
		t.Errorf("a bad message: %+v %v", m, err)
	}
}

// TestHealth: /healthz answers 503 with a short reason, no internal text,
// once the database fails.
func TestHealth(t *testing.T) {
	ts := start(t, "", server.Options{})
	if a := send(t, nil, "GET", ts.URL+"/healthz", ""); a.Status != 200 || !strings.Contains(a.Body, `"ok"`) {
		t.Fatalf("healthy: %v", a)
	}
	ts.DB.Close()
	a := send(t, nil, "GET", ts.URL+"/healthz", "")
	var out map[string]string
	if err := json.Unmarshal([]byte(a.Body), &out); err != nil || a.Status != 503 || out["status"] != "unhealthy" || out["reason"] == "" || len(out) != 2 {
		t.Fatalf("with the database closed: %v", a)
	}
	if strings.Contains(a.Body, "sql") || strings.Contains(a.Body, "closed") {
		t.Errorf("the health answer carries internal text: %s", a.Body)
	}
}

// TestHealthWhenWritesFail: with the database full (capped as a full disk
// would be), reads still work but /healthz answers 503.
func TestHealthWhenWritesFail(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.OpenWith(ctx, filepath.Join(t.TempDir(), "full.db"), sqlite.Options{MaxBytes: 1 << 20, Synchronous: "NORMAL"}) // the empty schema alone is ~300 KiB
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := server.New(ctx, db, server.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	if a := send(t, nil, "GET", hs.URL+"/healthz", ""); a.Status != 200 {
		t.Fatalf("before the disk fills: %v", a)
	}
	var full error
	for i := 0; i < 1000 && full == nil; i++ { // 1 MiB holds about a hundred of these
		full = db.CreatePlayer(ctx, store.Player{ID: fmt.Sprint("p", i), Name: strings.Repeat("n", 8<<10), TokenHash: fmt.Sprint("h", i), Created: time.Now()})
	}
	if full == nil {
		t.Fatal("the capped database never filled")
	}
	a := send(t, nil, "GET", hs.URL+"/healthz", "")
	if a.Status != 503 || !strings.Contains(a.Body, `"unhealthy"`) || strings.Contains(a.Body, "sqlite") || strings.Contains(a.Body, "pages") {
		t.Fatalf("with writes failing: %v, want 503 with a short reason", a)
	}
	if a := send(t, nil, "GET", hs.URL+"/api/tables", ""); a.Status != 200 {
		t.Fatalf("reads still work: %v", a)
	}
}

// wsDial opens a table's WebSocket as c with extra headers, returning the
// HTTP status of a refusal.
func wsDial(ctx context.Context, c *wsclient.Client, table string, hdr http.Header) (*websocket.Conn, int, string, error) {
	u := "ws" + strings.TrimPrefix(c.Base, "http") + "/ws/tables/" + table
	conn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c.HTTP, HTTPHeader: hdr})
	if err != nil {
		if resp == nil {
			return nil, 0, "", err
		}
		b, _ := io.ReadAll(resp.Body)
		return nil, resp.StatusCode, string(b), err
	}
	return conn, 0, "", nil
}

func TestWebSocketCaps(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	ts := start(t, "", server.Options{WSPerAddress: 2, WSTotal: 4, TrustedProxies: proxies, BotDelay: time.Hour})
	ctx := ctxT(t, 20*time.Second)
	c := newPlayer(t, ts, "Ann")
	tb, err := c.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	from := func(addr string) http.Header { return http.Header{"X-Forwarded-For": {addr}} }
	var open []*websocket.Conn
	defer func() {
		for _, cn := range open {
			cn.CloseNow()
		}
	}()
	for i := range 2 { // within the per-address cap
		conn, st, body, err := wsDial(ctx, c.Client, tb.ID, from("203.0.113.1"))
		if err != nil {
			t.Fatalf("connection %d: %d %s %v", i, st, body, err)
		}
		open = append(open, conn)
	}
	_, st, body, _ := wsDial(ctx, c.Client, tb.ID, from("203.0.113.1"))
	if st != http.StatusTooManyRequests || !strings.Contains(body, "at most 2 live connections from one address") {
		t.Fatalf("a third connection from one address: %d %s", st, body)
	}
	for i := range 2 { // another address has its own share
		conn, st, body, err := wsDial(ctx, c.Client, tb.ID, from(fmt.Sprintf("203.0.113.%d", 2+i)))
		if err != nil {
			t.Fatalf("connection from another address: %d %s %v", st, body, err)
		}
		open = append(open, conn)
	}
	_, st, body, _ = wsDial(ctx, c.Client, tb.ID, from("203.0.113.9"))
	if st != http.StatusServiceUnavailable || !strings.Contains(body, "at most 4 live connections in all") {
		t.Fatalf("a fifth connection in all: %d %s", st, body)
	}
	// A connection closed gives its slot back.
	open[0].Close(websocket.StatusNormalClosure, "")
	open = open[1:]
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, st, _, err := wsDial(ctx, c.Client, tb.ID, from("203.0.113.1"))
		if err == nil {
			open = append(open, conn)
			break
		}
		if st != http.StatusTooManyRequests && st != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("after a close: %d %v", st, err)
		}
		time.Sleep(20 * time.Millisecond) // polling for the server to notice the close
	}
}

// TestWebSocketPlayerRate: a player's messages share one bucket over all of
// its connections; a watcher without a player has only its connection's.
func TestWebSocketPlayerRate(t *testing.T) {
	ts := start(t, "", server.Options{PlayerMessageRate: 0.01, PlayerMessageBurst: 4, BotDelay: time.Hour})
	ctx := ctxT(t, 20*time.Second)
	ann := newPlayer(t, ts, "Ann")
	tb, err := ann.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	second := &player{Client: wsclient.New(ts.URL), Seat: -1}
	second.HTTP.Jar = ann.HTTP.Jar // Ann in another tab
	watcher := &player{Client: wsclient.New(ts.URL), Seat: -1}
	for _, p := range []*player{ann, second, watcher} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if m, err := p.Read(ctx); err != nil || m.Type != "welcome" {
			t.Fatalf("welcome: %v %v", m.Type, err)
		}
	}
	pings := func(p *player, n int) (refused int, msg string) {
		for i := range n {
			if err := p.Send(ctx, map[string]string{"type": "ping", "id": fmt.Sprint(i)}); err != nil {
				t.Fatal(err)
			}
			m, err := p.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type == "error" {
				refused++
				msg = m.Message
			}
		}
		return refused, msg
	}
	if r, msg := pings(ann, 3); r != 0 {
		t.Fatalf("3 pings of a burst of 4 refused %d: %s", r, msg)
	}
	r, msg := pings(second, 3)
	if r != 2 || msg != "too many messages: at most 0.01 a second (burst 4) from one player over all of its connections; slow down" {
		t.Fatalf("Ann's other tab: %d of 3 refused (%q), want 2: the bucket is the player's", r, msg)
	}
	if r, msg := pings(watcher, 5); r != 0 {
		t.Fatalf("a watcher is not held back by Ann: %d refused (%s)", r, msg)
	}
}

// TestWebSocketOriginOfPublicURL: behind a proxy that rewrites Host, the
// public URL's origin may open a table's WebSocket; another may not.
func TestWebSocketOriginOfPublicURL(t *testing.T) {
	ts := start(t, "", server.Options{PublicURL: "https://farkle.example", BotDelay: time.Hour})
	ctx := ctxT(t, 10*time.Second)
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	conn, st, body, err := wsDial(ctx, p.Client, tb.ID, http.Header{"Origin": {"https://farkle.example"}})
	if err != nil {
		t.Fatalf("from the public URL: %d %s %v", st, body, err)
	}
	conn.CloseNow()
	if _, st, _, _ := wsDial(ctx, p.Client, tb.ID, http.Header{"Origin": {"https://evil.example"}}); st != http.StatusForbidden {
		t.Fatalf("from another origin: HTTP %d, want 403", st)
	}
}
