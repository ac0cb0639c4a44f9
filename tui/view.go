package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// MinWidth is the narrowest terminal the table is drawn for.
const MinWidth = 60

// View implements tea.Model: the screen, full-screen (the terminal's
// alternate screen, which the terminal gives back as it was on quitting).
func (m *Model) View() tea.View {
	if m.dragon != nil {
		return m.dragon.View()
	}
	v := fullScreen(m.screenText())
	v.MouseMode = mouseMode(m.mouseOff)
	v.WindowTitle = m.windowTitle()
	return v
}

// fullScreen is the view of a game's screen s.
func fullScreen(s string) tea.View {
	v := tea.NewView(s)
	v.AltScreen = true
	return v
}

// screenText draws the screen.
func (m *Model) screenText() string {
	if m.quitting {
		return ""
	}
	if m.width < MinWidth {
		return narrowViewIn(m.lc, "Farkle", m.width, m.height)
	}
	var out string
	switch {
	case m.finishing:
		out = m.finishView()
		return fit(out, m.width, m.height)
	}
	switch m.screen {
	case screenSetup:
		out = m.setup.view(m.st, m.width, m.height)
	case screenHelp:
		out = m.helpView()
	default:
		out = m.tableLayout().String()
	}
	return fit(out, m.width, m.height)
}

