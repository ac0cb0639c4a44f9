// Package sshtest is an SSH client for tests of the SSH front end
// (farkle serve --ssh): keys, connections, and sessions with a terminal
// whose output a test reads.
package sshtest

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/internal/syncbuf"
)

// Key makes a key: Ed25519, or RSA of rsaBits.
func Key(t testing.TB, rsaBits int) gossh.Signer {
	t.Helper()
	s, _ := newKey(t, rsaBits)
	return s
}

// WriteKey makes a key as Key does and writes its private half at path,
// in OpenSSH's format, for ssh -i.
func WriteKey(t testing.TB, path string, rsaBits int) gossh.Signer {
	t.Helper()
	s, k := newKey(t, rsaBits)
	block, err := gossh.MarshalPrivateKey(k, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

func newKey(t testing.TB, rsaBits int) (gossh.Signer, crypto.PrivateKey) {
	t.Helper()
	var k crypto.PrivateKey
	var err error
	if rsaBits == 0 {
		_, k, err = ed25519.GenerateKey(rand.Reader)
	} else {
		k, err = rsa.GenerateKey(rand.Reader, rsaBits)
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return s, k
}

// Config is the client configuration of user with key, taking any host
// key; banner, when not nil, gets the server's authentication banners.
func Config(user string, key gossh.Signer, banner *syncbuf.Buffer) *gossh.ClientConfig {
	cfg := &gossh.ClientConfig{
		User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
	}
	if banner != nil {
		cfg.BannerCallback = func(msg string) error {
			banner.Write([]byte(msg))
			return nil
		}
	}
	return cfg
}

// Dial connects to addr as user with key.
func Dial(addr, user string, key gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, Config(user, key, nil))
}

// Term is an SSH session with a terminal: keys in, the screen's text out.
type Term struct {
	t    testing.TB
	Sess *gossh.Session
	in   io.WriteCloser
	// Out and Err are what the session wrote on its standard output and
	// error, as sent.
	Out, Err syncbuf.Buffer
	mu       sync.Mutex
	text     strings.Builder // both, escapes stripped
	done     chan struct{}   // closed when the output ends
}

// Open opens a session on c, sends the environment variables env (pairs
// of a name and a value) as ssh's SendEnv sends them, and starts it with
// a terminal of cols×rows (Start); the test's cleanup closes it.
func Open(t testing.TB, c *gossh.Client, cols, rows int, env ...string) *Term {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	for i := 0; i+1 < len(env); i += 2 {
		if err := sess.Setenv(env[i], env[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return Start(t, sess, cols, rows)
}

// Start asks for a terminal of cols×rows on sess and its shell, and reads
// its output.
func Start(t testing.TB, sess *gossh.Session, cols, rows int) *Term {
	t.Helper()
	if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errOut, err := sess.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	tm := &Term{t: t, Sess: sess, in: in, done: make(chan struct{})}
	read := func(r io.Reader, raw *syncbuf.Buffer) {
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			raw.Write(buf[:n])
			tm.mu.Lock()
			tm.text.WriteString(ansi.Strip(string(buf[:n])))
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); read(errOut, &tm.Err) }() // what the server says of a refused or bounded session
	go func() { defer wg.Done(); read(out, &tm.Out) }()
	go func() { wg.Wait(); close(tm.done) }()
	return tm
}

// Text returns everything the session wrote, escapes stripped.
func (tm *Term) Text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.text.String()
}

// WaitFor waits up to ten seconds for the output to hold s, failing the
// test if it does not.
func (tm *Term) WaitFor(s string) {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ended := false
		select {
		case <-tm.done:
			ended = true
		default:
		}
		got := tm.Text()
		if strings.Contains(got, s) {
			return
		}
		if ended {
			tm.t.Fatalf("the session ended without showing %q; it showed:\n%s", s, got)
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the session does not show %q; it showed:\n%s", s, got)
		}
		time.Sleep(10 * time.Millisecond) // polling the output: the terminal has no way to say "drawn"
	}
}

// Ended waits up to ten seconds for the session's output to end.
func (tm *Term) Ended() bool {
	select {
	case <-tm.done:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

// Press types keys into the session.
func (tm *Term) Press(keys string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, keys); err != nil {
		tm.t.Fatal(err)
	}
}
