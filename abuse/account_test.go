package abuse

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/passkeytest"
)

// hostRT sends every request to the server with Host set to a domain name
// (a passkey's relying party must be one, not an address).
type hostRT struct {
	host string
	rt   http.RoundTripper
}

func (h hostRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.rt.RoundTrip(r)
}

// siteClient is a client of the server as the site "localhost:PORT",
// connecting from the loopback address from ("127.0.0.1" and the like).
func (s *server) siteClient(from string) *client {
	u, err := url.Parse(s.URL)
	if err != nil {
		s.t.Fatal(err)
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}
	s.t.Cleanup(tr.CloseIdleConnections)
	jar, _ := cookiejar.New(nil)
	return &client{t: s.t, srv: s, http: &http.Client{Jar: jar, Timeout: time.Minute, Transport: hostRT{"localhost:" + u.Port(), tr}}}
}

// authenticatorFor is a software passkey authenticator for the server's
// site.
func (s *server) authenticatorFor() *passkeytest.Authenticator {
	u, _ := url.Parse(s.URL)
	return &passkeytest.Authenticator{Origin: "http://localhost:" + u.Port(), RPID: "localhost"}
}

// ceremonyBegin is the answer of a passkey ceremony's begin.
type ceremonyBegin struct {
	Ceremony  string          `json:"ceremony"`
	PublicKey json.RawMessage `json:"publicKey"`
}

// makeAccount makes c (a guest called name) an account of that name with
// a new passkey, and takes the session the answer gives it. It returns
// the passkey and the recovery code.
func makeAccount(t *testing.T, c *client, a *passkeytest.Authenticator, name string) (*passkeytest.Key, string) {
	t.Helper()
	c.player(name)
	return makeAccountAs(t, c, a, c.token)
}

// signIn signs c in with the passkey; it returns the finish's answer and
// the assertion sent (to replay it).
func signIn(t *testing.T, c *client, a *passkeytest.Authenticator, key *passkeytest.Key) (answer, map[string]any) {
	t.Helper()
	ans := c.do("POST", "/api/account/signin/begin", map[string]any{})
	if ans.Status != http.StatusOK {
		return ans, nil
	}
	var b ceremonyBegin
	ans.json(t, &b)
	cred, err := a.Get(b.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"ceremony": b.Ceremony, "credential": cred}
	ans = c.do("POST", "/api/account/signin/finish", body)
	if ans.Status == http.StatusOK {
		var out struct{ Token string }
		ans.json(t, &out)
		c.token = out.Token
	}
	return ans, body
}

// whoIs answers GET /api/me with the token: the player's name, or "" for
// none.
func whoIs(t *testing.T, s *server, token string) string {
	t.Helper()
	c := s.client()
	c.token = token
	ans := c.do("GET", "/api/me", nil)
	var me *struct{ Name string }
	ans.json(t, &me)
	if me == nil {
		return ""
	}
	return me.Name
}

// errorLines counts the ERROR lines of the server's log.
func (s *server) errorLines() int { return strings.Count(s.log.String(), "level=ERROR") }