// fit cuts s to width columns and height lines.
func fit(s string, width, height int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// helpLines returns the help screen's text: the keys, then the rules in
// force.
func (m *Model) helpLines() []string {
	if m.helpFrom == screenSetup {
		return m.setup.helpLines(m.st, m.width)
	}
	c := m.lc
	lines := helpKeysIn(c, m.st, m.width, [][2]string{
		{"1-6", c.Msg("tui.help.dice")},
		{c.Msg("tui.help.key.move"), c.Msg("tui.help.move")},
		{c.Msg("tui.help.key.click"), c.Msg("tui.help.click")},
		{"m", c.Msg("tui.help.mouse")},
		{"+ -", c.Msg("tui.help.pace", "paces", paceNames(c))},
		{"u", c.Msg("tui.help.undo")},
		{"r", c.Msg("tui.help.throw")},
		{"b", c.Msg("tui.help.bank")},
		{"h", c.Msg("tui.help.hint")},
		{"PgUp PgDn", c.Msg("tui.help.log")},
		{c.Msg("tui.help.key.skip"), c.Msg("tui.help.skip")},
		{"?", c.Msg("tui.help.help")},
		{"p", m.againHelp()},
		{"q", m.quitHelp()},
	})
	return append(lines, RulesTextIn(c, m.game.Rules(), m.width)...)
}

func (m *Model) helpView() string {
	return m.helpPage(m.helpLines())
}

// headerButtonsIn are the buttons at the top right of a table, in the
// language of c.
func headerButtonsIn(c *lang.Catalogue) []button {
	c = orEnglish(c)
	return []button{{"?", c.Msg("tui.btn.help")}, {"q", c.Msg("tui.btn.quit")}}
}

// tableLayout draws the game: header, scoreboard, the throw, the turn, the
// message line, the keys, and the log or the hint.
func (m *Model) tableLayout() *layout {
	g := m.game
	s := g.State()
	r := g.Rules()
	st := m.st
	c := m.lc
	top := newLayout()
	add := top.add

	// Header.
	left := st.title.Render("Farkle") + st.dim.Render(" · "+c.Msg("tui.header", "rules", r.Name, "n", r.Game.Target))
	if len(s.Players) == 1 {
		left += st.dim.Render(" · ") + st.bold.Render(soloTurnIn(c, s))
	}
	top.addHeader(st, left, m.width, m.headerButtons())
	if l := m.onlineLine(); l != "" {
		add(l)
	}
	add("")

	// Scoreboard.
	add(m.scoreboard()...)
	if s.FinalRound && !s.Over() {
		for _, l := range wrap(c.Msg("tui.finalRound", "name", s.Players[s.Trigger].Name, "score", s.Players[s.Trigger].Score), m.width, "") {
			add(st.banner.Render(l))
		}
	}
	add("")

	// The turn and the throw (at the end: how each played).
	add(wrapStyled(m.turnLine(), m.width, "  ")...)
	if s.Over() {
		add(m.endLines()...)
		add(g.online.ratingLines(c, m.width)...)
	}
	n := 0
	if m.canSelect() {
		n = len(m.faces)
	}
	top.addDice(m.diceArea(), n)
	add(m.keptLine())
	add(m.messageLines()...)
	top.addBar(st, m.keysLine())
	add(m.prepLine())

	// In a low window, the blank lines go first (and to make room for the
	// hint and the log together).
	hinting := m.showHint && !g.Over() && !g.AutoToAct()
	if len(top.lines) > m.height || hinting && m.height-len(top.lines) < 6 {
		top.dropBlanks()
	}

	// The hint and the log, or the log, in the rest of the height.
	room := m.height - len(top.lines)
	if hinting {
		hint := m.hintLines(hintRoom(room))
		add(hint...)
		add(m.logLines(room - len(hint))...)
	} else {
		add(m.logLines(room)...)
	}
	return top
}

// hintRoom returns the most lines of room the hint may take: the log
// under it keeps at least its last lines (what the others just did) unless
// the room is too small for both. The log gets what the hint leaves.
func hintRoom(room int) int {
	if room < 5 {
		return room
	}
	return room - min(4, max(2, room/3))
}

// soloTurnIn is the turn counter of a game of one: "turn 7", or "turn 7 of
// 20" when the rules cap the turns.
func soloTurnIn(lc *lang.Catalogue, s engine.State) string {
	lc = orEnglish(lc)
	n := max(s.Players[0].Turns, 1)
	if c := s.Rules().Game.MaxTurns; c > 0 {
		return lc.Msg("tui.soloTurnOf", "turn", n, "max", c)
	}
	return lc.Msg("tui.soloTurn", "turn", n)
}

// spread puts left and right on one line of width columns.
func spread(left, right string, width int) string {
	gap := width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m *Model) scoreboard() []string {
	g := m.game
	s := g.State()
	r := g.Rules()
	st := m.st
	c := m.lc
	nameW := 6
	for _, p := range s.Players {
		nameW = max(nameW, lipgloss.Width(p.Name))
	}
	var out []string
	for i, p := range s.Players {
		mark := "  "
		if !s.Over() && i == s.Actor() {
			mark = "▶ "
		}
		var notes []string
		if seat := g.Seats()[i]; seat.IsBot() {
			notes = append(notes, c.Msg("tui.score.bot", "level", seat.Bot))
		}
		if p.Score == 0 && r.Turn.EntryMinimum > 0 {
			notes = append(notes, c.Msg("tui.score.notOn"))
		}
		if p.Streak > 0 {
			streak := strings.Repeat("✗", p.Streak) + " " + c.Msg("tui.score.inARow", "streak", p.Streak)
			if n := r.Turn.FarklePenalty.Count; n > 0 {
				streak = strings.Repeat("✗", p.Streak) + " " + c.Msg("tui.score.ofFarkles", "streak", p.Streak, "n", n)
			}
			notes = append(notes, streak)
		}
		if s.FinalRound && !s.Over() {
			switch {
			case i == s.Trigger:
				notes = append(notes, c.Msg("tui.score.reached"))
			case finished(s, i):
				notes = append(notes, c.Msg("tui.score.played"))
			case i == s.Current:
				notes = append(notes, c.Msg("tui.score.last"))
			}
		}
		if s.Over() {
			for _, w := range s.Winners {
				if w == i {
					notes = append(notes, c.Msg("tui.score.winner"))
				}
			}
		}
		line := fmt.Sprintf("%s%-*s %6s", mark, nameW, p.Name, c.Num(int64(p.Score)))
		if mark != "  " {
			line = st.current.Render(line)
		}
		if len(notes) > 0 {
			line += "  " + st.dim.Render(strings.Join(notes, " · "))
		}
		out = append(out, line)
	}
	return out
}

// finished reports whether player i has had the last turn of the final
// round: seats after the trigger and before the current player.
func finished(s engine.State, i int) bool {
	n := len(s.Players)
	d := (i - s.Trigger + n) % n
	return d > 0 && d < (s.Current-s.Trigger+n)%n
}

func (m *Model) turnLine() string {
	g := m.game
	s := g.State()
	st := m.st
	c := m.lc
	if s.Over() {
		over := g.describe(c, engine.Event{Kind: engine.EvGameOver, Players: s.Winners})
		if len(s.Winners) > 0 {
			over = g.describe(c, engine.Event{Kind: engine.EvGameOver, Players: s.Winners, Score: s.Players[s.Winners[0]].Score})
		}
		return st.good.Render(capital(over) + ".")
	}
	if s.Phase != engine.PhasePlay {
		if s.Phase == engine.PhaseFirstRollOff {
			return st.bold.Render(c.Msg("tui.rolloff.start"))
		}
		return st.bold.Render(c.Msg("tui.rolloff.win"))
	}
	p := s.Players[s.Current]
	who := m.turnOf(s.Current)
	switch {
	case g.BotToAct() || g.Waiting() && g.Seats()[s.Current].IsBot():
		who = c.Msg("tui.playingBot", "name", p.Name)
	case g.Waiting():
		who = c.Msg("tui.playing", "name", p.Name)
	}
	var dice string
	switch {
	case s.Step == engine.StepKeep && m.hot:
		dice = st.good.Render(c.Msg("tui.hotBig")) + " " + c.Msg("tui.hotAgain", "n", s.Throw.N())
	case s.Step == engine.StepKeep:
		dice = c.Msg("tui.chooseKeep")
	case s.Left == 0 && s.Step == engine.StepChoose:
		dice = c.Msg("tui.hotToThrow", "n", s.ToThrow())
	case s.Step == engine.StepChoose:
		dice = c.Msg("tui.leftToThrow", "n", s.Left)
	default:
		dice = c.Msg("tui.toThrow", "n", s.ToThrow())
	}
	return st.bold.Render(who) + " · " + c.Msg("tui.turnTotal", "total", s.Total) + " · " + dice
}

// diceArea returns the six lines of the dice: the throw being chosen from,
// or the last throw (a farkle stays on screen), or what to do.
func (m *Model) diceArea() []string {
	g := m.game
	s := g.State()
	st := m.st
	c := m.lc
	blank := func(msg string) []string { return diceMessage(msg, m.width) }
	if s.Over() && g.online != nil {
		return onlineOverMessage(c, g.online, g.Path(), m.width)
	}
	if s.Over() {
		return overMessageIn(c, g.Path(), m.width)
	}
	if s.Phase != engine.PhasePlay {
		var parts []string
		for i, c := range s.Contenders {
			f := "…"
			if s.RollFaces[i] > 0 {
				f = fmt.Sprint(s.RollFaces[i])
			}
			parts = append(parts, fmt.Sprintf("%s %s", s.Players[c].Name, f))
		}
		return blank(strings.Join(parts, " · "))
	}
	var looks []dieLook
	labels := ""
	switch {
	case s.Step == engine.StepKeep && m.canSelect():
		looks = m.looks(st, m.badSelection())
		labels = diceLabels(len(m.faces), m.cursor)
	case s.Step == engine.StepKeep || s.Step == engine.StepChoose:
		// A bot's throw, or a throw already kept from.
		kept := s.Kept
		for _, f := range s.Throw.Faces() {
			l := dieLook{face: f, style: st.die}
			if kept.Count(f) > 0 {
				kept = kept.Minus(dice.Single(f, 1))
				l.double, l.style = true, st.dieSel
			}
			looks = append(looks, l)
		}
		switch {
		case s.Step == engine.StepChoose && s.Left == 0:
			hot := c.Msg("tui.hotAll", "name", s.Players[s.Current].Name, "n", s.ToThrow(), "total", s.Total)
			if strings.EqualFold(s.Players[s.Current].Name, youName(c)) {
				hot = c.Msg("tui.hotAllYou", "n", s.ToThrow(), "total", s.Total)
			}
			labels = st.good.Render(c.Msg("tui.hotStars")) + " " + hot
		case s.Step == engine.StepChoose:
			labels = st.dim.Render(c.Msg("tui.keptDice", "dice", s.Kept.String()))
		}
	case m.shown.dice != 0 && m.shown.farkle:
		for _, f := range m.shown.dice.Faces() {
			looks = append(looks, dieLook{face: f, style: st.dieFarkle, heavy: true})
		}
		lost := c.Msg("tui.nothingScores")
		if m.shown.lost > 0 {
			lost = c.Msg("tui.nothingScoresLost", "total", m.shown.lost)
		}
		labels = st.err.Render(c.Msg("tui.farkleBig")) + " " + c.Msg("tui.farkleThrew", "name", g.Names()[m.shown.player], "dice", m.shown.dice.String(), "lost", lost)
	default:
		if g.BotToAct() || g.Waiting() {
			return blank(st.dim.Render(c.Msg("tui.aboutToThrow", "name", s.Players[s.Current].Name)))
		}
		return blank(c.Msg("tui.pressThrow", "turn", m.turnOf(s.Current), "key", st.key.Render("r"), "n", s.ToThrow()))
	}
	return append(strings.Split(drawDice(looks), "\n"), wrapStyled(labels, m.width, "  ")...)
}

// prepLine shows how far the bots' preparation is: a bar, the part done
// and the time left, when a solve reports its progress (Options.Meter);
// "" when nothing is being prepared.
func (m *Model) prepLine() string {
	if len(m.preparing) == 0 {
		return ""
	}
	who := strings.Join(m.preparing, ", ")
	if m.o.Meter != nil {
		if st, ok := m.o.Meter.Status(); ok {
			return m.st.warn.Render(m.lc.Msg("tui.getsReady", "n", len(m.preparing), "names", who)+" ") + bar(st.part, 10) + " " + st.shortIn(m.lc)
		}
	}
	return m.st.warn.Render(m.lc.Msg("tui.getsReady", "n", len(m.preparing), "names", who) + "…")
}

// finishView is the screen after quitting while the bots are prepared:
// the preparation finishes so that its work is cached.
func (m *Model) finishView() string {
	st := m.st
	c := m.lc
	lines := []string{st.title.Render("Farkle"), "", c.Msg("tui.finish.saved"), ""}
	what := c.Msg("tui.finish.hint")
	if len(m.preparing) > 0 {
		what = c.Msg("tui.finish.prep", "names", strings.Join(m.preparing, ", "))
	}
	lines = append(lines, wrap(c.Msg("tui.finish.what", "what", what), m.width, "")...)
	if m.o.Meter != nil {
		if s, ok := m.o.Meter.Status(); ok {
			lines = append(lines, "", bar(s.part, min(40, m.width-2)), s.stringIn(c))
		}
	}
	lines = append(lines, "")
	lines = append(lines, wrap(c.Msg("tui.finish.stop"), m.width, "")...)
	return strings.Join(lines, "\n")
}

// badSelection reports whether dice are chosen that cannot be kept.
func (m *Model) badSelection() bool {
	k := m.selected()
	if k == 0 {
		return false
	}
	_, err := m.game.Preview(k)
	return err != nil
}

// turnOf is "ana's turn" for the player in seat, "Your turn" for the
// player spoken to (called "you", or this terminal's seat at a server).
func (m *Model) turnOf(seat int) string {
	name := m.game.Names()[seat]
	if o := m.game.online; strings.EqualFold(name, youName(m.lc)) || o != nil && o.you == seat {
		return m.lc.Msg("status.mine")
	}
	return m.lc.Msg("tui.turnOf", "name", name)
}

// keptLine lists the keeps of the turn so far, set apart from the throw.
func (m *Model) keptLine() string {
	keeps := m.game.Keeps()
	s := m.game.State()
	if s.Over() {
		return ""
	}
	if len(keeps) == 0 || s.Phase != engine.PhasePlay {
		return m.st.dim.Render(m.lc.Msg("tui.keptNothing"))
	}
	parts := make([]string, len(keeps))
	for i, k := range keeps {
		parts[i] = fmt.Sprintf("[%s] %s", k.Dice, m.lc.Num(int64(k.Points)))
	}
	head := m.lc.Msg("tui.keptThisTurn") + " "
	// In a narrow window the last keeps show, after "…" for the earlier
	// ones (the turn's total is on the turn line).
	shown := strings.Join(parts, " · ")
	for n := len(parts) - 1; n > 0 && lipgloss.Width(head+shown) > m.width; n-- {
		shown = "… " + strings.Join(parts[len(parts)-n:], " · ")
	}
	return m.st.dim.Render(head) + shown
}

// messageLines shows the quit question, the last message, or the live
// points of the selection: one line, or two when it is longer than the
// window is wide.
func (m *Model) messageLines() []string {
	st := m.st
	c := m.lc
	one := func(style lipgloss.Style, text string) []string { return m.wrapMessage("", text, style) }
	switch {
	case m.confirm && (len(m.preparing) > 0 || m.solving()):
		return one(st.warn, c.Msg("tui.quitSolve"))
	case m.confirm:
		return one(st.warn, m.quitQuestion())
	case len(m.preparing) > 0 && m.game.AutoToAct():
		return one(st.warn, m.preparingNote())
	case m.flash != "" && m.flashErr:
		return one(st.err, m.flash)
	case m.flash != "":
		return one(st.good, m.flash)
	}
	if !m.canSelect() {
		return []string{""}
	}
	k := m.selected()
	if k == 0 {
		return one(st.dim, c.Msg("tui.chooseScoring", "how", c.Msg("tui.chooseHow")))
	}
	next, err := m.game.Preview(k)
	if err != nil {
		why := Reason(err)
		if r := keepReasonIn(c, m.game.State().Table(), m.game.State().Throw, k); r != "" {
			why = r
		}
		return m.wrapMessage(c.Msg("tui.chosen", "dice", k.String())+" ", why, st.warn)
	}
	pts := next.Total - m.game.State().Total
	if next.Current != m.game.State().Current || next.Step != engine.StepChoose {
		pts, _ = m.game.State().Table().Points(k)
	}
	return []string{c.Msg("tui.chosen", "dice", k.String()) + " " + st.good.Render("+"+c.Num(int64(pts))) + " → " + c.Msg("tui.turnTotal", "total", m.game.State().Total+pts)}
}

// wrapMessage returns prefix and text in style on the message line, in
// two lines when they are wider than the window (the rest is cut).
func (m *Model) wrapMessage(prefix, text string, style lipgloss.Style) []string {
	lines := wrap(prefix+text, m.width, "  ")
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = ansi.Truncate(lines[1], m.width-1, "") + "…"
	}
	for i, l := range lines {
		if i == 0 && strings.HasPrefix(l, prefix) {
			lines[i] = prefix + style.Render(l[len(prefix):])
			continue
		}
		lines[i] = style.Render(l)
	}
	return lines
}

