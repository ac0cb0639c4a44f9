package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// NewTable is a table to open at a server (Lobby.Create).
type NewTable struct {
	// Rules are the ordinary game's rules, when Preset is "".
	Rules rules.Rules
	// Preset names a game of another kind by its preset (game.Preset:
	// "dragon", Dragon Farkle), which the server plays with its own rules.
	Preset string
	// Seats are the players: the first person is the player, every other
	// person a free seat for a friend, the bots at their levels.
	Seats []Seat
	// Clock is the time for each decision (0: the server's).
	Clock time.Duration
}

// Saying is an error that says itself in a language: the online
// client's network failures ("the server at 127.0.0.1:1 does not answer;
// is farkle serve running?"), which the screens show in the player's.
type Saying interface {
	error
	In(c *lang.Catalogue) string
}

// userError is err as a player reads it in the language of c: a Saying in
// its words, anything else as its text.
func userError(c *lang.Catalogue, err error) string {
	var s Saying
	if errors.As(err, &s) {
		return s.In(orEnglish(c))
	}
	return err.Error()
}

// onlineViews are the screens of the kinds of game played at a server,
// by kind: each kind's own file registers its screen.
var onlineViews = map[game.Kind]func(o Options, r Remote, first RemoteUpdate) (onlineScreen, error){
	game.Farkle: func(o Options, r Remote, first RemoteUpdate) (onlineScreen, error) { return Online(o, r, first) },
}

// onlineScreenOf is the screen of the game of a Remote's first update.
func onlineScreenOf(o Options, r Remote, first RemoteUpdate) (onlineScreen, error) {
	if first.Game == nil {
		return nil, fmt.Errorf("tui: the game at table %s has not started", first.Table)
	}
	k := first.Game.Variant().Kind()
	view, ok := onlineViews[k]
	if !ok {
		return nil, fmt.Errorf("tui: the terminal does not play %s online", k)
	}
	return view(o, r, first)
}

// engineEvents are the ordinary game's events among evs.
func engineEvents(evs []game.Event) []engine.Event {
	out := make([]engine.Event, 0, len(evs))
	for _, e := range evs {
		if ev, ok := e.(engine.Event); ok { // this screen's own variant's events
			out = append(out, ev)
		}
	}
	return out
}

// onlineOverMessage is the dice area at the end of an online game: where
// the record is (a file saved here, or the server's address of it), and
// what p and q do (overNoteIn).
func onlineOverMessage(c *lang.Catalogue, o *online, record string, width int) []string {
	c = orEnglish(c)
	saved := ""
	switch {
	case strings.HasPrefix(record, "http://") || strings.HasPrefix(record, "https://"):
		saved = c.Msg("tui.online.recordAt", "url", record) + " "
	case record != "":
		saved = c.Msg("tui.savedAs", "file", record) + " "
	}
	note := overNoteIn(c, o)
	return diceMessage(saved+strings.ToUpper(note[:1])+note[1:]+".", width)
}

// onlineKeysIn are the keys of a game at a server while it waits for
// another seat or the server, or once it is over (over): q goes back to
// the lobby, and at the end p asks a player's rematch.
func onlineKeysIn(c *lang.Catalogue, o *online, over bool) []button {
	c = orEnglish(c)
	lobby := button{"q", c.Msg("tui.btn.lobby")}
	if over && o.you >= 0 {
		return []button{{"p", c.Msg("tui.btn.rematch")}, lobby, {"?", c.Msg("tui.btn.rules")}}
	}
	if over {
		return []button{lobby, {"?", c.Msg("tui.btn.rules")}}
	}
	return []button{{"?", c.Msg("tui.btn.help")}, lobby}
}

// headerButtons are the buttons at the top right of the table: q quits a
// local game, and goes back to the lobby from a table at a server.
func (m *Model) headerButtons() []button {
	if m.game != nil && m.game.online != nil {
		return []button{{"?", m.lc.Msg("tui.btn.help")}, {"q", m.lc.Msg("tui.btn.lobby")}}
	}
	return headerButtonsIn(m.lc)
}

// headerButtons are the buttons at the top right of the table: q quits a
// local game, and goes back to the lobby from a table at a server.
func (m *DragonModel) headerButtons() []button {
	if m.online != nil {
		return []button{{"?", m.tx("dragon.tui.btn.help")}, {"q", m.tx("tui.btn.lobby")}}
	}
	return []button{{"?", m.tx("dragon.tui.btn.help")}, {"q", m.tx("dragon.tui.btn.quit")}}
}
