package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// eventRows are the inner rows of the event die's face f: a sign on the
// first row, the face's word in the player's language under it, over two
// rows where it is longer than the die is wide ("DRA-", "GON"), each
// centred in five columns.
func (m *DragonModel) eventRows(f dragon.EventFace) *[3]string {
	rows := &[3]string{"     ", "     ", "     "}
	var sign, word string
	switch f {
	case dragon.Rally:
		sign, word = `\o/`, m.tx("dragon.tui.faceRally")
	case dragon.Dragon:
		sign, word = "^^^", m.tx("dragon.tui.faceDragon")
	default:
		return rows
	}
	top, bottom, _ := strings.Cut(word, "|")
	for i, w := range []string{sign, top, bottom} {
		w = ansi.Truncate(w, 5, "")
		pad := 5 - lipgloss.Width(w)
		rows[i] = strings.Repeat(" ", (pad+1)/2) + w + strings.Repeat(" ", pad/2)
	}
	return rows
}

// View implements tea.Model: the screen, full-screen.
func (m *DragonModel) View() tea.View {
	v := fullScreen(m.screenText())
	v.MouseMode = mouseMode(m.mouseOff)
	v.WindowTitle = m.windowTitle()
	return v
}

// screenText draws the screen.
func (m *DragonModel) screenText() string {
	if m.quitting {
		return ""
	}
	if m.width < MinWidth {
		msg := m.tx("dragon.tui.narrow", "min", MinWidth, "width", m.width)
		return fit(strings.Join(wrap(msg, max(m.width, 10), ""), "\n"), max(m.width, 10), m.height)
	}
	if m.help {
		return fit(m.helpPage(m.helpLines()), m.width, m.height)
	}
	return fit(m.tableLayout().String(), m.width, m.height)
}

// dragonHelpKeys are the entries of the help's list of keys: the
// catalogue's dragon.help.NAME.keys names the keys, dragon.help.NAME says
// what they do.
var dragonHelpKeys = [][1]string{{"turn"}, {"hire"}, {"pass"}, {"face"}, {"move"}, {"click"}, {"mouse"}, {"pace"}, {"throw"},
	{"stop"}, {"undo"}, {"rally"}, {"card"}, {"texts"}, {"log"}, {"accept"}, {"hint"}, {"skip"}, {"help"}, {"again"}, {"quit"}}

// helpLines returns the help screen: the keys, then the rules, the soldier
// table and the cards.
func (m *DragonModel) helpLines() []string {
	if m.cardsPage {
		return m.cardLines()
	}
	keys := [][2]string{}
	for _, k := range dragonHelpKeys {
		keys = append(keys, [2]string{m.tx("dragon.help." + k[0] + ".keys"), m.tx("dragon.help." + k[0])})
	}
	lines := helpKeys(m.st, m.width, keys)
	if m.lcat.Code != lang.Default { // the frame of the help in the language too
		lines[0] = m.st.title.Render(m.tx("dragon.help.title")) + m.st.dim.Render("  ("+m.tx("dragon.help.scroll")+")")
		lines[2] = m.tx("dragon.help.keys")
	}
	return append(lines, DragonRulesTextIn(m.lcat, m.g.Game(), m.width)...)
}

// cardLines is the page of the cards in play, as the seat drawn sees
// them: its own cards (and those drawn this turn), and each other
// player's Companion, each with its whole text; the others' items are
// face down.
func (m *DragonModel) cardLines() []string {
	v := m.view()
	out := []string{m.st.title.Render(m.tx("dragon.cards.title")) + m.st.dim.Render("  ("+m.tx("dragon.cards.scroll")+")"), ""}
	card := func(head string, c dragon.CardView) {
		out = append(out, wrap(head+" — "+m.cardText(c.ID, c.Text), m.width-2, "    ")...)
	}
	for i, p := range v.Players {
		out = append(out, m.st.bold.Render(p.Name))
		if p.Companion != nil {
			card("  "+m.tx("dragon.cards.companion", "card", m.cardName(p.Companion.ID, p.Companion.Name)), *p.Companion)
		}
		switch {
		case i == v.Seat:
			for _, c := range p.Items {
				card("  "+m.tx("dragon.cards.item", "card", m.cardName(c.ID, c.Name)), c)
			}
			for _, c := range v.Drawn {
				card("  "+m.tx("dragon.cards.drawn", "card", m.cardName(c.ID, c.Name)), c)
			}
		case p.ItemCount > 0:
			out = append(out, "  "+m.tx("dragon.cards.hidden", "n", p.ItemCount))
		}
		if p.Companion == nil && p.ItemCount == 0 && (i != v.Seat || len(v.Drawn) == 0) {
			out = append(out, "  "+m.st.dim.Render(m.tx("dragon.cards.none")))
		}
	}
	return out
}

