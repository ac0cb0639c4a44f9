// Package localplay is the ordinary game as a browser plays it by itself,
// with no server: against bots, or by friends around one phone (hot seat),
// offline or not. cmd/farkle-wasm compiles it to WebAssembly for the web
// page, so the page plays with the very engine, dice, bots and solo policy
// the server and the terminal play with (no second implementation).
//
// A Game is one local game. It speaks the server's WebSocket protocol
// (docs/API.md) as JSON values: Welcome and the update, error and hint
// messages that Act, BotAct and Hint return carry package gameview's
// views, so the page draws a local game with the code that draws a table.
// Its Record is a farkle-record/2 committed to the secret seed the page
// drew, revealed only when the game is over (as the terminal's games and
// the server's tables do), so a finished local game verifies with `farkle
// verify` and can be kept in the account's history (POST /api/local-games).
//
// Bots play every level but perfect (whose duel table is too large for a
// browser); hints value every choice by the solo policy (expected points).
// Nothing here reads a file, the network, a clock or an environment.
package localplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/gameview"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// MaxTurns is the most rounds of a local game, as the server's default
// --max-turns: rules with no cap, or a larger one, get it.
const MaxTurns = 200

// MaxNameLen is the longest name of a seat, in characters, as the server's.
const MaxNameLen = 24

// ErrSetup is wrapped by the errors of New and Resume about what they were
// given.
var ErrSetup = errors.New("localplay: bad setup")

// Seat is a seat of a local game: a person at the device (Bot empty) or a
// bot of a level.
type Seat struct {
	Name string `json:"name"`
	Bot  string `json:"bot,omitempty"`
}

// Setup is what a local game starts from.
type Setup struct {
	// Rules is a preset's name as a JSON string ("classic"), or the fields
	// of a rule file as an object (which may start from a preset with
	// "base").
	Rules json.RawMessage `json:"rules"`
	Seats []Seat          `json:"seats"`
	// Seed is the game's secret seed, 64 hex digits drawn by the page
	// (crypto.getRandomValues); the record commits to it.
	Seed string `json:"seed"`
	// Started is when the game started (RFC 3339), by the page's clock;
	// it goes in the record.
	Started string `json:"started,omitempty"`
}

// Levels returns the bot levels of local games: every level but perfect.
func Levels() []bot.Level {
	return slices.DeleteFunc(bot.Levels(), func(l bot.Level) bool { return l.Name == "perfect" })
}

// Game is one local game. It is not safe for concurrent use (a page has
// one thread).
type Game struct {
	play  *game.Play
	seats []Seat
	bots  []bot.Strategy // nil for a person
	lines []gameview.Line
	cat   *lang.Catalogue
	hints *hinter
}

// parseRules reads Setup.Rules: a preset's name or a rules object.
func parseRules(data json.RawMessage) (rules.Rules, error) {
	var name string
	if err := json.Unmarshal(data, &name); err == nil {
		return rules.Preset(name)
	}
	return rules.ParseJSON(data)
}

