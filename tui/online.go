package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
)

// Remote is a game played at a table of a farkle server (package online
// speaks the server's protocol). The terminal plays it with the same
// screen as a local game of its kind: the person's actions go to the
// server, and the game moves only when the server says so.
type Remote interface {
	// Act sends the seat's action, chosen at the game version.
	Act(version int, a game.Action) error
	// Next waits for what the server says next; an error ends the game's
	// link for good (the Remote has given up reconnecting, or ctx ended).
	Next(ctx context.Context) (RemoteUpdate, error)
	// Close ends the link (the player left the table).
	Close()
}

// ErrOver ends the link of a finished game once the server closes it (a
// Remote's Next returns an error wrapping it): nothing is lost.
var ErrOver = errors.New("the game is over")

// RemoteUpdate is what the server said: the game after an action (or the
// whole game, on connecting), the table's seats and clock, and anything
// the player should read.
type RemoteUpdate struct {
	// Game is the game now; nil: unchanged. Its kind decides the screen.
	Game game.Game
	// Events are what happened to reach Game: of one action, or (Reset)
	// every event from the start that the seat may know, for the log.
	Events []game.Event
	// Reset says Game and Events are the whole game (a welcome).
	Reset bool
	// Earlier are the log's lines, as the server wrote them, of what
	// happened before Events begin: a game joined mid-way whose events
	// the terminal cannot rebuild (Dragon Farkle). With Reset only.
	Earlier []string
	// Seats are the players (a bot seat with its level); nil: unchanged.
	Seats []Seat
	// You is the seat of this terminal, -1 when it watches.
	You int
	// Table is the table's id.
	Table string
	// Clock is the turn clock; its Deadline is zero when none runs.
	Clock Clock
	// Refused is the server's refusal of the last action sent (nothing
	// changed), in its words (English); RefusedCode is its code
	// ("not_your_turn", "stale", ...), which the terminal says in its
	// language (refusedIn).
	Refused     string
	RefusedCode string
	// Record is the file the finished game's record was saved to, or
	// the address to download it from; "" for neither.
	Record string
	// Status is the state of the link: "" while connected, else e.g.
	// "connection lost; reconnecting…".
	Status string
	// Ended is how the table ended without its game, as the server's
	// message names it: "expired" (nobody joined in time) or "failed"; ""
	// while it lives. The terminal says it in its language (endedIn);
	// EndReason is the server's own words for it (English).
	Ended, EndReason string
	// Rematch is the table of the rematch a player asked for once the
	// game ended ("" for none yet).
	Rematch string
	// Reconnecting is the try of connecting again after the connection
	// dropped (from 1); 0 while connected.
	Reconnecting int
	// Ratings are the rating changes of the finished game when it was
	// rated (the people's; a bot's rating is a fixed anchor); Unrated is
	// why a game of a rated family moved none, as the server's code says
	// it ("bots", "short", "aborted"), "" for none.
	Ratings []RatingChange
	Unrated string
}

// RatingChange is a person's rating before and after a rated game.
type RatingChange struct {
	Name          string
	Before, After float64
	You           bool // the player at this terminal
}

// Clock is a table's turn clock as the terminal shows it.
type Clock struct {
	Seat     int       // the seat whose time runs
	Deadline time.Time // when it runs out; zero: no clock runs
	Seconds  int       // the time for each decision; 0: the table has no clock
}

// online is what a Game played at a server has beyond a local one.
type online struct {
	remote   Remote
	you      int
	table    string
	clock    Clock
	status   string
	ended    string // RemoteUpdate.Ended
	reason   string // RemoteUpdate.EndReason
	inFlight int    // actions sent and not yet answered
	closed   error
	rematch  string // the rematch asked for, if any
	trying   int    // the reconnect being tried, 0 while connected
	leaving  bool   // the player left the table (q): the lobby takes over
	calledTo bool   // the player was called to play (the bell rang) and has not yet passed the game on
	ratings  []RatingChange
	unrated  string
	tally    []playerStats // each player's farkles and best turn, of the events sent from the start (the record is the server's)
}

// remoteMsg carries a RemoteUpdate to the Model (err: the link ended).
type remoteMsg struct {
	u   RemoteUpdate
	err error
}

