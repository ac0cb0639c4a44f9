package tui

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// DragonOptions configure a terminal game of Dragon Farkle (NewDragon,
// RunDragon).
type DragonOptions struct {
	// Game is the game to play (NewDragonGame).
	Game *DragonGame
	// BotDelay is the pause before each bot action; 0 plays them at once.
	BotDelay time.Duration
	// FarkleHold is how long a person's farkle stays on the table before
	// the game goes on (the bots play, or at a server the others' moves
	// are shown); 0 holds it until a key.
	FarkleHold time.Duration
	// Lang is the language of the texts (nil: English).
	Lang *lang.Catalogue
}

// dragonMenuItem is one choice of a menu: what it does and its key.
type dragonMenuItem struct {
	label string
	key   string // a shortcut besides the item's number ("" for none)
	act   dragon.Action
	ok    bool // false: shown but not choosable (e.g. the battle without enough soldiers)
}

// dragonMenu is a list of choices: the actions at the start of a turn, the
// Rally reward, a card to use, an item to discard.
type dragonMenu struct {
	title  string
	items  []dragonMenuItem
	cursor int
	cancel bool          // esc closes it
	then   dragon.Action // played after the chosen action (keep & roll), if Kind != 0
}

// lastThrow is the last throw seen, kept on screen after a farkle or a
// battle's end so that the players see what happened.
type lastThrow struct {
	dice  dice.Hand
	event dragon.EventFace
	seat  int
	note  string // "farkled", "the battle ended", ... ("" while the throw is on the table)
}

// DragonModel is the Bubble Tea model of a Dragon Farkle game: the table
// and the help screen. Hidden information: everything drawn comes from
// one dragon.View, of the only person at the table, or in hot-seat play of
// the person to act once they have taken the keyboard (a pass screen
// comes between two people's turns), else of a spectator.
type DragonModel struct {
	o             DragonOptions
	g             *DragonGame
	st            styles
	keys          keyMap
	width, height int
	help          bool
	cardsPage     bool // the help screen shows the cards in play instead
	chrome             // message line, quit question, help scroll

	diceSelection
	selAt  int  // game version the selection belongs to
	forced bool // the Dragon chose the dice (every scoring die): they cannot be unchosen

	menu       *dragonMenu
	last       lastThrow
	showHint   bool
	skipping   bool
	scheduled  int        // version an autoMsg is pending for, -1 if none
	pass       bool       // hot seat: the next person must take the keyboard
	show       *brawlShow // a brawl being shown throw by throw
	showID     int
	holder     int // hot seat: the person holding the keyboard, -1 for nobody
	quitting   bool
	online     *online         // the table at a server, nil for a local game (dragon_online.go)
	then       dragon.Action   // online: the action to send once the keep sent is played (keep & throw)
	ticking    bool            // online: a clockTickMsg is on its way
	farkleHold                 // a person's farkle (or battle's end) stays on the table until a key (dragon_hold.go)
	lcat       *lang.Catalogue // the language of the texts
}

// dragonAutoMsg asks the model to play the bot to act, if the game is
// still at version.
type dragonAutoMsg struct{ version int }

// NewDragon returns the model for o.
func NewDragon(o DragonOptions) *DragonModel {
	m := &DragonModel{o: o, st: newStyles(true), keys: newKeys(), width: 80, height: 24, lcat: orEnglish(o.Lang)}
	m.lc, m.dlc = m.lcat, m.lcat // the notes and refusals shared with the ordinary table speak it too
	m.sit(o.Game)
	return m
}

// sit puts the game g on the table, from its start or where it stands.
func (m *DragonModel) sit(g *DragonGame) {
	m.g, m.scheduled, m.holder, m.selAt, m.pass = g, -1, -1, -1, false
	m.menu, m.last, m.show, m.skipping, m.showHint = nil, lastThrow{}, nil, false, false
	if h := m.g.Humans(); len(h) == 1 {
		m.holder = h[0]
	} else if len(h) > 1 && !m.g.Over() && !m.g.BotToAct() {
		m.pass = true
	}
	m.sync()
}