// tableLayout draws the table.
func (m *DragonModel) tableLayout() *layout {
	g := m.g
	v := m.showView(m.view())
	st := m.st
	top := newLayout()
	add := top.add

	round := m.tx("dragon.tui.round", "n", v.Round)
	if n := g.Game().Rules().RoundLimit; n > 0 {
		round = m.tx("dragon.tui.roundOf", "n", min(v.Round, n), "limit", n) // past the last round: the game is over
	}
	left := st.title.Render("Dragon Farkle") + st.dim.Render(fmt.Sprintf(" · %s · %s", g.Game().Rules().Name, round))
	top.addHeader(st, left, m.width, m.headerButtons())
	hinting := m.showHint && m.deciding()
	var hint []string
	if hinting {
		hint = m.hintBody(v)
	}
	// tight: the screen is short of room for the hint's choices, which then
	// come before the dragon's line and the card names.
	tight := hinting && m.height < 24+len(v.Players)
	if l := m.onlineLine(); l != "" {
		add(l)
	}
	if !tight {
		add(wrapStyled(m.dragonLine(v), m.width, "  ")...)
	}
	add("")
	add(m.players(v)...)
	add("")
	if m.pass && m.show == nil {
		name := g.Names()[g.ToAct()]
		add(st.bold.Render(m.tx("dragon.tui.passTo", "p", name)))
		add("")
		for _, l := range wrap(m.tx("dragon.tui.passReady", "p", name), m.width-2, "") {
			add("  " + l)
		}
		add("", m.messageLine(v), "")
	} else {
		add(wrapStyled(m.turnLine(v), m.width, "  ")...)
		if v.Phase == dragon.PhaseOver {
			add(m.online.ratingLines(m.lcat, m.width)...)
		}
		n := 0
		if m.show == nil && m.deciding() && v.Phase == dragon.PhaseKeep {
			n = len(m.faces)
		}
		top.addDice(m.diceArea(v), n)
		add(wrapStyled(m.keptLine(v), m.width, "  ")...)
		add(wrapStyled(m.messageLine(v), m.width, "  ")...)
		top.addBar(st, m.keysLine(v))
		add(m.menuLines(v)...)
		hand := m.handLines(v, true)
		if m.height-len(top.lines)-len(hand) < 7 {
			hand = m.handLines(v, false) // the card texts are in the help
		}
		if tight && m.height-len(top.lines)-len(hand) < min(len(hint), 5)+1 {
			hand = nil // the hint's choices before the card names (k reads them)
		}
		add(hand...)
		add("")
	}
	if len(top.lines) > m.height || hinting && m.height-len(top.lines) < min(len(hint), 5)+1 {
		top.dropBlanks()
	}
	room := m.height - len(top.lines)
	if hinting {
		// The whole hint while it is asked for, the log below it in the
		// room left (the choices come first when even the hint is cut).
		panel := m.hintPanel(v, min(len(hint)+1, room))
		add(panel...)
		add(m.logLines(room - len(panel))...)
	} else {
		add(m.logLines(room)...)
	}
	return top
}