// TestCeremonyFlood: 50 addresses begin passkey sign-ins as fast as they
// can, far past the 10,000 ceremonies that once filled the store and
// locked every sign-in out. Nothing is stored per begin now: every answer
// is 200 or 429 with Retry-After, the ERROR log does not grow, and during
// and after the flood another user signs in with a passkey and a new
// guest makes an account. A signed answer counts once (a replay is 409),
// and one account's sign-ins within 5 minutes are capped (429).
func TestCeremonyFlood(t *testing.T) {
	// The per-address limit is raised so that more than 10,000 begins
	// get through in seconds (at the default of 10 a second it takes 20).
	s := startServer(t, t.TempDir()+"/f.db", "--signins-per-account", "4", "--rate-address", "50", "--burst-address", "210")
	auth := s.authenticatorFor()
	ann := s.siteClient("127.0.0.1")
	annKey, _ := makeAccount(t, ann, auth, "Ann")
	errs0 := s.errorLines()

	const addrs, each = 50, 240 // 12,000 begins: past the old cap of 10,000
	var mu sync.Mutex
	counts := map[int]int{}
	noRetry := 0
	var wg sync.WaitGroup
	ctx := deadline(t, 3*time.Minute)
	for i := range addrs {
		c := s.siteClient(fmt.Sprintf("127.0.1.%d", i+1))
		wg.Go(func() {
			for range each {
				if ctx.Err() != nil {
					return
				}
				a := c.do("POST", "/api/account/signin/begin", map[string]any{})
				mu.Lock()
				counts[a.Status]++
				if a.Status == http.StatusTooManyRequests && a.Header.Get("Retry-After") == "" {
					noRetry++
				}
				mu.Unlock()
			}
		})
	}
	// During the flood: Ann signs in (from an address of her own).
	during, _ := signIn(t, s.siteClient("127.0.2.1"), auth, annKey)
	wg.Wait()
	if during.Status != http.StatusOK {
		t.Fatalf("Ann's sign-in during the flood: %s", during)
	}
	if len(counts) > 2 || counts[http.StatusOK]+counts[http.StatusTooManyRequests] != addrs*each || noRetry > 0 {
		t.Fatalf("the flood's answers by status: %v (%d 429s without Retry-After); want only 200 and 429 with Retry-After", counts, noRetry)
	}
	t.Logf("flood of %d begins from %d addresses: %v", addrs*each, addrs, counts)
	if counts[http.StatusOK] <= 10000 {
		t.Fatalf("%d begins answered: the flood must pass the old cap of 10,000", counts[http.StatusOK])
	}

	// One address past its rate: refused with 429 and Retry-After.
	one := s.siteClient("127.0.3.1")
	var last answer
	for range 300 {
		if last = one.do("POST", "/api/account/signin/begin", map[string]any{}); last.Status != http.StatusOK {
			break
		}
	}
	refused(t, "begins past the address's burst", last, http.StatusTooManyRequests, "")
	if last.Header.Get("Retry-After") == "" {
		t.Fatalf("a rate refusal without Retry-After: %s", last)
	}

	// After it: Ann again, a replay of her answer, and a new account.
	c := s.siteClient("127.0.2.2")
	a, replay := signIn(t, c, auth, annKey)
	if a.Status != http.StatusOK || whoIs(t, s, c.token) != "Ann" {
		t.Fatalf("Ann's sign-in after the flood: %s", a)
	}
	refused(t, "a replayed sign-in", c.do("POST", "/api/account/signin/finish", replay), http.StatusConflict, "")
	makeAccount(t, s.siteClient("127.0.2.3"), auth, "Bea")

	// Ann has signed in twice (of 4 allowed in 5 minutes): two more, then
	// the cap.
	for i := range 2 {
		if a, _ := signIn(t, s.siteClient("127.0.2.4"), auth, annKey); a.Status != http.StatusOK {
			t.Fatalf("Ann's sign-in %d under the cap: %s", i+3, a)
		}
	}
	over, _ := signIn(t, s.siteClient("127.0.2.5"), auth, annKey)
	refused(t, "a fifth sign-in of one account within 5 minutes", over, http.StatusTooManyRequests, "")
	if over.Header.Get("Retry-After") == "" {
		t.Fatalf("the sign-in cap's refusal has no Retry-After: %s", over)
	}
	if got := s.errorLines(); got != errs0 {
		t.Fatalf("the ERROR log grew by %d lines through the flood:\n%s", got-errs0, s.log.String())
	}
	s.alive()
	if rss, _ := s.memory(); rss > 400<<20 {
		t.Fatalf("RSS %d MiB after the flood", rss>>20)
	}
}

