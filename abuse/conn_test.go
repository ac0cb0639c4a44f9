package abuse

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// raw opens a TCP connection to the server and sends head (a request line
// and headers, each ending in CRLF) with its Host and the blank line that
// ends the headers; the test's cleanup closes it.
func (s *server) raw(head string) net.Conn {
	s.t.Helper()
	u, _ := url.Parse(s.URL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+"Host: "+u.Host+"\r\n\r\n"); err != nil {
		s.t.Fatal(err)
	}
	return conn
}

// TestSlowBody: a POST whose body arrives a byte every 2 s is cut off
// within the read timeout instead of holding a connection for as long as
// the client likes.
func TestSlowBody(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--read-timeout", "3s")
	start := time.Now()
	conn := s.raw("POST /api/players HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n")
	closed := make(chan time.Duration, 1)
	go func() {
		io.Copy(io.Discard, conn) // until the server closes the connection
		closed <- time.Since(start)
	}()
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case took := <-closed:
			t.Logf("a body sent a byte every 2 s was cut off after %v", took.Round(time.Millisecond))
			if took > 8*time.Second {
				t.Errorf("cut off after %v, with a read timeout of 3 s", took)
			}
			s.alive()
			return
		case <-tick.C:
			if _, err := conn.Write([]byte("{")); err != nil {
				continue // closed: the reader reports it
			}
			if time.Since(start) > 30*time.Second {
				t.Fatal("the slow body was still being read after 30 s")
			}
		}
	}
}

// TestIdleKeepAlive: a keep-alive connection that sends nothing after its
// request is closed after the idle timeout.
func TestIdleKeepAlive(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--idle-timeout", "2s")
	start := time.Now()
	conn := s.raw("GET /healthz HTTP/1.1\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err = conn.Read(make([]byte, 1))
	took := time.Since(start)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("an idle keep-alive connection was held for 30 s")
	}
	t.Logf("an idle keep-alive connection was closed after %v", took.Round(time.Millisecond))
	if took > 10*time.Second {
		t.Errorf("closed after %v with an idle timeout of 2 s", took)
	}
}

// TestCrossSiteForm: the auto-submitting text/plain form of another site
// (the browser sends the victim's cookie, an Origin of the other site and
// Sec-Fetch-Site: cross-site) changes nothing: the victim keeps their
// player, and no player or table is created. A JSON request from another
// origin is refused the same way.
func TestCrossSiteForm(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"))
	victim := s.client()
	victim.player("Victim")
	me0 := victim.do("GET", "/api/me", nil)
	// The cookie jar holds the victim's cookie; the bearer token is not
	// what a browser would send.
	victim.token = ""
	form := func(path, ctype, body string) answer {
		t.Helper()
		return victim.do("POST", path, body, "Content-Type", ctype, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	}
	for _, a := range []answer{
		form("/api/players", "text/plain", `{"name":"Pwned","x":"="}`),
		form("/api/players", "application/x-www-form-urlencoded", `name=Pwned`),
		form("/api/players", "application/json", `{"name":"Pwned"}`),
		form("/api/tables", "text/plain", `{"seats":[{"type":"me"},{"type":"bot","level":"steady"}]}`),
	} {
		if a.Status != http.StatusForbidden && a.Status != http.StatusUnsupportedMediaType {
			t.Errorf("a cross-site request was answered %s, want 403 or 415", a)
		}
		if a.Header.Get("Set-Cookie") != "" {
			t.Errorf("a cross-site request set a cookie: %s", a.Header.Get("Set-Cookie"))
		}
	}
	me1 := victim.do("GET", "/api/me", nil)
	if me1.Status != http.StatusOK || string(me1.Body) != string(me0.Body) {
		t.Errorf("the victim's identity changed: %s → %s", me0, me1)
	}
	var list []struct{ ID string }
	victim.do("GET", "/api/tables", nil).json(t, &list)
	if len(list) != 0 {
		t.Errorf("a cross-site request created %d tables", len(list))
	}
	// A second POST /api/players from the victim's own page does not
	// replace the identity either: it needs a sign-out first.
	a := victim.do("POST", "/api/players", map[string]string{"name": "Again"})
	if a.Status == http.StatusCreated {
		t.Errorf("a new player replaced a valid identity: %s", a)
	}
	if me2 := victim.do("GET", "/api/me", nil); string(me2.Body) != string(me0.Body) {
		t.Errorf("the victim's identity changed: %s → %s", me0, me2)
	}
}

// TestPublicURL: behind a TLS proxy (--public-url https://...), the
// cookie is Secure and HSTS is sent; on plain http neither.
func TestPublicURL(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--public-url", "https://farkle.example")
	a := s.client().do("POST", "/api/players", map[string]string{"name": "Ann"})
	if a.Status != http.StatusCreated {
		t.Fatalf("new player: %s", a)
	}
	if ck := a.Header.Get("Set-Cookie"); !strings.Contains(ck, "Secure") || !strings.Contains(ck, "HttpOnly") {
		t.Errorf("cookie behind --public-url https: %q, want Secure and HttpOnly", ck)
	}
	if a.Header.Get("Strict-Transport-Security") == "" {
		t.Error("no Strict-Transport-Security behind --public-url https")
	}
	plain := startServer(t, filepath.Join(t.TempDir(), "farkle.db"))
	b := plain.client().do("POST", "/api/players", map[string]string{"name": "Ann"})
	if ck := b.Header.Get("Set-Cookie"); strings.Contains(ck, "Secure") {
		t.Errorf("cookie on plain http is Secure (the browser would drop it): %q", ck)
	}
}
