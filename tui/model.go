package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// Options configure a terminal game (New, Run).
type Options struct {
	// Game is a game to continue (see ResumeGame); Rules, Seats and Seed
	// are then not used.
	Game *Game
	// Rules are the rules of a new game; the setup screen starts from them.
	Rules rules.Rules
	// Seats are the players of a new game; nil shows the setup screen.
	Seats []Seat
	// Seed is the dice seed of a new game.
	Seed dice.Seed
	// GamesDir is where new games are saved (GamePath); "" saves nothing.
	GamesDir string
	// Now is the clock for save times and file names (nil: time.Now).
	Now func() time.Time
	// Advisor values the choices for the hint key (nil: PointsAdvisor).
	Advisor Advisor
	// BotDelay is the pause before each bot action and roll-off throw, so
	// that a person can follow; 0 plays them at once (see BotPaces).
	BotDelay time.Duration
	// FarkleHold is how long a person's farkle stays on the table before
	// the bots play on, whatever their pace; 0 holds it until a key.
	FarkleHold time.Duration
	// Meter, if set, follows the solves of the bots' tables (its Progress
	// is the tables' Progress): the table shows how far the preparation of
	// a perfect bot is, with an estimate of the time left.
	Meter *SolveMeter
	// Tables holds the solver results the bots of a new game play from
	// (nil: solved.DefaultTables()).
	Tables *solved.Tables
	// Lang is the language of every text of the game (lang.Get, say);
	// nil is English.
	Lang *lang.Catalogue
}

type screen uint8

const (
	screenSetup screen = iota + 1
	screenTable
	screenHelp
)

// autoMsg asks the model to play the next action that needs no person's
// decision, if the game is still at version.
type autoMsg struct{ version int }

// preparedMsg says that the bots are ready (err: some play at a simpler
// level).
type preparedMsg struct{ err error }

// prepTickMsg redraws the progress of the bots' preparation.
type prepTickMsg struct{}

// adviceMsg carries the hint for the game at version.
type adviceMsg struct {
	version int
	advice  Advice
	err     error
}

// shownThrow is the throw on screen: the last one thrown, kept on screen
// after a farkle ends the turn so that the player sees it.
type shownThrow struct {
	dice   dice.Hand
	player int
	farkle bool
	lost   int // the turn total the farkle lost
}

// Model is the Bubble Tea model of a terminal game: the setup screen, the
// table and the help screen. Its methods have pointer receivers; Update
// returns the same *Model.
type Model struct {
	o             Options
	st            styles
	keys          keyMap
	width, height int
	screen        screen
	helpFrom      screen // the screen the help screen goes back to
	setup         *setupModel
	game          *Game
	dragon        *DragonModel // a game of Dragon Farkle started from the setup screen

	// The selection of the person to act among the dice of the throw at
	// game version selVersion, in ascending order of faces.
	diceSelection
	selVersion int

	chrome     // message line, quit question, help scroll
	shown      shownThrow
	hot        bool // the turn's last keep was hot dice: every die is thrown again
	showHint   bool
	advice     *adviceMsg
	advising   bool           // an Advise call is running (one at a time: it may be slow)
	skipping   bool           // playing bots at once until a person must decide
	farkleHold                // a person's farkle is on the table: the bots (online: the server's words) wait (Options.FarkleHold)
	fellBack   map[int]string // the reasons said of bots playing at a simpler level, by seat
	analysing  bool           // the finished game's decisions are being analysed
	analysis   *analysisMsg   // their analysis, once done
	scheduled  int            // game version an autoMsg is pending for, -1 if none
	preparing  []string       // bots still loading their solver results
	startErr   error
	quitting   bool
	finishing  bool // quitting once the bots' preparation is done and cached
	ticking    bool // a clockTickMsg is on its way (online.go)
}

// New returns the model for o: the setup screen when o.Game and o.Seats
// are both empty, otherwise the table.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Advisor == nil {
		o.Advisor = PointsAdvisor{}
	}
	m := &Model{o: o, st: newStyles(true), keys: newKeys(), width: 80, height: 24, scheduled: -1}
	m.lc = orEnglish(o.Lang)
	m.dlc = m.lc
	switch {
	case o.Game != nil:
		m.begin(o.Game)
	case o.Seats != nil:
		m.startGame(o.Rules, o.Seats)
	default:
		m.screen = screenSetup
		m.setup = newSetup(m.lc, o.Rules, o.BotDelay)
	}
	return m
}

// Game returns the game being played, nil before the setup is done.
func (m *Model) Game() *Game { return m.game }

