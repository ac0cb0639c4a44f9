package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Kind modes: how four, five and six of a kind score.
const (
	KindNone     = "none"     // only triples are melds
	KindFixed    = "fixed"    // FourOfAKind, FiveOfAKind, SixOfAKind (0 = not a meld)
	KindMultiply = "multiply" // triple × 2, × 3, × 4
	KindDouble   = "double"   // triple × 2, × 4, × 8
)

// Endings of a game.
const (
	EndFinalRound = "final-round" // every other player has exactly one more turn
	EndImmediate  = "immediate"   // the first to bank to the target wins at once
)

// NextWinner is the Game.NextFirst of rules under which the winner starts
// the next game.
const NextWinner = "winner"

// First-player and tie choices.
const (
	RollOff   = "roll-off"
	SeatOrder = "seat-order"
	Share     = "share"
)

// Rules is a complete, resolved rule set. It is plain data: the zero value is
// not valid; start from a preset (Preset) or a file (Load, Parse).
type Rules struct {
	Name    string  `toml:"name" json:"name"`
	Base    string  `toml:"base,omitempty" json:"base,omitempty"`
	Dice    int     `toml:"dice" json:"dice"`
	Scoring Scoring `toml:"scoring" json:"scoring"`
	Turn    Turn    `toml:"turn" json:"turn"`
	Game    Game    `toml:"game" json:"game"`
}

// Scoring is the scoring table of docs/RULES.md section 2. A value of 0 means the
// meld does not exist.
type Scoring struct {
	Single            map[string]int `toml:"single" json:"single"` // face "1".."6" -> points
	Triple            [6]int         `toml:"triple" json:"triple"` // faces 1..6
	KindMode          string         `toml:"kind_mode" json:"kind_mode"`
	FourOfAKind       int            `toml:"four_of_a_kind" json:"four_of_a_kind"`
	FiveOfAKind       int            `toml:"five_of_a_kind" json:"five_of_a_kind"`
	SixOfAKind        int            `toml:"six_of_a_kind" json:"six_of_a_kind"`
	Straight          int            `toml:"straight" json:"straight"`
	SmallStraightLow  int            `toml:"small_straight_low" json:"small_straight_low"`
	SmallStraightHigh int            `toml:"small_straight_high" json:"small_straight_high"`
	ThreePairs        int            `toml:"three_pairs" json:"three_pairs"`
	ThreePairsQuad    bool           `toml:"three_pairs_quad" json:"three_pairs_quad"`
	FourKindPair      int            `toml:"four_kind_pair" json:"four_kind_pair"`
	TwoTriplets       int            `toml:"two_triplets" json:"two_triplets"`
	SixDiceNothing    int            `toml:"six_dice_nothing" json:"six_dice_nothing"`
}

// Turn holds the rules of a single turn.
type Turn struct {
	HotDice       bool    `toml:"hot_dice" json:"hot_dice"`
	EntryMinimum  int     `toml:"entry_minimum" json:"entry_minimum"`
	BankMinimum   int     `toml:"bank_minimum" json:"bank_minimum"`
	FarklePenalty Penalty `toml:"farkle_penalty" json:"farkle_penalty"`
}

// Penalty: Count farkles in a row cost Points (never below a score of 0);
// Count = 0 means no penalty.
type Penalty struct {
	Count  int `toml:"count" json:"count"`
	Points int `toml:"points" json:"points"`
}

// Game holds the rules of the whole game.
type Game struct {
	Target      int    `toml:"target" json:"target"`
	Ending      string `toml:"ending" json:"ending"`
	MinPlayers  int    `toml:"min_players" json:"min_players"`
	MaxPlayers  int    `toml:"max_players" json:"max_players"`
	FirstPlayer string `toml:"first_player" json:"first_player"`
	Tie         string `toml:"tie" json:"tie"`
	// MaxTurns caps the length of a game: once every player still in has
	// started MaxTurns turns (a whole number of rounds), the game ends on
	// points as at the end of a final round. 0 means no cap. Left out of
	// files and of Hash when 0, so rules written before it are unchanged.
	MaxTurns int `toml:"max_turns,omitzero" json:"max_turns,omitempty"`
	// NextFirst says who starts the next game when the same players play
	// again: "" as first_player says, or NextWinner: the winner of the game
	// just ended (the Farkle Dice rules). Left out of files and of Hash
	// when "", so rules written before it are unchanged.
	NextFirst string `toml:"next_first,omitempty" json:"next_first,omitempty"`
}

// MaxTurnsLimit is the largest game.max_turns.
const MaxTurnsLimit = 10_000

// SinglePoints returns the points of a single die of face f (1..6), 0 if
// that face does not score alone.
func (s *Scoring) SinglePoints(f int) int {
	return s.Single[faceKey(f)]
}

// KindPoints returns the points of n (3..6) dice of face f as one meld, 0 if
// n of a kind is not a meld under these rules.
func (s *Scoring) KindPoints(f, n int) int {
	t := s.Triple[f-1]
	if n == 3 {
		return t
	}
	switch s.KindMode {
	case KindFixed:
		switch n {
		case 4:
			return s.FourOfAKind
		case 5:
			return s.FiveOfAKind
		case 6:
			return s.SixOfAKind
		}
	case KindMultiply:
		return t * (n - 2)
	case KindDouble:
		return t << (n - 3)
	}
	return 0
}

// Clone returns a deep copy of r.
func (r Rules) Clone() Rules {
	c := r
	c.Scoring.Single = make(map[string]int, len(r.Scoring.Single))
	for k, v := range r.Scoring.Single {
		c.Scoring.Single[k] = v
	}
	return c
}

// ForSolver returns a copy of r as the solvers see it: no cap on the
// game's length (Game.MaxTurns 0), and the first player by seat order with
// no rule for the next game (the solvers value positions, whoever came to
// move first). Rules that differ only in those share their solver results,
// keyed by ForSolver().Hash().
func (r Rules) ForSolver() Rules {
	c := r.Clone()
	c.Game.MaxTurns = 0
	c.Game.FirstPlayer = SeatOrder
	c.Game.NextFirst = ""
	return c
}

// Hash returns a stable hex SHA-256 of everything that affects play: the
// name and base are left out, and a single entry of 0 is the same as none,
// so two files with the same rules share it.
func (r Rules) Hash() string {
	c := r.canonical()
	c.Name, c.Base = "", ""
	return hashOf(c)
}

// ScoringHash returns a stable hex SHA-256 of what a throw scores: the
// number of dice and the scoring table, read as Hash reads them. Rule sets
// that differ only in their turn or game rules (a target, the players)
// share it, and so share their keep table (dice.Table).
func (r Rules) ScoringHash() string {
	c := r.canonical()
	return hashOf(struct {
		Dice    int     `json:"dice"`
		Scoring Scoring `json:"scoring"`
	}{c.Dice, c.Scoring})
}

// canonical returns a copy of r without single entries of 0 (a face worth
// 0 does not score alone).
func (r Rules) canonical() Rules {
	c := r.Clone()
	for k, v := range c.Scoring.Single {
		if v == 0 {
			delete(c.Scoring.Single, k)
		}
	}
	return c
}

// hashOf returns the hex SHA-256 of v's JSON, which is canonical: map keys
// are sorted.
func hashOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("rules: hash: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func faceKey(f int) string { return string(rune('0' + f)) }
