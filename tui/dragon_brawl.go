package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
)

// brawlShow is a brawl being shown throw by throw at the bots' pace: the
// throws of one action (the challenger's, the defender's, a card's new
// throw), then the outcome if the action settled it. The game has already
// moved on; the screen catches up. s skips it.
type brawlShow struct {
	challenger, defender int
	frames               []brawlFrame
	result               *dragon.Event // the EvBrawl; nil when the brawl waits for a card decision
	step                 int           // frames first, then the outcome
	id                   int           // tells this show's ticks from an earlier one's
	after                []int         // per step: events of the action after it (hidden from the log until shown)
	last                 *brawlFrame   // the throw the outcome is shown over (nil: none known)
}

// brawlFrame is one throw of a brawl as it lay on the table.
type brawlFrame struct {
	seat    int
	dice    dice.Hand
	face    dragon.EventFace
	score   int
	card    bool // a card changed the throw
	against int  // the defender's: the challenger's score to beat
}

// steps is the number of steps of the show.
func (sh *brawlShow) steps() int {
	if sh.result != nil {
		return len(sh.frames) + 1
	}
	return len(sh.frames)
}

// atOutcome reports whether the show has come to the outcome.
func (sh *brawlShow) atOutcome() bool { return sh.step >= len(sh.frames) }

// brawlStepMsg moves the brawl show id on by one step.
type brawlStepMsg struct{ id int }

// startBrawlShow begins showing the brawl throws of ev, if ev holds any
// that the table will not show anyway and the game is played at a pace
// (BotDelay > 0) and not being skipped; it reports whether it did.
func (m *DragonModel) startBrawlShow(ev []dragon.Event) bool {
	if m.o.BotDelay <= 0 || m.skipping {
		return false
	}
	s := m.g.State()
	sh := &brawlShow{challenger: s.Turn, defender: -1}
	if s.Brawl != nil {
		sh.defender = s.Brawl.Defender
	}
	against := 0
	if s.Brawl != nil && s.Brawl.Defending {
		against = s.Brawl.Score
	}
	brawling := s.Mode == dragon.Brawling
	for i, e := range ev {
		if e.Kind == dragon.EvBrawl {
			r := e
			sh.result, sh.challenger, sh.defender, against = &r, e.Seat, e.Target, e.N
			sh.after = append(sh.after, len(ev)-i-1)
			break
		}
		if e.Kind == dragon.EvBrawl || (e.Kind != dragon.EvThrow && e.Kind != dragon.EvCardChanged) {
			continue
		}
		sh.frames = append(sh.frames, brawlFrame{seat: e.Seat, dice: e.Dice, face: e.Face, score: e.N, card: e.Kind == dragon.EvCardChanged})
		sh.after = append(sh.after, len(ev)-i-1)
	}
	if sh.result == nil && !brawling {
		return false // not a brawl's action
	}
	if sh.result == nil && len(sh.frames) > 0 {
		// The brawl waits: the table shows the last throw itself.
		sh.frames, sh.after = sh.frames[:len(sh.frames)-1], sh.after[:len(sh.after)-1]
	}
	if sh.steps() == 0 {
		return false
	}
	if len(sh.frames) == 0 {
		// Settled by a pass: the outcome is shown over the last throw.
		all := m.g.Events()
		for i := len(all) - len(ev) - 1; i >= 0; i-- {
			if e := all[i]; e.Kind == dragon.EvThrow || e.Kind == dragon.EvCardChanged {
				sh.last = &brawlFrame{seat: e.Seat, dice: e.Dice, face: e.Face, score: e.N}
				break
			}
		}
	} else {
		sh.last = &sh.frames[len(sh.frames)-1]
	}
	for i := range sh.frames {
		f := &sh.frames[i]
		if f.seat == sh.challenger {
			continue
		}
		f.against = against
		for _, g := range sh.frames[:i] {
			if g.seat == sh.challenger {
				f.against = g.score
			}
		}
	}
	m.showID++
	sh.id = m.showID
	m.show = sh
	return true
}

// showTick returns the command that moves the show on after the bots'
// pause.
func (m *DragonModel) showTick() tea.Cmd {
	id := m.show.id
	return tea.Tick(m.o.BotDelay, func(time.Time) tea.Msg { return brawlStepMsg{id: id} })
}

// showStep moves the show on; after the outcome it ends and the game goes
// on.
func (m *DragonModel) showStep(msg brawlStepMsg) tea.Cmd {
	if m.show == nil || msg.id != m.show.id {
		return nil
	}
	sh := m.show
	sh.step++
	if sh.step >= sh.steps() {
		return m.endShow()
	}
	if sh.atOutcome() {
		m.noteBrawl(*sh.result)
	}
	return m.showTick()
}