// Err returns the error that stopped a game from starting, if any.
func (m *Model) Err() error { return m.startErr }

// savePath is where a game of seats started now is saved in the games
// directory (pathOf: GamePath, or a kind's own), "" for nowhere.
func (m *Model) savePath(seats []Seat, pathOf func(dir string, now time.Time, names []string) string) string {
	if m.o.GamesDir == "" {
		return ""
	}
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	return pathOf(m.o.GamesDir, m.o.Now(), names)
}

func (m *Model) startGame(r rules.Rules, seats []Seat) {
	path := m.savePath(seats, GamePath)
	g, err := NewGame(r, seats, m.o.Seed, path, m.o.Now, m.o.Tables)
	if err != nil {
		m.startErr = err
		m.screen = screenSetup
		if m.setup == nil {
			m.setup = newSetup(m.lc, r, m.o.BotDelay)
		}
		m.setup.err = m.setup.errText(err)
		return
	}
	m.begin(g)
}

func (m *Model) begin(g *Game) {
	m.game, m.analysing, m.analysis, m.fellBack = g, false, nil, nil
	if m.o.Lang != nil {
		g.SetLang(m.o.Lang)
	}
	m.screen = screenTable
	s := g.State()
	if s.Phase == engine.PhasePlay && s.Step != engine.StepThrow {
		m.shown = shownThrow{dice: s.Throw, player: s.Current}
	}
	m.sync()
}

// Init implements tea.Model.
// It asks the terminal for its background colour, for the styles.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.prepare(), m.schedule(), m.listen(), m.tickClock())
}

// prepare returns the command that prepares the bots of a new game, if
// they need it; until it is done no bot plays.
func (m *Model) prepare() tea.Cmd {
	if m.game == nil || m.preparing != nil {
		return nil
	}
	m.preparing = m.game.NeedsPrepare()
	if len(m.preparing) == 0 {
		m.preparing = []string{}
		return nil
	}
	g := m.game
	if m.o.Meter != nil {
		m.o.Meter.Expect(g.Rules())
	}
	return tea.Batch(func() tea.Msg { return preparedMsg{err: g.Prepare()} }, m.prepTick())
}

// prepTick returns the command that redraws the preparation's progress
// in a while.
func (m *Model) prepTick() tea.Cmd {
	return tea.Tick(500*time.Millisecond, func(time.Time) tea.Msg { return prepTickMsg{} })
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.dragon != nil {
		_, cmd := m.dragon.Update(msg)
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.BackgroundColorMsg:
		m.st = newStyles(msg.IsDark())
		return m, nil
	case autoMsg:
		return m, m.auto(msg)
	case remoteMsg:
		return m, m.remote(msg)
	case releaseMsg:
		if m.due(msg) {
			return m, m.releaseHeld()
		}
		return m, nil
	case clockTickMsg:
		m.ticking = false
		return m, m.tickClock()
	case prepTickMsg:
		if len(m.preparing) > 0 || m.advising {
			return m, m.prepTick()
		}
		return m, nil
	case preparedMsg:
		m.preparing = []string{}
		if m.finishing && !m.solving() {
			m.quitting = true
			return m, tea.Quit
		}
		if msg.err != nil {
			m.note(true, "%s", m.lc.Msg("tui.simpler", "err", msg.err.Error()))
		}
		return m, m.schedule()
	case analysisMsg:
		if m.game != nil && msg.of == m.game {
			m.analysing, m.analysis = false, &msg
		}
		return m, nil
	case adviceMsg:
		m.advising = false
		if m.finishing {
			if len(m.preparing) == 0 {
				m.quitting = true
				return m, tea.Quit
			}
			return m, nil
		}
		if m.game != nil && msg.version == m.game.State().Version {
			m.advice = &msg
			return m, nil
		}
		return m, m.hintCmd() // the game moved on while the advisor thought
	case tea.MouseClickMsg:
		return m, m.click(msg.Mouse())
	case tea.PasteMsg:
		if m.screen == screenSetup {
			m.setup.paste(msg.Content)
		}
		return m, nil
	case tea.KeyPressMsg:
		if key.Matches(msg, m.keys.Force) {
			if m.finishing { // a second ctrl+c: the preparation is abandoned
				m.quitting = true
				return m, tea.Quit
			}
			return m, m.quit()
		}
		if m.finishing {
			return m, nil
		}
		switch m.screen {
		case screenSetup:
			return m, m.setupKey(msg)
		case screenHelp:
			return m, m.helpKey(msg)
		}
		return m, m.tableKey(msg)
	}
	return m, nil
}

