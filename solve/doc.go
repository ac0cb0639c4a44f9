// Package solve holds the exact solvers of Farkle for any rule set: the solo
// solver (the strategy that maximises the expected points of a turn, or with a
// farkle penalty the long-run average points per turn) and the duel solver
// (the two-player strategy that maximises the probability of winning).
//
// Both work on turn totals and scores in units of the rule set's point unit
// (the greatest common divisor of every keep's points, the six-dice-nothing
// bonus and the farkle penalty: 50 for every preset). Positions given in
// points that are not multiples of the unit are rejected.
//
// The solo solver (SolveSolo) returns a Policy: expected points per turn,
// bank thresholds per dice count (and per farkle streak), the strategy for
// getting on the board under an entry minimum, and the value of any turn
// position and of each keep option after a throw.
//
// The duel solver (SolveDuel) returns a Table: the probability that the player
// to move wins at the start of their turn, for every pair of scores (and
// farkle streaks). Any in-turn position's value is recomputed from the table on
// demand (Table.Position, Table.Options). A Table is written to and read from a
// cache file (WriteTable, ReadTable, Cached); this is the only file access of
// the package.
//
// The solvers follow the game semantics of the engine (see the project's
// semantics note) but do not import the engine: they enumerate throws as
// multisets with their probabilities and keeps from dice.Table, so they rely
// on the fast unchecked paths of dice, not on engine validation.
package solve