// playAgain starts another game of the same rules and cards with the same
// players in the same seats (the rules of Dragon Farkle give the first
// seat the first turn and the others a bonus; no rule moves the winner),
// new dice, and a save file of its own in the same directory.
func (m *DragonModel) playAgain() tea.Cmd {
	old := m.g
	path := ""
	if p := old.Path(); p != "" {
		path = DragonGamePath(filepath.Dir(p), old.now(), old.Names())
	}
	g, err := startDragon(old.v, old.Seats(), dice.NewSeed(), path, old.now)
	if err != nil {
		m.note(true, "%s", m.tx("dragon.tui.noNewGame", "why", err.Error()))
		return nil
	}
	m.sit(g)
	m.note(false, "%s", m.tx("dragon.tui.newGame"))
	return m.schedule()
}

// Game returns the game being played.
func (m *DragonModel) Game() *DragonGame { return m.g }

// RunDragon plays the game of o full-screen on the terminal until it ends
// and the player leaves, or the player quits; the game has been saved.
func RunDragon(ctx context.Context, o DragonOptions, in io.Reader, out io.Writer) (*DragonGame, error) {
	m := NewDragon(o)
	err := runProgram(ctx, m, in, out)
	if !m.quitting {
		m.g.saved = m.g.Save()
	}
	return m.g, err
}

// version is the number of actions played so far.
func (m *DragonModel) version() int { return m.g.play.Game().Version() }

// seat returns the seat whose view is drawn: the person at the keyboard
// (in hot-seat play only after the pass), else a spectator.
func (m *DragonModel) seat() int {
	if m.pass {
		return dragon.Spectator
	}
	return m.holder
}

// view returns the View drawn on screen.
func (m *DragonModel) view() dragon.View { return m.g.View(m.seat()) }

// deciding reports whether the person at the keyboard is to act now (at
// a server: and nothing sent waits for its answer).
func (m *DragonModel) deciding() bool {
	return !m.g.Over() && !m.g.BotToAct() && !m.pass && m.holder == m.g.ToAct() && m.online.idle()
}

// Init implements tea.Model. It asks the terminal for its background
// colour, for the styles.
func (m *DragonModel) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.schedule(), m.listen(), m.tickClock())
}

// Update implements tea.Model.
func (m *DragonModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.st = newStyles(msg.IsDark())
	case dragonAutoMsg:
		return m, m.auto(msg)
	case releaseMsg:
		if m.due(msg) {
			return m, m.releaseHeld()
		}
		return m, nil
	case brawlStepMsg:
		return m, m.showStep(msg)
	case remoteMsg:
		return m, m.remote(msg)
	case clockTickMsg:
		m.ticking = false
		return m, m.tickClock()
	case tea.MouseClickMsg:
		return m, m.click(msg.Mouse())
	case tea.KeyPressMsg:
		if key.Matches(msg, m.keys.Force) {
			return m, m.quit()
		}
		if m.help {
			m.helpKey(msg)
			return m, nil
		}
		return m, m.tableKey(msg)
	}
	return m, nil
}

func (m *DragonModel) helpKey(msg tea.KeyPressMsg) {
	if m.chrome.helpKey(msg, m.keys, m.helpLines, m.height) || m.cardsPage && msg.String() == "t" {
		m.help, m.cardsPage = false, false
	}
}

