package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// kindSetup is how the setup screen offers a kind of game other than the
// ordinary game, by its preset (game.Preset), with its own bot levels
// (game.DefaultCast): Dragon Farkle's is in dragon_setup.go.
type kindSetup interface {
	// title names the kind on the rules row: "Dragon Farkle".
	title() string
	// describe is the text under the rules row, unwrapped.
	describe(c *lang.Catalogue, v game.Variant) string
	// countError says that n players cannot play v, which takes lo to hi.
	countError(c *lang.Catalogue, n, lo, hi int) string
	// levelText describes a bot level.
	levelText(c *lang.Catalogue, level string) string
	// rulesText is the rules of v at the end of the screen's help, width
	// columns wide.
	rulesText(c *lang.Catalogue, v game.Variant, width int) []string
	// start starts a local game of v with the seats and hands it the
	// screen.
	start(m *Model, v game.Variant, seats []Seat) tea.Cmd
}

// kindSetups are the kinds the setup screen offers beside the ordinary
// game's rule sets, each registered by its own file.
var kindSetups = map[game.Kind]kindSetup{}

// setupModel is the setup screen: rules, number of players, and each
// seat's name and kind (a person or a bot level). The last choices of
// rules are the other kinds of game (kindSetups), with their own bot
// levels.
type setupModel struct {
	choices []rules.Rules  // the rules on offer: the given rules, then the other presets
	others  []game.Variant // then the presets of the other kinds of game
	rule    int            // an index of choices, then of others
	n       int
	seats   []Seat // 8 seats; the first n play
	auto    []bool // the seat's name is chosen for it (not typed)
	row     int    // 0 rules, 1 players, 2.. seats, then the bots' pace, last: start
	pace    time.Duration
	noPace  bool // no pace row: the bots play at the server's pace (online)
	lobby   bool // a table at a server: enter creates it, esc goes back to the lobby
	err     string
	lc      *lang.Catalogue // the language of the screen
}

type setupResult uint8

const (
	setupNone setupResult = iota
	setupStart
	setupQuit
	setupHelp
)

// kinds are the choices for a seat: a person, then each bot level (of
// the other kind of game when one is chosen).
func (sm *setupModel) kinds() []string {
	if v := sm.other(); v != nil {
		return append([]string{""}, game.DefaultCast().LevelNames(v.Kind())...)
	}
	return append([]string{""}, bot.LevelNames()...)
}

// defaultBot is the level a bot seat gets: DefaultBot, or the default
// level of the other kind of game chosen.
func (sm *setupModel) defaultBot() string {
	if v := sm.other(); v != nil {
		return game.DefaultCast().DefaultLevel(v.Kind())
	}
	return DefaultBot()
}

// other returns the game of another kind chosen (its preset), nil while a
// rule set of the ordinary game is.
func (sm *setupModel) other() game.Variant {
	if i := sm.rule - len(sm.choices); i >= 0 {
		return sm.others[i]
	}
	return nil
}

// otherSetup returns the setup of the other kind of game chosen.
func (sm *setupModel) otherSetup() kindSetup { return kindSetups[sm.other().Kind()] }

// players returns the least and most players of the chosen rules.
func (sm *setupModel) players() (lo, hi int) {
	if v := sm.other(); v != nil {
		return v.Seats()
	}
	g := sm.rules().Game
	return g.MinPlayers, g.MaxPlayers
}

// check returns the playing seats, named, or why they cannot play.
func (sm *setupModel) check() ([]Seat, error) {
	c := orEnglish(sm.lc)
	seats := sm.named()
	seen := map[string]bool{}
	for _, s := range seats {
		if s.Name == "" {
			return nil, fmt.Errorf("%w: %s", ErrPlayers, c.Msg("setup.err.noName"))
		}
		if seen[strings.ToLower(s.Name)] {
			return nil, fmt.Errorf("%w: %s", ErrPlayers, c.Msg("setup.err.twice", "name", fmt.Sprintf("%q", s.Name)))
		}
		seen[strings.ToLower(s.Name)] = true
	}
	if lo, hi := sm.players(); len(seats) < lo || len(seats) > hi {
		if sm.other() != nil {
			return nil, fmt.Errorf("%w: %s", ErrPlayers, sm.otherSetup().countError(c, len(seats), lo, hi))
		}
		return nil, fmt.Errorf("%w: %s", ErrPlayers, c.Msg("setup.err.count", "n", len(seats), "rules", sm.rules().Name, "min", lo, "max", hi))
	}
	if sm.other() == nil {
		return checkSeats(seats, sm.rules())
	}
	return seats, nil
}

// errText is what the screen says of err, a game that cannot start.
func (sm *setupModel) errText(err error) string {
	return strings.TrimPrefix(err.Error(), ErrPlayers.Error()+": ")
}

