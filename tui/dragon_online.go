package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// Dragon Farkle at a server: the DragonModel of a local game, whose game
// is the one the server's updates bring (package online rebuilds it from
// the seat's view, so it shows the seat nothing more), whose person is
// this terminal's seat and whose bots play at the server. The person's
// actions are checked here and sent; the screen moves when the server
// says so.

func init() {
	onlineViews[game.Dragon] = func(o Options, r Remote, first RemoteUpdate) (onlineScreen, error) {
		return DragonOnline(o, r, first)
	}
}

// DragonOnline returns the screen of the Dragon Farkle game of a Remote's
// first update (the whole game, as the seat sees it).
func DragonOnline(o Options, r Remote, first RemoteUpdate) (*DragonModel, error) {
	dg, err := newDragonOnline(r, first, o.Now)
	if err != nil {
		return nil, err
	}
	m := NewDragon(DragonOptions{Game: dg, FarkleHold: o.FarkleHold, Lang: o.Lang})
	m.online = dg.online
	m.pass = false // one person at this keyboard: no hot seat
	m.remoteUpdate(first)
	return m, nil
}

// newDragonOnline is the DragonGame of a Remote's first update, for the
// screen (DragonOnline) and the line mode (RunOnlineLines) alike. The
// update itself is not taken yet.
func newDragonOnline(r Remote, first RemoteUpdate, now func() time.Time) (*DragonGame, error) {
	if first.Game == nil {
		return nil, fmt.Errorf("tui: the game at table %s has not started", first.Table)
	}
	v, ok := first.Game.Variant().(*game.DragonVariant) // this view's own variant
	if !ok {
		return nil, fmt.Errorf("tui: table %s is not Dragon Farkle", first.Table)
	}
	names := first.Game.Players()
	seats := make([]Seat, len(names))
	for i, n := range names {
		seats[i].Name = n
		if i < len(first.Seats) {
			seats[i].Bot = first.Seats[i].Bot
		}
	}
	t, _, err := startTable(v, seats, dice.Seed{}, "", now)
	if err != nil {
		return nil, err
	}
	// The bots play at the server: none here.
	return &DragonGame{table: t, v: v, game: v.Game(), bots: make([]game.Bot, len(seats)), online: &online{remote: r}}, nil
}

// remoteUpdate brings the game to what the server said and returns the
// events of the action it reports (of a welcome, Reset, none: the game
// is then the whole game, and the log's lines of a game joined mid-way
// are the server's).
func (g *DragonGame) remoteUpdate(u RemoteUpdate) []dragon.Event {
	o := g.online
	o.take(u)
	if u.Record != "" {
		g.path = u.Record
	}
	if u.Refused != "" {
		o.inFlight = 0
	}
	if u.Game == nil {
		return nil
	}
	if u.Reset {
		o.inFlight = 0
		if len(u.Events) > 0 {
			// The game's events from its start (a welcome, also after a
			// reconnect): they are the whole log, not more of it.
			g.events, g.earlier = nil, nil
		} else if len(g.events) == 0 && len(g.earlier) == 0 { // joined mid-way: the log so far as the server wrote it
			for _, l := range u.Earlier[max(0, len(u.Earlier)-dragonLogSize):] {
				g.earlier = append(g.earlier, SafeLine(l, 300))
			}
		}
	} else if o.inFlight > 0 {
		o.inFlight--
	}
	g.play.Set(u.Game)
	evs := make([]dragon.Event, 0, len(u.Events))
	for _, e := range u.Events {
		if ev, ok := e.(dragon.Event); ok { // this view's own variant's events
			evs = append(evs, ev)
		}
	}
	g.note(evs)
	if u.Reset {
		return nil
	}
	return evs
}

// errNotSent wraps the refusal of an action checked before it was sent:
// the game's own reason (DragonReason).
type errNotSent struct{ err error }

func (e errNotSent) Error() string { return e.err.Error() }
func (e errNotSent) Unwrap() error { return e.err }

// send checks a (an errNotSent of the game's reason when it is refused)
// and sends it for this terminal's seat, after the actions already on
// their way; the link's error when it has ended or the sending fails.
func (g *DragonGame) send(a dragon.Action) error {
	o := g.online
	if o.closed != nil {
		return o.closed
	}
	if err := g.Check(a); err != nil {
		return errNotSent{err}
	}
	return o.send(g.play.Game().Version(), a)
}

// Save writes a local game to its file (table.Save); a game at a server
// is kept by the server, and its record is fetched at the end.
func (g *DragonGame) Save() error {
	if g.online != nil {
		return nil
	}
	return g.table.Save()
}

// remoteUpdate brings the screen to what the server said.
func (m *DragonModel) remoteUpdate(u RemoteUpdate) {
	evs := m.g.remoteUpdate(u)
	if u.Refused != "" || u.Reset {
		m.then = dragon.Action{}
	}
	m.holder = m.online.you // the person at this keyboard, -1 for a watcher
	if u.Game == nil {
		return
	}
	if u.Reset {
		m.selAt = -1
		m.sync()
		return
	}
	m.events(evs)
}