// tableKey handles a key on the table.
func (m *DragonModel) tableKey(msg tea.KeyPressMsg) tea.Cmd {
	g := m.g
	switch m.chrome.tableKey(msg, m.keys, g.Over()) {
	case chromeQuit:
		return m.quit()
	case chromeHelp:
		m.help = true
		return nil
	case chromeDone:
		return nil
	}
	if m.settingKey(msg, m.keys, &m.o.BotDelay) {
		return nil
	}
	if msg.String() == "t" {
		m.help, m.cardsPage, m.helpTop = true, true, 0
		return nil
	}
	if m.held && !g.Over() { // any key goes on after a farkle
		m.skipping = key.Matches(msg, m.keys.Skip) && msg.Code != tea.KeyEnter
		return m.releaseHeld()
	}
	if m.show != nil {
		return m.showKey(msg)
	}
	if g.Over() {
		if key.Matches(msg, m.keys.Again) && m.online != nil {
			return m.onlineAgain()
		}
		if key.Matches(msg, m.keys.Again) {
			return m.playAgain()
		}
		m.note(true, "%s", m.overKeys())
		return nil
	}
	if m.online != nil && !m.deciding() {
		if key.Matches(msg, m.keys.Hint) {
			m.showHint = !m.showHint
			return nil
		}
		m.note(false, "%s", m.waitingNote())
		return nil
	}
	if m.pass {
		if msg.Code == tea.KeyEnter || msg.Code == tea.KeySpace {
			m.pass, m.holder, m.selAt = false, g.ToAct(), -1
			m.sync()
			return nil
		}
		m.note(true, "%s", m.tx("dragon.tui.pressEnter", "p", g.Names()[g.ToAct()]))
		return nil
	}
	if g.BotToAct() {
		if key.Matches(msg, m.keys.Skip) {
			m.skipping = true
			v := m.version()
			m.scheduled = v
			return func() tea.Msg { return dragonAutoMsg{version: v} }
		}
		m.note(true, "%s", m.tx("dragon.tui.botPlaying", "p", g.Names()[g.ToAct()]))
		return nil
	}
	if key.Matches(msg, m.keys.Hint) {
		m.showHint = !m.showHint
		return nil
	}
	if m.menu != nil {
		return m.menuKey(msg)
	}
	v := m.view()
	switch v.Phase {
	case dragon.PhaseKeep:
		return m.keepKey(msg, v)
	case dragon.PhaseRoll, dragon.PhaseEvaded:
		switch {
		case key.Matches(msg, m.keys.Throw):
			return m.do(dragon.Roll())
		case msg.String() == "s" || msg.String() == "b":
			return m.do(m.stopAction(v))
		}
		m.note(true, "%s", m.tx("dragon.tui.keyRoll", "key", strconv.Quote(msg.String()), "stop", m.stopWord(v)))
	}
	return nil
}

// click handles a left click on the table (see chrome.click).
func (m *DragonModel) click(at tea.Mouse) tea.Cmd {
	if m.help || m.width < MinWidth {
		return nil
	}
	return m.chrome.click(at, m.tableLayout(), &m.diceSelection, m.refuseDice, m.Update)
}

// stopAction is what s means between throws: stop recruiting, or retreat.
func (m *DragonModel) stopAction(v dragon.View) dragon.Action {
	if v.Mode == dragon.Battling {
		return dragon.Retreat()
	}
	return dragon.Stop()
}

func (m *DragonModel) stopWord(v dragon.View) string {
	if v.Mode == dragon.Battling {
		return m.tx("dragon.tui.retreats")
	}
	return m.tx("dragon.tui.stops")
}

// keepKey handles a key while a throw lies on the table.
func (m *DragonModel) keepKey(msg tea.KeyPressMsg, v dragon.View) tea.Cmd {
	if m.forced && key.Matches(msg, m.keys.Undo) {
		m.note(true, "%s", m.tx("dragon.tui.forcedUndo"))
		return nil
	}
	if m.selectKey(msg, m.keys, m.refuseDice, m.note) {
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Throw):
		return m.keep(v, dragon.Roll())
	case msg.String() == "s" || msg.String() == "b":
		return m.keep(v, m.stopAction(v))
	case msg.String() == "a":
		if hasKind(v.Legal, dragon.ActAccept) {
			return m.do(dragon.Accept())
		}
		m.note(true, "%s", m.tx("dragon.tui.nothingToAccept"))
	case msg.String() == "c":
		m.cardMenu(v)
	default:
		m.note(true, "%s", m.tx("tui.noSuchKey", "key", strconv.Quote(msg.String())))
	}
	return nil
}

func hasKind(acts []dragon.Action, k dragon.ActionKind) bool {
	for _, a := range acts {
		if a.Kind == k {
			return true
		}
	}
	return false
}

// refuseDice says why no die may be chosen now, "" when one may.
func (m *DragonModel) refuseDice() string {
	if m.forced {
		return m.tx("dragon.tui.forcedDice")
	}
	return ""
}

