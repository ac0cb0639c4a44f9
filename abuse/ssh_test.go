package abuse

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/internal/sshtest"
	"github.com/farkle/farkle/internal/syncbuf"
)

// maxRSS is the most memory the server may hold through any attack.
const maxRSS = 400 << 20

// startSSH runs `farkle serve` with its SSH front end on a loopback port
// and args.
func startSSH(t *testing.T, args ...string) *server {
	t.Helper()
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), append([]string{"--ssh", "127.0.0.1:0"}, args...)...)
	if s.SSH == "" {
		t.Fatalf("farkle serve did not say where it serves SSH\n%s", s.log.String())
	}
	return s
}

// dialSSH connects to the server's SSH port as user with key.
func (s *server) dialSSH(user string, key gossh.Signer) *gossh.Client {
	s.t.Helper()
	c, err := sshtest.Dial(s.SSH, user, key)
	if err != nil {
		s.t.Fatalf("ssh as %s: %v\n%s", user, err, s.log.String())
	}
	s.t.Cleanup(func() { c.Close() })
	return c
}

// stillServes fails the test unless the server kept its memory under
// maxRSS through the attack (its peak), answers /healthz, and opens a
// fresh SSH session for a new player.
func (s *server) stillServes(user string) {
	s.t.Helper()
	rss, peak := s.memory()
	s.t.Logf("resident memory %d MiB, peak %d MiB", rss>>20, peak>>20)
	if peak > maxRSS {
		s.t.Errorf("the server's memory peaked at %d MiB (at most %d MiB)", peak>>20, maxRSS>>20)
	}
	s.alive()
	sshtest.Open(s.t, s.dialSSH(user, sshtest.Key(s.t, 0)), 80, 24).WaitFor("you are " + user)
}

// csi finds the control sequences that place the cursor or act on a
// number of cells: CUP (row;col H), CHA (col G), VPA (row d), and moves
// and erasures of n cells or rows.
var csi = regexp.MustCompile(`\x1b\[([0-9]+(?:;[0-9]+)?)([HfGd` + "`" + `XCD@PABEF])`)

// drawnWithin fails unless every cursor place and cell count in out is
// within cols×rows: nothing was drawn past the window the session was
// given.
func drawnWithin(t *testing.T, out string, cols, rows int) {
	t.Helper()
	n := 0
	for _, m := range csi.FindAllStringSubmatch(out, -1) {
		var nums []int
		for _, f := range strings.Split(m[1], ";") {
			v, _ := strconv.Atoi(f)
			nums = append(nums, v)
		}
		lim := []int{cols}
		switch m[2] {
		case "H", "f":
			lim = []int{rows, cols}
		case "d", "A", "B", "E", "F":
			lim = []int{rows}
		}
		for i, v := range nums {
			if i < len(lim) && v > lim[i] {
				t.Fatalf("the session was drawn past %d×%d: %q", cols, rows, m[0])
			}
		}
		n++
	}
	if n == 0 {
		t.Fatalf("no cursor placed in %d bytes of output: nothing to check", len(out))
	}
}

// TestSSHWindowBounded: a pty asked for at 4000×4000 or 12000×12000, or
// a window changed to it, is drawn at 500×200 (--ssh-max-window's
// default) and the player is told; the server's memory stays bounded (it
// grew to 1.7 GiB, then ran out, when the size was taken as asked).
func TestSSHWindowBounded(t *testing.T) {
	s := startSSH(t)
	for n, size := range map[int]string{4000: "4,000×4,000", 12000: "12,000×12,000"} {
		note := "farkle: your window of " + size + " is drawn in 500×200: the server draws at most 500×200"

		// Asked for at the start.
		key := sshtest.Key(t, 0)
		tm := sshtest.Open(t, s.dialSSH("ann", key), n, n)
		tm.WaitFor("you are ann")
		tm.WaitFor(note)
		drawnWithin(t, tm.Out.String(), 500, 200)

		// Asked for by a window change: the lobby is drawn again at
		// 500×200, and the player told when the session ends.
		tm = sshtest.Open(t, s.dialSSH("bob", sshtest.Key(t, 0)), 80, 24)
		tm.WaitFor("you are bob")
		if err := tm.Sess.WindowChange(n, n); err != nil {
			t.Fatal(err)
		}
		if err := tm.Sess.WindowChange(0, 0); err != nil { // zero: ignored, the size stays
			t.Fatal(err)
		}
		// The server takes window changes apart from the keys: q is
		// pressed once the lobby is drawn again for the new size (its
		// title right after the first drawing's last key), so the change
		// is in before the end.
		tm.WaitFor("q quitFarkle online")
		tm.Press("q")
		tm.WaitFor(note)
		if !tm.Ended() {
			t.Fatal("the session did not end after q")
		}
		drawnWithin(t, tm.Out.String(), 500, 200)
		s.stillServes(fmt.Sprintf("cay%d", n))
	}
}

