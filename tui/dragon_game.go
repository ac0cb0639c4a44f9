package tui

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
)

// dragonLogSize is how many events a DragonGame keeps for its log.
const dragonLogSize = 400

// DragonGame is a game of Dragon Farkle being played in the terminal: the
// table (the game from its seed, the seats, the save file), the seats'
// bots and the events so far (for the log). All randomness of the game
// comes from the source keyed by the seed, the bots' from another keyed by
// a seed derived from it, so the record (players, actions, and the seed
// revealed at the end) replays it exactly. It is not safe for concurrent
// use.
type DragonGame struct {
	*table
	v      *game.DragonVariant
	game   *dragon.Game
	bots   []game.Bot // nil for people
	botSrc dice.Source
	events []dragon.Event // the last dragonLogSize events
	// earlier are the log's lines of a game at a server joined mid-way,
	// as the server wrote them: what happened before events begin.
	earlier []string
	// online is the table at a server (dragon_online.go), nil for a local
	// game.
	online *online
}

// NewDragonGame starts a game of g with the seats (bots at the dragon
// levels: random, simple, smart) and the seed. It is saved to path ("" for
// never).
func NewDragonGame(g *dragon.Game, seats []Seat, seed dice.Seed, path string, now func() time.Time) (*DragonGame, error) {
	return startDragon(game.NewDragon(g), seats, seed, path, now)
}

// startDragon is NewDragonGame of the variant v, whose bots' tables may
// be made already.
func startDragon(v *game.DragonVariant, seats []Seat, seed dice.Seed, path string, now func() time.Time) (*DragonGame, error) {
	t, evs, err := startTable(v, seats, seed, path, now)
	if err != nil {
		return nil, err
	}
	dg, err := seatDragonBots(t, v, seed)
	if err != nil {
		return nil, err
	}
	dg.note(dragonEvents(evs))
	return dg, nil
}

// seatDragonBots seats the bots at a Dragon Farkle table: the Cast's
// (game.DefaultCast), choosing at random from the game's bot source.
func seatDragonBots(t *table, v *game.DragonVariant, seed dice.Seed) (*DragonGame, error) {
	dg := &DragonGame{table: t, v: v, game: v.Game(), botSrc: game.BotSource(seed), bots: make([]game.Bot, len(t.seats))}
	for i, st := range t.seats {
		if !st.IsBot() {
			continue
		}
		lvl, err := dragon.ParseLevel(st.Bot)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrPlayers, st.Name, err)
		}
		if dg.bots[i], err = game.DefaultCast().Bot(v, lvl.String()); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrPlayers, st.Name, err)
		}
		t.play.Record().Meta.SetLevel(i, lvl.String())
	}
	return dg, nil
}

// advice is the hint of seat: the Cast's advice (the Smart bot's values),
// best first when the values share one measure.
func (g *DragonGame) advice(seat int) *game.Advice {
	adv, err := game.DefaultCast().Advisor(g.v, len(g.seats))
	var got *game.Advice
	if err == nil {
		got, err = adv.Advise(g.play.Game(), seat)
	}
	if err != nil {
		return &game.Advice{}
	}
	return got
}

func dragonEvents(evs []game.Event) []dragon.Event {
	out := make([]dragon.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(dragon.Event)
	}
	return out
}

// ParseDragonPlayers is ParsePlayers for Dragon Farkle: bots are the
// dragon levels (random, simple, smart) and the count must be within the
// rules' min_players and max_players.
func ParseDragonPlayers(spec string, r dragon.Rules) ([]Seat, error) {
	var seats []Seat
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, playersErr("tui.players.emptyName", "spec", strconv.Quote(spec), "bot", "smart")
		}
		name, level, isBot := part, "", false
		if n, l, ok := strings.Cut(part, "="); ok {
			name, level, isBot = strings.TrimSpace(n), strings.TrimSpace(l), true
			if !strings.HasPrefix(level, "bot:") {
				return nil, playersErr("tui.players.afterEquals", "part", strconv.Quote(part), "levels", strings.Join(dragon.Levels(), ", "))
			}
			level = strings.TrimPrefix(level, "bot:")
		} else if l, ok := strings.CutPrefix(part, "bot:"); ok {
			name, level, isBot = "", l, true
		}
		if isBot && !slices.Contains(dragon.Levels(), level) {
			return nil, playersErr("tui.players.unknownLevel", "level", strconv.Quote(level), "levels", strings.Join(dragon.Levels(), ", "))
		}
		if name != "" {
			if err := checkName(name); err != nil {
				return nil, err
			}
		}
		seats = append(seats, Seat{Name: name, Bot: level})
	}
	nameBots(seats)
	seen := map[string]bool{}
	for _, s := range seats {
		if seen[strings.ToLower(s.Name)] {
			return nil, playersErr("tui.players.twice", "name", strconv.Quote(s.Name))
		}
		seen[strings.ToLower(s.Name)] = true
	}
	if n := len(seats); n < r.MinPlayers || n > r.MaxPlayers {
		return nil, playersErr("tui.players.count", "n", n, "rules", r.Name, "lo", r.MinPlayers, "hi", r.MaxPlayers)
	}
	return seats, nil
}