// sync resets the selection and opens the menu the position needs when
// the game has moved on.
func (m *DragonModel) sync() {
	v := m.version()
	if v == m.selAt {
		return
	}
	m.selAt = v
	m.faces, m.sel, m.undo, m.cursor, m.menu, m.forced = nil, nil, nil, 0, nil, false
	if !m.deciding() {
		return
	}
	view := m.view()
	switch view.Phase {
	case dragon.PhaseKeep:
		m.faces = view.Throw.Faces()
		m.sel = make([]bool, len(m.faces))
		// The Dragon while recruiting: the one keep allowed is chosen.
		var keeps []dragon.Action
		for _, a := range view.Legal {
			if a.Kind == dragon.ActKeep {
				keeps = append(keeps, a)
			}
		}
		if len(keeps) == 1 && view.Mode == dragon.Recruiting && view.Event == dragon.Dragon {
			m.forced = true
			left := keeps[0].Keep
			for i, f := range m.faces {
				if left.Count(f) > 0 {
					m.sel[i], left = true, left.Minus(dice.Single(f, 1))
				}
			}
		}
	case dragon.PhaseChoose:
		m.menu = m.chooseMenu(view)
	case dragon.PhaseBrawl:
		m.menu = m.brawlMenu(view)
	case dragon.PhaseHire:
		m.menu = m.hireMenu(view)
	case dragon.PhaseDiscard:
		me := view.Players[view.Seat]
		mn := &dragonMenu{title: m.tx("dragon.tui.discardMenu", "n", me.ItemCount, "limit", me.ItemLimit)}
		for _, c := range me.Items {
			mn.items = append(mn.items, dragonMenuItem{label: m.cardLine(c.ID, c.Name, c.Text), act: dragon.Discard(c.ID), ok: true})
		}
		m.menu = mn
	}
}

// chooseMenu is the menu of the start of a turn.
func (m *DragonModel) chooseMenu(v dragon.View) *dragonMenu {
	r := m.g.Game().Rules()
	mn := &dragonMenu{title: m.tx("dragon.tui.chooseMenu")}
	mn.items = append(mn.items, dragonMenuItem{label: m.tx("dragon.tui.recruit"), key: "r", act: dragon.Recruit(), ok: true})
	first := true
	for _, a := range v.Legal {
		if a.Kind == dragon.ActBrawl {
			k := ""
			if first {
				k, first = "b", false
			}
			p := v.Players[a.Target]
			mn.items = append(mn.items, dragonMenuItem{label: m.tx("dragon.tui.brawlItem", "p", p.Name, "n", p.Soldiers), key: k, act: a, ok: true})
		}
	}
	me := v.Players[v.Seat]
	battle := dragonMenuItem{label: m.tx("dragon.tui.battleItem", "n", me.Soldiers), key: "f", act: dragon.Battle(), ok: hasKind(v.Legal, dragon.ActBattle)}
	if !battle.ok {
		battle.label = m.tx("dragon.tui.battleNeeds", "min", r.BattleMinimum, "n", me.Soldiers)
	}
	mn.items = append(mn.items, battle)
	if hasKind(v.Legal, dragon.ActHire) {
		label := m.tx("dragon.tui.hireItem", "n", v.HireCost)
		if me.Companion != nil {
			label = m.tx("dragon.tui.hireItemSwap", "n", v.HireCost)
		}
		mn.items = append(mn.items, dragonMenuItem{label: label, key: "c", act: dragon.Hire(), ok: true})
	}
	return mn
}

// brawlMenu is the menu of a brawl throw: the cards usable on it and
// standing by it.
func (m *DragonModel) brawlMenu(v dragon.View) *dragonMenu {
	mn := &dragonMenu{title: m.tx("dragon.tui.brawlMenu")}
	mn.items = m.useItems(v)
	return mn.add(dragonMenuItem{label: m.tx("dragon.tui.standBy", "n", v.BrawlScore), key: "p", act: dragon.Pass(), ok: true})
}