// TestSSHChannelFlood: 30,000 session channels opened on one connection
// without a shell hold no more than the caps: three with the default
// flags (the key's sessions), four with the caps per key and address off
// (the connection's channels); every other is refused with the reason,
// and so are channels of other types.
func TestSSHChannelFlood(t *testing.T) {
	for _, tc := range []struct {
		args []string
		open int
		why  string
	}{
		{nil, 3, "farkle: this key has 3 sessions open (at most 3); close one first / denne nøkkelen har 3 økter åpne (høyst 3); lukk en først"},
		{[]string{"--ssh-per-key", "0", "--ssh-per-address", "0"}, 4, "farkle: this connection has 4 sessions open (at most 4); close one first / denne forbindelsen har 4 økter åpne (høyst 4); lukk en først"},
	} {
		s := startSSH(t, tc.args...)
		c := s.dialSSH("ann", sshtest.Key(t, 0))
		var open []gossh.Channel
		refused := map[string]int{}
		for range 30000 {
			ch, reqs, err := c.OpenChannel("session", nil)
			var oce *gossh.OpenChannelError
			switch {
			case err == nil:
				go gossh.DiscardRequests(reqs)
				open = append(open, ch)
			case errors.As(err, &oce):
				refused[fmt.Sprintf("%v: %s", oce.Reason, oce.Message)]++
			default:
				t.Fatalf("after %d channels: %v\n%s", len(open), err, s.log.String())
			}
		}
		for range 1000 {
			_, _, err := c.OpenChannel("direct-tcpip", gossh.Marshal(struct {
				Host     string
				Port     uint32
				OrigHost string
				OrigPort uint32
			}{"127.0.0.1", 22, "127.0.0.1", 1234}))
			var oce *gossh.OpenChannelError
			if !errors.As(err, &oce) {
				t.Fatalf("a direct-tcpip channel: %v", err)
			}
			refused[fmt.Sprintf("%v: %s", oce.Reason, oce.Message)]++
		}
		want := map[string]int{
			"resource shortage: " + tc.why: 30000 - tc.open,
			"unknown channel type: farkle: only sessions are served here (no port forwarding, X11 or agent) / her tjenes bare økter (ingen portvideresending, X11 eller agent)": 1000,
		}
		if len(open) != tc.open || fmt.Sprint(refused) != fmt.Sprint(want) {
			t.Fatalf("%v: %d channels open, refused %v; want %d open, refused %v", tc.args, len(open), refused, tc.open, want)
		}
		// A channel closed gives its place back.
		open[0].Close()
		deadline := time.Now().Add(10 * time.Second)
		for {
			ch, _, err := c.OpenChannel("session", nil)
			if err == nil {
				ch.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a closed channel's place was not given back: %v", err)
			}
			time.Sleep(10 * time.Millisecond) // the server sees the close on its own time
		}
		s.stillServes("bob")
	}
}

// env is the payload of an "env" request.
func env(name, value string) []byte {
	return gossh.Marshal(struct{ Name, Value string }{name, value})
}