// endShow ends the brawl show (at its end or skipped): the outcome is
// noted and the next bot action is scheduled.
func (m *DragonModel) endShow() tea.Cmd {
	if sh := m.show; sh.result != nil && !sh.atOutcome() {
		m.noteBrawl(*sh.result)
	}
	m.show = nil
	m.sync()
	return m.schedule()
}

// noteBrawl shows the outcome of a brawl on the message line.
func (m *DragonModel) noteBrawl(e dragon.Event) {
	m.note(false, "%s", m.describe(e, m.seat()))
}

// showKey handles a key while a brawl is shown: s (or enter) skips it.
func (m *DragonModel) showKey(msg tea.KeyPressMsg) tea.Cmd {
	if s := msg.String(); s == "s" || s == "enter" || s == "space" {
		if m.g.BotToAct() {
			m.skipping = true // as s does while bots play: on to the next decision
		}
		return m.endShow()
	}
	m.note(true, "%s", m.tx("dragon.tui.showKey"))
	return nil
}

// logEvents returns the game's events for the log, without those the
// brawl being shown has not come to yet.
func (m *DragonModel) logEvents() []dragon.Event {
	ev := m.g.Events()
	if m.show == nil {
		return ev
	}
	return ev[:len(ev)-min(len(ev), m.show.after[min(m.show.step, len(m.show.after)-1)])]
}

// showView returns v with the soldiers as they were before the brawl
// while its outcome is not shown yet.
func (m *DragonModel) showView(v dragon.View) dragon.View {
	if m.show == nil || m.show.result == nil || m.show.atOutcome() || m.show.result.Winner < 0 {
		return v
	}
	e := *m.show.result
	loser := e.Seat + e.Target - e.Winner
	players := append([]dragon.PlayerView(nil), v.Players...)
	if e.Winner < len(players) && loser >= 0 && loser < len(players) {
		players[e.Winner].Soldiers -= e.Total + e.Bonus
		players[loser].Soldiers += e.Total
	}
	v.Players = players
	return v
}

// showLines draws the brawl's throw of this step in the dice's place: the
// dice, the event die and the scores so far.
func (m *DragonModel) showLines() []string {
	sh := m.show
	names := m.g.Names()
	if sh.atOutcome() {
		r := sh.result
		var label string
		if r.Winner < 0 {
			label = m.tx("dragon.tui.show.tie", "a", r.N, "b", r.Other)
		} else {
			label = m.tx("dragon.tui.show.wins", "p", names[r.Winner], "a", max(r.N, r.Other), "b", min(r.N, r.Other))
		}
		if sh.last == nil {
			return diceMessage(m.st.warn.Render(label), m.width)
		}
		return m.brawlDice(sh.last.dice, sh.last.face, label)
	}
	f := sh.frames[sh.step]
	var label string
	switch {
	case f.seat == sh.challenger && f.card:
		label = m.whose("dragon.tui.show.card", f.seat, "score", m.brawlScoreWords(f.face, f.score))
	case f.seat == sh.challenger:
		label = m.whose("dragon.tui.show.throw", f.seat, "score", m.brawlScoreWords(f.face, f.score))
	case f.card:
		label = m.whose("dragon.tui.show.answerCard", f.seat, "score", m.brawlScoreWords(f.face, f.score), "against", f.against)
	default:
		label = m.tx("dragon.tui.show.answer", "p", names[f.seat], "score", m.brawlScoreWords(f.face, f.score), "against", f.against)
	}
	return m.brawlDice(f.dice, f.face, label)
}

// brawlDice draws a brawl throw and its event die over label.
func (m *DragonModel) brawlDice(h dice.Hand, face dragon.EventFace, label string) []string {
	st := m.st
	var looks []dieLook
	for _, f := range h.Faces() {
		looks = append(looks, dieLook{face: f, style: st.die})
	}
	looks = append(looks, dieLook{rows: m.eventRows(face), style: st.warn})
	return append(strings.Split(drawDice(looks), "\n"), st.warn.Render(label))
}

// brawlScoreWords says a brawl throw's score and why it is what it is.
func (m *DragonModel) brawlScoreWords(face dragon.EventFace, score int) string {
	s := m.lcat.Num(int64(score))
	switch {
	case face == dragon.Rally && score > 0:
		s += m.tx("dragon.tui.show.rally")
	case face == dragon.Dragon:
		s += m.tx("dragon.tui.show.dragon")
	}
	return s
}
