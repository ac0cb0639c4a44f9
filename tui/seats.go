package tui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/rules"
)

// ErrPlayers is wrapped by every error of ParsePlayers.
var ErrPlayers = errors.New("tui: bad players")

// Seat is one player at the table: a person (Bot empty) or a bot of level
// Bot (one of bot.LevelNames()).
type Seat struct {
	Name string
	Bot  string
}

// IsBot reports whether the seat is played by a bot.
func (s Seat) IsBot() bool { return s.Bot != "" }

// String returns the seat as ParsePlayers reads it: "ana" or
// "ana=bot:steady".
func (s Seat) String() string {
	if s.Bot == "" {
		return s.Name
	}
	return s.Name + "=bot:" + s.Bot
}

// maxName is the longest player name accepted, in runes.
const maxName = 16

// DefaultBot returns the bot level offered first: "steady" when it exists,
// otherwise the first level.
func DefaultBot() string {
	names := bot.LevelNames()
	if slices.Contains(names, "steady") || len(names) == 0 {
		return "steady"
	}
	return names[0]
}

// ParsePlayers reads a comma-separated list of seats: a person's name
// ("ana"), a bot ("bot:LEVEL", named after its level), or a named bot
// ("rob=bot:LEVEL"). Names must be unique (bots of the same level get
// numbers: "steady", "steady-2"), at most 16 characters, without commas,
// and the count must be within the rules' min_players and max_players.
func ParsePlayers(spec string, r rules.Rules) ([]Seat, error) {
	var seats []Seat
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, playersErr("tui.players.emptyName", "spec", strconv.Quote(spec), "bot", DefaultBot())
		}
		name, level, isBot := part, "", false
		if n, l, ok := strings.Cut(part, "="); ok {
			name, level, isBot = strings.TrimSpace(n), strings.TrimSpace(l), true
			if !strings.HasPrefix(level, "bot:") {
				return nil, playersErr("tui.players.afterEquals", "part", strconv.Quote(part), "levels", strings.Join(bot.LevelNames(), ", "))
			}
			level = strings.TrimPrefix(level, "bot:")
		} else if l, ok := strings.CutPrefix(part, "bot:"); ok {
			name, level, isBot = "", l, true
		}
		if isBot {
			if !slices.Contains(bot.LevelNames(), level) {
				return nil, playersErr("tui.players.unknownLevel", "level", strconv.Quote(level), "levels", strings.Join(bot.LevelNames(), ", "))
			}
		}
		if name != "" {
			if err := checkName(name); err != nil {
				return nil, err
			}
		}
		seats = append(seats, Seat{Name: name, Bot: level})
	}
	return checkSeats(seats, r)
}

// checkSeats names the unnamed bots and checks that the names are unique
// and that the rules allow that many players.
func checkSeats(seats []Seat, r rules.Rules) ([]Seat, error) {
	nameBots(seats)
	seen := map[string]bool{}
	for _, s := range seats {
		if s.Name == "" {
			return nil, playersErr("tui.players.noName")
		}
		if seen[strings.ToLower(s.Name)] {
			return nil, playersErr("tui.players.twice", "name", strconv.Quote(s.Name))
		}
		seen[strings.ToLower(s.Name)] = true
	}
	if n := len(seats); n < r.Game.MinPlayers || n > r.Game.MaxPlayers {
		return nil, playersErr("tui.players.count", "n", n, "rules", r.Name, "lo", r.Game.MinPlayers, "hi", r.Game.MaxPlayers)
	}
	return seats, nil
}

// checkName returns why name cannot be a player's name, or nil.
func checkName(name string) error {
	if n := len([]rune(name)); n > maxName {
		return playersErr("tui.players.long", "name", strconv.Quote(name), "n", n, "most", maxName)
	}
	if !utf8.ValidString(name) {
		return playersErr("tui.players.utf8", "name", strconv.Quote(name))
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f || r == ',' || r == '=' {
			return playersErr("tui.players.badChar", "name", strconv.Quote(name), "char", strconv.QuoteRune(r))
		}
	}
	return nil
}

// nameBots names the unnamed bot seats after their level, numbering
// repeats and avoiding the names of the other seats.
func nameBots(seats []Seat) {
	taken := map[string]bool{}
	for _, s := range seats {
		if s.Name != "" {
			taken[strings.ToLower(s.Name)] = true
		}
	}
	for i := range seats {
		if seats[i].Name != "" {
			continue
		}
		name := seats[i].Bot
		for k := 2; taken[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s-%d", seats[i].Bot, k)
		}
		seats[i].Name = name
		taken[strings.ToLower(name)] = true
	}
}
