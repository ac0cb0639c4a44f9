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
package rating
