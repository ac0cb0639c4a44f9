package sshserve_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/internal/sshtest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/sshserve"
)

// TestHandshakeDeadline: a client that says nothing, or stops part way
// through the handshake, is closed once Options.Handshake has passed,
// while a client that goes through it gets in.
func TestHandshakeDeadline(t *testing.T) {
	r := start(t, sshserve.Options{Handshake: time.Second})
	for _, tc := range []struct {
		name, says string
	}{
		{"silent", ""},
		{"stops after its version", "SSH-2.0-OpenSSH_9.6\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", r.ssh)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tc.says); err != nil {
				t.Fatal(err)
			}
			// Well before the default deadline of 10 s.
			conn.SetReadDeadline(time.Now().Add(8 * time.Second))
			br := bufio.NewReader(conn)
			version, _ := br.ReadString('\n')
			if !strings.HasPrefix(version, "SSH-2.0-") {
				t.Fatalf("the server's first line %q", version)
			}
			_, err = io.Copy(io.Discard, br) // its key exchange, if any, then the end
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("the connection is still open 8 s later; the handshake's deadline is 1 s")
			}
		})
	}
	// Within the deadline, a client gets in.
	c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0))
	if err != nil {
		t.Fatalf("a client that answers: %v", err)
	}
	sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
	c.Close()
}

// dialFrom connects to addr from the local address from (another address
// of the loopback network, 127.0.0.0/8).
func dialFrom(ctx context.Context, from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	return d.DialContext(ctx, "tcp", addr)
}

// TestSessionCountsAgainstItsAddress: what an SSH session does at tables
// goes through the web routes as from the SSH client's address, so it
// takes from that address's rate (here 127.0.0.2's) and from no other
// (127.0.0.1's, where the test's web client and the server are).
func TestSessionCountsAgainstItsAddress(t *testing.T) {
	const burst = 20
	r := startWith(t, server.Options{AddressRate: 0.001, AddressBurst: burst, PlayerRate: -1}, sshserve.Options{})
	conn, err := dialFrom(context.Background(), "127.0.0.2", r.ssh)
	if err != nil {
		t.Fatalf("no second address of the loopback network (127.0.0.2): %v", err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, r.ssh, sshtest.Config("ann", sshtest.Key(t, 0), nil))
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(cc, chans, reqs)
	defer c.Close()
	tm := sshtest.Open(t, c, 80, 24)
	tm.WaitFor("you are ann")
	tm.Press("n")
	tm.WaitFor("a new game")
	tm.Press("\r")
	tm.WaitFor("online · table ") // a POST of the table and its WebSocket

	// What is left of each address's burst: POSTs until the first 429.
	left := func(from string) int {
		hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return dialFrom(ctx, from, addr)
		}}}
		for n := 0; n <= burst; n++ {
			req, _ := http.NewRequest("POST", r.web+"/api/signout", strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests {
				if !strings.Contains(string(body), "from one address") {
					t.Fatalf("429 from %s: %s", from, body)
				}
				return n
			}
		}
		return burst + 1
	}
	if n := left("127.0.0.1"); n != burst {
		t.Errorf("127.0.0.1, which the session's requests reach the server from, has %d requests of its burst of %d left, want all", n, burst)
	}
	if n := left("127.0.0.2"); n >= burst {
		t.Errorf("127.0.0.2, the SSH client's address, has %d requests of its burst of %d left: the session's took none", n, burst)
	}
}
