package tournament

// Forfeit says who lost a game without playing it out: a forfeit is a
// loss for the side that forfeits and a win for the other, and the game's
// points do not count. When both sides forfeit (say, the game could not be
// played at all) both lose; in a knockout neither goes on, and the one it
// would have met next has a bye.
type Forfeit int8

// The forfeits of a game.
const (
	NoForfeit   Forfeit = iota // the game was played out
	ForfeitA                   // A forfeits: B wins
	ForfeitB                   // B forfeits: A wins
	ForfeitBoth                // both lose
)

// SetForfeit settles g as forfeited by f: done, no points, the winner the
// side that did not forfeit (-1 when both did).
func (g *Game) SetForfeit(f Forfeit) {
	g.Done, g.Forfeit, g.PA, g.PB = true, f, 0, 0
	switch f {
	case ForfeitA:
		g.Winner = g.B
	case ForfeitB:
		g.Winner = g.A
	default:
		g.Winner = -1
	}
}

// Void reports whether g is no game at all: in a knockout, the place of an
// entrant neither of whose possible opponents went on (each of the games
// before it was forfeited by both sides). It is done, and nobody goes on
// from it.
func (g Game) Void() bool { return g.A == Bye }

// void is the game of a place nobody reached.
func void() Game { return Game{A: Bye, B: Bye, Done: true, Winner: -1} }

// forfeits reports whether side a and side b of g lost by forfeit.
func (g Game) forfeits() (a, b bool) {
	return g.Forfeit == ForfeitA || g.Forfeit == ForfeitBoth, g.Forfeit == ForfeitB || g.Forfeit == ForfeitBoth
}
