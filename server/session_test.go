package server_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// meOf answers GET /api/me with the token: the player's name, or "" for
// null (no player).
func meOf(t *testing.T, ctx context.Context, url, token string) string {
	t.Helper()
	c := wsclient.New(url)
	c.Token = token
	var me *struct{ ID, Name string }
	if err := c.Do(ctx, "GET", "/api/me", nil, &me); err != nil {
		t.Fatal(err)
	}
	if me == nil {
		return ""
	}
	return me.Name
}

// statusOf is the HTTP status of err (200 for nil).
func statusOf(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return http.StatusOK
	}
	var se *wsclient.StatusError
	if !errors.As(err, &se) {
		t.Fatal(err)
	}
	return se.Status
}

// accountWithSessions makes the guest of c an account in the store
// (with the recovery code "CODE") and gives it more sessions, one for each
// token; the guest's own token goes on as a session too.
func accountWithSessions(t *testing.T, ts *testServer, id, token, name string, tokens ...string) {
	t.Helper()
	ctx := context.Background()
	err := ts.DB.CreateAccount(ctx, store.Account{PlayerID: id, Name: name, RecoveryHash: sha("CODE")},
		store.Passkey{ID: "key-" + id, Credential: []byte(`{}`)}, store.Session{TokenHash: sha(token), Device: "first"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range tokens {
		if err := ts.DB.CreateSession(ctx, store.Session{TokenHash: sha(tok), PlayerID: id, Device: "other"}, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSignOutEndsTheSession: after POST /api/signout the token no longer
// reaches its player, a guest's as much as an account's, from anywhere
// (a copy of the token, as a token file holds it, too); another session
// of the same account goes on.
func TestSignOutEndsTheSession(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, ts, "Ann")
	if got := meOf(t, ctx, ts.URL, ann.Token); got != "Ann" {
		t.Fatalf("before signing out: %q", got)
	}
	if err := ann.Do(ctx, "POST", "/api/signout", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := meOf(t, ctx, ts.URL, ann.Token); got != "" {
		t.Fatalf("a guest's token after signing out still reaches %q", got)
	}
	bea := newPlayer(t, ts, "Bea")
	accountWithSessions(t, ts, bea.ID, bea.Token, "Bea", "phone")
	if err := bea.Do(ctx, "POST", "/api/signout", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := meOf(t, ctx, ts.URL, bea.Token); got != "" {
		t.Fatalf("an account's token after signing out still reaches %q", got)
	}
	if got := meOf(t, ctx, ts.URL, "phone"); got != "Bea" {
		t.Fatalf("the account's other session after one signed out: %q", got)
	}
}

type sessionJSON struct {
	ID       string    `json:"id"`
	Device   string    `json:"device"`
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"last_seen"`
	Current  bool      `json:"current"`
}

func sessionsOf(t *testing.T, ctx context.Context, c *wsclient.Client) []sessionJSON {
	t.Helper()
	var a struct{ Sessions []sessionJSON }
	if err := c.Do(ctx, "GET", "/api/account", nil, &a); err != nil {
		t.Fatal(err)
	}
	return a.Sessions
}

// TestSessionsListedAndEnded: the account page's API lists the sessions
// (this one marked), ends one by its ID (not another player's), and signs
// out everywhere else; a recovery with the code ends every session but
// the new one.
func TestSessionsListedAndEnded(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, ts, "Ann")
	accountWithSessions(t, ts, ann.ID, ann.Token, "Ann", "laptop", "phone", "tablet")
	list := sessionsOf(t, ctx, ann.Client)
	if len(list) != 4 {
		t.Fatalf("%d sessions listed, want 4: %+v", len(list), list)
	}
	var cur, phone string
	for _, x := range list {
		if x.Current {
			if cur != "" || x.Device != "first" {
				t.Fatalf("current sessions: %+v", list)
			}
			cur = x.ID
		}
	}
	ses, _, err := ts.DB.SessionByToken(ctx, sha("phone"))
	if err != nil {
		t.Fatal(err)
	}
	phone = ses.ID
	if cur == "" || phone == cur {
		t.Fatalf("no current session in %+v", list)
	}

	bea := newPlayer(t, ts, "Bea")
	if got := statusOf(t, bea.Do(ctx, "DELETE", "/api/account/sessions/"+phone, nil, nil)); got != http.StatusNotFound {
		t.Fatalf("another player ended Ann's session: %d", got)
	}
	if err := ann.Do(ctx, "DELETE", "/api/account/sessions/"+phone, nil, nil); err != nil {
		t.Fatal(err)
	}
	if meOf(t, ctx, ts.URL, "phone") != "" || meOf(t, ctx, ts.URL, "laptop") != "Ann" {
		t.Fatal("ending the phone's session: it still works, or the laptop's ended too")
	}
	var out struct{ Ended int }
	if err := ann.Do(ctx, "POST", "/api/account/signout-everywhere", map[string]any{}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Ended != 2 || meOf(t, ctx, ts.URL, "laptop") != "" || meOf(t, ctx, ts.URL, "tablet") != "" || meOf(t, ctx, ts.URL, ann.Token) != "Ann" {
		t.Fatalf("sign out everywhere ended %d; the others must stop and this one go on", out.Ended)
	}

	// A recovery (on a fourth device, which had a guest) ends this one
	// too, and the guest it replaces on that device.
	dev := wsclient.New(ts.URL)
	_, devGuest, err := dev.NewPlayer(ctx, "Dev")
	if err != nil || meOf(t, ctx, ts.URL, devGuest) != "Dev" {
		t.Fatalf("the fourth device's guest: %v", err)
	}
	dev.Token = devGuest
	var rec struct {
		Token        string `json:"token"`
		RecoveryCode string `json:"recovery_code"`
	}
	if err := dev.Do(ctx, "POST", "/api/account/recover", map[string]string{"name": "ann", "code": "code"}, &rec); err != nil {
		t.Fatal(err)
	}
	if meOf(t, ctx, ts.URL, devGuest) != "" {
		t.Fatal("the guest a recovery replaced on its device still works")
	}
	if meOf(t, ctx, ts.URL, ann.Token) != "" || meOf(t, ctx, ts.URL, rec.Token) != "Ann" || rec.RecoveryCode == "" {
		t.Fatalf("after a recovery: the old session still works, or the new one does not (%+v)", rec)
	}
	if got := statusOf(t, dev.Do(ctx, "POST", "/api/account/recover", map[string]string{"name": "Ann", "code": "CODE"}, nil)); got != http.StatusNotFound {
		t.Fatalf("the recovery code a second time: %d", got)
	}
}

// TestSessionLastSeen: a session's last seen time is written at most once
// in five minutes, not on every request.
func TestSessionLastSeen(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	ts := start(t, "", server.Options{Now: clock})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, ts, "Ann")
	seen := func() time.Time {
		s, _, err := ts.DB.SessionByToken(ctx, sha(ann.Token))
		if err != nil {
			t.Fatal(err)
		}
		return s.LastSeen
	}
	first := seen()
	for range 5 {
		advance(50 * time.Second)
		meOf(t, ctx, ts.URL, ann.Token)
	}
	if got := seen(); !got.Equal(first) {
		t.Fatalf("last seen moved within five minutes: %v, was %v", got, first)
	}
	advance(51 * time.Second)
	meOf(t, ctx, ts.URL, ann.Token)
	if got := seen(); !got.Equal(clock()) {
		t.Fatalf("last seen after five minutes: %v, want %v", got, clock())
	}
}

// TestLookAlikeNames: a guest cannot take a name that is or looks like an
// account's, an account cannot be begun under one, and a guest named so
// before the account existed is shown as a guest.
func TestLookAlikeNames(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	site := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	tessa := newPlayer(t, ts, "Tessa") // a guest first
	vic := newPlayer(t, ts, "Victim")
	accountWithSessions(t, ts, vic.ID, vic.Token, "Victim")
	acct := newPlayer(t, ts, "T")
	accountWithSessions(t, ts, acct.ID, acct.Token, "Tessa")
	for _, name := range []string{"Victim", "victim", "Vіctim", "Ｖｉｃｔｉｍ", "VІCTIM", "tessa"} {
		c := wsclient.New(ts.URL)
		_, _, err := c.NewPlayer(ctx, name)
		var se *wsclient.StatusError
		if !errors.As(err, &se) || se.Status != http.StatusConflict || !strings.Contains(se.Body, `"field":"name"`) {
			t.Fatalf("a guest named %q beside the account Victim: %v, want 409 on the field name", name, err)
		}
	}
	if _, _, err := wsclient.New(ts.URL).NewPlayer(ctx, "Vera"); err != nil {
		t.Fatalf("a name like no account's: %v", err)
	}
	g := wsclient.New(site)
	if _, _, err := g.NewPlayer(ctx, "Guest 7"); err != nil {
		t.Fatal(err)
	}
	err := g.Do(ctx, "POST", "/api/account/passkeys/begin", map[string]string{"name": "Ｖｉｃｔｉｍ"}, nil)
	var se *wsclient.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusConflict || !strings.Contains(se.Body, "looks like") {
		t.Fatalf("an account begun under a look-alike of Victim: %v, want 409", err)
	}
	if got := meOf(t, ctx, ts.URL, tessa.Token); got != "Tessa (guest)" {
		t.Fatalf("the guest Tessa beside the account Tessa is shown as %q", got)
	}
	if got := meOf(t, ctx, ts.URL, acct.Token); got != "Tessa" {
		t.Fatalf("the account Tessa is shown as %q", got)
	}
	tb, err := tessa.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Seats[0].Name != "Tessa (guest)" {
		t.Fatalf("the guest's seat is named %q", tb.Seats[0].Name)
	}
}

// TestCeremonyTokens: a sign-in begin stores nothing, and a finish is
// refused with a ceremony token that is forged, altered, of another kind
// or expired, before any passkey is looked at.
func TestCeremonyTokens(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ts := start(t, "", server.Options{Now: clock, AddressRate: -1, PlayerRate: -1})
	ctx := ctxT(t, time.Minute)
	c := wsclient.New(strings.Replace(ts.URL, "127.0.0.1", "localhost", 1))
	var begin struct{ Ceremony string }
	for range 200 {
		if err := c.Do(ctx, "POST", "/api/account/signin/begin", map[string]any{}, &begin); err != nil {
			t.Fatal(err)
		}
	}
	finish := func(ceremony string) int {
		return statusOf(t, c.Do(ctx, "POST", "/api/account/signin/finish", map[string]any{"ceremony": ceremony, "credential": map[string]any{}}, nil))
	}
	body, sig, _ := strings.Cut(begin.Ceremony, ".")
	altered := body[:len(body)-2] + "AA." + sig
	for what, tok := range map[string]string{"forged": "eyJrIjoic2lnbmluIn0.AAAA", "altered": altered, "empty": "", "too long": strings.Repeat("A", 2000)} {
		if got := finish(tok); got != http.StatusConflict && got != http.StatusBadRequest {
			t.Fatalf("a %s ceremony: %d, want 409 or 400", what, got)
		}
	}
	if got := finish(begin.Ceremony); got != http.StatusBadRequest { // a good token: the empty credential is refused
		t.Fatalf("a good ceremony with no credential: %d, want 400", got)
	}
	mu.Lock()
	now = now.Add(5*time.Minute + time.Second)
	mu.Unlock()
	if got := finish(begin.Ceremony); got != http.StatusConflict {
		t.Fatalf("an expired ceremony: %d, want 409", got)
	}
}