// newSetup is the setup screen in the language of c, starting from the
// rules r and the bots' pace.
func newSetup(c *lang.Catalogue, r rules.Rules, pace time.Duration) *setupModel {
	sm := &setupModel{choices: []rules.Rules{r}, pace: pace, lc: orEnglish(c)}
	for _, name := range rules.Presets() {
		if name != r.Name {
			sm.choices = append(sm.choices, rules.MustPreset(name))
		}
	}
	for _, name := range game.PresetNames() {
		if v, _ := game.Preset(name); kindSetups[v.Kind()] != nil {
			sm.others = append(sm.others, v)
		}
	}
	sm.seats = []Seat{{Name: youName(c)}}
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
// while another kind of game is chosen).
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

func (sm *setupModel) lastRow() int {
	if sm.noPace {
		return 2 + sm.n
	}
	return 3 + sm.n
}

// paceRow is the row of the bots' pace.
func (sm *setupModel) paceRow() int { return 2 + sm.n }

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
	case key.Matches(msg, k.Help):
		return setupHelp
	case key.Matches(msg, k.Start):
		if _, err := sm.check(); err != nil {
			sm.err = sm.errText(err)
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
		all := len(sm.choices) + len(sm.others)
		sm.rule = (sm.rule + d + all) % all
		sm.clamp()
	case 1:
		sm.n += d
		sm.clamp()
		if sm.row >= sm.paceRow() {
			sm.row = 1
		}
	case sm.paceRow():
		if !sm.noPace {
			sm.pace = stepPace(sm.pace, d)
		}
	default:
		seat := sm.row - 2
		if seat >= sm.n {
			return
		}
		ks := sm.kinds()
		s := &sm.seats[seat]
		s.Bot = ks[(slices.Index(ks, s.Bot)+d+len(ks))%len(ks)]
		if sm.auto[seat] && !s.IsBot() {
			s.Name = sm.lc.Msg("setup.player", "n", seat+1)
		}
	}
}

// result returns the chosen rules and seats (the rules are not used when
// another kind of game is chosen: other).
func (sm *setupModel) result() (rules.Rules, []Seat) {
	seats, _ := sm.check()
	return sm.rules(), seats
}

// view draws the setup screen.
func (sm *setupModel) view(st styles, width, height int) string {
	c := sm.lc
	var top, bottom []string
	line := func(s string) { top = append(top, s) }
	row := func(label string) string { return fmt.Sprintf("%-10s", label) }
	line(st.title.Render(c.Msg("setup.title")))
	line("")
	cursor := func(row int) string {
		if row == sm.row {
			return st.key.Render("▶ ")
		}
		return "  "
	}
	name := sm.rules().Name
	if sm.other() != nil {
		name = sm.otherSetup().title()
	}
	line(fmt.Sprintf("%s%s◀ %-14s ▶", cursor(0), row(c.Msg("setup.rules")), name))
	describe := len(top)
	for _, l := range sm.describe(width - 12) {
		line(st.dim.Render("            " + l))
	}
	described := len(top)
	line(fmt.Sprintf("%s%s◀ %d ▶", cursor(1), row(c.Msg("setup.players")), sm.n))
	line("")
	for i, s := range sm.named() {
		kind := c.Msg("setup.person")
		if s.IsBot() {
			kind = c.Msg("setup.botKind", "level", s.Bot)
		}
		name := s.Name
		if sm.row == i+2 {
			name = string(sm.typed(i)) + "_"
		}
		line(fmt.Sprintf("%s%s%-17s ◀ %s ▶", cursor(i+2), row(c.Msg("setup.seat", "seat", i+1)), name, kind))
	}
	if !sm.noPace {
		line(fmt.Sprintf("%s%s◀ %s ▶", cursor(sm.paceRow()), row(c.Msg("setup.bots")), paceName(c, BotPaces[paceOf(sm.pace)])))
	}
	line("")
	start := c.Msg("setup.start")
	if sm.row == sm.lastRow() {
		start = st.key.Render(start)
	}
	line(cursor(sm.lastRow()) + start)
	line("")
	say := func(s string) { bottom = append(bottom, s) }
	if sm.err != "" {
		for _, w := range wrap(sm.err, width, "  ") {
			say(st.err.Render(w))
		}
	} else if s := sm.row - 2; s >= 0 && s < sm.n && sm.seats[s].IsBot() {
		for _, w := range wrap(sm.botText(sm.seats[s].Bot), width, "  ") {
			say(st.dim.Render(w))
		}
	} else if sm.row == sm.paceRow() && !sm.noPace {
		say(st.dim.Render(paceNoteIn(c, sm.pace)))
	} else {
		say("")
	}
	keys := c.Msg("setup.keys")
	if sm.lobby {
		keys = c.Msg("setup.keysLobby")
	}
	for _, l := range wrapKeys(keys, width) {
		say(st.dim.Render(l))
	}
	// In a low window the note under the rows and the keys stay: first the
	// blank lines go, then the rules' description but its first line.
	if len(top)+len(bottom) > height {
		top = append(top[:described:described], slices.DeleteFunc(top[described:], func(l string) bool { return l == "" })...)
	}
	if len(top)+len(bottom) > height && described-describe > 1 {
		cut := min(described-describe-1, len(top)+len(bottom)-height)
		top = append(top[:described-cut:described-cut], top[described:]...)
		top[described-cut-1] += st.dim.Render("…")
	}
	return strings.Join(append(top, bottom...), "\n")
}

