package sshserve

import (
	"context"
	"crypto/hmac"
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
	// PerKey, PerAddress and Sessions cap the sessions open at once with
	// one key, from one client address and in all; a session counts from
	// the opening of its channel to its close (0: no cap).
	PerKey, PerAddress, Sessions int
	// ConnsPerAddress caps the TCP connections open at once from one
	// client address; past it a connection is closed before the SSH
	// handshake (0: no cap).
	ConnsPerAddress int
	// Channels caps the channels open at once on one connection (0: no
	// cap); channels of other types than "session" are refused.
	Channels int
	// Env caps the environment variables a session keeps (each at most
	// 1 KiB, name and value); past it they are refused (0: no cap).
	Env int
	// MaxWindow is the largest window a session is drawn in: a pty or
	// window-change request for a larger one is clamped to it, before
	// anything is drawn (zero: no bound).
	MaxWindow Size
	// Cells bounds the cells of every session's window together (a
	// screen costs about 240 bytes a cell): a window that does not fit in
	// what the other sessions leave is drawn smaller, keeping its shape,
	// and a pty is refused when not even 40×12 fit (0: no bound).
	Cells int
	// RequestRate and RequestBurst pace the requests of one connection
	// (a session's env, pty, window changes, signals…, and global
	// requests): RequestRate a second after a burst of RequestBurst; a
	// request past them waits its turn, and the connection's others with
	// it (0: no pace).
	RequestRate  float64
	RequestBurst int
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

	keys, addrs, all, conns *counter
	cells                   *cellPool
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
	s := &Server{o: o, mem: newMemListener(),
		keys: newCounter(o.PerKey), addrs: newCounter(o.PerAddress), all: newCounter(o.Sessions), conns: newCounter(o.ConnsPerAddress),
		cells: &cellPool{limit: o.Cells}}
	srv, err := wish.NewServer(
		wish.WithAddress(o.Addr),
		wish.WithHostKeyPath(o.HostKey),
		wish.WithPublicKeyAuth(s.allowKey),
	)
	if err != nil {
		return nil, fmt.Errorf("sshserve: %w", err)
	}
	srv.HandshakeTimeout = o.Handshake
	srv.ConnCallback = s.admit
	srv.ServerConfigCallback = s.config
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel, "default": s.otherChannel}
	srv.RequestHandlers = map[string]ssh.RequestHandler{"default": s.globalRequest}
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
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

// token is the API token of the player of a key: the key's fingerprint
// signed with the host key's secret, so the same key is always the same
// player and nobody without the host key can make it.
func (s *Server) token(fingerprint string) string {
	mac := hmac.New(sha256.New, s.secret)
	mac.Write([]byte(fingerprint))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}