// hireMenu asks which of two Companions to keep after a hire; the other
// goes to the Companion discard pile.
func (m *DragonModel) hireMenu(v dragon.View) *dragonMenu {
	own, offer := v.Players[v.Seat].Companion, v.Offer
	mn := &dragonMenu{title: m.tx("dragon.tui.hireMenu")}
	return mn.add(
		dragonMenuItem{label: m.tx("dragon.tui.keepNew", "card", m.cardName(offer.ID, offer.Name), "text", m.cardText(offer.ID, offer.Text)), key: "n", act: dragon.Dismiss(own.ID), ok: true},
		dragonMenuItem{label: m.tx("dragon.tui.keepOwn", "card", m.cardName(own.ID, own.Name), "text", m.cardText(own.ID, own.Text)), key: "k", act: dragon.Dismiss(offer.ID), ok: true})
}

func (mn *dragonMenu) add(it ...dragonMenuItem) *dragonMenu {
	mn.items = append(mn.items, it...)
	return mn
}

// useItems lists the card uses legal now as menu items.
func (m *DragonModel) useItems(v dragon.View) []dragonMenuItem {
	var items []dragonMenuItem
	for _, a := range v.Legal {
		if a.Kind != dragon.ActUse {
			continue
		}
		c := m.g.Game().Cards().Card(a.Card)
		label := a.Card
		if c != nil {
			label = m.cardLine(c.ID, c.Name, c.Text)
		}
		if a.Face != 0 {
			label += m.tx("dragon.tui.onFace", "face", a.Face)
		}
		items = append(items, dragonMenuItem{label: label, act: a, ok: true})
	}
	return items
}

// cardMenu opens the menu of the cards usable on this throw.
func (m *DragonModel) cardMenu(v dragon.View) {
	mn := &dragonMenu{title: m.tx("dragon.tui.cardMenu"), cancel: true, items: m.useItems(v)}
	if len(mn.items) == 0 {
		m.note(true, "%s", m.tx("dragon.tui.noCard"))
		return
	}
	m.menu = mn
}

// keep keeps the selection and then plays then (roll, stop or retreat);
// on a Rally it asks for the reward first. An illegal keep changes
// nothing and says why.
func (m *DragonModel) keep(v dragon.View, then dragon.Action) tea.Cmd {
	k := m.selected()
	if k == 0 {
		if hasKind(v.Legal, dragon.ActAccept) {
			m.note(true, "%s", m.tx("dragon.tui.nothingScores"))
			return nil
		}
		m.note(true, "%s", m.tx("dragon.tui.chooseFirst", "how", m.tx("dragon.tui.chooseHow")))
		return nil
	}
	if v.Mode == dragon.Recruiting && v.Event == dragon.Rally {
		if err := m.g.Check(dragon.KeepRally(k, dragon.Double)); err != nil {
			m.note(true, "%s", m.tx("tui.keep.refused", "dice", k.String(), "why", m.keepWhy(v, k, err)))
			return nil
		}
		// The game's own figures, card bonuses included.
		d := m.g.Game().ValueKeep(m.g.State(), k, dragon.Double)
		i := m.g.Game().ValueKeep(m.g.State(), k, dragon.DrawItem)
		m.menu = &dragonMenu{title: m.tx("dragon.tui.rallyMenu", "dice", k.String()), cancel: true, then: then, items: []dragonMenuItem{
			{label: m.tx("dragon.tui.rallyDouble", "n", i.Soldiers, "double", d.Soldiers), key: "d", act: dragon.KeepRally(k, dragon.Double), ok: true},
			{label: m.tx("dragon.tui.rallyItem", "n", i.Soldiers), key: "i", act: dragon.KeepRally(k, dragon.DrawItem), ok: true},
		}}
		return nil
	}
	if err := m.g.Check(dragon.Keep(k)); err != nil {
		m.note(true, "%s", m.tx("tui.keep.refused", "dice", k.String(), "why", m.keepWhy(v, k, err)))
		return nil
	}
	return m.keepThen(dragon.Keep(k), then)
}

