// Package advise values every choice of a Farkle position, for the hint
// buttons of the terminal and web games, `farkle advise`, and the analysis
// of game records (Analyze). AnalyzeDragon analyses a game of Dragon
// Farkle in the same Report, by the values the Dragon Farkle hint gives
// (dragon.Brains.Advise).
//
// With a two-player duel table (package solve) the values are win
// probabilities with best play from then on; otherwise (one player, more
// than two, or rules without a duel) they are the expected points of the
// rest of the turn from the solo policy. A keep is valued by the better of
// banking and throwing on after it, so the best choice is the one the
// perfect bot makes (for two players) or the solo optimum.
//
// Positions of a game with several opponents are seen against the
// strongest one, as the perfect bot sees them.
package advise