func (m *Model) setupKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.setup.update(msg, m.keys) {
	case setupQuit:
		m.quitting = true
		return tea.Quit
	case setupHelp:
		m.helpFrom, m.screen, m.helpTop = screenSetup, screenHelp, 0
	case setupStart:
		m.o.BotDelay = m.setup.pace
		r, seats := m.setup.result()
		if v := m.setup.other(); v != nil {
			return m.setup.otherSetup().start(m, v, seats)
		}
		m.startGame(r, seats)
		if m.game != nil {
			return tea.Batch(m.prepare(), m.schedule())
		}
	}
	return nil
}

func (m *Model) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.chrome.helpKey(msg, m.keys, m.helpLines, m.height) {
		m.screen = m.helpFrom
	}
	return nil
}

// tableKey handles a key on the table screen.
func (m *Model) tableKey(msg tea.KeyPressMsg) tea.Cmd {
	g := m.game
	switch m.chrome.tableKey(msg, m.keys, g.Over()) {
	case chromeQuit:
		return m.quit()
	case chromeHelp:
		m.helpFrom, m.screen = screenTable, screenHelp
		return nil
	case chromeDone:
		return nil
	}
	if key.Matches(msg, m.keys.Back) {
		m.showHint = false
		return nil
	}
	if m.settingKey(msg, m.keys, &m.o.BotDelay) {
		return nil
	}
	if m.held && g.Online() { // any key goes on after a farkle
		return m.releaseHeld()
	}
	if g.Over() {
		if key.Matches(msg, m.keys.Again) && g.Online() {
			return m.onlineAgain()
		}
		if key.Matches(msg, m.keys.Again) {
			return m.playAgain()
		}
		m.note(true, "%s", m.overNote())
		return nil
	}
	if g.Waiting() {
		m.note(false, "%s", m.waitingNote())
		return nil
	}
	if g.AutoToAct() {
		if len(m.preparing) > 0 {
			m.note(false, "%s", m.preparingNote())
			return nil
		}
		if m.held { // any key goes on after a farkle
			m.held = false
			m.skipping = key.Matches(msg, m.keys.Skip) && msg.Code != tea.KeyEnter
			return m.schedule()
		}
		if key.Matches(msg, m.keys.Skip) {
			m.skipping = true
			return m.autoNow()
		}
		m.note(true, "%s", m.lc.Msg("tui.isPlayingSkip", "name", g.Names()[max(g.Actor(), 0)]))
		return nil
	}
	if m.selectKey(msg, m.keys, m.refuseDice, m.note) {
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Throw):
		return m.throw()
	case key.Matches(msg, m.keys.Bank):
		return m.bank()
	case key.Matches(msg, m.keys.Hint):
		m.showHint = !m.showHint
		return m.hintCmd()
	case key.Matches(msg, m.keys.Skip):
		m.note(true, "%s", m.lc.Msg("tui.yourTurnKeys"))
	default:
		m.note(true, "%s", m.lc.Msg("tui.noSuchKey", "key", fmt.Sprintf("%q", msg.String())))
	}
	return nil
}

// click handles a left click on the table (see chrome.click).
func (m *Model) click(at tea.Mouse) tea.Cmd {
	if m.screen != screenTable || m.width < MinWidth {
		return nil
	}
	return m.chrome.click(at, m.tableLayout(), &m.diceSelection, m.refuseDice, m.Update)
}

// canSelect reports whether a person is choosing dice from a throw.
func (m *Model) canSelect() bool {
	s := m.game.State()
	return !m.game.Over() && !m.game.AutoToAct() && !m.game.Waiting() && s.Phase == engine.PhasePlay && s.Step == engine.StepKeep
}

// refuseDice says why no die may be chosen now, "" when one may.
func (m *Model) refuseDice() string {
	if !m.canSelect() {
		return m.lc.Msg("tui.noDiceNow")
	}
	return ""
}

// sync resets the selection when the game has moved on.
func (m *Model) sync() {
	s := m.game.State()
	if s.Version == m.selVersion && m.faces != nil {
		return
	}
	m.selVersion = s.Version
	m.faces, m.sel, m.undo, m.cursor = nil, nil, nil, 0
	if s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
		m.faces = s.Throw.Faces()
		m.sel = make([]bool, len(m.faces))
	}
}

// do applies a and shows what happened; on error it shows the reason and
// nothing changes.
func (m *Model) do(a engine.Action) bool {
	before := m.game.State()
	ev, err := m.game.Do(a)
	if err != nil {
		m.note(true, "%s", errorIn(m.lc, before, a, err))
		return false
	}
	m.events(ev)
	return true
}