// dragonLine shows the dragon's wounds (in a battle) and what slays it.
func (m *DragonModel) dragonLine(v dragon.View) string {
	st := m.st
	r := m.g.Game().Rules()
	eaten := ""
	if v.Meal > 0 {
		eaten = m.tx("dragon.tui.ate", "n", v.Meal)
	}
	if v.Mode != dragon.Battling || (v.Phase == dragon.PhaseOver) {
		if v.Slain {
			return st.good.Render(m.tx("dragon.tui.slain"))
		}
		return st.dim.Render(m.tx("dragon.tui.unhurt", "health", v.DragonHealth, "min", r.BattleMinimum) + eaten)
	}
	var marks []string
	for i := range v.DragonHealth {
		if i < v.Damage {
			marks = append(marks, "✖")
		} else {
			marks = append(marks, "♥")
		}
	}
	return st.warn.Render(m.tx("dragon.tui.wounded", "marks", strings.Join(marks, " "), "damage", v.Damage, "health", v.DragonHealth, "more", v.DragonHealth-v.Damage)) + st.dim.Render(eaten)
}

// players draws one line per player: soldiers, Companion (face up) and
// the number of Magic Items (their names only in the hand lines).
func (m *DragonModel) players(v dragon.View) []string {
	st := m.st
	nameW := 6
	for _, p := range v.Players {
		nameW = max(nameW, lipgloss.Width(p.Name))
	}
	var out []string
	for i, p := range v.Players {
		mark := "  "
		if !(v.Phase == dragon.PhaseOver) && i == v.Turn {
			mark = "▶ "
		}
		line := fmt.Sprintf("%s%-*s %6s %s", mark, nameW, p.Name, m.lcat.Num(int64(p.Soldiers)), m.tx("dragon.tui.soldiersWord"))
		if mark != "  " {
			line = st.current.Render(line)
		}
		// The notes, each with its weight: on a narrow screen the lightest
		// give way (t shows every card).
		var notes []string
		var weight []int
		note := func(s string, w int) { notes, weight = append(notes, s), append(weight, w) }
		if s := m.g.Seats()[i]; s.IsBot() {
			note(m.tx("tui.score.bot", "level", s.Bot), 1)
		}
		if b := v.Brawl; b != nil && b.Defender == i {
			note(m.tx("dragon.tui.defending"), 5)
		}
		if c := p.Companion; c != nil {
			note(m.cardName(c.ID, c.Name), 3)
		}
		items := m.tx("dragon.tui.items", "n", p.ItemCount)
		at := len(notes)
		note(items, 2)
		if slices.Contains(v.Winners, i) {
			note(m.tx("tui.score.winner"), 5)
		}
		if i == v.Seat { // "(below)" where there is room for it
			notes[at] += m.tx("dragon.tui.below")
			if lipgloss.Width(line)+2+lipgloss.Width(strings.Join(notes, " · ")) > m.width {
				notes[at] = items
			}
		}
		out = append(out, line+"  "+st.dim.Render(joinFitting(notes, weight, " · ", lipgloss.Width(line)+2, m.width)))
	}
	return out
}

func (m *DragonModel) turnLine(v dragon.View) string {
	st := m.st
	if sh := m.show; sh != nil {
		names := m.g.Names()
		return st.bold.Render(m.tx("dragon.tui.brawl")) + " · " + m.tx("dragon.tui.challenged", "p", names[sh.challenger], "q", names[sh.defender])
	}
	if v.Phase == dragon.PhaseOver {
		w := m.g.WinnersIn(m.lcat)
		return st.good.Render(strings.ToUpper(w[:1]) + w[1:] + ".")
	}
	p := v.Players[v.Turn]
	who := m.whose("dragon.tui.turnOf", v.Turn)
	if m.g.BotToAct() {
		who = m.tx("dragon.tui.botTurn", "p", p.Name)
	}
	if b := v.Brawl; b != nil {
		return m.brawlLine(v, b)
	}
	var what string
	switch {
	case v.Phase == dragon.PhaseHire:
		what = m.tx("dragon.tui.phaseHire")
	case v.Phase == dragon.PhaseChoose:
		what = m.tx("dragon.tui.phaseChoose")
	case v.Phase == dragon.PhaseDiscard:
		what = m.tx("dragon.tui.phaseDiscard")
	case v.Mode == dragon.Battling:
		what = m.tx("dragon.tui.phaseBattle", "todo", m.mustDo(v))
	default:
		what = m.tx("dragon.tui.phaseRecruit", "pool", v.Pool, "todo", m.mustDo(v))
	}
	return st.bold.Render(who) + " · " + what
}

