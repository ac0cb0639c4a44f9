package sshserve

import (
	"context"
	"strings"
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

// play is the middleware running the lobby of a session's player.
func (s *Server) play() wish.Middleware {
	return bubbletea.MiddlewareWithProgramHandler(func(sess ssh.Session) *tea.Program {
		lc := sessionLang(sess.Environ())
		lm, c, err := s.lobby(sess, lc)
		if err != nil {
			s.o.Logger.Warn("ssh: a session could not start", "addr", sess.RemoteAddr().String(), "err", err)
			wish.Fatalln(sess, "farkle: "+lc.Msg("cli.ssh.cannotStart", "why", err.Error()))
			return nil
		}
		s.o.Logger.Info("ssh: session started", "addr", sess.RemoteAddr().String(), "user", sess.User(), "lang", lc.Code)
		var last atomic.Int64 // the time of the last key, in Unix nanoseconds
		last.Store(time.Now().UnixNano())
		filter := func(_ tea.Model, msg tea.Msg) tea.Msg {
			switch msg.(type) {
			case tea.SuspendMsg:
				return tea.ResumeMsg{} // ctrl+z would stop the session's program, not the player's shell
			case tea.KeyPressMsg, tea.PasteMsg, tea.MouseClickMsg:
				last.Store(time.Now().UnixNano())
			}
			return msg
		}
		p := tea.NewProgram(lm, append(bubbletea.MakeOptions(sess), tea.WithFilter(filter))...)
		go s.watch(sess, p, c, &last)
		return p
	})
}

// watch ends a session's program after Options.Idle without a key, and
// closes its links to the tables when the session ends.
func (s *Server) watch(sess ssh.Session, p *tea.Program, c *online.Client, last *atomic.Int64) {
	defer c.Close()
	if s.o.Idle <= 0 {
		<-sess.Context().Done()
		return
	}
	t := time.NewTimer(s.o.Idle)
	defer t.Stop()
	for {
		select {
		case <-sess.Context().Done():
			return
		case <-t.C:
			idle := time.Since(time.Unix(0, last.Load()))
			if idle >= s.o.Idle {
				s.o.Logger.Info("ssh: idle session closed", "addr", sess.RemoteAddr().String(), "idle", idle.Round(time.Second))
				p.Quit()
				sess.Close()
				return
			}
			t.Reset(s.o.Idle - idle)
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