// events updates the screen for events that happened.
func (m *Model) events(ev []engine.Event) {
	for _, e := range ev {
		if e.Kind == engine.EvKeep || e.Kind == engine.EvTurn {
			m.hot = false
		}
	}
	for _, e := range ev {
		switch e.Kind {
		case engine.EvHotDice:
			m.hot = true
			m.note(false, "%s", m.game.describe(m.lc, e))
		case engine.EvThrow:
			m.shown = shownThrow{dice: e.Dice, player: e.Player}
		case engine.EvFarkle:
			m.shown.farkle, m.shown.lost = true, e.Total
			m.hold(e.Player)
			m.note(true, "%s", m.lc.Msg("tui.farkleNote", "text", m.game.describe(m.lc, e)))
		case engine.EvPenalty, engine.EvTurnLost:
			m.note(true, "%s", m.game.describe(m.lc, e))
		case engine.EvSixDiceNothing, engine.EvFinalRound, engine.EvBank:
			m.note(false, "%s", m.game.describe(m.lc, e))
		}
	}
	m.advice = nil
	m.sync()
	if m.game.Online() {
		if m.game.Over() || m.yourTurn() {
			m.held = false // nobody waits: the player's clock runs
		}
	} else if !m.game.AutoToAct() {
		m.skipping, m.held = false, false
	}
}

// hold holds the table after seat's farkle when a person played it
// (online: one seated at this terminal, or another person at the table).
func (m *Model) hold(seat int) {
	g := m.game
	seats := g.Seats()
	if seat < 0 || seat >= len(seats) || seats[seat].IsBot() || g.Online() && g.online.you < 0 {
		return
	}
	m.start()
}

// throw handles r: throw at the start of a turn, keep the selection and
// throw the rest, or throw again after a keep.
func (m *Model) throw() tea.Cmd {
	s := m.game.State()
	if s.Step == engine.StepKeep {
		k, next, ok := m.checkSelection()
		if !ok {
			return nil
		}
		sameTurn := next.Current == s.Current && !next.Over() && next.Step == engine.StepChoose
		if sameTurn && !next.CanThrow() {
			m.note(true, "%s", m.lc.Msg("tui.noHotDice", "dice", k.String()))
			return nil
		}
		if !m.do(engine.KeepBy(s.Current, k)) || !sameTurn {
			return m.after()
		}
	}
	m.do(engine.ThrowBy(m.game.State().Current))
	return m.after()
}

// bank handles b: keep the selection and bank, or bank after a keep.
func (m *Model) bank() tea.Cmd {
	s := m.game.State()
	if s.Step == engine.StepKeep {
		k, next, ok := m.checkSelection()
		if !ok {
			return nil
		}
		sameTurn := next.Current == s.Current && !next.Over() && next.Step == engine.StepChoose
		if sameTurn {
			if why := bankReasonIn(m.lc, next); why != "" {
				m.note(true, "%s", m.lc.Msg("tui.cannotBank", "dice", k.String(), "why", why))
				return nil
			}
		}
		if !m.do(engine.KeepBy(s.Current, k)) || !sameTurn {
			return m.after()
		}
	}
	m.do(engine.BankBy(m.game.State().Current))
	return m.after()
}

// checkSelection returns the selection and the state after keeping it, or
// shows why it cannot be kept (nothing changes).
func (m *Model) checkSelection() (dice.Hand, engine.State, bool) {
	k := m.selected()
	if k == 0 {
		m.note(true, "%s", m.lc.Msg("tui.chooseFirst", "how", m.lc.Msg("tui.chooseHow")))
		return 0, engine.State{}, false
	}
	s := m.game.State()
	next, err := m.game.Preview(k)
	if err != nil {
		m.note(true, "%s", errorIn(m.lc, s, engine.KeepBy(s.Current, k), err))
		return 0, engine.State{}, false
	}
	return k, next, true
}

// after returns the commands due after the game changed: the next bot
// action and the hint of the new position.
func (m *Model) after() tea.Cmd {
	return tea.Batch(m.schedule(), m.hintCmd(), m.analysisCmd())
}

