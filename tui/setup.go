package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/rules"
)

// setupModel is the setup screen: rules, number of players, and each
// seat's name and kind (a person or a bot level). The last choice of rules
// is Dragon Farkle, with its own bot levels.
type setupModel struct {
	choices []rules.Rules // the rules on offer: the given rules, then the other presets
	dragon  dragon.Rules  // the last choice: Dragon Farkle
	rule    int           // an index of choices, or len(choices) for Dragon Farkle
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

// kinds are the choices for a seat: a person, then each bot level (of
// Dragon Farkle when it is chosen).
func (sm *setupModel) kinds() []string {
	if sm.isDragon() {
		return append([]string{""}, dragon.Levels()...)
	}
	return append([]string{""}, bot.LevelNames()...)
}

// defaultBot is the level a bot seat gets: DefaultBot, or the smart bot
// of Dragon Farkle.
func (sm *setupModel) defaultBot() string {
	if sm.isDragon() {
		return "smart"
	}
	return DefaultBot()
}

// isDragon reports whether Dragon Farkle is chosen.
func (sm *setupModel) isDragon() bool { return sm.rule == len(sm.choices) }

// players returns the least and most players of the chosen rules.
func (sm *setupModel) players() (lo, hi int) {
	if sm.isDragon() {
		return sm.dragon.MinPlayers, sm.dragon.MaxPlayers
	}
	g := sm.rules().Game
	return g.MinPlayers, g.MaxPlayers
}

// check returns the playing seats, named, or why they cannot play.
func (sm *setupModel) check() ([]Seat, error) {
	if !sm.isDragon() {
		return checkSeats(sm.named(), sm.rules())
	}
	seats := sm.named()
	seen := map[string]bool{}
	for _, s := range seats {
		if s.Name == "" {
			return nil, fmt.Errorf("%w: a player without a name", ErrPlayers)
		}
		if seen[strings.ToLower(s.Name)] {
			return nil, fmt.Errorf("%w: %q plays twice (names must be unique)", ErrPlayers, s.Name)
		}
		seen[strings.ToLower(s.Name)] = true
	}
	if lo, hi := sm.players(); len(seats) < lo || len(seats) > hi {
		return nil, fmt.Errorf("%w: %d players, but Dragon Farkle is for %d to %d", ErrPlayers, len(seats), lo, hi)
	}
	return seats, nil
}

func newSetup(r rules.Rules) *setupModel {
	sm := &setupModel{choices: []rules.Rules{r}, dragon: dragon.DefaultRules()}
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

// rules returns the chosen rules of ordinary Farkle (the first choice
// while Dragon Farkle is chosen).
func (sm *setupModel) rules() rules.Rules { return sm.choices[min(sm.rule, len(sm.choices)-1)] }

// clamp keeps the number of players within the rules' limits and each
// bot at a level of the chosen game.
func (sm *setupModel) clamp() {
	lo, hi := sm.players()
	sm.n = min(max(sm.n, lo), hi, len(sm.seats))
	for i := range sm.seats {
		if s := &sm.seats[i]; s.IsBot() && !slices.Contains(sm.kinds(), s.Bot) {
			s.Bot = sm.defaultBot()
		}
	}
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
func (sm *setupModel) update(msg tea.KeyPressMsg, k keyMap) setupResult {
	sm.err = ""
	seat := sm.row - 2
	onSeat := seat >= 0 && seat < sm.n
	switch {
	case key.Matches(msg, k.Back):
		return setupQuit
	case key.Matches(msg, k.Start):
		if _, err := sm.check(); err != nil {
			sm.err = strings.TrimPrefix(err.Error(), ErrPlayers.Error()+": ")
			return setupNone
		}
		return setupStart
	case msg.Code == tea.KeyUp || msg.Code == tea.KeyTab && msg.Mod == tea.ModShift:
		sm.row = (sm.row + sm.lastRow()) % (sm.lastRow() + 1)
	case msg.Code == tea.KeyDown || msg.Code == tea.KeyTab:
		sm.row = (sm.row + 1) % (sm.lastRow() + 1)
	case msg.Code == tea.KeyLeft || msg.Code == tea.KeyRight:
		d := 1
		if msg.Code == tea.KeyLeft {
			d = -1
		}
		sm.change(d)
	case onSeat && msg.Code == tea.KeyBackspace:
		name := sm.typed(seat)
		if len(name) > 0 {
			sm.seats[seat].Name = string(name[:len(name)-1])
			sm.auto[seat] = false
		}
	case onSeat && msg.Text != "":
		sm.paste(msg.Text)
	case !onSeat && key.Matches(msg, k.Quit):
		return setupQuit
	}
	return setupNone
}

// paste types text into the name of the seat on the current row, if it
// is one: the printable characters but ',' and '=' (which --players
// reserves), up to the longest name.
func (sm *setupModel) paste(text string) {
	seat := sm.row - 2
	if seat < 0 || seat >= sm.n {
		return
	}
	name := sm.typed(seat)
	for _, r := range text {
		if unicode.IsPrint(r) && r != ',' && r != '=' && len(name) < maxName {
			name = append(name, r)
		}
	}
	sm.seats[seat].Name = string(name)
	sm.auto[seat] = false
}

// change moves the value of the current row by d.
func (sm *setupModel) change(d int) {
	switch sm.row {
	case 0:
		sm.rule = (sm.rule + d + len(sm.choices) + 1) % (len(sm.choices) + 1)
		sm.clamp()
	case 1:
		sm.n += d
		sm.clamp()
	default:
		seat := sm.row - 2
		if seat >= sm.n {
			return
		}
		ks := sm.kinds()
		s := &sm.seats[seat]
		s.Bot = ks[(slices.Index(ks, s.Bot)+d+len(ks))%len(ks)]
		if sm.auto[seat] && !s.IsBot() {
			s.Name = fmt.Sprintf("player %d", seat+1)
		}
	}
}

// result returns the chosen rules and seats (the rules are not used when
// Dragon Farkle is chosen).
func (sm *setupModel) result() (rules.Rules, []Seat) {
	seats, _ := sm.check()
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
	if sm.isDragon() {
		line(fmt.Sprintf("%sRules     ◀ %-14s ▶", cursor(0), "Dragon Farkle"))
		line(st.dim.Render(fmt.Sprintf("            raise an army, then slay the dragon; %d to %d players", sm.dragon.MinPlayers, sm.dragon.MaxPlayers)))
	} else {
		r := sm.rules()
		line(fmt.Sprintf("%sRules     ◀ %-14s ▶", cursor(0), r.Name))
		line(st.dim.Render(fmt.Sprintf("            first to %d; %d to %d players", r.Game.Target, r.Game.MinPlayers, r.Game.MaxPlayers)))
	}
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
	} else if s := sm.row - 2; s >= 0 && s < sm.n && sm.seats[s].IsBot() && !sm.isDragon() {
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
