// Package rating rates players with Glicko-2 (Mark Glickman, "Example of
// the Glicko-2 system", 2013): each player has a rating, a rating
// deviation (how unsure the rating is) and a volatility (how erratic the
// player's results are).
//
// Ratings are kept per rule family (Family): the ordinary presets
// together, Dragon Farkle apart, and house rules in a family of their own
// when their table is marked rated. A finished game is one rating period:
// every rated seat is measured against every other seat of the game, a win
// counting 1, a shared win or an equal score ½ and a loss 0 (Pairwise).
// The bots anchor the scale: their ratings (Anchors) were computed once
// from simulated games between the levels and do not move.
//
// Not every game is rated (Judge, Aborted): house rules only between
// people (the anchors were fitted on the ordinary game), no game shorter
// than a real one (a turn cap under MinMaxTurns, a house-rules target
// under MinTargetThrows throws' worth), and no game that ended before
// every seat had finished a turn. A person with few rated games counts
// for a fraction of a game in the others' ratings (Weight), so that fresh
// guests who lose on purpose cannot carry anyone up the board.
package rating
