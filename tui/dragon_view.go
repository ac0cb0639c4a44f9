package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
)

// eventRows are the inner rows of the event die's faces.
var eventRows = map[dragon.EventFace]*[3]string{
	dragon.Blank:  {"     ", "     ", "     "},
	dragon.Rally:  {" \\o/ ", "RALLY", "     "},
	dragon.Dragon: {" ^^^ ", "DRAGN", " vvv "},
}

// View implements tea.Model: the screen, full-screen.
func (m *DragonModel) View() tea.View {
	v := fullScreen(m.screenText())
	v.MouseMode = mouseMode(m.mouseOff)
	return v
}

// screenText draws the screen.
func (m *DragonModel) screenText() string {
	if m.quitting {
		return ""
	}
	if m.width < MinWidth {
		return narrowView("Dragon Farkle", m.width, m.height)
	}
	if m.help {
		return fit(m.helpPage(m.helpLines()), m.width, m.height)
	}
	return fit(m.tableLayout().String(), m.width, m.height)
}

// helpLines returns the help screen: the keys, then the rules, the soldier
// table and the cards.
func (m *DragonModel) helpLines() []string {
	lines := helpKeys(m.st, m.width, [][2]string{
		{"r b f", "at the start of a turn: recruit, brawl, Final Battle (or ↑/↓ and enter, or the number)"},
		{"c", "at the start of a turn: hire a Companion; then n keeps the new one, k yours"},
		{"p", "in a brawl: stand by your throw (or choose a card to use on it first)"},
		{"1-6", "choose a die showing that face (5 chooses a 5; again, another 5); once all of them are chosen, unchoose them"},
		{"←/→ space", "move along the dice, choose the one over the ▲"},
		{"click", "choose or unchoose a die; the keys at the bottom are buttons"},
		{"m", "mouse off (so that the terminal selects text), or on again"},
		{"+ -", "bots play faster or slower (slow, normal, fast, instant)"},
		{"r", "throw; after choosing: keep the chosen dice, throw the rest"},
		{"s or b", "recruiting: keep the chosen dice and stop (the pool goes to your mat); in battle: retreat"},
		{"u", "undo the last choice of dice"},
		{"d i", "on a Rally: double the soldiers of the dice kept, or draw a Magic Item"},
		{"c", "use a card on this throw"},
		{"a", "accept a farkle a card could still undo"},
		{"h", "hint: the value of every choice and your Final Battle odds"},
		{"s or enter", "skip ahead while bots play"},
		{"?", "this help"},
		{"p", "at the end of a game: play again with the same players"},
		{"q", "quit (asks first; the game is saved)"},
	})
	return append(lines, DragonRulesText(m.g.Game(), m.width)...)
}

