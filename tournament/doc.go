// Package tournament pairs and ranks the entrants of a tournament: a
// round-robin (everyone meets everyone once, by the circle method), a
// Swiss (a fixed number of rounds, each pairing entrants of like records
// who have not met) or a knockout (a bracket; the winner of each game goes
// on). Entrants are numbered 0..n-1 in seed order; an odd entrant out gets
// a bye, which counts as a win. A game may also be settled as a forfeit
// (Forfeit): a loss for whoever forfeits, a win for the other, no points;
// when both forfeit, both lose and, in a knockout, neither goes on. It
// knows nothing of Farkle: a game is two entrants and, once played, their
// points.
package tournament