// brawlLine is the turn line during a brawl: who challenged whom and whose
// card decision the game waits for.
func (m *DragonModel) brawlLine(v dragon.View, b *dragon.BrawlState) string {
	st := m.st
	names := m.g.Names()
	line := st.bold.Render(m.tx("dragon.tui.brawl")) + " · " + m.tx("dragon.tui.challenged", "p", names[v.Turn], "q", names[b.Defender])
	actor := names[v.ToAct]
	switch {
	case m.deciding():
		line += " · " + m.tx("dragon.tui.useOrStand")
	case b.Defending:
		line += " · " + m.tx("dragon.tui.waitingDefending", "p", actor)
	default:
		line += " · " + m.tx("dragon.tui.waiting", "p", actor)
	}
	return line
}

// mustDo says what the player to act must do now, between or on throws.
func (m *DragonModel) mustDo(v dragon.View) string {
	battle := v.Mode == dragon.Battling
	switch {
	case v.Phase == dragon.PhaseKeep && hasKind(v.Legal, dragon.ActAccept) && !hasKind(v.Legal, dragon.ActKeep):
		return m.tx("dragon.tui.do.nothing")
	case v.Phase == dragon.PhaseKeep && !battle && v.Event == dragon.Dragon:
		return m.tx("dragon.tui.do.dragon")
	case v.Phase == dragon.PhaseKeep && battle:
		return m.tx("dragon.tui.do.keepBattle")
	case v.Phase == dragon.PhaseKeep:
		return m.tx("tui.chooseKeep")
	case battle:
		return m.tx("dragon.tui.do.throwRetreat", "n", v.Dice)
	}
	return m.tx("dragon.tui.do.throwStop", "n", v.Dice)
}

// diceArea returns six lines: the throw and the event die, or the last
// throw (a farkle stays on screen), or what to do.
func (m *DragonModel) diceArea(v dragon.View) []string {
	st := m.st
	blank := func(msg string) []string { return diceMessage(msg, m.width) }
	if m.show != nil {
		return m.showLines()
	}
	if v.Phase == dragon.PhaseOver {
		saved := m.tx("dragon.tui.notSaved")
		if p := m.g.Path(); p != "" {
			saved = m.tx("tui.savedAs", "file", p)
		}
		if m.online != nil {
			return onlineOverMessage(m.lcat, m.online, m.g.Path(), m.width)
		}
		return diceMessage(saved+" "+m.tx("tui.overKeys"), m.width)
	}
	var looks []dieLook
	labels := ""
	event := func(f dragon.EventFace, style lipgloss.Style) {
		looks = append(looks, dieLook{rows: m.eventRows(f), style: style})
	}
	onTable := v.Phase == dragon.PhaseKeep || v.Phase == dragon.PhaseEvaded
	if v.Phase == dragon.PhaseBrawl {
		names := m.g.Names()
		return m.brawlDice(v.Throw, v.Event, m.grammar(brawlSituation(m.lcat, v, names), names))
	}
	if m.menu != nil && m.deciding() && !onTable {
		// The actions of the turn's start, or the items to discard, where
		// the dice go.
		out := append([]string{""}, m.menuBody()...)
		for len(out) < 6 {
			out = append(out, "")
		}
		return out
	}
	switch {
	case onTable && m.deciding() && v.Phase == dragon.PhaseKeep:
		looks = m.looks(st, m.badSelection(v))
		event(v.Event, st.warn)
		labels = diceLabels(len(m.faces), m.cursor) + " " + m.eventLabel(v.Event)
	case onTable:
		for _, f := range v.Throw.Faces() {
			looks = append(looks, dieLook{face: f, style: st.die})
		}
		event(v.Event, st.warn)
		labels = strings.Repeat(" ", 8*v.Throw.N()) + m.eventLabel(v.Event)
	case m.last.note != "" && m.last.dice != 0:
		for _, f := range m.last.dice.Faces() {
			looks = append(looks, dieLook{face: f, style: st.dieFarkle})
		}
		event(m.last.event, st.dieFarkle)
		labels = st.err.Render(m.last.note)
	default:
		name := v.Players[v.Turn].Name
		switch {
		case m.g.BotToAct():
			return blank(st.dim.Render(m.tx("dragon.tui.thinking", "p", name)))
		case m.online != nil && m.g.ToAct() >= 0 && m.g.ToAct() != m.holder:
			// Another seat decides at the server (a bot there, or a
			// person): nothing here is this terminal's to choose.
			return blank(st.dim.Render(m.tx("dragon.tui.thinking", "p", m.g.Names()[m.g.ToAct()])))
		case v.Phase == dragon.PhaseChoose:
			return blank(m.tx("dragon.tui.chooseBelow", "turn", m.whose("dragon.tui.turnOf", v.Turn)))
		case v.Phase == dragon.PhaseDiscard:
			return blank(m.tx("dragon.tui.discardBelow"))
		}
		stop := m.tx("dragon.tui.pressStop")
		if v.Mode == dragon.Battling {
			stop = m.tx("dragon.tui.pressRetreat")
		}
		return blank(m.tx("dragon.tui.press", "r", st.key.Render("r"), "n", v.Dice, "s", st.key.Render("s"), "stop", stop))
	}
	return append(strings.Split(drawDice(looks), "\n"), labels)
}