// clockTickMsg redraws the turn clock.
type clockTickMsg struct{}

// newOnlineGame is the Game of the first update of a Remote (a welcome).
func newOnlineGame(r Remote, u RemoteUpdate) (*Game, error) {
	if u.Game == nil {
		return nil, fmt.Errorf("tui: the game at table %s has not started", u.Table)
	}
	play, _, err := game.Start(u.Game.Variant(), u.Game.Players(), dice.Seed{})
	if err != nil {
		return nil, err
	}
	g := &Game{table: &table{play: play, seats: u.Seats, now: time.Now}, online: &online{remote: r}}
	g.bots = make([]game.Bot, len(u.Seats)) // the bots play at the server
	g.remoteUpdate(u)
	return g, nil
}

// Online returns the model of a game at a server, from the Remote's first
// update (the whole game). o.Game, o.Rules, o.Seats, o.Seed and o.GamesDir
// are not used: the server keeps the game.
func Online(o Options, r Remote, first RemoteUpdate) (*Model, error) {
	g, err := newOnlineGame(r, first)
	if err != nil {
		return nil, err
	}
	o.Game, o.GamesDir, o.BotDelay = g, "", 0
	return New(o), nil
}

// remoteUpdate brings the game to what the server said.
func (g *Game) remoteUpdate(u RemoteUpdate) {
	o := g.online
	o.take(u)
	if u.Seats != nil {
		g.seats = u.Seats
	}
	if u.Record != "" {
		g.path = u.Record
	}
	if u.Refused != "" {
		o.inFlight = 0
	}
	if u.Game == nil {
		return
	}
	if u.Reset {
		g.log, g.keeps, o.inFlight = nil, nil, 0
		o.tally = make([]playerStats, len(u.Game.Players()))
	} else if o.inFlight > 0 {
		o.inFlight--
	}
	g.play.Set(u.Game)
	for _, e := range u.Events {
		if ev, ok := e.(engine.Event); ok { // this screen's own variant's events
			g.note(ev)
			countEvent(o.tally, ev)
		}
	}
}

// send sends a, chosen at the game's version, for the seat of this
// terminal, after the actions already on their way.
func (o *online) send(version int, a game.Action) error {
	if o.closed != nil {
		return o.closed
	}
	if err := o.remote.Act(version+o.inFlight, a); err != nil {
		return err
	}
	o.inFlight++
	return nil
}

// autoToAct reports whether this terminal's roll-off throw is due (it is
// thrown for the player, as in a local game).
func (o *online) autoToAct(s engine.State) bool {
	return !s.Over() && o.inFlight == 0 && s.Phase != engine.PhasePlay && s.Actor() == o.you && o.closed == nil
}

// Waiting reports whether the game is waiting for something other than
// this terminal's player: another seat's move at the server, or the
// answer to an action sent. A local game never waits.
func (g *Game) Waiting() bool {
	o := g.online
	if o == nil {
		return false
	}
	return !g.Over() && (o.inFlight > 0 || g.Actor() != o.you || o.closed != nil)
}

// Online reports whether the game is played at a server.
func (g *Game) Online() bool { return g.online != nil }

// listen returns the command waiting for the server's next word.
func (m *Model) listen() tea.Cmd {
	if m.game == nil || m.game.online == nil || m.game.online.closed != nil {
		return nil
	}
	r := m.game.online.remote
	return func() tea.Msg {
		u, err := r.Next(context.Background())
		return remoteMsg{u: u, err: err}
	}
}

// remote handles the server's word and waits for the next. While a
// farkle is held on the table, the word waits its turn (farkleHold).
func (m *Model) remote(msg remoteMsg) tea.Cmd {
	return tea.Batch(m.word(msg, m.game.online.you, m.take, m.after), m.listen()) // take first: a link that ended is not listened to
}

// releaseHeld ends the hold: the server's words that waited are shown in
// order.
func (m *Model) releaseHeld() tea.Cmd {
	return m.releaseTo(m.game.online.you, m.take, m.after)
}

