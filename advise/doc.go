// Package advise values every choice of a Farkle position, for the hint
// buttons of the terminal and web games, `farkle advise`, and the analysis
// of game records of every kind (Analyze).
//
// Cast is the one registry of bots and advisors (a game.Cast): the
// ordinary game's, whose bots (package bot) and advisors (Advisor, a
// game.Advisor) take their results from the solvers, and those of the
// kinds whose bots are their own package's (game.DefaultCast: Dragon
// Farkle's). Front ends get bots by level name and hints from it, whatever
// the variant; Analyze values a record's decisions with the advisor of its
// kind, in one Report.
//
// With a two-player duel table (package solve) the values of the ordinary
// game are win probabilities with best play from then on; otherwise (one
// player, more than two, or rules without a duel) they are the expected
// points of the rest of the turn from the solo policy. A keep is valued by
// the better of banking and throwing on after it, so the best choice is
// the one the perfect bot makes (for two players) or the solo optimum.
//
// Positions of a game with several opponents are seen against the
// strongest one, as the perfect bot sees them.
package advise