// keepOf is the keep of k from v's throw to check: on a Rally, with a
// reward (either is legal when the other is).
func keepOf(v dragon.View, k dice.Hand) dragon.Action {
	if v.Mode == dragon.Recruiting && v.Event == dragon.Rally {
		return dragon.KeepRally(k, dragon.Double)
	}
	return dragon.Keep(k)
}

// badSelection reports whether dice are chosen that cannot be kept.
func (m *DragonModel) badSelection(v dragon.View) bool {
	k := m.selected()
	return k != 0 && m.g.Check(keepOf(v, k)) != nil
}

func (m *DragonModel) eventLabel(f dragon.EventFace) string {
	if f == dragon.Blank {
		return m.st.dim.Render(" " + m.tx("dragon.lines.face.blank"))
	}
	return m.st.warn.Render(" " + m.tx("dragon.lines.face."+f.String()))
}

// keptLine shows the dice set aside and the pool.
func (m *DragonModel) keptLine(v dragon.View) string {
	if b := v.Brawl; b != nil && b.Defending {
		// The challenger's settled throw, the one to beat.
		names := m.g.Names()
		return m.st.dim.Render(m.grammar(m.whose("dragon.tui.toBeat", v.Turn, "dice", b.Throw.String(), "face", faceName(m.lcat, b.Event), "n", b.Score), names))
	}
	if (v.Phase == dragon.PhaseOver) || v.Mode == dragon.NoMode || v.Mode == dragon.Brawling {
		return ""
	}
	kept := m.tx("dragon.tui.nothingYet")
	if v.Kept != 0 {
		kept = v.Kept.String()
	}
	line := m.tx("dragon.tui.setAside", "dice", kept)
	if v.Mode == dragon.Recruiting {
		line += " · " + m.tx("dragon.tui.pool", "n", v.Pool)
		if v.DrawnCount > 0 {
			line += " · " + m.tx("dragon.tui.drawn", "n", v.DrawnCount)
		}
	}
	return m.st.dim.Render(line)
}