// take handles one word of the server.
func (m *Model) take(msg remoteMsg) tea.Cmd {
	g := m.game
	if msg.err != nil {
		g.online.closed = msg.err
		if errors.Is(msg.err, ErrOver) || g.Over() {
			return nil // the server closed the finished table: nothing lost
		}
		g.online.status = m.lc.Msg("tui.online.disconnected", "err", userError(m.lc, msg.err))
		m.note(true, "%s", m.lc.Msg("tui.online.lost", "err", userError(m.lc, msg.err)))
		return nil
	}
	u := msg.u
	asked := g.online.rematch
	g.remoteUpdate(u)
	if u.Refused != "" {
		m.note(true, "%s", refusedIn(m.lc, u))
	}
	if u.Rematch != "" && asked == "" && g.online.you >= 0 {
		m.note(false, "%s", m.lc.Msg("tui.online.rematchAsked"))
	}
	if u.Game != nil {
		if u.Reset {
			m.shown = shownThrow{}
			if s := g.State(); s.Phase == engine.PhasePlay && s.Step != engine.StepThrow {
				m.shown = shownThrow{dice: s.Throw, player: s.Current}
			}
			m.advice = nil
			m.sync()
		} else {
			m.events(engineEvents(u.Events))
		}
	}
	return tea.Batch(m.after(), m.tickClock(), m.callToPlay())
}

// callToPlay rings the terminal's bell once when the game comes to this
// terminal's player (the title says so too: View), so that a player who
// looked away hears it; not for a roll-off die, which is thrown for the
// player.
func (m *Model) callToPlay() tea.Cmd {
	o := m.game.online
	was := o.calledTo
	if o.calledTo = m.called(); !o.calledTo || was {
		return nil // not called, or still in the turn the bell rang for
	}
	return tea.Raw("\a")
}

// yourTurn reports whether an online game waits for this terminal's
// player.
func (m *Model) yourTurn() bool {
	g := m.game
	return g != nil && g.online != nil && !g.Over() && g.online.closed == nil && g.online.you >= 0 && g.Actor() == g.online.you
}

// called reports whether the player is called to play: an online game
// waits for a decision of this terminal's player (not a roll-off die).
func (m *Model) called() bool {
	return m.yourTurn() && m.game.State().Phase == engine.PhasePlay
}

// windowTitle is the terminal's title during an online game: it says
// when the game waits for the player.
func (m *Model) windowTitle() string {
	if m.game == nil || m.game.online == nil {
		return ""
	}
	if m.called() {
		return m.lc.Msg("tui.online.titleTurn", "table", m.game.online.table)
	}
	return m.lc.Msg("tui.online.title", "table", m.game.online.table)
}

// left implements onlineScreen.
func (m *Model) left() bool { return m.game != nil && m.game.online != nil && m.game.online.leaving }

// link implements onlineScreen.
func (m *Model) link() Remote { return m.game.online.remote }

// result implements onlineScreen.
func (m *Model) result() (Result, bool) {
	if m.game == nil || !m.game.Over() {
		return Result{}, false
	}
	return Result{Winners: m.game.Winners(), Record: m.game.Path()}, true
}

// resize implements onlineScreen.
func (m *Model) resize(st styles, width, height int) { m.st, m.width, m.height = st, width, height }

// onlineAgain is p at the end of an online game: the rematch (the lobby
// asks the server and sits the player at it), for a player of the game.
func (m *Model) onlineAgain() tea.Cmd {
	o := m.game.online
	if o.you < 0 {
		m.note(true, "%s", m.overNote())
		return nil
	}
	m.note(false, "%s", m.lc.Msg("tui.online.rematching"))
	table := o.table
	return func() tea.Msg { return rematchMsg{table: table} }
}

// tickClock returns the command redrawing a running turn clock each
// second.
func (m *Model) tickClock() tea.Cmd {
	if m.game == nil || m.game.online == nil || m.game.online.clock.Deadline.IsZero() || m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockTickMsg{} })
}

// onlineLine is the line of an online game under the header: the table,
// who this terminal is, the clock, and the link; "" for a local game.
func (m *Model) onlineLine() string {
	g := m.game
	if g == nil || g.online == nil {
		return ""
	}
	return onlineLineIn(m.lc, m.st, g.online, g.Names(), g.Over(), m.width)
}