// tableLayout draws the table.
func (m *DragonModel) tableLayout() *layout {
	g := m.g
	v := m.showView(m.view())
	st := m.st
	top := newLayout()
	add := top.add

	round := fmt.Sprintf("round %d", v.Round)
	if n := g.Game().Rules().RoundLimit; n > 0 {
		round += fmt.Sprintf(" of %d", n)
	}
	left := st.title.Render("Dragon Farkle") + st.dim.Render(fmt.Sprintf(" · %s · %s", g.Game().Rules().Name, round))
	top.addHeader(st, left, m.width, headerButtons)
	add(m.dragonLine(v))
	add("")
	add(m.players(v)...)
	add("")
	if m.pass && m.show == nil {
		name := g.Names()[g.ToAct()]
		add(st.bold.Render(fmt.Sprintf("Pass the keyboard to %s.", name)))
		add("")
		for _, l := range wrap(fmt.Sprintf("%s, press enter when you are ready (the others look away: your Magic Items will show).", name), m.width-2, "") {
			add("  " + l)
		}
		add("", m.messageLine(v), "")
	} else {
		add(m.turnLine(v))
		n := 0
		if m.show == nil && m.deciding() && v.Phase == dragon.PhaseKeep {
			n = len(m.faces)
		}
		top.addDice(m.diceArea(v), n)
		add(m.keptLine(v))
		add(m.messageLine(v))
		top.addBar(st, m.keysLine(v))
		add(m.menuLines(v)...)
		hand := m.handLines(v, true)
		if m.height-len(top.lines)-len(hand) < 7 {
			hand = m.handLines(v, false) // the card texts are in the help
		}
		add(hand...)
		add("")
	}
	hinting := m.showHint && m.deciding()
	if len(top.lines) > m.height || hinting && m.height-len(top.lines) < 6 {
		top.dropBlanks()
	}
	room := m.height - len(top.lines)
	if hinting {
		hint := m.hintPanel(v, hintRoom(room))
		add(hint...)
		add(m.logLines(room - len(hint))...)
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
		eaten = fmt.Sprintf(" · it ate %d", v.Meal)
	}
	if v.Mode != dragon.Battling || (v.Phase == dragon.PhaseOver) {
		if v.Slain {
			return st.good.Render("The dragon is slain.")
		}
		return st.dim.Render(fmt.Sprintf("Dragon unhurt · %d damage slays it · attack at %d+ soldiers%s", v.DragonHealth, r.BattleMinimum, eaten))
	}
	var marks []string
	for i := range v.DragonHealth {
		if i < v.Damage {
			marks = append(marks, "✖")
		} else {
			marks = append(marks, "♥")
		}
	}
	return st.warn.Render(fmt.Sprintf("Dragon %s  %d of %d damage — %d more slays it", strings.Join(marks, " "), v.Damage, v.DragonHealth, v.DragonHealth-v.Damage)) + st.dim.Render(eaten)
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
		line := fmt.Sprintf("%s%-*s %6d soldiers", mark, nameW, p.Name, p.Soldiers)
		if mark != "  " {
			line = st.current.Render(line)
		}
		var notes []string
		if s := m.g.Seats()[i]; s.IsBot() {
			notes = append(notes, "bot "+s.Bot)
		}
		if b := v.Brawl; b != nil && b.Defender == i {
			notes = append(notes, "defending")
		}
		if p.Companion != nil {
			notes = append(notes, p.Companion.Name)
		}
		items := fmt.Sprintf("%d %s", p.ItemCount, plural(p.ItemCount, "item", "items"))
		if i == v.Seat {
			items += " (below)"
		}
		notes = append(notes, items)
		if slices.Contains(v.Winners, i) {
			notes = append(notes, "WINNER")
		}
		out = append(out, line+"  "+st.dim.Render(strings.Join(notes, " · ")))
	}
	return out
}

func (m *DragonModel) turnLine(v dragon.View) string {
	st := m.st
	if sh := m.show; sh != nil {
		names := m.g.Names()
		return st.bold.Render("Brawl") + " · " + fmt.Sprintf("%s challenged %s", names[sh.challenger], names[sh.defender])
	}
	if v.Phase == dragon.PhaseOver {
		return st.good.Render(strings.ToUpper(m.g.Winners()[:1]) + m.g.Winners()[1:] + ".")
	}
	p := v.Players[v.Turn]
	who := possessive(p.Name) + " turn"
	if m.g.BotToAct() {
		who = p.Name + " (bot)"
	}
	if b := v.Brawl; b != nil {
		return m.brawlLine(v, b)
	}
	var what string
	switch {
	case v.Phase == dragon.PhaseHire:
		what = "hired a Companion: keep one of two"
	case v.Phase == dragon.PhaseChoose:
		what = "recruit, brawl or attack"
	case v.Phase == dragon.PhaseDiscard:
		what = "too many Magic Items: discard"
	case v.Mode == dragon.Battling:
		what = "Final Battle · " + m.mustDo(v)
	default:
		what = fmt.Sprintf("recruiting · pool %d · %s", v.Pool, m.mustDo(v))
	}
	return st.bold.Render(who) + " · " + what
}