// TestSSHEnvFlood: of 20,000 environment variables sent on one session,
// 64 are kept (--ssh-env) and the rest refused; so are 200 of 200 KiB
// each; the player is told both when the session starts, and the
// server's memory stays bounded. Requests are not paced here
// (--ssh-rate 0), so the count alone is what holds.
func TestSSHEnvFlood(t *testing.T) {
	s := startSSH(t, "--ssh-rate", "0")
	c := s.dialSSH("ann", sshtest.Key(t, 0))
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for i := range 20000 {
		ok, err := sess.SendRequest("env", true, env(fmt.Sprintf("V%d", i), "x"))
		if err != nil {
			t.Fatalf("env %d: %v", i, err)
		}
		if ok {
			kept++
		}
	}
	long := strings.Repeat("x", 200<<10)
	for i := range 200 {
		if ok, err := sess.SendRequest("env", true, env("L", long)); err != nil || ok {
			t.Fatalf("a variable of 200 KiB (%d): kept %v, %v", i, ok, err)
		}
	}
	if kept != 64 {
		t.Fatalf("%d of 20,000 environment variables were kept; want 64", kept)
	}
	tm := sshtest.Start(t, sess, 80, 24)
	tm.WaitFor("farkle: at most 64 environment variables are kept; the rest were ignored")
	tm.WaitFor("farkle: environment variables longer than 1,024 bytes were ignored")
	tm.WaitFor("you are ann")
	s.stillServes("bob")
}

// TestSSHRequestFlood: requests on one connection that hold nothing
// (global keepalives, subsystems and keepalives on a session) are served
// at the connection's pace (--ssh-rate 20, --ssh-burst 100), however fast
// they come, while other clients are served as usual.
func TestSSHRequestFlood(t *testing.T) {
	s := startSSH(t)
	c := s.dialSSH("ann", sshtest.Key(t, 0))
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var answered atomic.Int64
	var wg sync.WaitGroup
	flood := func(send func() error) {
		defer wg.Done()
		for send() == nil {
			answered.Add(1)
		}
	}
	start := time.Now()
	wg.Add(3)
	go flood(func() error { _, _, err := c.SendRequest("keepalive@openssh.com", true, nil); return err })
	go flood(func() error {
		_, err := sess.SendRequest("subsystem", true, gossh.Marshal(struct{ Name string }{"sftp"}))
		return err
	})
	go flood(func() error { _, err := sess.SendRequest("keepalive@openssh.com", true, nil); return err })

	// Meanwhile another player plays, and the flood goes on.
	s.stillServes("bob")
	for time.Since(start) < 3*time.Second {
		time.Sleep(100 * time.Millisecond) // the flood runs on its own
	}
	got, took := answered.Load(), time.Since(start)
	c.Close() // ends the flood's waiting requests
	wg.Wait()
	most := 100 + int64(20*took.Seconds()) + 5
	t.Logf("%d requests answered in %v (the pace allows %d)", got, took.Round(time.Millisecond), most)
	if got > most {
		t.Fatalf("%d requests answered in %v; the pace allows %d", got, took.Round(time.Millisecond), most)
	}
	if got < 100 {
		t.Fatalf("only %d requests answered in %v: the burst is 100", got, took.Round(time.Millisecond))
	}
	s.stillServes("cay")
}

// TestSSHHangUpMidRender: a client that hangs up while its session is
// drawn (a 500×200 screen redrawn by a stream of window changes) has its
// program ended at once: the server says so, the key's places come back, and the
// memory stays bounded; so does a client that closes only its session
// and keeps the connection.
func TestSSHHangUpMidRender(t *testing.T) {
	s := startSSH(t)
	key := sshtest.Key(t, 0)
	c := s.dialSSH("ann", key)
	tm := sshtest.Open(t, c, 500, 200)
	tm.WaitFor("you are ann")
	go func() {
		for i := 0; tm.Sess.WindowChange(200-i%2, 500-i%2) == nil; i++ {
		}
	}()
	// Each window change redraws the screen (about 250 bytes of the
	// lobby); hang up once some have come, while more are on their way.
	deadline := time.Now().Add(10 * time.Second)
	for before := len(tm.Out.String()); len(tm.Out.String()) < before+2<<10; {
		if time.Now().After(deadline) {
			t.Fatalf("the screen was not redrawn after window changes: %d bytes came", len(tm.Out.String())-before)
		}
		time.Sleep(5 * time.Millisecond) // drawing goes on
	}
	c.Close()
	s.logSays(1, `msg="ssh: session ended"`, "why=hang-up")

	// The key's places came back: three sessions again, one of which
	// closes its session but not its connection.
	var last *gossh.Client
	for range 3 {
		last = s.dialSSH("ann", key)
		tm = sshtest.Open(t, last, 500, 200)
		tm.WaitFor("you are ann")
	}
	tm.Sess.Close()
	s.logSays(2, `msg="ssh: session ended"`, "why=hang-up")
	sshtest.Open(t, last, 80, 24).WaitFor("you are ann")
	s.stillServes("bob")
}