// Game returns the rule set being played.
func (g *DragonGame) Game() *dragon.Game { return g.game }

// Brains returns the bots' tables, also used for hints.
func (g *DragonGame) Brains() *dragon.Brains { return g.v.Brains() }

// State returns the whole state, hidden cards included: front ends draw
// only Views of it.
func (g *DragonGame) State() dragon.State { return g.play.Game().(*game.DragonGame).State() }

// View returns what seat may see.
func (g *DragonGame) View(seat int) dragon.View { return g.game.View(g.State(), seat) }

// Turn returns the seat whose turn it is (the challenger during a brawl).
func (g *DragonGame) Turn() int { return g.State().Turn }

// ToAct returns the seat the game waits for: the player whose turn it is,
// or the defender while their brawl throw waits for a card decision; -1
// when the game is over.
func (g *DragonGame) ToAct() int { s := g.State(); return s.ToAct() }

// BotToAct reports whether the game waits for a bot.
func (g *DragonGame) BotToAct() bool { return !g.Over() && g.bots[g.ToAct()] != nil }

// Humans returns the seats played by people.
func (g *DragonGame) Humans() []int {
	var out []int
	for i, s := range g.seats {
		if !s.IsBot() {
			out = append(out, i)
		}
	}
	return out
}

// Events returns the last events of the game (at most 400), unfiltered:
// callers filter them for the seat that looks (dragon.ViewEvents).
func (g *DragonGame) Events() []dragon.Event { return g.events }

// Auto plays the action of the bot to act and returns it and what happened.
func (g *DragonGame) Auto() (dragon.Action, []dragon.Event, error) {
	if !g.BotToAct() {
		return dragon.Action{}, nil, errors.New("tui: no bot is to act")
	}
	seat := g.ToAct()
	ba, err := g.bots[seat].Choose(g.play.Game(), seat, g.botSrc)
	if err != nil {
		return dragon.Action{}, nil, err
	}
	a := ba.(dragon.Action)
	ev, err := g.Do(a)
	return a, ev, err
}

// Do plays a for the seat the game waits for (ToAct). An illegal action changes nothing and
// returns the game's error (DragonReason gives the part to show).
func (g *DragonGame) Do(a dragon.Action) ([]dragon.Event, error) {
	evs, err := g.do(g.ToAct(), a)
	if err != nil {
		return nil, err
	}
	ev := dragonEvents(evs)
	g.note(ev)
	for _, e := range ev {
		if e.Kind == dragon.EvTurn || e.Kind == dragon.EvWin {
			g.saved = g.Save()
			break
		}
	}
	return ev, nil
}

// Check returns the error Do would return for a, without playing it.
func (g *DragonGame) Check(a dragon.Action) error { return g.play.Check(g.ToAct(), a) }

func (g *DragonGame) note(ev []dragon.Event) {
	g.events = append(g.events, ev...)
	if n := len(g.events); n > dragonLogSize {
		g.events = append([]dragon.Event(nil), g.events[n-dragonLogSize:]...)
	}
}

// Describe returns the log lines of events as seat sees them (items drawn
// by others are not named), with the grammar fixed for a player called
// "you".
func (g *DragonGame) Describe(ev []dragon.Event, seat int) []string {
	return g.DescribeIn(nil, ev, seat)
}

// DescribeIn is Describe in the language of c (nil: English): the player
// called by the catalogue's dragon.you ("you", "du") is spoken to, and at
// a server this terminal's player, whatever their name ("you keep", not
// "kari keeps").
func (g *DragonGame) DescribeIn(c *lang.Catalogue, ev []dragon.Event, seat int) []string {
	c = orEnglish(c)
	names := g.Names()
	if o := g.online; o != nil && o.you >= 0 && o.you < len(names) {
		names = slices.Clone(names)
		names[o.you] = c.Msg("dragon.you")
	}
	you := dragonYouCatalogue(c)
	out := make([]string, 0, len(ev))
	for _, e := range dragon.ViewEvents(ev, seat) {
		ec := c
		if e.Seat >= 0 && e.Seat < len(names) && dragonIsYou(c, names[e.Seat]) {
			ec = you
		}
		line := g.game.DescribeIn(ec, names, e)
		if c.Code == lang.Default {
			line = youGrammar(line, names)
		}
		out = append(out, line)
	}
	return out
}

// dragonYou matches "you" followed by a verb of dragon.Game.Describe in
// the third person, or "you's".
var dragonYou = regexp.MustCompile(`(^|[ ,(:])you( (keeps|rallies|draws|has|farkles|evades|recruits|uses|wins|attacks|discards|slays|cannot|challenges|retreats|defends|stands|pays|dismisses)\b|'s\b)`)