// messageLine shows the quit question, the last message, or what the
// selection is worth.
func (m *DragonModel) messageLine(v dragon.View) string {
	st := m.st
	switch {
	case m.confirm:
		return st.warn.Render(m.tx("dragon.tui.quit"))
	case m.flash != "" && m.flashErr:
		return st.err.Render(m.flash)
	case m.flash != "":
		return st.good.Render(m.flash)
	}
	if !m.deciding() || v.Phase != dragon.PhaseKeep || m.menu != nil {
		return ""
	}
	k := m.selected()
	if k == 0 {
		if hasKind(v.Legal, dragon.ActAccept) {
			return st.warn.Render(m.tx("dragon.tui.nothingToKeep"))
		}
		return st.dim.Render(m.tx("tui.chooseScoring", "how", m.tx("dragon.tui.chooseHow")))
	}
	if err := m.g.Check(keepOf(v, k)); err != nil {
		return m.tx("dragon.tui.chosen", "dice", k.String()) + st.warn.Render(m.keepWhy(v, k, err))
	}
	if m.forced {
		kv := m.g.Game().ValueKeep(m.g.State(), k, dragon.NoReward)
		return st.warn.Render(m.tx("dragon.tui.dragonEats", "n", kv.Eaten, "dice", k.String())) + st.dim.Render(" · "+m.tx("dragon.tui.throwsOnStops"))
	}
	what, _ := keepSoldiers(m.lcat, m.g.Game(), m.g.State(), v, k)
	return m.tx("dragon.tui.chosen", "dice", k.String()) + st.good.Render(what)
}

// keysLine says which keys do something now; they are buttons.
func (m *DragonModel) keysLine(v dragon.View) []button {
	b := func(k string) string { return m.tx("dragon.tui.btn." + k) }
	switch {
	case m.show != nil && m.online != nil:
		return []button{{"s", b("skipBrawl")}, {"?", b("help")}, {"q", m.tx("tui.btn.lobby")}}
	case m.show != nil:
		return []button{{"s", b("skipBrawl")}, {"?", b("help")}, {"q", b("quit")}}
	case m.held && m.online != nil:
		return []button{{"enter", m.tx("tui.btn.goOn")}, {"?", b("help")}, {"q", m.tx("tui.btn.lobby")}}
	case m.held: // s goes on too, skipping the bots' pauses (the line stays within 60 columns without it)
		return []button{{"enter", m.tx("tui.btn.goOn")}, {"?", b("help")}, {"q", b("quit")}}
	case m.online != nil && (v.Phase == dragon.PhaseOver || !m.deciding()):
		return onlineKeysIn(m.lcat, m.online, v.Phase == dragon.PhaseOver)
	case (v.Phase == dragon.PhaseOver):
		return []button{{"p", b("again")}, {"q", b("quit")}, {"?", b("rules")}}
	case m.g.BotToAct():
		return []button{{"s", b("skip")}, {"?", b("help")}, {"q", b("quit")}}
	case m.menu != nil:
		parts := []button{{"↑/↓", b("move")}, {"enter", b("choose")}}
		if m.menu.cancel {
			parts = append(parts, button{"esc", b("back")})
		}
		return append(parts, button{"h", b("hint")})
	case v.Phase == dragon.PhaseKeep:
		stop := b("keepStop")
		if v.Mode == dragon.Battling {
			stop = b("keepRetreat")
		}
		parts := []button{{"r", b("keepThrow")}, {"s", stop}}
		if hasKind(v.Legal, dragon.ActUse) {
			parts = append(parts, button{"c", b("card")})
		}
		if hasKind(v.Legal, dragon.ActAccept) {
			parts = append(parts, button{"a", b("accept")})
		}
		return append(parts, button{"h", b("hint")})
	case v.Phase == dragon.PhaseRoll || v.Phase == dragon.PhaseEvaded:
		stop := b("stop")
		if v.Mode == dragon.Battling {
			stop = b("retreat")
		}
		return []button{{"r", b("throw")}, {"s", stop}, {"h", b("hint")}}
	}
	return nil
}

// menuLines draws the open menu under the keys while a throw is on the
// table (a Rally reward, a card); other menus take the dice's place.
func (m *DragonModel) menuLines(v dragon.View) []string {
	if m.menu == nil || m.show != nil || !m.deciding() || v.Phase != dragon.PhaseKeep && v.Phase != dragon.PhaseEvaded && v.Phase != dragon.PhaseBrawl {
		return nil
	}
	return m.menuBody()
}

