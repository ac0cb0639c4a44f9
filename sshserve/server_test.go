package sshserve_test

import (
	"context"
	//lint:ignore SA1019 a DSA key is what the server is to refuse
	"crypto/dsa"
	"crypto/rand"
	"errors"
	"fmt"
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
	"github.com/farkle/farkle/internal/syncbuf"
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
	return startWith(t, server.Options{}, o)
}

// startWith is start with the farkle server's options so.
func startWith(t *testing.T, so server.Options, o sshserve.Options) *rig {
	t.Helper()
	ts := servertest.Start(t, so)
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

// newSession connects to r as user with a new key and opens a session;
// the test's cleanup closes both.
func newSession(t *testing.T, r *rig, user string) (*gossh.Client, *gossh.Session) {
	t.Helper()
	c, err := sshtest.Dial(r.ssh, user, sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return c, sess
}

// dialBanner connects as user with key, returning the authentication
// banners the server sent.
func dialBanner(addr, user string, key gossh.Signer) (*gossh.Client, string, error) {
	var banner syncbuf.Buffer
	c, err := gossh.Dial("tcp", addr, sshtest.Config(user, key, &banner))
	return c, banner.String(), err
}

// dsaKey makes a DSA key of 1024 bits, the only size SSH has for DSA.
func dsaKey(t *testing.T) gossh.Signer {
	t.Helper()
	var k dsa.PrivateKey
	if err := dsa.GenerateParameters(&k.Parameters, rand.Reader, dsa.L1024N160); err != nil {
		t.Fatal(err)
	}
	if err := dsa.GenerateKey(&k, rand.Reader); err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(&k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRefusalsSayWhy: a refused key is told why in an authentication
// banner, one line, before the refusal: an RSA key under 2048 bits, a
// DSA key, a key or an address with its sessions open, a full server. A
// key of 2048 bits is taken.
func TestRefusalsSayWhy(t *testing.T) {
	r := start(t, sshserve.Options{PerKey: 1, PerAddress: 2})
	refused := func(r *rig, key gossh.Signer, why string) {
		t.Helper()
		c, banner, err := dialBanner(r.ssh, "ann", key)
		if err == nil {
			c.Close()
			t.Fatalf("a key that should be refused (%s) was taken", why)
		}
		if banner != why+"\r\n" {
			t.Fatalf("a refused key was told %q (%v); want %q", banner, err, why)
		}
	}
	refused(r, sshtest.Key(t, 1024), "farkle: RSA keys under 2048 bits are refused (this one has 1024); make an Ed25519 key (ssh-keygen -t ed25519) and connect with it / RSA-nøkler under 2048 bit avvises (denne har 1024); lag en Ed25519-nøkkel (ssh-keygen -t ed25519) og koble til med den")
	refused(r, dsaKey(t), "farkle: DSA keys are refused; make an Ed25519 key (ssh-keygen -t ed25519) and connect with it / DSA-nøkler avvises; lag en Ed25519-nøkkel (ssh-keygen -t ed25519) og koble til med den")

	ann := sshtest.Key(t, 2048)
	c, banner, err := dialBanner(r.ssh, "ann", ann)
	if err != nil || banner != "" {
		t.Fatalf("an RSA key of 2048 bits: %v, told %q", err, banner)
	}
	sshtest.Open(t, c, 80, 24).WaitFor("you are ann")
	refused(r, ann, "farkle: this key has 1 session open (at most 1); close it first / denne nøkkelen har 1 økt åpen (høyst 1); lukk den først")

	bob, err := sshtest.Dial(r.ssh, "bob", sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	sshtest.Open(t, bob, 80, 24).WaitFor("you are bob")
	refused(r, sshtest.Key(t, 0), "farkle: 2 sessions are open from 127.0.0.1 (at most 2); close one first / 2 økter er åpne fra 127.0.0.1 (høyst 2); lukk en først")

	full := start(t, sshserve.Options{Sessions: 3})
	for range 3 {
		c, err := sshtest.Dial(full.ssh, "cay", sshtest.Key(t, 0))
		if err != nil {
			t.Fatal(err)
		}
		sshtest.Open(t, c, 80, 24).WaitFor("you are cay")
	}
	refused(full, sshtest.Key(t, 0), "farkle: the server is full: 3 sessions are open (at most 3); try again later / serveren er full: 3 økter er åpne (høyst 3); prøv igjen senere")
}

// TestChannelsPerConnection: past Options.Channels, a session's channel
// is refused as it opens, with the reason, even with no cap per key or
// address; channels of other types are refused, and hold nothing.
func TestChannelsPerConnection(t *testing.T) {
	r := start(t, sshserve.Options{Channels: 2})
	c, _ := newSession(t, r, "ann")
	if _, err := c.NewSession(); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"session", "direct-tcpip", "x11", "auth-agent@openssh.com"} {
		_, _, err := c.OpenChannel(typ, nil)
		var oce *gossh.OpenChannelError
		want := "farkle: this connection has 2 sessions open (at most 2); close one first / denne forbindelsen har 2 økter åpne (høyst 2); lukk en først"
		if typ != "session" {
			want = "farkle: only sessions are served here (no port forwarding, X11 or agent) / her tjenes bare økter (ingen portvideresending, X11 eller agent)"
		}
		if !errors.As(err, &oce) || oce.Message != want {
			t.Fatalf("a %s channel past the cap: %v; want %q", typ, err, want)
		}
	}
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
	if want := "farkle: closed after 300ms without a key pressed\r\n"; !strings.HasSuffix(tm.Err.String(), want) {
		t.Fatalf("an idle session was told %q; want %q", tm.Err.String(), want)
	}
}

// TestSessionEndsWithItsChannel: a client that closes its session but
// keeps the connection (as ssh's ControlMaster does) has the session's
// program ended at once: its key's place comes back on that connection.
func TestSessionEndsWithItsChannel(t *testing.T) {
	var log syncbuf.Buffer
	r := start(t, sshserve.Options{PerKey: 1, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	c, err := sshtest.Dial(r.ssh, "ann", sshtest.Key(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tm := sshtest.Open(t, c, 80, 24)
	tm.WaitFor("you are ann")
	tm.Sess.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		sess, err := c.NewSession()
		if err == nil {
			sshtest.Start(t, sess, 80, 24).WaitFor("you are ann")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the place of a closed session was not given back: %v", err)
		}
		time.Sleep(10 * time.Millisecond) // the server sees the close on its own time
	}
	if !strings.Contains(log.String(), `msg="ssh: session ended" addr=127.0.0.1`) || !strings.Contains(log.String(), "why=hang-up") {
		t.Fatalf("the log does not say the session ended:\n%s", log.String())
	}
}

// TestBoundsToldInTheSessionsLanguage: what was bounded before the shell
// (here the environment, past Options.Env) is told when the session
// starts, in the language it asked for; so is a window change clamped
// while it ran, when it ends.
func TestBoundsToldInTheSessionsLanguage(t *testing.T) {
	r := start(t, sshserve.Options{Env: 1, MaxWindow: sshserve.Size{Cols: 100, Rows: 30}})
	_, sess := newSession(t, r, "norah")
	if err := sess.Setenv("LANG", "nb_NO.UTF-8"); err != nil {
		t.Fatal(err)
	}
	if err := sess.Setenv("TZ", "UTC"); err == nil {
		t.Fatal("a second variable was kept past Options.Env of 1")
	}
	tm := sshtest.Start(t, sess, 80, 24)
	tm.WaitFor("farkle: høyst 1 miljøvariabel beholdes; resten ble ignorert")
	tm.WaitFor("du er norah")
	if err := sess.WindowChange(60, 400); err != nil {
		t.Fatal(err)
	}
	tm.Press("q")
	tm.WaitFor("farkle: vinduet ditt på 400×60 tegnes i 100×30: serveren tegner høyst 100×30")
}

func TestNoTerminalRefused(t *testing.T) {
	r := start(t, sshserve.Options{})
	_, sess := newSession(t, r, "ann")
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
	if !errors.As(err, &oce) || oce.Reason != gossh.ResourceShortage || oce.Message != "farkle: 2 sessions are open from 127.0.0.1 (at most 2); close one first / 2 økter er åpne fra 127.0.0.1 (høyst 2); lukk en først" {
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

// TestCellsShared: the sessions' windows share Options.Cells: a window
// that does not fit in what the others hold is drawn smaller and its
// player told; a pty is refused, with the reason, when not even 40×12
// fit; and a session that ends gives its cells back.
func TestCellsShared(t *testing.T) {
	r := start(t, sshserve.Options{Cells: 4000})
	ca, _ := newSession(t, r, "ann")
	sshtest.Open(t, ca, 80, 24).WaitFor("you are ann") // 1,920 cells

	cb, _ := newSession(t, r, "bob")
	tb := sshtest.Open(t, cb, 100, 50) // 5,000 asked, 2,080 left
	tb.WaitFor("you are bob")
	m := regexp.MustCompile(`your window is drawn in ([0-9]+)×([0-9]+) for now`).FindStringSubmatch(tb.Text())
	if m == nil {
		t.Fatalf("bob was not told his window is drawn smaller:\n%s", tb.Text())
	}
	var w, h int
	fmt.Sscan(m[1], &w)
	fmt.Sscan(m[2], &h)
	if w*h > 2080 || w > 100 || h > 50 || 2*w*h < 2080 {
		t.Fatalf("bob's window is %d×%d; 2,080 cells were left of 100×50", w, h)
	}
	drawn := tb.Out.String()
	for _, row := range regexp.MustCompile(`\x1b\[([0-9]+);[0-9]+H`).FindAllStringSubmatch(drawn, -1) {
		var n int
		fmt.Sscan(row[1], &n)
		if n > h {
			t.Fatalf("bob's screen was drawn at row %d of %d", n, h)
		}
	}

	// Nothing left for a third.
	cc, sc := newSession(t, r, "cay")
	if err := sc.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err == nil {
		t.Fatal("a pty was given with the cells spent")
	}
	var errOut syncbuf.Buffer
	sc.Stderr = &errOut
	out, _ := sc.Output("")
	if want := "farkle: the server draws as many screens as it can now; try again later"; !strings.Contains(errOut.String(), want) {
		t.Fatalf("cay was told %q / %q; want %q", errOut.String(), out, want)
	}
	cc.Close()

	// Ann leaves: her cells are given back.
	ca.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, s := newSession(t, r, "dan")
		if s.RequestPty("xterm", 24, 80, gossh.TerminalModes{}) == nil {
			c.Close()
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("ann's cells were not given back after her session ended")
		}
		time.Sleep(20 * time.Millisecond) // the server notices the end of the session on its own time
	}
}