// keepWhy explains why keeping k from v's throw is refused: the dice
// table's reason when the dice do not score, else the game's.
func (m *DragonModel) keepWhy(v dragon.View, k dice.Hand, err error) string {
	var ke *dice.KeepError
	if e := m.g.Game().Table().CheckKeep(v.Throw, k); errors.As(e, &ke) {
		return keepReasonIn(m.lcat, m.g.Game().Table(), v.Throw, k)
	}
	return m.g.reasonIn(m.lcat, err)
}

// keepThen plays the keep a, then (if the turn goes on between throws)
// the action then.
func (m *DragonModel) keepThen(a, then dragon.Action) tea.Cmd {
	if err := m.apply(a); err != nil {
		return m.after()
	}
	if m.online != nil {
		m.then = then // sent once the server has played the keep
		return m.after()
	}
	if !m.g.Over() && m.g.State().Phase == dragon.PhaseRoll && then.Kind != 0 {
		m.apply(then)
	}
	return m.after()
}

// menuKey handles a key while a menu is open.
func (m *DragonModel) menuKey(msg tea.KeyPressMsg) tea.Cmd {
	mn := m.menu
	choose := func(i int) tea.Cmd {
		it := mn.items[i]
		if !it.ok {
			m.note(true, "%s", it.label)
			return nil
		}
		m.menu = nil
		if it.act.Kind == dragon.ActKeep {
			return m.keepThen(it.act, mn.then)
		}
		return m.do(it.act)
	}
	s := msg.String()
	switch {
	case key.Matches(msg, m.keys.Up) && s != "k" || s == "left":
		mn.cursor = (mn.cursor + len(mn.items) - 1) % len(mn.items)
	case key.Matches(msg, m.keys.Down) && s != "j" || s == "right":
		mn.cursor = (mn.cursor + 1) % len(mn.items)
	case msg.Code == tea.KeyEnter || msg.Code == tea.KeySpace:
		return choose(mn.cursor)
	case msg.Code == tea.KeyEscape:
		if mn.cancel {
			m.menu = nil
		}
	default:
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(mn.items) {
			return choose(n - 1)
		}
		for i, it := range mn.items {
			if it.key != "" && it.key == s {
				return choose(i)
			}
		}
		hint := m.tx("dragon.tui.menuHow")
		if mn.cancel {
			hint = m.tx("dragon.tui.menuHowBack")
		}
		m.note(true, "%s", m.tx("dragon.tui.keyMenu", "key", strconv.Quote(s), "how", hint))
	}
	return nil
}

// apply plays a and shows what happened; on error it shows the reason
// and nothing changes. At a server it sends a, checked here first; what
// happened comes with the server's update.
func (m *DragonModel) apply(a dragon.Action) error {
	if m.online != nil {
		return m.send(a)
	}
	ev, err := m.g.Do(a)
	if err != nil {
		m.note(true, "%s", m.g.reasonIn(m.lcat, err))
		return err
	}
	m.events(ev)
	return nil
}

func (m *DragonModel) do(a dragon.Action) tea.Cmd {
	m.apply(a)
	return m.after()
}

// events updates the screen for what happened.
func (m *DragonModel) events(ev []dragon.Event) {
	names := m.g.Names()
	noted := false // a message was set by these events
	_, brawl := dragonEvent(ev, dragon.EvBrawl)
	brawl = brawl || m.g.State().Mode == dragon.Brawling
	showing := m.startBrawlShow(ev)
	for _, e := range ev {
		switch e.Kind {
		case dragon.EvThrow:
			if !brawl { // brawl throws are shown by the show, and stay in the log
				m.last = lastThrow{dice: e.Dice, event: e.Face, seat: e.Seat}
			}
		case dragon.EvBrawl:
			if !showing {
				m.noteBrawl(e)
				noted = true
			}
		case dragon.EvCardChanged:
			if !brawl {
				m.last.dice, m.last.event = e.Dice, e.Face
			}
		case dragon.EvHire, dragon.EvDismiss, dragon.EvPass:
			m.note(false, "%s", m.describe(e, m.seat()))
			noted = true
		case dragon.EvFarkle:
			m.last.note = m.tx("dragon.tui.farkled", "p", names[e.Seat], "dice", m.last.dice.String(), "n", e.N)
			m.hold(e.Seat)
		case dragon.EvBattleLost:
			m.last.note = m.describe(e, dragon.Spectator)
			m.hold(e.Seat)
		case dragon.EvBattleEnd:
			m.last.note = battleEndNote(m.lcat, names[e.Seat], e)
			m.hold(e.Seat)
		case dragon.EvHotDice, dragon.EvEvaded, dragon.EvBank, dragon.EvEaten, dragon.EvFire:
			m.note(false, "%s", m.describe(e, m.seat()))
			noted = true
		case dragon.EvTurn:
			if !noted && !m.flashErr {
				m.flash = "" // last turn's news is in the log
			}
			if m.last.note == "" {
				m.last = lastThrow{}
			}
		}
	}
	if !m.g.Over() && !m.g.BotToAct() {
		m.skipping = false
		if m.online == nil && len(m.g.Humans()) > 1 && m.holder != m.g.ToAct() {
			m.pass = true
		}
	}
	if len(m.g.Humans()) > 1 && m.g.BotToAct() {
		m.holder = -1 // nobody's hand while a bot plays between two people
	}
	m.unholdIfDue()
	m.sync()
}