// TestSessionsEnd: making an account ends the guest's token; signing out
// ends the session on the server (the token no longer works, as a copy in
// a token file would not); a recovery with the code ends every other
// session of the account, and sign-out-everywhere every other but its
// own.
func TestSessionsEnd(t *testing.T) {
	s := startServer(t, t.TempDir()+"/s.db")
	auth := s.authenticatorFor()
	ann := s.siteClient("127.0.0.1")
	ann.player("Ann")
	guestToken := ann.token
	ann.token = ""
	key, code := makeAccountAs(t, ann, auth, guestToken)
	if got := whoIs(t, s, guestToken); got != "" {
		t.Fatalf("the guest's token after its account was made still reaches %q", got)
	}
	if got := whoIs(t, s, ann.token); got != "Ann" {
		t.Fatalf("the account's new session reaches %q", got)
	}
	tok1 := ann.token
	ann.do("POST", "/api/signout", map[string]any{})
	if got := whoIs(t, s, tok1); got != "" {
		t.Fatalf("a token after signing out still reaches %q (GET /api/me)", got)
	}

	// Two devices signed in, then a recovery on a third.
	var toks []string
	for i := range 2 {
		c := s.siteClient("127.0.0.1")
		if a, _ := signIn(t, c, auth, key); a.Status != http.StatusOK {
			t.Fatalf("device %d: %s", i, a)
		}
		toks = append(toks, c.token)
	}
	rec := s.siteClient("127.0.0.1")
	a := rec.do("POST", "/api/account/recover", map[string]string{"name": "ann", "code": code})
	if a.Status != http.StatusOK {
		t.Fatalf("recovery: %s", a)
	}
	var out struct{ Token string }
	a.json(t, &out)
	for i, tok := range toks {
		if got := whoIs(t, s, tok); got != "" {
			t.Fatalf("device %d after a recovery elsewhere still reaches %q", i, got)
		}
	}
	if whoIs(t, s, out.Token) != "Ann" {
		t.Fatal("the recovered session does not work")
	}

	// Sign out everywhere: another device's session ends, this one goes on.
	other := s.siteClient("127.0.0.1")
	if a, _ := signIn(t, other, auth, key); a.Status != http.StatusOK {
		t.Fatalf("another device: %s", a)
	}
	rec.token = out.Token
	a = rec.do("POST", "/api/account/signout-everywhere", map[string]any{})
	if a.Status != http.StatusOK || whoIs(t, s, other.token) != "" || whoIs(t, s, out.Token) != "Ann" {
		t.Fatalf("sign out everywhere: %s; the other device must be out and this one in", a)
	}
	s.restart()
	if whoIs(t, s, out.Token) != "Ann" || whoIs(t, s, other.token) != "" || whoIs(t, s, guestToken) != "" {
		t.Fatal("after a restart, an ended session works again or a live one does not")
	}
}

// makeAccountAs is makeAccount for a client whose guest already exists
// with the token.
func makeAccountAs(t *testing.T, c *client, a *passkeytest.Authenticator, token string) (*passkeytest.Key, string) {
	t.Helper()
	c.token = token
	ans := c.do("POST", "/api/account/passkeys/begin", map[string]string{})
	if ans.Status != http.StatusOK {
		t.Fatalf("passkey begin: %s", ans)
	}
	var b ceremonyBegin
	ans.json(t, &b)
	cred, key, err := a.Create(b.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	ans = c.do("POST", "/api/account/passkeys/finish", map[string]any{"ceremony": b.Ceremony, "credential": cred})
	if ans.Status != http.StatusCreated {
		t.Fatalf("passkey finish: %s", ans)
	}
	var out struct {
		Token        string `json:"token"`
		RecoveryCode string `json:"recovery_code"`
	}
	ans.json(t, &out)
	if out.Token == "" || out.RecoveryCode == "" {
		t.Fatalf("an account made without a new session or a recovery code: %s", ans)
	}
	c.token = out.Token
	return key, out.RecoveryCode
}

// TestLookAlikeAccounts: once Victim is an account, the names that look
// like it (a Cyrillic і, fullwidth letters, capitals) are refused to new
// guests and to new accounts, with the field named; a guest named Tessa
// before the account Tessa was made is shown as "Tessa (guest)".
func TestLookAlikeAccounts(t *testing.T) {
	s := startServer(t, t.TempDir()+"/l.db")
	auth := s.authenticatorFor()
	tessa := s.siteClient("127.0.0.1")
	tessa.player("Tessa")
	makeAccount(t, s.siteClient("127.0.0.1"), auth, "Victim")
	for _, name := range []string{"Vіctim", "Ｖｉｃｔｉｍ", "VICTIM", "victim"} {
		refused(t, "a guest named "+name, s.client().do("POST", "/api/players", map[string]string{"name": name}), http.StatusConflict, "name")
	}
	g := s.siteClient("127.0.0.1")
	g.player("Someone")
	refused(t, "an account named Ｖｉｃｔｉｍ", g.do("POST", "/api/account/passkeys/begin", map[string]string{"name": "Ｖｉｃｔｉｍ"}), http.StatusConflict, "name")
	makeAccount(t, s.siteClient("127.0.0.1"), auth, "Tessa")
	if got := whoIs(t, s, tessa.token); got != "Tessa (guest)" {
		t.Fatalf("the guest Tessa beside the account Tessa is shown as %q", got)
	}
}
