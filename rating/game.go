package rating

// Seat is one seat of a finished game as the ratings see it.
type Seat struct {
	Before Rating // the seat's rating before the game
	Fixed  bool   // an anchor (a bot): its rating does not move
	Won    bool   // among the winners (a shared win counts)
	Score  int    // the final score, which orders the seats that did not win
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
// their ratings before the game. Fixed seats keep their ratings.
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
				os = append(os, Outcome{Opp: o.Before, Score: Pairwise(s, o)})
			}
		}
		out[i] = Update(s.Before, os, Tau)
	}
	return out
}
