package rating

// Seat is one seat of a finished game as the ratings see it.
type Seat struct {
	Before Rating // the seat's rating before the game
	Fixed  bool   // an anchor (a bot): its rating does not move
	Won    bool   // among the winners (a shared win counts)
	Score  int    // the final score, which orders the seats that did not win
	// Games is the seat's rated games in the family before this one: a
	// person's result counts for the others as Weight(Games) of a game.
	Games int
}

// FullWeightGames is the number of rated games from which a person's
// result counts as a whole game for the others' ratings; before, it
// counts ((Games+1)/FullWeightGames)² of a game: a brand-new player's a
// hundredth, after 4 games a quarter. Glicko-2 alone trusts a new
// player's rating little (its deviation is wide) but still moves the
// winner over one by up to 160 points: a crowd of fresh guests who lose
// on purpose carried a new player from 1500 to 1914 in six games and to
// 2100 in twenty. Weighted, the same twenty take it to about 1544
// (TestFarmOfNewPlayers).
const FullWeightGames = 10

// Weight returns how much of a game the result of a person with games
// rated games counts for the others' ratings:
// ((games+1)/FullWeightGames)², at most 1.
func Weight(games int) float64 {
	x := min(1, float64(max(games, 0)+1)/FullWeightGames)
	return x * x
}

// Pairwise returns a's score against b in a game of several seats: 1 if a
// won and b did not, 0 the other way round, and otherwise by final score
// (1 higher, ½ equal, 0 lower), so that a shared win is a draw and the
// losers are ordered by how close they came.
func Pairwise(a, b Seat) float64 {
	switch {
	case a.Won && !b.Won:
		return 1
	case b.Won && !a.Won:
		return 0
	case a.Score > b.Score:
		return 1
	case a.Score < b.Score:
		return 0
	}
	return 0.5
}

// Game returns every seat's rating after the game: the game is one rating
// period in which each seat that is not Fixed met every other seat, at
// their ratings before the game, each meeting weighted by the other
// seat's experience (Weight of its Games; a Fixed seat, an anchor, counts
// whole). Fixed seats keep their ratings.
func Game(seats []Seat) []Rating {
	out := make([]Rating, len(seats))
	for i, s := range seats {
		if s.Fixed {
			out[i] = s.Before
			continue
		}
		var os []Outcome
		for j, o := range seats {
			if j != i {
				w := 1.0
				if !o.Fixed {
					w = Weight(o.Games)
				}
				os = append(os, Outcome{Opp: o.Before, Score: Pairwise(s, o), Weight: w})
			}
		}
		out[i] = Update(s.Before, os, Tau)
	}
	return out
}