// menuBody draws the open menu: its title and its items.
func (m *DragonModel) menuBody() []string {
	mn := m.menu
	out := []string{m.st.bold.Render(mn.title)}
	for i, it := range mn.items {
		mark := "  "
		if i == mn.cursor {
			mark = m.st.good.Render("▸ ")
		}
		keyText := fmt.Sprintf("%d", i+1)
		if it.key != "" {
			keyText += "/" + it.key
		}
		// A long label (a card's text) is wrapped, not cut.
		lines := wrap(it.label, max(m.width-7, 20), "")
		for j, l := range lines {
			if !it.ok {
				l = m.st.dim.Render(l)
			}
			if j == 0 {
				out = append(out, mark+m.st.key.Render(fmt.Sprintf("%-4s", keyText))+" "+l)
			} else {
				out = append(out, strings.Repeat(" ", 7)+l)
			}
		}
	}
	return out
}

// handLines shows the cards of the person at the keyboard: their
// Companion and Magic Items (and the items drawn this turn). Nothing in
// hot-seat play between turns.
// With texts false only the names are shown.
func (m *DragonModel) handLines(v dragon.View, texts bool) []string {
	if v.Seat < 0 || v.Seat >= len(v.Players) {
		return nil
	}
	me := v.Players[v.Seat]
	var parts []string
	text := func(c dragon.CardView) string {
		if texts {
			return " (" + m.cardText(c.ID, c.Text) + ")"
		}
		return ""
	}
	if c := me.Companion; c != nil {
		parts = append(parts, m.tx("dragon.tui.handCompanion", "card", m.cardName(c.ID, c.Name))+text(*c))
	}
	for _, c := range me.Items {
		parts = append(parts, m.tx("dragon.tui.handItem", "card", m.cardName(c.ID, c.Name))+text(c))
	}
	for _, c := range v.Drawn {
		parts = append(parts, m.tx("dragon.tui.handDrawn", "card", m.cardName(c.ID, c.Name)))
	}
	if len(parts) == 0 {
		return nil
	}
	line := m.whose("dragon.tui.cardsOf", v.Seat) + " " + strings.Join(parts, " · ")
	if more := m.tx("dragon.tui.readTexts"); !texts && len([]rune(line+more)) <= m.width {
		line += more // t shows the texts (the help says so too)
	}
	return wrap(line, m.width, "  ")
}

// logLines returns the last lines of the log, as the seat drawn may see
// them, that fit in room lines.
func (m *DragonModel) logLines(room int) []string {
	if room < 2 {
		return nil
	}
	ev := m.logEvents()
	n := min(len(ev), 3*(room+m.logBack+logStep)) // events of the lines to show (a few give no line)
	lines := m.g.DescribeIn(m.lcat, ev[len(ev)-n:], m.seat())
	if n == len(ev) && len(m.g.earlier) > 0 { // a game joined mid-way: what came before, as the server wrote it
		var earlier []string
		for _, l := range m.g.earlier[max(0, len(m.g.earlier)-3*(room+m.logBack+logStep)):] {
			earlier = append(earlier, wrap(l, m.width-2, "  ")...)
		}
		lines = append(earlier, lines...)
	}
	shown := m.logWindow(lines, room-1)
	out := []string{panelHead(m.st, m.logHead(len(lines), len(shown)), m.width)}
	for _, l := range shown {
		out = append(out, "  "+l)
	}
	return out
}

// hintPanel shows the hint in room lines: the choices first, best first,
// every line wrapped to the width.
func (m *DragonModel) hintPanel(v dragon.View, room int) []string {
	if room < 2 {
		return nil
	}
	body := m.hintBody(v)
	n := min(len(body), room-1)
	for n > 0 && n < len(body) && strings.HasPrefix(body[n], "  "+hintIndent) {
		n-- // a choice wrapped over lines shows whole or not at all
	}
	return append([]string{panelHead(m.st, m.tx("dragon.tui.hintHead"), m.width)}, body[:n]...)
}

// hintIndent begins the lines of a hint's choice after its first.
const hintIndent = "    "

// hintBody is the hint's lines, wrapped to the width.
func (m *DragonModel) hintBody(v dragon.View) []string {
	var out []string
	for _, l := range dragonHintLines(m.lcat, m.g, v, m.lcat.Code != lang.Default, true) {
		out = append(out, wrap(l, m.width-2, hintIndent)...)
	}
	for i := range out {
		out[i] = "  " + out[i]
	}
	return out
}
