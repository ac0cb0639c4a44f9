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
	PerAddress int           // sessions open at once from one address (0: no cap)
	Idle       time.Duration // a session without a key pressed for that long is closed (0: never)
	Bounds     sshBounds     // the bounds of connections, channels and requests

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
	fs.IntVar(&s.PerAddress, "ssh-per-address", 8, "SSH sessions open at once from one client address (0: no cap)")
	fs.DurationVar(&s.Idle, "ssh-idle", 30*time.Minute, "close an SSH session after this long without a key pressed (0: never)")
	bounds := sshBoundFlags(fs)
	return func(m *serveMain) error {
		if s.Addr == "" {
			return nil
		}
		if s.PerKey < 0 || s.PerAddress < 0 || s.Idle < 0 {
			return usagef("--ssh-per-key, --ssh-per-address and --ssh-idle cannot be negative")
		}
		b, err := bounds()
		if err != nil {
			return err
		}
		s.Bounds = b
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

// sshBounds bound what one SSH client may hold and ask for (sshserve.Options).
type sshBounds struct {
	Sessions int           // sessions open at once in all (0: no cap)
	Conns    int           // TCP connections open at once from one address (0: no cap)
	Channels int           // channels open at once on one connection (0: no cap)
	Env      int           // environment variables a session keeps (0: no cap)
	Window   sshserve.Size // the largest window drawn (zero: none)
	Cells    int           // the cells of every session's window together (0: no bound)
	Rate     float64       // requests a second on one connection (0: no pace)
	Burst    int           // the burst of Rate
}

// sshBoundFlags registers the flags of sshBounds; the function it returns
// checks them.
func sshBoundFlags(fs *flag.FlagSet) func() (sshBounds, error) {
	b := sshBounds{Window: sshserve.Size{Cols: 500, Rows: 200}}
	fs.IntVar(&b.Sessions, "ssh-sessions", 100, "SSH sessions open at once in all; past it a key is told the server is full (0: no cap)")
	fs.IntVar(&b.Conns, "ssh-conns-per-address", 10, "TCP connections open at once to the SSH port from one client address; past it a connection is closed before the handshake (0: no cap)")
	fs.IntVar(&b.Channels, "ssh-channels", 4, "channels open at once on one SSH connection; only sessions are served (0: no cap)")
	fs.IntVar(&b.Env, "ssh-env", 64, "environment variables an SSH session keeps, each at most 1 KiB; the rest are refused (0: no cap)")
	fs.Func("ssh-max-window", "the largest `COLSxROWS` an SSH session is drawn in: larger pty and window-change sizes are clamped to it, pixel sizes to 64 a cell (default 500x200; 0: none)", func(v string) error {
		w, err := sshserve.ParseSize(v)
		b.Window = w
		return err
	})
	fs.IntVar(&b.Cells, "ssh-cells", 1_000_000, "the character cells of every SSH session's window together (a screen costs about 240 bytes a cell: the default bounds them near 240 MiB); a window that does not fit is drawn smaller, and a session is refused its terminal when not even 40x12 fit (0: no bound)")
	fs.Float64Var(&b.Rate, "ssh-rate", 20, "requests a second on one SSH connection (env, pty, window changes, signals, keepalives…); past it and the burst each waits its turn (0: no pace)")
	fs.IntVar(&b.Burst, "ssh-burst", 100, "the burst of --ssh-rate")
	return func() (sshBounds, error) {
		for _, f := range []struct {
			name string
			v    float64
		}{{"ssh-sessions", float64(b.Sessions)}, {"ssh-conns-per-address", float64(b.Conns)}, {"ssh-channels", float64(b.Channels)},
			{"ssh-env", float64(b.Env)}, {"ssh-cells", float64(b.Cells)}, {"ssh-rate", b.Rate}, {"ssh-burst", float64(b.Burst)}} {
			if f.v < 0 {
				return b, usagef("--%s %g: cannot be negative (0 turns it off)", f.name, f.v)
			}
		}
		if b.Rate > 0 && b.Burst < 1 {
			return b, usagef("--ssh-burst %d: must be at least 1 with --ssh-rate %g", b.Burst, b.Rate)
		}
		return b, nil
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
		Sessions: s.Bounds.Sessions, ConnsPerAddress: s.Bounds.Conns, Channels: s.Bounds.Channels, Env: s.Bounds.Env,
		MaxWindow: s.Bounds.Window, Cells: s.Bounds.Cells, RequestRate: s.Bounds.Rate, RequestBurst: s.Bounds.Burst,
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