// after returns the command that moves the brawl being shown on, or
// plays the next bot action, if one is due.
func (m *DragonModel) after() tea.Cmd {
	if m.show != nil {
		return m.showTick()
	}
	return m.schedule()
}

func (m *DragonModel) schedule() tea.Cmd {
	if m.held {
		return m.holdTick(m.o.FarkleHold)
	}
	if !m.g.BotToAct() || m.show != nil {
		return nil
	}
	v := m.version()
	if m.scheduled == v {
		return nil
	}
	m.scheduled = v
	if m.skipping || m.o.BotDelay <= 0 {
		return func() tea.Msg { return dragonAutoMsg{version: v} }
	}
	delay := m.o.BotDelay
	if m.last.note != "" {
		delay *= farklePause // a farkle or a battle's end stays a while
	}
	return tea.Tick(delay, func(time.Time) tea.Msg { return dragonAutoMsg{version: v} })
}

func (m *DragonModel) auto(msg dragonAutoMsg) tea.Cmd {
	if msg.version != m.version() || !m.g.BotToAct() {
		return nil
	}
	m.scheduled = -1
	_, ev, err := m.g.Auto()
	if err != nil {
		m.note(true, "%s", m.g.reasonIn(m.lcat, err))
		return nil
	}
	m.events(ev)
	return m.after()
}

// quit saves the game and ends the program (at a server: leaves the
// table for the lobby).
func (m *DragonModel) quit() tea.Cmd {
	if m.online != nil {
		m.online.leaving = true
		return nil
	}
	m.quitting = true
	m.g.saved = m.g.Save()
	return tea.Quit
}

// battleEndNote is the short line shown under the last throw of a battle
// that ended without slaying the dragon: how it ended, the soldiers kept
// and the damage dealt (which the dragon heals).
func battleEndNote(c *lang.Catalogue, name string, e dragon.Event) string {
	c = orEnglish(c)
	how := c.Msg("dragon.tui.end.over")
	switch e.Ending {
	case dragon.EndRetreat:
		how = c.Msg("dragon.tui.end.retreat", "p", name)
	case dragon.EndNoWave:
		how = c.Msg("dragon.tui.end.noWave", "n", e.Other)
	case dragon.EndFarkle:
		how = c.Msg("dragon.tui.end.farkle")
	case dragon.EndUnpaid:
		how = c.Msg("dragon.tui.end.unpaid")
	}
	dealt := c.Msg("dragon.tui.end.noDamage")
	if e.N > 0 {
		dealt = c.Msg("dragon.tui.end.damage", "n", e.N)
	}
	return c.Msg("dragon.tui.end", "how", how, "n", e.Total, "dealt", dealt)
}

// dragonEvent returns the first event of kind k in ev.
func dragonEvent(ev []dragon.Event, k dragon.EventKind) (dragon.Event, bool) {
	for _, e := range ev {
		if e.Kind == k {
			return e, true
		}
	}
	return dragon.Event{}, false
}