// onlineLineIn is the line under the header of a game at a server, in the
// language of c, with the players' names, width columns wide: who this
// terminal is gives way to the clock where both do not fit.
func onlineLineIn(lc *lang.Catalogue, st styles, o *online, names []string, over bool, width int) string {
	lc = orEnglish(lc)
	who := lc.Msg("tui.online.watching")
	if o.you >= 0 && o.you < len(names) {
		who = lc.Msg("tui.online.youAre", "name", names[o.you])
	}
	line := lc.Msg("tui.online.line", "table", o.table, "who", who)
	if o.trying > 0 {
		// Who and the clock give way, so that the line fits 80 columns.
		return st.dim.Render(lc.Msg("tui.online.line", "table", o.table, "who", "")) + st.err.Render(lc.Msg("tui.online.reconnecting", "try", o.trying))
	}
	if clock := o.clockIn(lc, names, over); clock != "" {
		if line += " · " + clock; ansi.StringWidth(line) > width {
			line = lc.Msg("tui.online.line", "table", o.table, "who", clock)
		}
	}
	if o.ended != "" { // who gives way, so that the line fits 60 columns
		return st.dim.Render(lc.Msg("tui.online.line", "table", o.table, "who", "")) + st.err.Render(o.statusIn(lc))
	}
	if s := o.statusIn(lc); s != "" {
		return st.dim.Render(line+" · ") + st.err.Render(s)
	}
	return st.dim.Render(line)
}

// clockIn is the turn clock while it runs, in the language of lc: "your
// clock 0:42", "ana's clock 1:05"; "" when none runs or the game is over.
func (o *online) clockIn(lc *lang.Catalogue, names []string, over bool) string {
	c := o.clock
	if c.Deadline.IsZero() || over || c.Seat < 0 || c.Seat >= len(names) {
		return ""
	}
	clock := o.clockLeft()
	if o.yourClock(lc, names) {
		return lc.Msg("tui.online.clockYou", "clock", clock)
	}
	return lc.Msg("tui.online.clock", "name", names[c.Seat], "clock", clock)
}

// clockLeft is the time left on the running turn clock: "0:42".
func (o *online) clockLeft() string {
	left := max(time.Until(o.clock.Deadline).Round(time.Second), 0)
	return fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
}

// clockLineIn is the line mode's word of the turn clock when it runs for
// this player, in the language of lc: "time left to decide: 0:42"; ""
// otherwise (a local game: o is nil).
func clockLineIn(lc *lang.Catalogue, o *online, names []string) string {
	if o == nil || !o.yourClock(lc, names) {
		return ""
	}
	return lc.Msg("tui.lines.clock", "left", o.clockLeft())
}

// waitingLineIn is waitingNoteIn for the line mode, where q (quit) ends
// the program, with the clock of the seat waited for when one runs.
func waitingLineIn(lc *lang.Catalogue, o *online, names []string, actor int) string {
	lc = orEnglish(lc)
	note := waitingNoteIn(lc, o, names, actor)
	switch {
	case o.closed != nil:
		return lc.Msg("tui.online.lostQuitLines")
	case o.inFlight > 0:
	case o.you < 0:
		return lc.Msg("tui.online.youWatchLines")
	default:
		if clock := o.clockIn(lc, names, false); clock != "" {
			note += " · " + clock
		}
	}
	return note
}

// yourClock reports whether the turn clock runs for this terminal's seat
// (or a seat named "you" in the language of lc).
func (o *online) yourClock(lc *lang.Catalogue, names []string) bool {
	c := o.clock
	return !c.Deadline.IsZero() && c.Seat >= 0 && c.Seat < len(names) && (c.Seat == o.you || strings.EqualFold(names[c.Seat], youName(lc)))
}

// take keeps what an update says of the link and the table.
func (o *online) take(u RemoteUpdate) {
	o.you, o.table, o.clock, o.status, o.rematch, o.trying = u.You, u.Table, u.Clock, u.Status, u.Rematch, u.Reconnecting
	o.ended, o.reason = u.Ended, u.EndReason
	o.ratings, o.unrated = u.Ratings, u.Unrated
}

