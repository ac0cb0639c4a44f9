package tui

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
)

// OnlineLinesOptions configure the line mode at a server.
type OnlineLinesOptions struct {
	Options        // Advisor and Lang
	Link    string // the table's link, for friends while it waits
}

// RunOnlineLines plays the ordinary game of a Remote in line mode (farkle
// play --online --plain, for scripts and screen readers): the lines and
// commands of the local line mode (RunLines), the other seats' moves
// printed as the server sends them, and this player's throws at the start
// of a turn sent by itself. It ends at the end of the game (the winners,
// and where the record is), at quit or at the end of in; the game goes on
// at the server.
func RunOnlineLines(ctx context.Context, r Remote, in io.Reader, out io.Writer, o OnlineLinesOptions) error {
	w := bufio.NewWriter(out)
	c := orEnglish(o.Lang)
	ups := make(chan remoteMsg)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			u, err := r.Next(ctx)
			select {
			case ups <- remoteMsg{u: u, err: err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	input := readLines(in, stop)
	// The table may wait for its players.
	var first RemoteUpdate
	for waited := false; first.Game == nil; {
		if err := w.Flush(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case m := <-ups:
			if m.err != nil {
				sayTo(w, "%s", c.Msg("tui.online.lost", "err", userError(c, m.err)))
				return errors.Join(w.Flush(), m.err)
			}
			first = m.u
			if first.Game == nil && !waited {
				sayTo(w, "%s", c.Msg("tui.lobby.waiting"))
				if o.Link != "" {
					sayTo(w, "%s", c.Msg("tui.lobby.link", "link", o.Link))
				}
				waited = true
			}
		case line := <-input:
			if line.eof || lineWord(line.text) == "quit" {
				return w.Flush()
			}
			sayTo(w, "%s", c.Msg("tui.lobby.waiting"))
		}
	}
	if first.Game.Variant().Kind() != game.Farkle {
		return errors.New(c.Msg("tui.online.plainFarkle"))
	}
	g, err := newOnlineGame(r, first)
	if err != nil {
		return err
	}
	g.SetLang(o.Lang)
	adv := o.Advisor
	if adv == nil {
		adv = PointsAdvisor{}
	}
	l := &lines{g: g, w: w, adv: adv, c: g.Lang()}
	l.intro()
	for {
		if err := l.autoThrow(); err != nil {
			l.msg("tui.lines.error", "err", userError(c, err))
		}
		if g.Over() {
			l.say("%s", g.Winners())
			l.saved()
			return w.Flush()
		}
		if err := w.Flush(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return w.Flush()
		case m := <-ups:
			if m.err != nil {
				if errors.Is(m.err, ErrOver) {
					continue
				}
				l.msg("tui.online.lost", "err", userError(c, m.err))
				return errors.Join(w.Flush(), m.err)
			}
			ended := g.online.ended
			g.remoteUpdate(m.u)
			if g.online.ended != "" && ended == "" {
				l.say("%s", g.online.endedLineIn(orEnglish(c)))
			}
			if m.u.Refused != "" {
				l.msg("tui.lines.error", "err", refusedIn(c, m.u))
			}
			if m.u.Game != nil && !m.u.Reset {
				l.events(engineEvents(m.u.Events))
				l.prompt()
			}
		case line := <-input:
			if line.eof {
				return errors.Join(w.Flush(), line.err)
			}
			if w := lineWord(line.text); g.Waiting() && w != "quit" && w != "score" && w != "help" {
				l.say("%s", waitingNoteIn(c, g.online, g.Names(), g.Actor()))
				continue
			}
			if l.command(line.text) {
				return w.Flush()
			}
		}
	}
}

// lineWord is the command a line begins with ("" for none).
func lineWord(line string) string {
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 {
		return ""
	}
	return lineWords[f[0]]
}

// autoThrow sends this player's throw when one is due and nothing waits
// for the server: the roll-off die, and the first throw of a turn, as the
// local line mode throws them.
func (l *lines) autoThrow() error {
	g := l.g
	o := g.online
	s := g.State()
	if g.Over() || o.inFlight > 0 || o.closed != nil || o.you < 0 || s.Actor() != o.you {
		return nil
	}
	switch {
	case s.Phase != engine.PhasePlay:
		return o.send(s, engine.RollOffBy(o.you))
	case s.Step == engine.StepThrow:
		return o.send(s, engine.ThrowBy(o.you))
	}
	return nil
}