// brawlLine is the turn line during a brawl: who challenged whom and whose
// card decision the game waits for.
func (m *DragonModel) brawlLine(v dragon.View, b *dragon.BrawlState) string {
	st := m.st
	names := m.g.Names()
	line := st.bold.Render("Brawl") + " · " + fmt.Sprintf("%s challenged %s", names[v.Turn], names[b.Defender])
	actor := names[v.ToAct]
	switch {
	case m.deciding():
		line += " · use a card on your throw, or stand by it"
	case b.Defending:
		line += fmt.Sprintf(" · waiting for %s (defending)", actor)
	default:
		line += fmt.Sprintf(" · waiting for %s", actor)
	}
	return line
}

// mustDo says what the player to act must do now, between or on throws.
func (m *DragonModel) mustDo(v dragon.View) string {
	battle := v.Mode == dragon.Battling
	switch {
	case v.Phase == dragon.PhaseKeep && hasKind(v.Legal, dragon.ActAccept) && !hasKind(v.Legal, dragon.ActKeep):
		return "nothing to keep: accept, or use a card"
	case v.Phase == dragon.PhaseKeep && !battle && v.Event == dragon.Dragon:
		return "the Dragon: every scoring die is set aside"
	case v.Phase == dragon.PhaseKeep && battle:
		return "choose dice to keep (they cost soldiers)"
	case v.Phase == dragon.PhaseKeep:
		return "choose dice to keep"
	case battle:
		return fmt.Sprintf("throw %d %s or retreat", v.Dice, plural(v.Dice, "die", "dice"))
	}
	return fmt.Sprintf("throw %d %s or stop", v.Dice, plural(v.Dice, "die", "dice"))
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
		return overMessage(m.g.Path(), m.width)
	}
	var looks []dieLook
	labels := ""
	event := func(f dragon.EventFace, style lipgloss.Style) {
		looks = append(looks, dieLook{rows: eventRows[f], style: style})
	}
	onTable := v.Phase == dragon.PhaseKeep || v.Phase == dragon.PhaseEvaded
	if v.Phase == dragon.PhaseBrawl {
		names := m.g.Names()
		return m.brawlDice(v.Throw, v.Event, youGrammar(brawlSituation(v, names), names))
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
			return blank(st.dim.Render(name + " is thinking…"))
		case v.Phase == dragon.PhaseChoose:
			return blank(fmt.Sprintf("%s: choose an action below.", possessive(name)+" turn"))
		case v.Phase == dragon.PhaseDiscard:
			return blank("The turn is over; discard down to the item limit below.")
		}
		return blank(fmt.Sprintf("Press %s to throw %d %s, or %s to %s.", st.key.Render("r"), v.Dice, plural(v.Dice, "die", "dice"), st.key.Render("s"), map[bool]string{true: "retreat", false: "stop and keep the pool"}[v.Mode == dragon.Battling]))
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
		return m.st.dim.Render(" blank")
	}
	return m.st.warn.Render(" " + f.String())
}

// keptLine shows the dice set aside and the pool.
func (m *DragonModel) keptLine(v dragon.View) string {
	if b := v.Brawl; b != nil && b.Defending {
		// The challenger's settled throw, the one to beat.
		names := m.g.Names()
		return m.st.dim.Render(youGrammar(fmt.Sprintf("%s throw to beat: %s and %s, %d", possessive(names[v.Turn]), b.Throw, faceName(b.Event), b.Score), names))
	}
	if (v.Phase == dragon.PhaseOver) || v.Mode == dragon.NoMode || v.Mode == dragon.Brawling {
		return ""
	}
	kept := "nothing yet"
	if v.Kept != 0 {
		kept = v.Kept.String()
	}
	line := "set aside: " + kept
	if v.Mode == dragon.Recruiting {
		line += fmt.Sprintf(" · pool %d", v.Pool)
		if v.DrawnCount > 0 {
			line += fmt.Sprintf(" · %d %s drawn", v.DrawnCount, plural(v.DrawnCount, "item", "items"))
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
		return st.warn.Render("Quit? The game is saved. y quits, n goes back.")
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
			return st.warn.Render("Nothing to keep: a accepts, c uses a card.")
		}
		return st.dim.Render("choose scoring dice: " + chooseHow)
	}
	if err := m.g.Check(keepOf(v, k)); err != nil {
		return fmt.Sprintf("chosen %s: ", k) + st.warn.Render(m.keepWhy(v, k, err))
	}
	if m.forced {
		kv := m.g.Game().ValueKeep(m.g.State(), k, dragon.NoReward)
		return st.warn.Render(fmt.Sprintf("The Dragon eats %d soldiers: %s must be set aside", kv.Eaten, k)) + st.dim.Render(" · r throws on, s stops")
	}
	what, _ := keepSoldiers(m.g.Game(), m.g.State(), v, k)
	return fmt.Sprintf("chosen %s: ", k) + st.good.Render(what)
}

