package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/rules"
)

// setupModel is the setup screen: rules, number of players, and each
// seat's name and kind (a person or a bot level).
type setupModel struct {
	choices []rules.Rules // the rules on offer: the given rules, then the other presets
	rule    int
	n       int
	seats   []Seat // 8 seats; the first n play
	auto    []bool // the seat's name is chosen for it (not typed)
	row     int    // 0 rules, 1 players, 2.. seats, last: start
	err     string
}

type setupResult uint8

const (
	setupNone setupResult = iota
	setupStart
	setupQuit
)

// kinds are the choices for a seat: a person, then each bot level.
func kinds() []string { return append([]string{""}, bot.LevelNames()...) }

func newSetup(r rules.Rules) *setupModel {
	sm := &setupModel{choices: []rules.Rules{r}}
	for _, name := range rules.Presets() {
		if name != r.Name {
			sm.choices = append(sm.choices, rules.MustPreset(name))
		}
	}
	sm.seats = []Seat{{Name: "you"}}
	sm.auto = []bool{true}
	for i := 1; i < 8; i++ {
		sm.seats = append(sm.seats, Seat{Bot: DefaultBot()})
		sm.auto = append(sm.auto, true)
	}
	sm.n = 2
	sm.clamp()
	return sm
}

func (sm *setupModel) rules() rules.Rules { return sm.choices[sm.rule] }

// clamp keeps the number of players within the rules' limits.
func (sm *setupModel) clamp() {
	g := sm.rules().Game
	sm.n = min(max(sm.n, g.MinPlayers), g.MaxPlayers, len(sm.seats))
}

func (sm *setupModel) lastRow() int { return 2 + sm.n }

// named returns the playing seats with the automatic names filled in:
// bots after their level (numbered when repeated), people "player N".
func (sm *setupModel) named() []Seat {
	seats := slices.Clone(sm.seats[:sm.n])
	for i := range seats {
		if sm.auto[i] && seats[i].IsBot() {
			seats[i].Name = ""
		}
	}
	nameBots(seats)
	return seats
}

// typed returns the name of seat i as it stands for editing.
func (sm *setupModel) typed(i int) []rune {
	if sm.auto[i] {
		return []rune(sm.named()[i].Name)
	}
	return []rune(sm.seats[i].Name)
}

// update handles a key.
func (sm *setupModel) update(msg tea.KeyMsg, k keyMap) setupResult {
	sm.err = ""
	seat := sm.row - 2
	onSeat := seat >= 0 && seat < sm.n
	switch {
	case key.Matches(msg, k.Back):
		return setupQuit
	case key.Matches(msg, k.Start):
		if _, err := checkSeats(sm.named(), sm.rules()); err != nil {
			sm.err = strings.TrimPrefix(err.Error(), ErrPlayers.Error()+": ")
			return setupNone
		}
		return setupStart
	case msg.Type == tea.KeyUp || msg.Type == tea.KeyShiftTab:
		sm.row = (sm.row + sm.lastRow()) % (sm.lastRow() + 1)
	case msg.Type == tea.KeyDown || msg.Type == tea.KeyTab:
		sm.row = (sm.row + 1) % (sm.lastRow() + 1)
	case msg.Type == tea.KeyLeft || msg.Type == tea.KeyRight:
		d := 1
		if msg.Type == tea.KeyLeft {
			d = -1
		}
		sm.change(d)
	case onSeat && msg.Type == tea.KeyBackspace:
		name := sm.typed(seat)
		if len(name) > 0 {
			sm.seats[seat].Name = string(name[:len(name)-1])
			sm.auto[seat] = false
		}
	case onSeat && (msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace):
		name := sm.typed(seat)
		for _, r := range msg.Runes {
			if unicode.IsPrint(r) && r != ',' && r != '=' && len(name) < maxName {
				name = append(name, r)
			}
		}
		if msg.Type == tea.KeySpace && len(name) < maxName {
			name = append(name, ' ')
		}
		sm.seats[seat].Name = string(name)
		sm.auto[seat] = false
	case !onSeat && key.Matches(msg, k.Quit):
		return setupQuit
	}
	return setupNone
}

// change moves the value of the current row by d.
func (sm *setupModel) change(d int) {
	switch sm.row {
	case 0:
		sm.rule = (sm.rule + d + len(sm.choices)) % len(sm.choices)
		sm.clamp()
	case 1:
		sm.n += d
		sm.clamp()
	default:
		seat := sm.row - 2
		if seat >= sm.n {
			return
		}
		ks := kinds()
		s := &sm.seats[seat]
		s.Bot = ks[(slices.Index(ks, s.Bot)+d+len(ks))%len(ks)]
		if sm.auto[seat] && !s.IsBot() {
			s.Name = fmt.Sprintf("player %d", seat+1)
		}
	}
}

// result returns the chosen rules and seats.
func (sm *setupModel) result() (rules.Rules, []Seat) {
	seats, _ := checkSeats(sm.named(), sm.rules())
	return sm.rules(), seats
}

// view draws the setup screen.
func (sm *setupModel) view(st styles, width int) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(st.title.Render("Farkle: a new game"))
	line("")
	cursor := func(row int) string {
		if row == sm.row {
			return st.key.Render("▶ ")
		}
		return "  "
	}
	r := sm.rules()
	line(fmt.Sprintf("%sRules     ◀ %-14s ▶", cursor(0), r.Name))
	line(st.dim.Render(fmt.Sprintf("            first to %d; %d to %d players", r.Game.Target, r.Game.MinPlayers, r.Game.MaxPlayers)))
	line(fmt.Sprintf("%sPlayers   ◀ %d ▶", cursor(1), sm.n))
	line("")
	for i, s := range sm.named() {
		kind := "person"
		if s.IsBot() {
			kind = "bot: " + s.Bot
		}
		name := s.Name
		if sm.row == i+2 {
			name = string(sm.typed(i)) + "_"
		}
		line(fmt.Sprintf("%sSeat %d    %-17s ◀ %s ▶", cursor(i+2), i+1, name, kind))
	}
	line("")
	start := "[ Start the game ]"
	if sm.row == sm.lastRow() {
		start = st.key.Render(start)
	}
	line(cursor(sm.lastRow()) + start)
	line("")
	if sm.err != "" {
		line(st.err.Render(sm.err))
	} else if s := sm.row - 2; s >= 0 && s < sm.n && sm.seats[s].IsBot() {
		for _, l := range bot.Levels() {
			if l.Name == sm.seats[s].Bot {
				for _, w := range wrap(l.Name+": "+l.Description, width, "  ") {
					line(st.dim.Render(w))
				}
			}
		}
	} else {
		line("")
	}
	line(st.dim.Render("↑/↓ move · ←/→ change · type names · enter start · esc quit"))
	return b.String()
}
