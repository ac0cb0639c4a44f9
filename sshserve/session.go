package sshserve

import (
	"context"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/tui"
)

// webBase is the address the sessions' requests name; they never leave
// the process (memListener).
const webBase = "http://farkle-ssh.invalid"

// handler is the handler of the session st: its lobby, with a panic
// logged rather than taken down the server.
func (s *Server) handler(st *session) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				s.o.Logger.Error("ssh: a session failed", "addr", sess.RemoteAddr().String(), "panic", r, "stack", string(debug.Stack()))
			}
		}()
		s.play(sess, st)
	}
}

// play runs the lobby of the session's player in its terminal until the
// player quits, the session ends (the client closes it or goes away),
// or it is left idle.
func (s *Server) play(sess ssh.Session, st *session) {
	lc := sessionLang(sess.Environ())
	st.tell(sess.Stderr(), lc)
	if _, _, ok := sess.Pty(); !ok {
		wish.Println(sess, "Requires an active PTY")
		sess.Exit(1) //nolint:errcheck // gone: nothing to do
		return
	}
	lm, c, err := s.lobby(sess, lc)
	if err != nil {
		s.o.Logger.Warn("ssh: a session could not start", "addr", sess.RemoteAddr().String(), "err", err)
		wish.Fatalln(sess, "farkle: "+lc.Msg("cli.ssh.cannotStart", "why", err.Error()))
		return
	}
	defer c.Close()
	start := time.Now()
	s.o.Logger.Info("ssh: session started", "addr", sess.RemoteAddr().String(), "user", sess.User(), "lang", lc.Code)
	var last atomic.Int64 // the time of the last key, in Unix nanoseconds
	last.Store(start.UnixNano())
	// sized is closed once the program has taken its first size, the
	// pty's as asked for at the start: only then does watch send it the
	// window changes since (st.resized keeps the latest). The program
	// sends itself that first size from a goroutine of its own, so a
	// change sent at once could come before it and be undone by it: the
	// table drawn at the pty's first size in a larger window until the
	// next change (a window resized while the session signed in).
	sized := make(chan struct{})
	var sizedOnce sync.Once
	filter := func(_ tea.Model, msg tea.Msg) tea.Msg {
		switch msg.(type) {
		case tea.WindowSizeMsg:
			sizedOnce.Do(func() { close(sized) })
		case tea.SuspendMsg:
			return tea.ResumeMsg{} // ctrl+z would stop the session's program, not the player's shell
		case tea.KeyPressMsg, tea.PasteMsg, tea.MouseClickMsg:
			last.Store(time.Now().UnixNano())
		}
		return msg
	}
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	p := tea.NewProgram(lm, append(bubbletea.MakeOptions(sess), tea.WithFilter(filter), tea.WithContext(ctx))...)
	ended := make(chan struct{})
	why := make(chan string, 1)
	go func() { why <- s.watch(sess, st, p, sized, &last, kill, ended) }()
	p.Run() //nolint:errcheck // a killed program's error says only that
	close(ended)
	s.o.Logger.Info("ssh: session ended", "addr", sess.RemoteAddr().String(), "user", sess.User(), "why", <-why, "after", time.Since(start).Round(time.Millisecond))
	st.tell(sess.Stderr(), lc) // what was bounded while it ran
}

// killGrace is how long a session's program may take to end once told;
// past it the connection is closed, which ends any write the client has
// stopped reading.
const killGrace = 5 * time.Second

// watch follows the session's window changes into its program p, once p
// has taken its first size (sized is closed), and ends p (kill) at once
// when the session ends (the client closed it or its connection
// dropped), or after Options.Idle without a key; it returns, once p has
// ended (ended is closed), why it ended.
func (s *Server) watch(sess ssh.Session, st *session, p *tea.Program, sized <-chan struct{}, last *atomic.Int64, kill func(), ended <-chan struct{}) string {
	var resized <-chan Size   // nil until p has its first size
	var idle <-chan time.Time // nil without Options.Idle: never
	if s.o.Idle > 0 {
		idle = time.After(s.o.Idle)
	}
	end := func(why string) string {
		select {
		case <-ended:
			return "quit" // it ended first
		default:
		}
		kill()
		select {
		case <-ended:
		case <-time.After(killGrace):
			s.o.Logger.Warn("ssh: a session's program did not end: closing its connection", "addr", sess.RemoteAddr().String())
			if sc, ok := sess.Context().Value(ssh.ContextKeyConn).(*gossh.ServerConn); ok {
				sc.Close()
			}
			<-ended
		}
		return why
	}
	for {
		select {
		case <-ended:
			return "quit"
		case <-st.gone:
			return end("hang-up")
		case <-sess.Context().Done():
			return end("hang-up")
		case <-sized:
			sized, resized = nil, st.resized
		case w := <-resized:
			p.Send(tea.WindowSizeMsg{Width: w.Cols, Height: w.Rows}) // returns at once once p has ended
		case <-idle:
			d := time.Since(time.Unix(0, last.Load()))
			if d >= s.o.Idle {
				st.note(refusal{"cli.ssh.idle", []any{"idle", s.o.Idle.String()}})
				return end("idle")
			}
			idle = time.After(s.o.Idle - d)
		}
	}
}

// sessionLang returns the language the session's environment asks for:
// LANG, LC_ALL, LC_MESSAGES and LANGUAGE as an ssh client sends them
// (SendEnv), read as lang.FromEnv reads a program's; English when none is
// sent or none names a language there is a catalogue for.
func sessionLang(environ []string) *lang.Catalogue {
	return lang.Get(lang.FromEnv(func(name string) string {
		for i := len(environ) - 1; i >= 0; i-- { // the last one sent counts
			if k, v, ok := strings.Cut(environ[i], "="); ok && k == name {
				return v
			}
		}
		return ""
	}))
}

// lobby signs the session's key in as its player and returns the lobby,
// in the language lc.
func (s *Server) lobby(sess ssh.Session, lc *lang.Catalogue) (*tui.LobbyModel, *online.Client, error) {
	fp := gossh.FingerprintSHA256(sess.PublicKey())
	tok := s.token(fp)
	ctx, cancel := context.WithTimeout(sess.Context(), 15*time.Second)
	defer cancel()
	if _, err := s.o.Players.PlayerForKey(ctx, fp, sess.User(), tok); err != nil {
		return nil, nil, err
	}
	c := online.NewHTTP(webBase, s.mem.client(sess.RemoteAddr()))
	c.LinkBase = s.o.PublicURL
	c.Lang = lc.Code // the log of a Dragon Farkle game joined mid-way, as the server writes it
	p, err := c.SignIn(ctx, "", tok)
	if err != nil {
		return nil, nil, err
	}
	lm := tui.NewLobby(tui.LobbyOptions{
		Options: tui.Options{Rules: s.o.Rules, Advisor: s.o.Advisor, Lang: lc},
		Server:  "ssh", Player: p.Name,
	}, c)
	return lm, c, nil
}
