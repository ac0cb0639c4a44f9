package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dragon"
)

// brawlShow is a brawl being shown throw by throw at the bots' pace: the
// challenger's throw, the defender's, then the outcome. The game has
// already moved on; the screen catches up. s skips it.
type brawlShow struct {
	throws [2]dragon.Event // the challenger's and the defender's EvThrow
	result dragon.Event    // the EvBrawl
	step   int             // 0: the challenger's throw, 1: the defender's, 2: the outcome
	id     int             // tells this show's ticks from an earlier one's
	after  [3]int          // events of the game after the throws and the outcome (hidden from the log until shown)
}

// brawlStepMsg moves the brawl show id on by one step.
type brawlStepMsg struct{ id int }

// startBrawlShow begins showing the brawl of ev, if ev holds one and the
// game is played at a pace (BotDelay > 0) and not being skipped; it
// reports whether it did.
func (m *DragonModel) startBrawlShow(ev []dragon.Event) bool {
	if m.o.BotDelay <= 0 || m.skipping {
		return false
	}
	var throws []dragon.Event
	var at []int
	for i, e := range ev {
		switch e.Kind {
		case dragon.EvThrow:
			throws, at = append(throws, e), append(at, i)
		case dragon.EvBrawl:
			if len(throws) < 2 {
				return false
			}
			n := len(throws)
			m.showID++
			m.show = &brawlShow{throws: [2]dragon.Event(throws[n-2:]), result: e, id: m.showID,
				after: [3]int{len(ev) - at[n-2] - 1, len(ev) - at[n-1] - 1, len(ev) - i - 1}}
			return true
		}
	}
	return false
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
	m.show.step++
	if m.show.step > 2 {
		return m.endShow()
	}
	if m.show.step == 2 {
		m.noteBrawl(m.show.result)
	}
	return m.showTick()
}

// endShow ends the brawl show (at its end or skipped): the outcome is
// noted and the next bot action is scheduled.
func (m *DragonModel) endShow() tea.Cmd {
	if m.show.step < 2 {
		m.noteBrawl(m.show.result)
	}
	m.show = nil
	return m.schedule()
}

// noteBrawl shows the outcome of a brawl on the message line.
func (m *DragonModel) noteBrawl(e dragon.Event) {
	m.note(false, "%s", m.g.Describe([]dragon.Event{e}, m.seat())[0])
}

// showKey handles a key while a brawl is shown: s (or enter) skips it.
func (m *DragonModel) showKey(msg tea.KeyPressMsg) tea.Cmd {
	if s := msg.String(); s == "s" || s == "enter" || s == "space" {
		if m.g.BotToAct() {
			m.skipping = true // as s does while bots play: on to the next decision
		}
		return m.endShow()
	}
	m.note(true, "the brawl is shown throw by throw: s skips it")
	return nil
}

// logEvents returns the game's events for the log, without those the
// brawl being shown has not come to yet.
func (m *DragonModel) logEvents() []dragon.Event {
	ev := m.g.Events()
	if m.show == nil {
		return ev
	}
	return ev[:len(ev)-min(len(ev), m.show.after[m.show.step])]
}

// showView returns v with the soldiers as they were before the brawl
// while its outcome is not shown yet.
func (m *DragonModel) showView(v dragon.View) dragon.View {
	if m.show == nil || m.show.step >= 2 || m.show.result.Winner < 0 {
		return v
	}
	e := m.show.result
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
	st := m.st
	sh := m.show
	names := m.g.Names()
	e := sh.throws[min(sh.step, 1)]
	var looks []dieLook
	for _, f := range e.Dice.Faces() {
		looks = append(looks, dieLook{face: f, style: st.die})
	}
	looks = append(looks, dieLook{rows: eventRows[e.Face], style: st.warn})
	score := func(e dragon.Event) string {
		s := fmt.Sprint(e.N)
		switch {
		case e.Face == dragon.Rally && e.N > 0:
			s += " (a Rally doubles it)"
		case e.Face == dragon.Dragon:
			s += " (the Dragon: nothing)"
		}
		return s
	}
	var label string
	switch sh.step {
	case 0:
		label = possessive(names[e.Seat]) + " throw for the brawl scores " + score(e)
	case 1:
		label = fmt.Sprintf("%s answers with %s, against %d", names[e.Seat], score(e), sh.throws[0].N)
	default:
		r := sh.result
		if r.Winner < 0 {
			label = fmt.Sprintf("a tie, %d to %d: nobody takes anything", r.N, r.Other)
		} else {
			label = fmt.Sprintf("%s wins %d to %d", names[r.Winner], max(r.N, r.Other), min(r.N, r.Other))
		}
	}
	return append(strings.Split(drawDice(looks), "\n"), st.warn.Render(label))
}
