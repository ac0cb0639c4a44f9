package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
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
		return narrowView("Farkle", m.width, m.height)
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
	lines := helpKeys(m.st, m.width, [][2]string{
		{"1-6", "choose a die showing that face (5 chooses a 5; again, another 5); once all of them are chosen, unchoose them"},
		{"←/→ space", "move along the dice, choose the one over the ▲"},
		{"click", "choose or unchoose a die; the keys at the bottom are buttons"},
		{"m", "mouse off (so that the terminal selects text), or on again"},
		{"+ -", "bots play faster or slower (slow, normal, fast, instant)"},
		{"u", "undo the last choice (before r or b)"},
		{"r", "throw; after choosing: keep the chosen dice, throw the rest"},
		{"b", "keep the chosen dice and bank the turn total"},
		{"h", "hint: the value of every choice"},
		{"s or enter", "skip ahead while bots play"},
		{"?", "this help"},
		{"p", "at the end of a game: play again with the same players"},
		{"q", "quit (asks first; the game is saved)"},
	})
	return append(lines, RulesText(m.game.Rules(), m.width)...)
}

func (m *Model) helpView() string {
	return m.helpPage(m.helpLines())
}

// headerButtons are the buttons at the top right of a table.
var headerButtons = []button{{"?", "help"}, {"q", "quit"}}

// tableLayout draws the game: header, scoreboard, the throw, the turn, the
// message line, the keys, and the log or the hint.
func (m *Model) tableLayout() *layout {
	g := m.game
	s := g.State()
	r := g.Rules()
	st := m.st
	top := newLayout()
	add := top.add

	// Header.
	left := st.title.Render("Farkle") + st.dim.Render(fmt.Sprintf(" · %s · first to %d", r.Name, r.Game.Target))
	if len(s.Players) == 1 {
		left += st.dim.Render(" · ") + st.bold.Render(soloTurn(s))
	}
	top.addHeader(st, left, m.width, headerButtons)
	add("")

	// Scoreboard.
	add(m.scoreboard()...)
	if s.FinalRound && !s.Over() {
		for _, l := range wrap(fmt.Sprintf("Final round: %s reached %d; everyone else has one more turn.", s.Players[s.Trigger].Name, s.Players[s.Trigger].Score), m.width, "") {
			add(st.banner.Render(l))
		}
	}
	add("")

	// The turn and the throw.
	add(m.turnLine())
	n := 0
	if m.canSelect() {
		n = len(m.faces)
	}
	top.addDice(m.diceArea(), n)
	add(m.keptLine())
	add(m.messageLine())
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

// soloTurn is the turn counter of a game of one: "turn 7", or "turn 7 of
// 20" when the rules cap the turns.
func soloTurn(s engine.State) string {
	n := max(s.Players[0].Turns, 1)
	if c := s.Rules().Game.MaxTurns; c > 0 {
		return fmt.Sprintf("turn %d of %d", n, c)
	}
	return fmt.Sprintf("turn %d", n)
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
			notes = append(notes, "bot "+seat.Bot)
		}
		if p.Score == 0 && r.Turn.EntryMinimum > 0 {
			notes = append(notes, "not on the board")
		}
		if p.Streak > 0 {
			streak := strings.Repeat("✗", p.Streak) + fmt.Sprintf(" %d in a row", p.Streak)
			if c := r.Turn.FarklePenalty.Count; c > 0 {
				streak = strings.Repeat("✗", p.Streak) + fmt.Sprintf(" %d of %d farkles", p.Streak, c)
			}
			notes = append(notes, streak)
		}
		if s.FinalRound && !s.Over() {
			switch {
			case i == s.Trigger:
				notes = append(notes, "reached the target")
			case finished(s, i):
				notes = append(notes, "played the last turn")
			case i == s.Current:
				notes = append(notes, "last turn")
			}
		}
		if s.Over() {
			for _, w := range s.Winners {
				if w == i {
					notes = append(notes, "WINNER")
				}
			}
		}
		line := fmt.Sprintf("%s%-*s %6d", mark, nameW, p.Name, p.Score)
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
	if s.Over() {
		over := Describe(engine.Event{Kind: engine.EvGameOver, Players: s.Winners}, g.Names())
		if len(s.Winners) > 0 {
			over = Describe(engine.Event{Kind: engine.EvGameOver, Players: s.Winners, Score: s.Players[s.Winners[0]].Score}, g.Names())
		}
		return st.good.Render("G" + strings.TrimPrefix(over, "g") + ".")
	}
	if s.Phase != engine.PhasePlay {
		return st.bold.Render("Roll-off: each player throws one die; the highest " + map[bool]string{true: "starts", false: "wins"}[s.Phase == engine.PhaseFirstRollOff] + ".")
	}
	p := s.Players[s.Current]
	who := possessive(p.Name) + " turn"
	if g.BotToAct() {
		who = p.Name + " (bot) is playing"
	}
	var dice string
	switch {
	case s.Step == engine.StepKeep && m.hot:
		dice = st.good.Render("★ HOT DICE!") + fmt.Sprintf(" all %d again", s.Throw.N())
	case s.Step == engine.StepKeep:
		dice = "choose dice to keep"
	case s.Left == 0 && s.Step == engine.StepChoose:
		dice = fmt.Sprintf("hot dice: all %d to throw again", s.ToThrow())
	case s.Step == engine.StepChoose:
		dice = fmt.Sprintf("%d %s left to throw", s.Left, plural(s.Left, "die", "dice"))
	default:
		dice = fmt.Sprintf("%d %s to throw", s.ToThrow(), plural(s.ToThrow(), "die", "dice"))
	}
	return st.bold.Render(who) + fmt.Sprintf(" · turn total %d · %s", s.Total, dice)
}