// keysLine says which keys do something now; they are buttons.
func (m *Model) keysLine() []button {
	g := m.game
	s := g.State()
	b := func(k, what string) button { return button{k, m.lc.Msg(what)} }
	switch {
	case g.Over():
		if g.Online() {
			return onlineKeysIn(m.lc, g.online, true)
		}
		return []button{b("p", "tui.btn.again"), b("q", "tui.btn.quit"), b("?", "tui.btn.rules")}
	case m.held && g.Online():
		return []button{b("enter", "tui.btn.goOn"), b("?", "tui.btn.help"), b("q", "tui.btn.lobby")}
	case g.Waiting():
		return onlineKeysIn(m.lc, g.online, false)
	case g.AutoToAct() && m.held:
		return []button{b("enter", "tui.btn.goOn"), b("s", "tui.btn.skip"), b("?", "tui.btn.help"), b("q", "tui.btn.quit")}
	case g.AutoToAct():
		return []button{b("s", "tui.btn.skip"), b("?", "tui.btn.help"), b("q", "tui.btn.quit")}
	case s.Step == engine.StepKeep:
		return []button{b("r", "tui.btn.keepThrow"), b("b", "tui.btn.keepBank"), b("h", "tui.btn.hint"), b("u", "tui.btn.undo")}
	case s.Step == engine.StepChoose:
		return []button{b("r", "tui.btn.throw"), b("b", "tui.btn.bank"), b("h", "tui.btn.hint")}
	}
	return []button{b("r", "tui.btn.throw"), b("h", "tui.btn.hint")}
}