// schedule returns the command that plays the next automatic action after
// the bot delay, if one is due and not already scheduled.
func (m *Model) schedule() tea.Cmd {
	if m.game == nil {
		return nil
	}
	if m.game.Online() && m.held {
		// The server plays the bots; its words wait until the hold ends
		// (a key, its time, or a word that asks this player to act).
		return m.holdTick(m.o.FarkleHold)
	}
	if !m.game.AutoToAct() || len(m.preparing) > 0 {
		return nil // online: only this player's roll-off die is thrown here
	}
	v := m.game.State().Version
	if m.scheduled == v {
		return nil
	}
	if m.held { // a person's farkle stays until a key, or its time
		if m.o.FarkleHold <= 0 {
			return nil
		}
		m.scheduled = v
		return tea.Tick(m.o.FarkleHold, func(time.Time) tea.Msg { return autoMsg{version: v} })
	}
	m.scheduled = v
	if m.skipping || m.o.BotDelay <= 0 {
		return func() tea.Msg { return autoMsg{version: v} }
	}
	delay := m.o.BotDelay
	if m.shown.farkle {
		delay *= farklePause // the dead dice stay a while before the next throw
	}
	return tea.Tick(delay, func(time.Time) tea.Msg { return autoMsg{version: v} })
}

// farklePause is how many bot delays the dead dice of a farkle stay on the
// table before a bot throws next.
const farklePause = 3

// autoNow plays the next automatic action without waiting.
func (m *Model) autoNow() tea.Cmd {
	v := m.game.State().Version
	m.scheduled = v
	return func() tea.Msg { return autoMsg{version: v} }
}

// preparingNote says which bots are getting ready.
func (m *Model) preparingNote() string {
	return m.lc.Msg("tui.preparing", "n", len(m.preparing), "names", strings.Join(m.preparing, ", "))
}

func (m *Model) auto(msg autoMsg) tea.Cmd {
	g := m.game
	if g == nil || msg.version != g.State().Version || !g.AutoToAct() || len(m.preparing) > 0 {
		return nil // stale: the game moved on
	}
	m.scheduled, m.held = -1, false
	_, ev, err := g.Auto()
	if err != nil {
		m.note(true, "%s", Reason(err))
		return nil
	}
	m.events(ev)
	m.sayFallbacks()
	return m.after()
}

// sayFallbacks says once, for each bot that plays at a simpler level than
// its own (a perfect bot as expert in a three-player game of rules
// without its table), that it does and why.
func (m *Model) sayFallbacks() {
	for i, why := range m.game.Fallbacks() {
		said := why.In(nil) // the same reason said again is not news
		if why.Key == "" || m.fellBack[i] == said {
			continue
		}
		if m.fellBack == nil {
			m.fellBack = map[int]string{}
		}
		m.fellBack[i] = said
		name, level := m.game.Names()[i], m.game.Seats()[i].Bot
		m.note(false, "%s", m.lc.Msg("tui.fallback", "name", name, "level", level, "why", why.In(m.lc)))
		m.game.logSay(func(c *lang.Catalogue) string {
			return orEnglish(c).Msg("tui.fallback", "name", name, "level", level, "why", why.In(orEnglish(c)))
		})
	}
}

// hintCmd returns the command computing the hint, when it is shown and
// not yet known for this position.
func (m *Model) hintCmd() tea.Cmd {
	g := m.game
	if !m.showHint || g == nil || g.Over() || g.AutoToAct() || m.advice != nil || m.advising {
		return nil
	}
	m.advising = true
	s := g.State()
	adv := m.o.Advisor
	advise := func() tea.Msg {
		a, err := adv.Advise(s)
		return adviceMsg{version: s.Version, advice: a, err: err}
	}
	if m.o.Meter == nil {
		return advise
	}
	m.o.Meter.Expect(g.Rules()) // the advisor may solve these rules first: show how far
	return tea.Batch(advise, m.prepTick())
}

// solving reports whether the hint waits for a solve under way (which
// a quit lets finish, as the bots' preparation).
func (m *Model) solving() bool {
	if !m.advising || m.o.Meter == nil {
		return false
	}
	st, ok := m.o.Meter.Status()
	return ok && st.part < 1
}

// quit saves the game and ends the program; while the bots are being
// prepared (a solve of seconds, longer for large targets), it first lets the preparation
// finish, which caches its work for the next game (ctrl+c abandons it).
func (m *Model) quit() tea.Cmd {
	if m.game != nil && m.game.online != nil {
		m.game.online.leaving = true // the lobby takes the terminal back
		return nil
	}
	if m.game != nil {
		if err := m.game.Save(); err != nil {
			m.game.saved = err
		}
	}
	if m.game != nil && (len(m.preparing) > 0 || m.solving()) {
		m.finishing = true
		return nil // preparedMsg or adviceMsg ends the program
	}
	m.quitting = true
	return tea.Quit
}