// New starts a local game; its texts are in the language code names
// (English when there is no such catalogue).
func New(s Setup, code string) (*Game, error) {
	r, err := parseRules(s.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	if r.Game.MaxTurns == 0 || r.Game.MaxTurns > MaxTurns {
		r.Game.MaxTurns = MaxTurns
	}
	seed, err := dice.ParseSeed(s.Seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	if len(s.Seats) < r.Game.MinPlayers || len(s.Seats) > r.Game.MaxPlayers {
		return nil, fmt.Errorf("%w: %d players, but %s takes %d to %d", ErrSetup, len(s.Seats), r.Name, r.Game.MinPlayers, r.Game.MaxPlayers)
	}
	v, err := game.NewFarkle(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	g := &Game{seats: make([]Seat, len(s.Seats)), cat: lang.Get(code)}
	names := make([]string, len(s.Seats))
	for i, st := range s.Seats {
		st.Name = strings.Join(strings.Fields(st.Name), " ")
		if st.Name == "" || len([]rune(st.Name)) > MaxNameLen {
			return nil, fmt.Errorf("%w: seat %d: a name has 1 to %d characters", ErrSetup, i, MaxNameLen)
		}
		g.seats[i], names[i] = st, st.Name
	}
	if g.bots, err = makeBots(g.seats, r); err != nil {
		return nil, err
	}
	if g.play, _, err = game.Start(v, names, seed); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	meta := &g.play.Record().Meta
	meta.Started = s.Started
	for i, st := range g.seats {
		if st.Bot != "" {
			if meta.Extra == nil {
				meta.Extra = map[string]string{}
			}
			meta.Extra[botKey(i)] = "bot:" + st.Bot
		}
	}
	return g, nil
}

// botKey is the key of the record's Meta.Extra naming a bot seat's level,
// "seat1": "bot:steady", as the server's records have it.
func botKey(seat int) string { return fmt.Sprintf("seat%d", seat) }

// BotLevels returns the level of each seat in the record's Meta (""
// for a person), as New writes them; an unknown or perfect level is an
// error.
func BotLevels(rec *game.Record) ([]string, error) {
	out := make([]string, len(rec.Players))
	for i := range rec.Players {
		v, ok := rec.Meta.Extra[botKey(i)]
		if !ok {
			continue
		}
		lv, ok := strings.CutPrefix(v, "bot:")
		if !ok || !slices.ContainsFunc(Levels(), func(l bot.Level) bool { return l.Name == lv }) {
			return nil, fmt.Errorf("%w: seat %d is played by %q, not a bot of a local game (levels: %s)", ErrSetup, i, v, levelNames())
		}
		out[i] = lv
	}
	return out, nil
}

func levelNames() string {
	var names []string
	for _, l := range Levels() {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}

func makeBots(seats []Seat, r rules.Rules) ([]bot.Strategy, error) {
	out := make([]bot.Strategy, len(seats))
	for i, st := range seats {
		if st.Bot == "" {
			continue
		}
		if !slices.ContainsFunc(Levels(), func(l bot.Level) bool { return l.Name == st.Bot }) {
			return nil, fmt.Errorf("%w: seat %d: no bot level %q in a local game (levels: %s)", ErrSetup, i, st.Bot, levelNames())
		}
		b, err := bot.New(st.Bot, r)
		if err != nil {
			return nil, fmt.Errorf("%w: seat %d: %w", ErrSetup, i, err)
		}
		out[i] = b
	}
	return out, nil
}

// Resume rebuilds a local game from its record so far (as Record gave it)
// and its secret seed, checking every action against the seed's dice, for
// a page opened again: the game goes on where it was.
func Resume(record []byte, seed string, code string) (*Game, error) {
	rec, err := game.ParseRecord(record)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	if rec.Kind != game.Farkle {
		return nil, fmt.Errorf("%w: a record of %s, not of the ordinary game", ErrSetup, rec.Kind)
	}
	sd, err := dice.ParseSeed(seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	levels, err := BotLevels(rec)
	if err != nil {
		return nil, err
	}
	p, steps, err := game.Resume(rec, sd)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	g := &Game{play: p, seats: make([]Seat, len(rec.Players)), cat: lang.Get(code)}
	for i, name := range rec.Players {
		g.seats[i] = Seat{Name: name, Bot: levels[i]}
	}
	if g.bots, err = makeBots(g.seats, g.rules()); err != nil {
		return nil, err
	}
	for i, st := range steps {
		g.note(i+1, st.Events)
	}
	return g, nil
}

// rules returns the game's rules.
func (g *Game) rules() rules.Rules { return g.state().Rules() }

// state returns the engine state now.
func (g *Game) state() engine.State { return g.play.Game().(*game.FarkleGame).State() }

// note adds the log lines of the events of the action that brought the
// game to version.
func (g *Game) note(version int, evs []game.Event) {
	names := g.state().Names()
	for _, e := range evs {
		g.lines = append(g.lines, gameview.LineOf(g.cat, version, e.(engine.Event), names))
	}
}

// Record returns the game's record so far as JSON (farkle-record/2): the
// seed is in it only once the game is over.
func (g *Game) Record() []byte {
	data, err := json.Marshal(g.play.Record())
	if err != nil {
		panic(fmt.Sprintf("localplay: the record does not marshal: %v", err)) // a game.Record always marshals
	}
	return data
}

// SetEnded notes in the record when the game ended (RFC 3339), by the
// page's clock.
func (g *Game) SetEnded(when string) { g.play.Record().Meta.Ended = when }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.play.Game().Over() }

// ToAct returns the seat to act, -1 once the game is over.
func (g *Game) ToAct() int { return g.play.Game().ToAct() }

// Seats returns the seats.
func (g *Game) Seats() []Seat { return slices.Clone(g.seats) }

// Refusal codes, as the server's (docs/API.md), in the order of the checks.
const (
	codeBadMessage  = "bad_message"
	codeNotSeated   = "not_seated"
	codeGameOver    = "game_over"
	codeNotYourTurn = "not_your_turn"
	codeIllegal     = "illegal"
	codeStale       = "stale"
	codeUnavailable = "unavailable"
)

// ErrorMsg is a refusal: nothing changed.
type ErrorMsg struct {
	Type    string `json:"type"` // "error"
	Code    string `json:"code"`
	Message string `json:"message"`
	Version int    `json:"version"`
}

func (g *Game) refuse(code, format string, args ...any) *ErrorMsg {
	return &ErrorMsg{Type: "error", Code: code, Message: fmt.Sprintf(format, args...), Version: g.play.Game().Version()}
}

// TableView is the local game as the page's table sees a server's table.
type TableView struct {
	ID         string          `json:"id"`
	Status     string          `json:"status"` // "playing" or "over"
	Rules      json.RawMessage `json:"rules,omitempty"`
	Seats      []SeatView      `json:"seats"`
	Commitment string          `json:"commitment"`
	Seed       string          `json:"seed,omitempty"` // once the game is over
	Actions    int             `json:"actions"`
	Watchers   int             `json:"watchers"`
	Hints      bool            `json:"hints"`
	Local      bool            `json:"local"`
}

// SeatView is a seat as the page sees it.
type SeatView struct {
	Name string `json:"name"`
	Bot  string `json:"bot,omitempty"`
	Free bool   `json:"free"`
}

func (g *Game) table() TableView {
	rec := g.play.Record()
	v := TableView{ID: "local-" + rec.Commitment[:12], Status: "playing", Rules: rec.Rules, Commitment: rec.Commitment,
		Seed: rec.Seed, Actions: len(rec.Actions), Hints: true, Local: true}
	if g.Over() {
		v.Status = "over"
	}
	for _, s := range g.seats {
		v.Seats = append(v.Seats, SeatView{Name: s.Name, Bot: s.Bot})
	}
	return v
}

// You is the seat the page acts for.
type You struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
}

// WelcomeMsg is the whole game, as the server's welcome.
type WelcomeMsg struct {
	Type  string          `json:"type"` // "welcome"
	You   You             `json:"you"`
	Table TableView       `json:"table"`
	State *gameview.State `json:"state"`
	Log   []gameview.Line `json:"log"`
}

// Welcome returns the whole game for the page acting for seat you (-1:
// none).
func (g *Game) Welcome(you int) WelcomeMsg {
	y := You{Seat: you}
	if you >= 0 && you < len(g.seats) {
		y.Name = g.seats[you].Name
	}
	return WelcomeMsg{Type: "welcome", You: y, Table: g.table(), State: gameview.Of(g.state()), Log: append([]gameview.Line{}, g.lines...)}
}

// UpdateMsg is an action played, as the server's update.
type UpdateMsg struct {
	Type   string           `json:"type"` // "update"
	Table  TableView        `json:"table"`
	State  *gameview.State  `json:"state"`
	Action *gameview.Action `json:"action"`
	Threw  []int            `json:"threw,omitempty"`
	Log    []gameview.Line  `json:"log"`
}

// ActionMsg is what the page sends to act, as a client's action message.
type ActionMsg struct {
	Type    string          `json:"type"` // "action"
	Version int             `json:"version"`
	Action  json.RawMessage `json:"action"`
}

// Act plays the action message the page sent for seat (a person's): the
// update, or the refusal (checked in the server's order: the message, the
// game not over, the seat's turn, the engine's rules, the version), which
// changes nothing.
func (g *Game) Act(seat int, msg []byte) (*UpdateMsg, *ErrorMsg) {
	var m ActionMsg
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || m.Type != "action" || m.Action == nil {
		return nil, g.refuse(codeBadMessage, "an action message is {\"type\":\"action\",\"version\":N,\"action\":{...}}")
	}
	a, err := g.play.Game().Variant().ParseAction(m.Action)
	if err != nil {
		return nil, g.refuse(codeBadMessage, "%s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	if seat < 0 || seat >= len(g.seats) || g.seats[seat].Bot != "" {
		return nil, g.refuse(codeNotSeated, "seat %d is not a person's at this device", seat)
	}
	return g.do(seat, m.Version, a)
}

// do checks and plays action a of seat on version.
func (g *Game) do(seat, version int, a game.Action) (*UpdateMsg, *ErrorMsg) {
	cur := g.play.Game()
	switch {
	case cur.Over():
		return nil, g.refuse(codeGameOver, "the game is over")
	case cur.ToAct() != seat:
		return nil, g.refuse(codeNotYourTurn, "it is %s's turn", g.seats[cur.ToAct()].Name)
	}
	if err := cur.Check(seat, a); err != nil {
		return nil, g.refuse(codeIllegal, "%s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	if version != cur.Version() {
		return nil, g.refuse(codeStale, "you acted on version %d but the game is at version %d: look again", version, cur.Version())
	}
	evs, err := g.play.Do(seat, a)
	if err != nil {
		return nil, g.refuse(codeIllegal, "%s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	v := g.play.Game().Version()
	first := len(g.lines)
	g.note(v, evs)
	ea := a.(engine.Action)
	ea.Player = seat
	av := gameview.ActionOf(ea)
	var threw []int
	for _, e := range evs {
		if e := e.(engine.Event); e.Kind == engine.EvThrow || e.Kind == engine.EvRollOff {
			threw = e.Dice.Faces()
			break
		}
	}
	return &UpdateMsg{Type: "update", Table: g.table(), State: gameview.Of(g.state()), Action: &av, Threw: threw,
		Log: append([]gameview.Line{}, g.lines[first:]...)}, nil
}

// BotToAct reports whether a bot is to act now.
func (g *Game) BotToAct() bool {
	s := g.ToAct()
	return s >= 0 && g.bots[s] != nil
}

// BotAct plays the move of the bot to act: the update, or a refusal when
// no bot is to act.
func (g *Game) BotAct() (*UpdateMsg, *ErrorMsg) {
	if !g.BotToAct() {
		return nil, g.refuse(codeNotYourTurn, "no bot is to act")
	}
	seat := g.ToAct()
	return g.do(seat, g.play.Game().Version(), choose(g.bots[seat], g.state()))
}

// choose is the bot's action in s, the seat to act's.
func choose(b bot.Strategy, s engine.State) game.Action { return b.Choose(s) }