// logSays waits up to ten seconds for the server's log to have n lines
// that hold each of words.
func (s *server) logSays(n int, words ...string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := 0
		for _, line := range strings.Split(s.log.String(), "\n") {
			if !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(line, w) }) {
				got++
			}
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the log has %d lines with %q, not %d:\n%s", got, words, n, s.log.String())
		}
		time.Sleep(10 * time.Millisecond) // the log is written by the server
	}
}

// TestSSHOneAddressHoldsItsCaps: any key gets in, so one address with
// many keys takes all it may at once: six sessions drawn at 12000×12000
// (clamped) with 64 environment variables of 1 KiB each, two more
// sessions without a shell holding 2 MiB of unread input each, and
// connections up to the cap. Past the caps it gets nothing more (the
// ninth session and the eleventh connection are refused), and all it
// holds keeps the server under its memory bound.
func TestSSHOneAddressHoldsItsCaps(t *testing.T) {
	s := startSSH(t)
	rss0, _ := s.memory()
	value := strings.Repeat("v", 1000)
	var clients []*gossh.Client
	for i := range 8 {
		if i%3 == 0 {
			key := sshtest.Key(t, 0)
			for range min(3, 8-i) {
				clients = append(clients, s.dialSSH(fmt.Sprint("p", i), key))
			}
		}
		sess, err := clients[i].NewSession()
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		for v := range 64 {
			if err := sess.Setenv(fmt.Sprint("V", v), value); err != nil {
				t.Fatal(err)
			}
		}
		if i < 6 {
			sshtest.Start(t, sess, 12000, 12000).WaitFor("you are p")
			continue
		}
		in, err := sess.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		// The server's window for a channel is 2 MiB: it takes that much
		// before it stops reading.
		done := make(chan error, 1)
		go func() { _, err := in.Write(make([]byte, 2<<20)); done <- err }()
		if err := <-done; err != nil {
			t.Fatalf("2 MiB to session %d: %v", i+1, err)
		}
	}
	if _, err := clients[7].NewSession(); err == nil || !strings.Contains(err.Error(), "8 sessions are open from 127.0.0.1 (at most 8)") {
		t.Fatalf("a ninth session from one address: %v", err)
	}
	// Two connections more that do not get past the handshake (a key
	// from this address is refused now) are held till its deadline; an
	// eleventh is closed before a word.
	for i := range 3 {
		conn, err := net.Dial("tcp", s.SSH)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := bufio.NewReader(conn).ReadString('\n')
		if held := strings.HasPrefix(line, "SSH-2.0-"); held != (i < 2) {
			t.Fatalf("connection %d from one address: read %q, %v", 9+i, line, err)
		}
	}
	rss, peak := s.memory()
	t.Logf("one address holding all it may: resident memory %d MiB (from %d MiB), peak %d MiB", rss>>20, rss0>>20, peak>>20)
	if peak > maxRSS {
		t.Fatalf("the server's memory peaked at %d MiB (at most %d MiB)", peak>>20, maxRSS>>20)
	}
	s.alive()
	for _, c := range clients {
		c.Close()
	}
	s.stillServes("bob")
}