// send checks a (the game's own reasons for a refusal) and sends it for
// this terminal's seat, after the actions already on their way.
func (m *DragonModel) send(a dragon.Action) error {
	err := m.g.send(a)
	var refused errNotSent
	switch {
	case err == nil:
		m.selAt = -1 // the selection is sent: the next update draws afresh
	case err == m.online.closed:
		m.note(true, "%s", m.waitingNote())
	case errors.As(err, &refused):
		m.note(true, "%s", m.g.reasonIn(m.lcat, refused.err))
	default:
		m.note(true, "%s", userError(m.lcat, err))
	}
	return err
}

// listen returns the command waiting for the server's next word.
func (m *DragonModel) listen() tea.Cmd {
	if m.online == nil || m.online.closed != nil {
		return nil
	}
	r := m.online.remote
	return func() tea.Msg {
		u, err := r.Next(context.Background())
		return remoteMsg{u: u, err: err}
	}
}

// remote handles the server's word and waits for the next. While the
// player's farkle is held on the table, the word waits its turn
// (farkleHold.word).
func (m *DragonModel) remote(msg remoteMsg) tea.Cmd {
	if m.online == nil {
		return nil
	}
	return tea.Batch(m.word(msg, m.online.you, m.take, m.after), m.listen()) // take first: a link that ended is not listened to
}

// take handles one word of the server.
func (m *DragonModel) take(msg remoteMsg) tea.Cmd {
	o := m.online
	if msg.err != nil {
		o.closed = msg.err
		if errors.Is(msg.err, ErrOver) || m.g.Over() {
			return nil // the server closed the finished table: nothing lost
		}
		o.status = m.tx("tui.online.disconnected", "err", userError(m.lcat, msg.err))
		m.note(true, "%s", m.tx("tui.online.lost", "err", userError(m.lcat, msg.err)))
		return nil
	}
	asked := o.rematch
	m.remoteUpdate(msg.u)
	if msg.u.Refused != "" {
		m.note(true, "%s", refusedIn(m.lcat, msg.u))
	}
	if msg.u.Rematch != "" && asked == "" && o.you >= 0 {
		m.note(false, "%s", m.tx("tui.online.rematchAsked"))
	}
	if t := m.then; t.Kind != 0 && o.inFlight == 0 && msg.u.Game != nil {
		m.then = dragon.Action{}
		if v := m.view(); v.Phase == dragon.PhaseRoll && m.deciding() {
			m.send(t) // keep & throw (or stop): the second half, now that the keep is played
		}
	}
	return tea.Batch(m.after(), m.tickClock(), m.callToPlay())
}

// tickClock returns the command redrawing a running turn clock each
// second.
func (m *DragonModel) tickClock() tea.Cmd {
	if m.online == nil || m.online.clock.Deadline.IsZero() || m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockTickMsg{} })
}

// callToPlay rings the terminal's bell once when the game comes to this
// terminal's player: once for the turn, not for each of its decisions.
func (m *DragonModel) callToPlay() tea.Cmd {
	o := m.online
	was := o.calledTo
	if o.calledTo = m.called(); !o.calledTo || was {
		return nil
	}
	return tea.Raw("\a")
}

// called reports whether the game at the server waits for this
// terminal's player (an action of theirs in flight included, so that
// the turn is one call).
func (m *DragonModel) called() bool {
	return m.online != nil && !m.g.Over() && !m.g.BotToAct() && m.holder == m.g.ToAct()
}

// onlineLine is the line under the header at a server; "" for a local
// game.
func (m *DragonModel) onlineLine() string {
	if m.online == nil {
		return ""
	}
	return onlineLineIn(m.lcat, m.st, m.online, m.g.Names(), m.g.Over(), m.width)
}

// windowTitle is the terminal's title at a server: it says when the game
// waits for the player.
func (m *DragonModel) windowTitle() string {
	switch {
	case m.online == nil:
		return ""
	case m.called():
		return m.tx("tui.online.titleTurn", "table", m.online.table)
	}
	return m.tx("tui.online.title", "table", m.online.table)
}

// waitingNote says why a key does nothing while the game waits for
// another seat or the server.
func (m *DragonModel) waitingNote() string {
	return waitingNoteIn(m.lcat, m.online, m.g.Names(), m.g.ToAct())
}

// overKeys says what keys do once the game is over.
func (m *DragonModel) overKeys() string {
	if m.online != nil {
		return overNoteIn(m.lcat, m.online)
	}
	return m.tx("dragon.tui.overKeys")
}

// onlineAgain is p at the end of a game at a server: the rematch, for a
// player of the game.
func (m *DragonModel) onlineAgain() tea.Cmd {
	o := m.online
	if o.you < 0 {
		m.note(true, "%s", m.overKeys())
		return nil
	}
	m.note(false, "%s", m.tx("tui.online.rematching"))
	table := o.table
	return func() tea.Msg { return rematchMsg{table: table} }
}

// left implements onlineScreen.
func (m *DragonModel) left() bool { return m.online != nil && m.online.leaving }

// link implements onlineScreen.
func (m *DragonModel) link() Remote { return m.online.remote }

// resize implements onlineScreen.
func (m *DragonModel) resize(st styles, width, height int) {
	m.st, m.width, m.height = st, width, height
}

// result implements onlineScreen.
func (m *DragonModel) result() (Result, bool) {
	if !m.g.Over() {
		return Result{}, false
	}
	return Result{Winners: m.g.WinnersIn(m.lcat), Record: m.g.Path()}, true
}
