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

// RunOnlineLines plays the game of a Remote in line mode (farkle play
// --online --plain, for scripts and screen readers): the lines and
// commands of the local line mode of its kind (RunLines, RunDragonLines),
// the other seats' moves printed as the server sends them, and in the
// ordinary game this player's throws at the start of a turn sent by
// itself. A move is checked here before it is sent: a refused one prints
// "error: ..." and changes nothing. It ends at the end of the game (the
// winners, and where the record is), at quit or at the end of in; the
// game goes on at the server.
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
	var d onlineLines
	switch first.Game.Variant().Kind() {
	case game.Dragon:
		dg, err := newDragonOnline(r, first, nil)
		if err != nil {
			return err
		}
		dg.remoteUpdate(first)
		d = &dragonLines{g: dg, w: w, c: c}
	default:
		g, err := newOnlineGame(r, first)
		if err != nil {
			return err
		}
		g.SetLang(o.Lang)
		adv := o.Advisor
		if adv == nil {
			adv = PointsAdvisor{}
		}
		d = &lines{g: g, w: w, adv: adv, c: g.Lang()}
	}
	d.intro()
	for {
		if err := d.act(); err != nil {
			d.failed(userError(c, err))
		}
		if d.over() {
			d.say("%s", d.winners())
			d.saved()
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
				sayTo(w, "%s", c.Msg("tui.online.lost", "err", userError(c, m.err)))
				return errors.Join(w.Flush(), m.err)
			}
			o := d.link()
			ended := o.ended
			d.take(m.u)
			if o.ended != "" && ended == "" {
				d.say("%s", o.endedLineIn(c))
			}
			if m.u.Refused != "" {
				d.failed(refusedIn(c, m.u))
			}
		case line := <-input:
			if line.eof {
				return errors.Join(w.Flush(), line.err)
			}
			if d.play(line.text) {
				return w.Flush()
			}
		}
	}
}

// onlineLines is a game's side of the line mode at a server (lines,
// dragonLines): lineDriver's, and what RunOnlineLines asks of the game.
type onlineLines interface {
	lineDriver
	intro()
	// act sends this player's move that needs no decision, if one is due.
	act() error
	over() bool
	winners() string
	// take brings the game to the server's update and prints what
	// happened, then what the player may do.
	take(u RemoteUpdate)
	// failed prints an error line: a move refused, or not sent.
	failed(why string)
	// play carries out one line of input at the server.
	play(line string) (quit bool)
	link() *online
}

func (l *lines) act() error        { return l.autoThrow() }
func (l *lines) over() bool        { return l.g.Over() }
func (l *lines) winners() string   { return l.g.Winners() }
func (l *lines) link() *online     { return l.g.online }
func (l *lines) failed(why string) { l.msg("tui.lines.error", "err", why) }

// take implements onlineLines.
func (l *lines) take(u RemoteUpdate) {
	l.g.remoteUpdate(u)
	if u.Game != nil && !u.Reset {
		l.events(engineEvents(u.Events))
		l.prompt()
	}
}

// play implements onlineLines: command, but while the game waits for
// another seat or the server only quit, score and help are run.
func (l *lines) play(line string) (quit bool) {
	if w := lineWord(line); l.g.Waiting() && w != "quit" && w != "score" && w != "help" {
		l.say("%s", waitingLineIn(l.c, l.g.online, l.g.Names(), l.g.Actor()))
		return false
	}
	return l.command(line)
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
		return o.send(s.Version, engine.RollOffBy(o.you))
	case s.Step == engine.StepThrow:
		return o.send(s.Version, engine.ThrowBy(o.you))
	}
	return nil
}