// diceArea returns the six lines of the dice: the throw being chosen from,
// or the last throw (a farkle stays on screen), or what to do.
func (m *Model) diceArea() []string {
	g := m.game
	s := g.State()
	st := m.st
	blank := func(msg string) []string { return diceMessage(msg, m.width) }
	if s.Over() {
		return overMessage(g.Path(), m.width)
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
			labels = st.good.Render("★ HOT DICE! ★") + fmt.Sprintf(" every die scored: %s throws all %d again or banks %d", s.Players[s.Current].Name, s.ToThrow(), s.Total)
		case s.Step == engine.StepChoose:
			labels = st.dim.Render(fmt.Sprintf("kept %s", s.Kept))
		}
	case m.shown.dice != 0 && m.shown.farkle:
		for _, f := range m.shown.dice.Faces() {
			looks = append(looks, dieLook{face: f, style: st.dieFarkle, heavy: true})
		}
		lost := "nothing scores"
		if m.shown.lost > 0 {
			lost = fmt.Sprintf("nothing scores: the turn's %d points are lost", m.shown.lost)
		}
		labels = st.err.Render("✗ FARKLE!") + fmt.Sprintf(" %s threw %s, %s", g.Names()[m.shown.player], m.shown.dice, lost)
	default:
		if g.BotToAct() {
			return blank(st.dim.Render(s.Players[s.Current].Name + " is about to throw…"))
		}
		return blank(fmt.Sprintf("%s: press %s to throw %d dice.", possessive(s.Players[s.Current].Name)+" turn", st.key.Render("r"), s.ToThrow()))
	}
	return append(strings.Split(drawDice(looks), "\n"), labels)
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
			return m.st.warn.Render(who+" gets ready ") + bar(st.part, 10) + " " + st.short()
		}
	}
	return m.st.warn.Render(who + " gets ready…")
}

