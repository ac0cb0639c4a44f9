package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/farkle/farkle/sshserve"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/tui"
)

// serveSSH is the SSH front end of farkle serve (--ssh): the terminal
// game in the player's terminal, over the same server.
type serveSSH struct {
	Addr       string        // "": no SSH front end
	HostKey    string        // the host key file; "": ssh_host_ed25519_key in the data directory
	PerKey     int           // sessions open at once with one key (0: no cap)
	PerAddress int           // sessions (and TCP connections) from one address (0: no cap)
	Idle       time.Duration // a session without a key pressed for that long is closed (0: never)

	srv   *sshserve.Server
	Addr0 string // the address it listens on, set by start
}

// sshFlags registers the flags of the SSH front end; the function it
// returns checks them and sets them in m.
func sshFlags(fs *flag.FlagSet, getenv func(string) string) func(m *serveMain) error {
	var s serveSSH
	fs.StringVar(&s.Addr, "ssh", "", "also serve the terminal game over SSH on this address (e.g. :2222; port 0 picks a free port)")
	fs.StringVar(&s.HostKey, "ssh-host-key", "", "the SSH host key `FILE`, made when missing (default: ssh_host_ed25519_key in $FARKLE_DATA_DIR, else beside a --db file, else the working directory)")
	fs.IntVar(&s.PerKey, "ssh-per-key", 3, "SSH sessions open at once with one key (0: no cap)")
	fs.IntVar(&s.PerAddress, "ssh-per-address", 8, "SSH sessions, and TCP connections, open at once from one client address (0: no cap)")
	fs.DurationVar(&s.Idle, "ssh-idle", 30*time.Minute, "close an SSH session after this long without a key pressed (0: never)")
	return func(m *serveMain) error {
		if s.Addr == "" {
			return nil
		}
		if s.PerKey < 0 || s.PerAddress < 0 || s.Idle < 0 {
			return usagef("--ssh-per-key, --ssh-per-address and --ssh-idle cannot be negative")
		}
		if s.HostKey == "" {
			dir := filepath.Dir(m.DB)
			if postgres.IsAddress(m.DB) {
				dir = "." // a database URL has no directory
			}
			if d := getenv("FARKLE_DATA_DIR"); d != "" {
				dir = d
			}
			s.HostKey = filepath.Join(dir, "ssh_host_ed25519_key")
		}
		m.SSH = s
		return nil
	}
}

// start serves the SSH front end of m's server; failures of its listener
// go to m.failed.
func (s *serveSSH) start(m *serveMain, advisor tui.Advisor) error {
	if s.Addr == "" {
		return nil
	}
	srv, err := sshserve.New(sshserve.Options{
		Addr: s.Addr, HostKey: s.HostKey, Web: m.srv.Handler(), Players: m.srv, PublicURL: m.publicURL(),
		Rules: m.Rules, Advisor: advisor, PerKey: s.PerKey, PerAddress: s.PerAddress, Idle: s.Idle, Logger: m.Logger,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		srv.Close()
		return fmt.Errorf("listen for SSH on %s: %w", s.Addr, err)
	}
	s.srv, s.Addr0 = srv, ln.Addr().String()
	go func() {
		if err := srv.Serve(ln); err != nil {
			m.failed <- fmt.Errorf("ssh: %w", err)
		}
	}()
	m.Logger.Info("ssh", "addr", s.Addr0, "host_key", s.HostKey, "fingerprint", srv.Fingerprint())
	return nil
}

// close stops the SSH front end.
func (s *serveSSH) close() error {
	if s.srv == nil {
		return nil
	}
	err := s.srv.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// publicURL is the web game's address as players reach it.
func (m *serveMain) publicURL() string {
	if m.Options.PublicURL != "" {
		return m.Options.PublicURL
	}
	return m.URL
}

// terminalAdvisor values the choices for the hint key of SSH players: the
// server's solver results when it has them.
func (m *serveMain) terminalAdvisor() tui.Advisor {
	if m.Tables == nil {
		return tui.PointsAdvisor{}
	}
	return tui.NewSolverAdvisor(m.Tables)
}
