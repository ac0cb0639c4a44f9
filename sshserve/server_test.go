package sshserve_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/sshtest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/sshserve"
	"github.com/farkle/farkle/store"
)

// rig is a farkle server on a real SQLite file with its web routes on
// 127.0.0.1 and the SSH front end on another port.
type rig struct {
	web  string // the web server's URL
	ssh  string // the SSH address
	db   store.Store
	host string // the host key file
}

func start(t *testing.T, o sshserve.Options) *rig {
	t.Helper()
	ts := servertest.Start(t, server.Options{})
	o.Web, o.Players = ts.Srv.Handler(), ts.Srv
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.HostKey == "" {
		o.HostKey = filepath.Join(t.TempDir(), "data", "ssh_host_ed25519_key")
	}
	ss, err := sshserve.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ss.Serve(ln)
	t.Cleanup(func() { ss.Close() })
	return &rig{web: ts.URL, ssh: ln.Addr().String(), db: ts.DB, host: o.HostKey}
}

func TestKeyIsAnAccount(t *testing.T) {
	r := start(t, sshserve.Options{})
	key := sshtest.Key(t, 0)
	c, err := sshtest.Dial(r.ssh, "ann", key)
	if err != nil {
		t.Fatal(err)
	}
	sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
	fp := gossh.FingerprintSHA256(key.PublicKey())
	p, err := r.db.PlayerByKey(context.Background(), fp)
	if err != nil {
		t.Fatalf("the key is not a player's after a session: %v", err)
	}
	c.Close()

	// The same key under another user name is the same player.
	c, err = sshtest.Dial(r.ssh, "someone-else", key)
	if err != nil {
		t.Fatal(err)
	}
	sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
	again, err := r.db.PlayerByKey(context.Background(), fp)
	if err != nil || again.ID != p.ID {
		t.Fatalf("the key's player is %+v (%v), was %+v", again, err, p)
	}

	// Another key is another player.
	c2, err := sshtest.Dial(r.ssh, "bob", sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	sshtest.Open(t, c2, 80, 24).WaitFor("you are bob")
}

func TestHostKeyKept(t *testing.T) {
	dir := t.TempDir()
	hostKey := filepath.Join(dir, "data", "ssh_host_ed25519_key")
	seen := func() string {
		r := start(t, sshserve.Options{HostKey: hostKey})
		var got string
		c, err := gossh.Dial("tcp", r.ssh, &gossh.ClientConfig{
			User: "ann", Auth: []gossh.AuthMethod{gossh.PublicKeys(sshtest.Key(t, 0))},
			HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
				got = gossh.FingerprintSHA256(k)
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		return got
	}
	first, second := seen(), seen()
	if first == "" || first != second {
		t.Fatalf("the host key changed between two servers on one data directory: %s, then %s", first, second)
	}
}

func TestWeakKeysRefused(t *testing.T) {
	r := start(t, sshserve.Options{})
	if _, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 1024)); err == nil {
		t.Fatal("an RSA key of 1024 bits was taken")
	}
	c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 2048))
	if err != nil {
		t.Fatalf("an RSA key of 2048 bits was refused: %v", err)
	}
	c.Close()
}

func TestSessionsPerKey(t *testing.T) {
	r := start(t, sshserve.Options{PerKey: 2})
	key := sshtest.Key(t, 0)
	var clients []*gossh.Client
	for i := range 2 {
		c, err := sshtest.Dial(r.ssh, "ann", key)
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
		clients = append(clients, c)
	}
	if c, err := sshtest.Dial(r.ssh, "ann", key); err == nil {
		c.Close()
		t.Fatal("a third session with one key was let in; the cap is 2")
	}
	// Another key is not held back by this one's cap.
	c, err := sshtest.Dial(r.ssh, "bob", sshtest.Key(t, 0))
	if err != nil {
		t.Fatalf("another key was refused: %v", err)
	}
	sshtest.Open(t, c, 80, 24).WaitFor("you are bob")

	// A session that ends gives its place back.
	clients[0].Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := sshtest.Dial(r.ssh, "ann", key)
		if err == nil {
			sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the key's place was not given back after a session ended: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // the server notices the end of the session on its own time
	}
}