// finishView is the screen after quitting while the bots are prepared:
// the preparation finishes so that its work is cached.
func (m *Model) finishView() string {
	st := m.st
	lines := []string{st.title.Render("Farkle"), "", "The game is saved.", ""}
	what := "the solve for the hint"
	if len(m.preparing) > 0 {
		what = "the preparation of " + strings.Join(m.preparing, ", ")
	}
	lines = append(lines, wrap(fmt.Sprintf("Finishing %s, so that the next game under these rules starts at once (it is cached when done):", what), m.width, "")...)
	if m.o.Meter != nil {
		if s, ok := m.o.Meter.Status(); ok {
			lines = append(lines, "", bar(s.part, min(40, m.width-2)), s.String())
		}
	}
	lines = append(lines, "")
	lines = append(lines, wrap("Press ctrl+c to stop now (the work so far is lost).", m.width, "")...)
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

// possessive returns "your" for a player called "you", else "ana's".
func possessive(name string) string {
	if strings.EqualFold(name, "you") {
		return "Your"
	}
	return name + "'s"
}

// keptLine lists the keeps of the turn so far, set apart from the throw.
func (m *Model) keptLine() string {
	keeps := m.game.Keeps()
	s := m.game.State()
	if s.Over() {
		return ""
	}
	if len(keeps) == 0 || s.Phase != engine.PhasePlay {
		return m.st.dim.Render("kept this turn: nothing yet")
	}
	parts := make([]string, len(keeps))
	for i, k := range keeps {
		parts[i] = fmt.Sprintf("[%s] %d", k.Dice, k.Points)
	}
	return m.st.dim.Render("kept this turn: ") + strings.Join(parts, " · ")
}

// messageLine shows the quit question, the last message, or the live
// points of the selection.
func (m *Model) messageLine() string {
	st := m.st
	switch {
	case m.confirm && (len(m.preparing) > 0 || m.solving()):
		return st.warn.Render("Quit? The game is saved; the solve under way finishes first and is cached. y/n")
	case m.confirm:
		return st.warn.Render("Quit? The game is saved and can be resumed. y quits, n goes back.")
	case len(m.preparing) > 0 && m.game.AutoToAct():
		return st.warn.Render(m.preparingNote())
	case m.flash != "" && m.flashErr:
		return st.err.Render(m.flash)
	case m.flash != "":
		return st.good.Render(m.flash)
	}
	if !m.canSelect() {
		return ""
	}
	k := m.selected()
	if k == 0 {
		return st.dim.Render("choose scoring dice: " + chooseHow)
	}
	next, err := m.game.Preview(k)
	if err != nil {
		why := Reason(err)
		var ke *dice.KeepError
		if e := m.game.State().Table().CheckKeep(m.game.State().Throw, k); errors.As(e, &ke) {
			why = ke.Reason
		}
		return fmt.Sprintf("chosen %s: ", k) + st.warn.Render(why)
	}
	pts := next.Total - m.game.State().Total
	if next.Current != m.game.State().Current || next.Step != engine.StepChoose {
		pts, _ = m.game.State().Table().Points(k)
	}
	return fmt.Sprintf("chosen %s: ", k) + st.good.Render(fmt.Sprintf("+%d", pts)) + fmt.Sprintf(" → turn total %d", m.game.State().Total+pts)
}

// keysLine says which keys do something now; they are buttons.
func (m *Model) keysLine() []button {
	g := m.game
	s := g.State()
	switch {
	case g.Over():
		return []button{{"p", "play again"}, {"q", "quit"}, {"?", "rules"}}
	case g.AutoToAct():
		return []button{{"s", "skip ahead"}, {"?", "help"}, {"q", "quit"}}
	case s.Step == engine.StepKeep:
		return []button{{"r", "keep & throw"}, {"b", "keep & bank"}, {"h", "hint"}, {"u", "undo"}}
	case s.Step == engine.StepChoose:
		return []button{{"r", "throw"}, {"b", "bank"}, {"h", "hint"}}
	}
	return []button{{"r", "throw"}, {"h", "hint"}}
}

// logLines returns the last lines of the log that fit in room lines.
func (m *Model) logLines(room int) []string {
	if room < 2 {
		return nil
	}
	log := m.game.Log()
	n := min(len(log), room-1)
	out := []string{m.st.dim.Render("─ log " + strings.Repeat("─", max(0, min(m.width, 80)-6)))}
	for _, l := range log[len(log)-n:] {
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
	var adv Advice
	var head string
	switch {
	case m.advice == nil:
		// The advisor is thinking (a solver can take long the first
		// time): show the points of each keep meanwhile.
		adv, _ = PointsAdvisor{}.Advise(m.game.State())
		head = "─ hint: thinking… meanwhile, points now (h hides) "
		if m.o.Meter != nil {
			if st, ok := m.o.Meter.Status(); ok && st.part < 1 {
				head = fmt.Sprintf("─ hint: points now, while solving (%s) ", st.short())
			}
		}
	case m.advice.err != nil:
		return []string{st.dim.Render("─ hint ─"), st.err.Render("  " + m.advice.err.Error())}
	default:
		adv = m.advice.advice
		head = fmt.Sprintf("─ hint: %s (h hides) ", adv.Measure)
	}
	out := []string{st.dim.Render(head + strings.Repeat("─", max(0, min(m.width, 80)-lipgloss.Width(head))))}
	if adv.Note != "" {
		out = append(out, st.dim.Render("  "+adv.Note))
	}
	for i, c := range adv.Choices {
		if len(out) >= room {
			break
		}
		line := fmt.Sprintf("  %-24s %8s", c.Label(), adv.Format(c.Value))
		if c.Note != "" {
			line += "  " + st.dim.Render(c.Note)
		}
		if i == 0 {
			line = st.good.Render("▸") + line[1:]
		}
		out = append(out, line)
	}
	return out
}
