package sshserve

import (
	"context"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	"charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/tui"
)

// Players ties SSH keys to players (server.Server.PlayerForKey).
type Players interface {
	PlayerForKey(ctx context.Context, fingerprint, name, token string) (store.Player, error)
}

// Options configure an SSH front end.
type Options struct {
	// Addr is where it listens (":2222").
	Addr string
	// HostKey is the file of the host key, made (ed25519) when missing.
	HostKey string
	// Web is the farkle server's handler (server.Server.Handler): the
	// sessions' requests go to it in process.
	Web http.Handler
	// Players ties keys to players.
	Players Players
	// PublicURL is the web server's address as players reach it, for
	// the links to tables the lobby shows.
	PublicURL string
	// Rules are the rules the setup screen starts from.
	Rules rules.Rules
	// Advisor values the choices for the hint key (nil: points).
	Advisor tui.Advisor
	// PerKey and PerAddress cap the sessions open at once with one key
	// and from one client address; PerAddress also caps the TCP
	// connections of an address (0: no cap).
	PerKey, PerAddress int
	// Idle closes a session after that long without a key pressed
	// (0: never).
	Idle time.Duration
	// Handshake bounds the SSH handshake and authentication (0: 10 s).
	Handshake time.Duration
	// Logger logs refusals and failures (nil: slog.Default()).
	Logger *slog.Logger
}

// Server is the SSH front end.
type Server struct {
	o      Options
	ssh    *ssh.Server
	web    *http.Server
	mem    *memListener
	secret []byte

	keys, addrs, conns *counter
}

// New makes the SSH front end of o; Serve or ListenAndServe runs it.
func New(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Handshake <= 0 {
		o.Handshake = 10 * time.Second
	}
	if o.Web == nil || o.Players == nil {
		return nil, errors.New("sshserve: a front end needs the web handler and the players")
	}
	if err := os.MkdirAll(filepath.Dir(o.HostKey), 0o700); err != nil {
		return nil, fmt.Errorf("sshserve: the host key's directory: %w", err)
	}
	s := &Server{o: o, mem: newMemListener(), keys: newCounter(o.PerKey), addrs: newCounter(o.PerAddress), conns: newCounter(o.PerAddress)}
	srv, err := wish.NewServer(
		wish.WithAddress(o.Addr),
		wish.WithHostKeyPath(o.HostKey),
		wish.WithPublicKeyAuth(s.allowKey),
		wish.WithMiddleware(recover.MiddlewareWithLogger(logAdapter{o.Logger}, s.play(), activeterm.Middleware(), s.limit)),
	)
	if err != nil {
		return nil, fmt.Errorf("sshserve: %w", err)
	}
	srv.HandshakeTimeout = o.Handshake
	srv.ConnCallback = s.admit
	pem, err := os.ReadFile(o.HostKey)
	if err != nil {
		return nil, fmt.Errorf("sshserve: the host key: %w", err)
	}
	sum := sha256.Sum256(append([]byte("farkle ssh token secret\x00"), pem...))
	s.secret = sum[:]
	s.ssh = srv
	s.web = &http.Server{Handler: o.Web, ReadHeaderTimeout: 10 * time.Second}
	go s.web.Serve(s.mem) //nolint:errcheck // ends with Close
	return s, nil
}

// ListenAndServe listens on Options.Addr and serves until Close.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.o.Addr)
	if err != nil {
		return fmt.Errorf("sshserve: listen on %s: %w", s.o.Addr, err)
	}
	return s.Serve(ln)
}

// Serve serves the connections of ln until Close.
func (s *Server) Serve(ln net.Listener) error {
	err := s.ssh.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Close closes every session and the listener.
func (s *Server) Close() error {
	err := s.ssh.Close()
	s.web.Close()
	s.mem.Close()
	return err
}

// Fingerprint returns the host key's SHA256 fingerprint, for players to
// check on their first connection.
func (s *Server) Fingerprint() string {
	if len(s.ssh.HostSigners) == 0 {
		return ""
	}
	return gossh.FingerprintSHA256(s.ssh.HostSigners[0].PublicKey())
}

// admit counts a TCP connection against its address's cap, closing it
// (nil) when the address has too many open.
func (s *Server) admit(_ ssh.Context, conn net.Conn) net.Conn {
	addr := hostOf(conn.RemoteAddr())
	if !s.conns.take(addr) {
		s.o.Logger.Info("ssh: connection refused: too many from one address", "addr", addr, "limit", s.o.PerAddress)
		return nil
	}
	return &countedConn{Conn: conn, give: func() { s.conns.give(addr) }}
}

// minRSABits is the shortest RSA key taken.
const minRSABits = 2048

// allowKey takes any key strong enough whose sessions are under their
// caps: an unknown key becomes a guest.
func (s *Server) allowKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if why := weakKey(key); why != "" {
		s.o.Logger.Info("ssh: key refused", "addr", ctx.RemoteAddr().String(), "why", why)
		return false
	}
	if fp := gossh.FingerprintSHA256(key); s.keys.full(fp) || s.addrs.full(hostOf(ctx.RemoteAddr())) {
		s.o.Logger.Info("ssh: key refused: too many sessions", "addr", ctx.RemoteAddr().String(), "key", fp)
		return false
	}
	return true
}

// weakKey says why a key is refused: DSA, or RSA shorter than
// minRSABits; "" for a key taken.
func weakKey(key ssh.PublicKey) string {
	switch key.Type() {
	case "ssh-dss": // DSA (golang.org/x/crypto/ssh.KeyAlgoDSA, deprecated)
		return "DSA keys are refused"
	case gossh.KeyAlgoRSA:
		ck, ok := key.(gossh.CryptoPublicKey)
		if !ok {
			return "an RSA key that cannot be read"
		}
		if rk, ok := ck.CryptoPublicKey().(*rsa.PublicKey); !ok || rk.N.BitLen() < minRSABits {
			return fmt.Sprintf("RSA keys shorter than %d bits are refused", minRSABits)
		}
	}
	return ""
}

// limit holds a session's place under the caps per key and per address
// for as long as it runs, refusing it when another session took the last
// place since its key was accepted.
func (s *Server) limit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		fp := gossh.FingerprintSHA256(sess.PublicKey())
		addr := hostOf(sess.RemoteAddr())
		if !s.keys.take(fp) {
			wish.Fatalln(sess, "farkle: too many sessions with this key; close one first")
			return
		}
		defer s.keys.give(fp)
		if !s.addrs.take(addr) {
			wish.Fatalln(sess, "farkle: too many sessions from this address; close one first")
			return
		}
		defer s.addrs.give(addr)
		next(sess)
	}
}

// token is the API token of the player of a key: the key's fingerprint
// signed with the host key's secret, so the same key is always the same
// player and nobody without the host key can make it.
func (s *Server) token(fingerprint string) string {
	mac := hmac.New(sha256.New, s.secret)
	mac.Write([]byte(fingerprint))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// logAdapter is the recover middleware's logger.
type logAdapter struct{ l *slog.Logger }

func (a logAdapter) Printf(format string, v ...any) { a.l.Error(fmt.Sprintf(format, v...)) }