func TestConnectionFloodFromOneAddress(t *testing.T) {
	r := start(t, sshserve.Options{ConnsPerAddress: 3, Handshake: time.Minute})
	// A table that goes on during the flood: a guest against a bot over
	// the web routes.
	cl := wsclient.New(r.web)
	ctx := context.Background()
	if _, _, err := cl.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	short := map[string]any{"base": "classic", "game": map[string]any{"target": 1000}}
	tb, err := cl.CreateTable(ctx, short, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}

	// Twenty connections that never say a word: three are held (until
	// the handshake deadline), the rest are closed at once.
	var conns []net.Conn
	for range 20 {
		conn, err := net.Dial("tcp", r.ssh)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
		defer conn.Close()
	}
	closed := 0
	for _, conn := range conns {
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, 256)
		var err error
		for err == nil {
			_, err = conn.Read(buf) // the server's version line, then EOF if refused
		}
		if errors.Is(err, io.EOF) {
			closed++
		}
	}
	if closed != 17 {
		t.Fatalf("%d of 20 silent connections were closed; want 17 (3 may be open from one address)", closed)
	}
	// The cap holds an SSH player back too, while the table plays on.
	if c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0)); err == nil {
		c.Close()
		t.Fatal("a session was let in past the cap of connections from one address")
	}
	if err := cl.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	playToEnd(t, cl)

	// Once the flood is gone, players get in again.
	for _, conn := range conns {
		conn.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0))
		if err == nil {
			sshtest.Open(t, c, 80, 24).WaitFor("Farkle online")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session after the flood ended: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // the server notices the closed connections on its own time
	}
}

// playToEnd plays the connection's seat to the end of the game: the
// roll-off, then throw, keep the first legal keep and bank.
func playToEnd(t *testing.T, cl *wsclient.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seat := -1
	for {
		m, err := cl.Next(ctx)
		if err != nil {
			t.Fatalf("the table stopped: %v", err)
		}
		if m.Type == "welcome" {
			seat = m.You.Seat
		}
		st := m.State
		if st == nil || (m.Type != "welcome" && m.Type != "update") {
			continue
		}
		if st.Phase == "over" {
			return
		}
		if st.Actor != seat {
			continue
		}
		var act error
		switch {
		case st.Phase != "play":
			act = cl.Act(ctx, st.Version, "roll-off", nil)
		case st.Step == "throw":
			act = cl.Act(ctx, st.Version, "throw", nil)
		case st.Step == "keep":
			act = cl.Act(ctx, st.Version, "keep", st.Legal[0].Dice)
		case legal(st, "bank"):
			act = cl.Act(ctx, st.Version, "bank", nil)
		default:
			act = cl.Act(ctx, st.Version, "throw", nil)
		}
		if act != nil {
			t.Fatal(act)
		}
	}
}

// legal reports whether an action of the type is legal in st.
func legal(st *wsclient.State, typ string) bool {
	for _, l := range st.Legal {
		if l.Type == typ {
			return true
		}
	}
	return false
}

func TestIdleSessionClosed(t *testing.T) {
	r := start(t, sshserve.Options{Idle: 300 * time.Millisecond})
	c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	tm := sshtest.Open(t, c, 80, 24)
	tm.WaitFor("Farkle online")
	if !tm.Ended() {
		t.Fatal("a session without a key pressed was not closed")
	}
}

func TestNoTerminalRefused(t *testing.T) {
	r := start(t, sshserve.Options{})
	c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := sess.CombinedOutput("")
	if !strings.Contains(string(out), "PTY") {
		t.Fatalf("a session without a terminal got %q", out)
	}
}

func TestSessionsPerAddressOnOneConnection(t *testing.T) {
	r := start(t, sshserve.Options{PerAddress: 2})
	// One connection carries several sessions (as ssh's ControlMaster
	// does): the cap counts sessions, not only connections.
	c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
	sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
	// The third is refused as its channel opens, with the reason.
	_, err = c.NewSession()
	var oce *gossh.OpenChannelError
	if !errors.As(err, &oce) || oce.Reason != gossh.ResourceShortage || oce.Message != "farkle: 2 sessions are open from 127.0.0.1 (at most 2); close one first" {
		t.Fatalf("a third session from one address got %v", err)
	}
}

func TestBrokenSessionLeavesTheTable(t *testing.T) {
	r := start(t, sshserve.Options{})
	key := sshtest.Key(t, 0)
	c, err := sshtest.Dial(r.ssh, "ann", key)
	if err != nil {
		t.Fatal(err)
	}
	tm := sshtest.Open(t, c, 80, 24)
	tm.WaitFor("you are ann")
	tm.Press("n")
	tm.WaitFor("a new game")
	tm.Press("\r")
	tm.WaitFor("online · table ")
	id := regexp.MustCompile(`online · table (\S+) ·`).FindStringSubmatch(tm.Text())
	if id == nil {
		t.Fatal("no table id on the screen")
	}
	// The connection breaks without a goodbye.
	c.Close()

	cl := wsclient.New(r.web)
	var tb struct{ Status string }
	if err := cl.Do(context.Background(), "GET", "/api/tables/"+id[1], nil, &tb); err != nil {
		t.Fatal(err)
	}
	if tb.Status != "playing" {
		t.Fatalf("after the session broke the table is %q", tb.Status)
	}
	// The same key finds its table in the lobby and sits at it again.
	c, err = sshtest.Dial(r.ssh, "ann", key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tm = sshtest.Open(t, c, 80, 24)
	tm.WaitFor(id[1])
	tm.WaitFor("ann (you)")
	tm.Press("\r")
	tm.WaitFor("online · table " + id[1] + " · you are ann")
}