// presetOrigin says where each preset comes from (rules.Presets): the
// keys of the texts.
var presetOrigin = map[string]string{
	"classic":       "setup.origin.classic",
	"pocket-farkel": "setup.origin.pocket",
	"farkle-dice":   "setup.origin.farkleDice",
	"cardgames":     "setup.origin.cardgames",
}

// describe returns the lines under the chosen rules, at most width
// columns: where they come from, the target and the players, and what sets
// them apart.
func (sm *setupModel) describe(width int) []string {
	c := sm.lc
	if v := sm.other(); v != nil {
		return wrap(sm.otherSetup().describe(c, v), width, "")
	}
	r := sm.rules()
	g, t, sc := r.Game, r.Turn, r.Scoring
	end := c.Msg("setup.end.round")
	if g.Ending == rules.EndImmediate {
		end = c.Msg("setup.end.now")
	}
	parts := []string{c.Msg("setup.firstTo", "target", g.Target, "end", end), playersText(c, g.MinPlayers, g.MaxPlayers)}
	if t.EntryMinimum > 0 {
		parts = append(parts, c.Msg("setup.entry", "points", t.EntryMinimum))
	}
	if p := t.FarklePenalty; p.Count > 0 {
		parts = append(parts, c.Msg("setup.penalty", "count", p.Count, "points", p.Points))
	}
	if sc.Straight > 0 {
		parts = append(parts, c.Msg("setup.straight", "points", sc.Straight))
	}
	if sc.ThreePairs > 0 {
		parts = append(parts, c.Msg("setup.threePairs", "points", sc.ThreePairs))
	}
	if !t.HotDice {
		parts = append(parts, c.Msg("setup.noHot"))
	}
	text := strings.Join(parts, " · ")
	if o := presetOrigin[r.Name]; o != "" && r.Hash() == rules.MustPreset(r.Name).Hash() {
		text = c.Msg(o) + ": " + text
	}
	return wrap(text, width, "")
}

// playersText is "2 players" or "1–8 players" in the language of c.
func playersText(c *lang.Catalogue, lo, hi int) string {
	if lo == hi {
		return c.Msg("setup.playersN", "n", lo)
	}
	return c.Msg("setup.playersRange", "min", lo, "max", hi)
}

// botText describes the bot level at the table being set up: what it does,
// and how the number of players changes that.
func (sm *setupModel) botText(level string) string {
	c := sm.lc
	if sm.other() != nil {
		return level + ": " + sm.otherSetup().levelText(c, level)
	}
	text := level
	for _, l := range bot.Levels() {
		if l.Name == level {
			desc := l.Description
			if k, ok := botLevelText[level]; ok {
				desc = c.Msg(k)
			}
			text += ": " + desc
		}
	}
	if level == "perfect" {
		switch {
		case sm.n >= 3:
			text += c.Msg("setup.perfect.many", "n", sm.n)
		case sm.n == 2:
			text += c.Msg("setup.perfect.two")
		}
	}
	return text
}

// botLevelText are the keys of the descriptions of package bot's levels
// (a level without one shows the bot package's English description).
var botLevelText = map[string]string{
	"cautious": "setup.bot.cautious",
	"steady":   "setup.bot.steady",
	"bold":     "setup.bot.bold",
	"reckless": "setup.bot.reckless",
	"expert":   "setup.bot.expert",
	"perfect":  "setup.bot.perfect",
}

// helpLines returns the setup screen's help, width columns wide: its keys,
// the bot levels at this table, then the rules chosen.
func (sm *setupModel) helpLines(st styles, width int) []string {
	c := sm.lc
	lines := helpKeysIn(c, st, width, [][2]string{
		{"↑/↓ tab", c.Msg("setup.help.rows")},
		{"←/→", c.Msg("setup.help.change")},
		{c.Msg("setup.help.key.letters"), c.Msg("setup.help.letters")},
		{"enter", c.Msg("setup.help.start")},
		{"?", c.Msg("tui.help.help")},
		{"esc", c.Msg("setup.help.quit")},
	})
	lines = append(lines, c.Msg("setup.help.bots"))
	kinds := sm.kinds()[1:]
	for _, k := range kinds {
		lines = append(lines, wrap("  "+sm.botText(k), width, "    ")...)
	}
	lines = append(lines, "")
	if v := sm.other(); v != nil {
		return append(lines, sm.otherSetup().rulesText(c, v, width)...)
	}
	return append(lines, RulesTextIn(c, sm.rules(), width)...)
}