// keysLine says which keys do something now; they are buttons.
func (m *DragonModel) keysLine(v dragon.View) []button {
	switch {
	case m.show != nil:
		return []button{{"s", "skip the brawl"}, {"?", "help"}, {"q", "quit"}}
	case (v.Phase == dragon.PhaseOver):
		return []button{{"p", "play again"}, {"q", "quit"}, {"?", "rules"}}
	case m.g.BotToAct():
		return []button{{"s", "skip ahead"}, {"?", "help"}, {"q", "quit"}}
	case m.menu != nil:
		parts := []button{{"↑/↓", "move"}, {"enter", "choose"}}
		if m.menu.cancel {
			parts = append(parts, button{"esc", "back"})
		}
		return append(parts, button{"h", "hint"})
	case v.Phase == dragon.PhaseKeep:
		stop := "keep & stop"
		if v.Mode == dragon.Battling {
			stop = "keep & retreat"
		}
		parts := []button{{"r", "keep & throw"}, {"s", stop}}
		if hasKind(v.Legal, dragon.ActUse) {
			parts = append(parts, button{"c", "card"})
		}
		if hasKind(v.Legal, dragon.ActAccept) {
			parts = append(parts, button{"a", "accept"})
		}
		return append(parts, button{"h", "hint"})
	case v.Phase == dragon.PhaseRoll || v.Phase == dragon.PhaseEvaded:
		stop := "stop"
		if v.Mode == dragon.Battling {
			stop = "retreat"
		}
		return []button{{"r", "throw"}, {"s", stop}, {"h", "hint"}}
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
		label := it.label
		if !it.ok {
			label = m.st.dim.Render(label)
		}
		out = append(out, mark+m.st.key.Render(fmt.Sprintf("%-4s", keyText))+" "+label)
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
			return " (" + c.Text + ")"
		}
		return ""
	}
	if c := me.Companion; c != nil {
		parts = append(parts, "Companion "+c.Name+text(*c))
	}
	for _, c := range me.Items {
		parts = append(parts, "Item "+c.Name+text(c))
	}
	for _, c := range v.Drawn {
		parts = append(parts, "drawn "+c.Name+" (yours when you stop)")
	}
	if len(parts) == 0 {
		return nil
	}
	head := possessive(me.Name) + " cards: "
	return wrap(head+strings.Join(parts, " · "), m.width, "  ")
}

// logLines returns the last lines of the log, as the seat drawn may see
// them, that fit in room lines.
func (m *DragonModel) logLines(room int) []string {
	if room < 2 {
		return nil
	}
	ev := m.logEvents()
	n := min(len(ev), 3*room) // events of the last lines (a few give no line)
	lines := m.g.Describe(ev[len(ev)-n:], m.seat())
	k := min(len(lines), room-1)
	out := []string{m.st.dim.Render("─ log " + strings.Repeat("─", max(0, min(m.width, 80)-6)))}
	for _, l := range lines[len(lines)-k:] {
		out = append(out, "  "+l)
	}
	return out
}

// hintPanel shows the hint in room lines.
func (m *DragonModel) hintPanel(v dragon.View, room int) []string {
	if room < 2 {
		return nil
	}
	head := "─ hint (h hides) "
	out := []string{m.st.dim.Render(head + strings.Repeat("─", max(0, min(m.width, 80)-lipgloss.Width(head))))}
	for _, l := range dragonHintLines(m.g, v) {
		if len(out) >= room {
			break
		}
		out = append(out, "  "+l)
	}
	return out
}