// TestSSHRefusalsOpenSSH: the real OpenSSH client is told, in one line,
// in English and in Norwegian (its LANG comes only once it is in), and
// before "Permission denied", why its key is refused: an RSA key under
// 2048 bits, a DSA key, a key with its three sessions open, an address
// with its eight, a full server.
func TestSSHRefusalsOpenSSH(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no OpenSSH client (ssh) on this machine: %v", err)
		}
		t.Skipf("no OpenSSH client (ssh) on this machine (%v): its refusal messages are not checked", err)
	}
	dir := t.TempDir()
	s := startSSH(t)
	refused := func(s *server, key string, why string, extra ...string) {
		t.Helper()
		out, code := runSSH(t, s.SSH, key, extra...)
		if code != 255 || !strings.Contains(out, "\n"+why+"\n") || !strings.Contains(out, "Permission denied (publickey)") {
			t.Fatalf("ssh with %s exited %d, saying:\n%s\nwant 255 and the line %q", filepath.Base(key), code, out, why)
		}
		t.Logf("ssh with %s was told %q", filepath.Base(key), why)
	}

	rsa1024 := filepath.Join(dir, "id_rsa1024")
	sshtest.WriteKey(t, rsa1024, 1024)
	refused(s, rsa1024, "farkle: RSA keys under 2048 bits are refused (this one has 1024); make an Ed25519 key (ssh-keygen -t ed25519) and connect with it / RSA-nøkler under 2048 bit avvises (denne har 1024); lag en Ed25519-nøkkel (ssh-keygen -t ed25519) og koble til med den")

	dsa := filepath.Join(dir, "id_dsa")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "dsa", "-N", "", "-f", dsa).CombinedOutput(); err != nil {
		t.Logf("this OpenSSH makes no DSA keys (%v: %s): the DSA refusal is checked with Go's client only (sshserve)", err, out)
	} else {
		refused(s, dsa, "farkle: DSA keys are refused; make an Ed25519 key (ssh-keygen -t ed25519) and connect with it / DSA-nøkler avvises; lag en Ed25519-nøkkel (ssh-keygen -t ed25519) og koble til med den", "-o", "PubkeyAcceptedAlgorithms=+ssh-dss")
	}

	// A key with its three sessions open.
	ann := filepath.Join(dir, "id_ann")
	annKey := sshtest.WriteKey(t, ann, 0)
	for range 3 {
		sshtest.Open(t, s.dialSSH("ann", annKey), 80, 24).WaitFor("you are ann")
	}
	refused(s, ann, "farkle: this key has 3 sessions open (at most 3); close one first / denne nøkkelen har 3 økter åpne (høyst 3); lukk en først")

	// An address with its eight (3 + 3 + 2).
	for i, n := range []int{3, 2} {
		key := sshtest.Key(t, 0)
		for range n {
			sshtest.Open(t, s.dialSSH(fmt.Sprint("p", i), key), 80, 24).WaitFor("you are p")
		}
	}
	fresh := filepath.Join(dir, "id_fresh")
	sshtest.WriteKey(t, fresh, 0)
	refused(s, fresh, "farkle: 8 sessions are open from 127.0.0.1 (at most 8); close one first / 8 økter er åpne fra 127.0.0.1 (høyst 8); lukk en først")

	// A full server.
	full := startSSH(t, "--ssh-sessions", "1")
	sshtest.Open(t, full.dialSSH("ann", annKey), 80, 24).WaitFor("you are ann")
	refused(full, fresh, "farkle: the server is full: 1 session is open (at most 1); try again later / serveren er full: 1 økt er åpen (høyst 1); prøv igjen senere")

	// A key with room gets in (and, without a terminal, is told it needs one).
	if out, code := runSSH(t, startSSH(t).SSH, fresh); code != 1 || !strings.Contains(out, "Requires an active PTY") {
		t.Fatalf("ssh with a good key exited %d, saying:\n%s", code, out)
	}
}

// runSSH runs OpenSSH's ssh as ann with the key file key against addr (no
// configuration, agent or known hosts of the machine's), asking to run
// true; it returns what ssh wrote (its lines ending in "\n") and its
// exit code.
func runSSH(t *testing.T, addr, key string, extra ...string) (string, int) {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
		"-o", "ConnectTimeout=10", "-i", key, "-p", port}, extra...)
	cmd := exec.CommandContext(deadline(t, 30*time.Second), "ssh", append(args, "ann@"+host, "true")...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("ssh: %v\n%s", err, out)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n"), cmd.ProcessState.ExitCode()
}

