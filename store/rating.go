package store

import "time"

// Glicko is a Glicko-2 rating on the Glicko scale (package rating).
type Glicko struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// Rating is a player's current rating in one rule family (rating.Family).
// Players are keyed as in Result: a person's ID, or "bot:LEVEL".
type Rating struct {
	PlayerKey string
	Family    string
	Name      string // the name of the player's latest rated game
	Glicko
	Games   int // rated games played in the family
	Updated time.Time
	Account bool // the player has an account (a guest otherwise, or a bot)
}

// RatingChange is what one rated game did to one seat's rating.
type RatingChange struct {
	TableID   string
	PlayerKey string
	Family    string
	Name      string
	Before    Glicko
	After     Glicko
	// Games is the number of rated games the player had in the family
	// when Before was read: RateGame refuses the change (ECONFLICT) if
	// another game was rated for the player since. A new player has 0.
	Games int
	// Fixed: an anchor (a bot), whose rating does not move; its change is
	// kept for the game's record and its count of games grows, without the
	// check of Games.
	Fixed bool
	At    time.Time
}