// statusIn is the state of the link and the table in the language of lc:
// how the table ended, said from its code, else the link's status. It is
// short: the line under the header holds it at 60 columns.
func (o *online) statusIn(lc *lang.Catalogue) string {
	if o.ended == "" {
		return o.status
	}
	key := "tui.online.ended." + o.ended
	if !lc.Has(key) {
		key = "tui.online.ended.other" // a kind of end this terminal does not know yet
	}
	return lc.Msg(key)
}

// refusedIn is the server's refusal of u in the language of lc: in
// English its own words, which say the most; in another language the
// catalogue's text of its code, or its own words for a code the
// catalogue does not know.
func refusedIn(lc *lang.Catalogue, u RemoteUpdate) string {
	lc = orEnglish(lc)
	key := "tui.refused." + u.RefusedCode
	if lc.Code == lang.Default || u.RefusedCode == "" || !lc.Has(key) {
		return SafeLine(u.Refused, 200)
	}
	return lc.Msg(key)
}

// SafeLine is text from the network made safe for a terminal: no control
// characters (an escape sequence would drive the terminal), one line, at
// most n characters.
func SafeLine(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// waitingNote says why a key does nothing while the game waits.
func (m *Model) waitingNote() string {
	g := m.game
	return waitingNoteIn(m.lc, g.online, g.Names(), g.Actor())
}

// waitingNoteIn says why a key does nothing while a game at a server
// waits for another seat (actor) or the server.
func waitingNoteIn(lc *lang.Catalogue, o *online, names []string, actor int) string {
	lc = orEnglish(lc)
	switch {
	case o.closed != nil:
		return lc.Msg("tui.online.lostQuit")
	case o.inFlight > 0:
		return lc.Msg("tui.online.waitServer")
	case o.you < 0:
		return lc.Msg("tui.online.youWatch")
	}
	return lc.Msg("tui.online.waitTurn", "name", names[min(max(actor, 0), len(names)-1)])
}

// idle reports whether nothing sent waits for the server's answer and
// the link holds (always, for a local game: o is nil).
func (o *online) idle() bool { return o == nil || o.inFlight == 0 && o.closed == nil }

// Save writes a local game to its file (table.Save); a game at a server is
// kept by the server, and its record is fetched at the end (Record).
func (g *Game) Save() error {
	if g.online != nil {
		return nil
	}
	return g.table.Save()
}

// overNote says what keys do once the game is over.
func (m *Model) overNote() string {
	return overNoteIn(m.lc, m.game.online)
}

// overNoteIn says what keys do once a game is over: online, p asks for
// the rematch (a player) and q goes back to the lobby.
func overNoteIn(c *lang.Catalogue, o *online) string {
	switch {
	case o == nil:
		return c.Msg("tui.over")
	case o.you < 0:
		return c.Msg("tui.overWatching")
	case o.rematch != "":
		return c.Msg("tui.overRematch")
	}
	return c.Msg("tui.overOnline")
}

// againHelp is the help line of the play-again key.
func (m *Model) againHelp() string {
	if m.game != nil && m.game.online != nil {
		return m.lc.Msg("tui.help.againOnline")
	}
	return m.lc.Msg("tui.help.again")
}

// quitHelp is the help line of the quit key.
func (m *Model) quitHelp() string {
	if m.game != nil && m.game.online != nil {
		return m.lc.Msg("tui.help.quitOnline")
	}
	return m.lc.Msg("tui.help.quit")
}

// quitQuestion asks before quitting.
func (m *Model) quitQuestion() string {
	if m.game != nil && m.game.online != nil && m.game.online.you >= 0 {
		return m.lc.Msg("tui.quitOnline")
	}
	if m.game != nil && m.game.online != nil {
		return m.lc.Msg("tui.quitWatching")
	}
	return m.lc.Msg("tui.quit")
}

// endedLineIn is how the table ended for the line mode, in the language of
// lc: in English with the server's own words for why.
func (o *online) endedLineIn(lc *lang.Catalogue) string {
	if lc.Code == lang.Default && o.reason != "" && !strings.ContainsFunc(o.ended, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return lc.Msg("tui.online.endedWhy", "how", o.ended, "why", SafeLine(o.reason, 200))
	}
	return o.statusIn(lc)
}