// dragonVerbs are the verbs dragonYou finds, in the second person.
var dragonVerbs = map[string]string{"keeps": "keep", "rallies": "rally", "draws": "draw", "has": "have", "farkles": "farkle",
	"evades": "evade", "recruits": "recruit", "uses": "use", "wins": "win", "attacks": "attack", "discards": "discard", "slays": "slay", "cannot": "cannot", "challenges": "challenge", "retreats": "retreat",
	"defends": "defend", "stands": "stand", "pays": "pay", "dismisses": "dismiss"}

// youGrammar fixes the grammar of a log line for a player called "you":
// "you keep", "your turn", "you farkle and lose".
func youGrammar(line string, names []string) string {
	if !slices.Contains(names, "you") {
		return line
	}
	found := false
	line = dragonYou.ReplaceAllStringFunc(line, func(m string) string {
		found = true
		if strings.HasSuffix(m, "'s") {
			return strings.TrimSuffix(m, "you's") + "your"
		}
		i := strings.LastIndexByte(m, ' ')
		return m[:i+1] + dragonVerbs[m[i+1:]]
	})
	if found {
		line = strings.Replace(strings.Replace(line, " and loses ", " and lose ", 1), " and wins", " and win", 1)
	}
	return line
}

// DragonReason returns the part of a dragon error a player needs, in
// English, without the "dragon: illegal action: " prefix.
func DragonReason(err error) string { return dragonReasonIn(nil, err) }

// reasonIn is DragonReason in the language of c.
func (g *DragonGame) reasonIn(c *lang.Catalogue, err error) string {
	return dragonReasonIn(c, err)
}

// dragonReasonIn is DragonReason in the language of c: the game's refusal
// in its words.
func dragonReasonIn(c *lang.Catalogue, err error) string {
	c = orEnglish(c)
	var r *dragon.Refusal
	if errors.As(err, &r) {
		return r.Say(c)
	}
	msg := err.Error()
	for _, e := range []error{dragon.ErrIllegal, dragon.ErrBadAction, dragon.ErrGameOver, dragon.ErrNotTurn} {
		if errors.Is(err, e) {
			msg = strings.TrimPrefix(strings.TrimPrefix(msg, e.Error()), ": ")
		}
	}
	if msg == "" {
		return userError(c, err)
	}
	return msg
}

// Winners returns the end-of-game line, "winner: ana" (with how: "slew the
// dragon" or the soldiers), "" while the game goes on.
func (g *DragonGame) Winners() string { return g.WinnersIn(nil) }

// WinnersIn is Winners in the language of c (nil: English).
func (g *DragonGame) WinnersIn(c *lang.Catalogue) string {
	c = orEnglish(c)
	s := g.State()
	if !s.Over() {
		return ""
	}
	names := make([]string, len(s.Winners))
	for i, w := range s.Winners {
		names[i] = s.Players[w].Name
	}
	how := c.Msg("dragon.tui.winWith", "n", s.Players[s.Winners[0]].Soldiers)
	if s.Slain {
		how = c.Msg("dragon.tui.winSlew")
	}
	return c.Msg("dragon.tui.winners", "n", len(names), "names", strings.Join(names, ", "), "how", how)
}

// DragonGamePath returns a new file name in dir for a Dragon Farkle game,
// e.g. dir/20261129-163000-ana-smart-dragon.json.
func DragonGamePath(dir string, t time.Time, names []string) string {
	return strings.TrimSuffix(GamePath(dir, t, names), ".json") + "-dragon.json"
}

// ResumeDragonGame reads the unfinished Dragon Farkle game saved at path
// and replays it: the game's dice from its seed, and every bot action
// chosen again by its bot from the bots' seed (a bot whose choice differs
// from the record is an error, so a record edited by hand cannot be
// resumed). It is saved back to path. A finished game is an error wrapping
// ErrSave.
func ResumeDragonGame(path string, now func() time.Time) (*DragonGame, error) {
	t, steps, err := resumeTable(path, game.Dragon, now)
	if err != nil {
		return nil, err
	}
	v, ok := t.play.Game().Variant().(*game.DragonVariant) // this view's own variant
	if !ok {
		return nil, fmt.Errorf("%w: %s: not a game of Dragon Farkle", ErrSave, path)
	}
	dg, err := seatDragonBots(t, v, t.play.Seed())
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSave, path, err)
	}
	for i, st := range steps {
		if b := dg.bots[st.Seat]; b != nil {
			if got, err := b.Choose(st.Before, st.Seat, dg.botSrc); err != nil || !reflect.DeepEqual(got, st.Action) {
				return nil, fmt.Errorf("%w: %s: action %d: the record says %s, but the bot %s chooses %s", ErrSave, path, i+1, st.Action, t.seats[st.Seat].Name, got)
			}
		}
		dg.note(dragonEvents(st.Events))
	}
	return dg, nil
}

// setState changes the state in place: a set position for tests. The
// record no longer replays once it is used.
func (g *DragonGame) setState(f func(s *dragon.State)) {
	dg := g.play.Game().(*game.DragonGame)
	s := dg.State().Clone()
	f(&s)
	g.play.Set(dg.With(s))
}