// logLines returns the last lines of the log that fit in room lines.
func (m *Model) logLines(room int) []string {
	if room < 2 {
		return nil
	}
	log := m.game.Log()
	shown := m.logWindow(log, room-1)
	out := []string{panelHead(m.st, m.logHead(len(log), len(shown)), m.width)}
	for _, l := range shown {
		out = append(out, "  "+l)
	}
	return out
}

// hintLines returns the hint panel in room lines.
func (m *Model) hintLines(room int) []string {
	if room < 2 {
		return nil
	}
	st := m.st
	lc := m.lc
	var adv Advice
	var head string
	switch {
	case m.advice == nil:
		// The advisor is thinking (a solver can take long the first
		// time): show the points of each keep meanwhile.
		adv, _ = PointsAdvisor{}.Advise(m.game.State())
		head = lc.Msg("hint.thinking")
		if m.o.Meter != nil {
			if st, ok := m.o.Meter.Status(); ok && st.part < 1 {
				head = lc.Msg("hint.solving", "status", st.shortIn(lc))
			}
		}
	case m.advice.err != nil:
		return []string{panelHead(st, lc.Msg("tui.btn.hint"), m.width), st.err.Render("  " + m.advice.err.Error())}
	default:
		adv = m.advice.advice
		head = lc.Msg("hint.head", "measure", adv.measureIn(lc))
	}
	out := []string{panelHead(st, head, m.width)}
	if note := adv.noteIn(lc); note != "" {
		for _, l := range wrap(note, m.width-2, "") {
			out = append(out, st.dim.Render("  "+l))
		}
	}
	// The columns of the choices and their values; in a narrow window
	// only as wide as they need to be.
	labelW, valueW, gap := 24, 8, " "
	if m.width < 80 {
		labelW, valueW, gap = 0, 0, "  "
		for _, c := range adv.Choices {
			labelW = max(labelW, lipgloss.Width(c.labelIn(lc)))
			valueW = max(valueW, lipgloss.Width(adv.formatIn(lc, c.Value)))
		}
	}
	for i, c := range adv.Choices {
		if len(out) >= room {
			break
		}
		line := fmt.Sprintf("  %-*s%s%*s", labelW, c.labelIn(lc), gap, valueW, adv.formatIn(lc, c.Value))
		if note := c.noteIn(lc); note != "" {
			line += "  " + st.dim.Render(note)
		}
		if i == 0 {
			line = st.good.Render("▸") + line[1:]
		}
		out = append(out, line)
	}
	return out
}