// TestSSHManyAddressesAtTheLargestWindow: clients from 13 addresses take
// every session the caps let them (8 an address, 100 in all), each at
// 12000×12000. The windows share --ssh-cells (1,000,000 by default): ten
// are drawn at 500×200 and the rest are refused a terminal, told why, so
// the server's memory stays under maxRSS where the caps on sessions alone
// would let it reach 2.3 GiB; once they leave, a new player plays.
func TestSSHManyAddressesAtTheLargestWindow(t *testing.T) {
	s := startSSH(t, "--ssh-rate", "0")
	var (
		mu               sync.Mutex
		drawn, refused   int
		clients          []*gossh.Client
		wg               sync.WaitGroup
		full             = "farkle: the server draws as many screens as it can now; try again later"
		sessionsRefused  atomic.Int32
		unexpectedErrors []string
	)
	for a := range 13 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+a))}, Timeout: 10 * time.Second}
			for k := range 3 {
				conn, err := d.Dial("tcp", s.SSH)
				if err != nil {
					t.Errorf("address %d: %v", a, err)
					return
				}
				user := fmt.Sprintf("a%dk%d", a, k)
				cc, chans, reqs, err := gossh.NewClientConn(conn, s.SSH, sshtest.Config(user, sshtest.Key(t, 0), nil))
				if err != nil {
					sessionsRefused.Add(1) // the server is full: the key is refused
					conn.Close()
					continue
				}
				c := gossh.NewClient(cc, chans, reqs)
				mu.Lock()
				clients = append(clients, c)
				mu.Unlock()
				for range min(3, 8-3*k) {
					sess, err := c.NewSession()
					if err != nil {
						sessionsRefused.Add(1)
						continue
					}
					if sess.RequestPty("xterm-256color", 12000, 12000, gossh.TerminalModes{}) != nil {
						var errOut syncbuf.Buffer
						sess.Stderr = &errOut
						sess.Run("") //nolint:errcheck // refused a terminal: it ends
						mu.Lock()
						if strings.Contains(errOut.String(), full) {
							refused++
						} else {
							unexpectedErrors = append(unexpectedErrors, errOut.String())
						}
						mu.Unlock()
						continue
					}
					out, err := sess.StdoutPipe()
					if err != nil || sess.Shell() != nil {
						t.Errorf("%s: a shell: %v", user, err)
						continue
					}
					buf, seen := make([]byte, 64<<10), ""
					for !strings.Contains(seen, "you are") {
						n, err := out.Read(buf)
						if err != nil {
							t.Errorf("%s: %v after %q", user, err, seen)
							break
						}
						seen = seen[max(0, len(seen)-64):] + string(buf[:n])
					}
					go io.Copy(io.Discard, out) //nolint:errcheck // keeps the screen flowing
					mu.Lock()
					drawn++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(unexpectedErrors) > 0 {
		t.Fatalf("sessions refused a terminal were told %q", unexpectedErrors)
	}
	rss, peak := s.memory()
	t.Logf("%d sessions drawn at 500×200, %d refused a terminal, %d refused: resident memory %d MiB, peak %d MiB", drawn, refused, sessionsRefused.Load(), rss>>20, peak>>20)
	if drawn != 10 || drawn+refused+int(sessionsRefused.Load()) != 104 || refused < 90 {
		t.Fatalf("%d sessions drawn, %d refused a terminal, %d refused; want 10 drawn of the 104 asked for", drawn, refused, sessionsRefused.Load())
	}
	if peak > maxRSS {
		t.Fatalf("the server's memory peaked at %d MiB (at most %d MiB)", peak>>20, maxRSS>>20)
	}
	s.alive()
	for _, c := range clients {
		c.Close()
	}
	deadline := time.Now().Add(20 * time.Second)
	for { // the server sees the sessions end on its own time
		c, err := sshtest.Dial(s.SSH, "zed", sshtest.Key(t, 0))
		if err == nil {
			sess, err := c.NewSession()
			if err == nil && sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}) == nil {
				c.Close()
				break
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no terminal for a new player after the others left: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stillServes("yan")
}
