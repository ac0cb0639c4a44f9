// Package bot plays Farkle for a seat: one Strategy interface and levels
// from reckless to perfect. A bot sees only the state and the engine's legal
// actions and returns one of them.
//
// The levels (Levels lists them with a one-line description each):
//
//   - perfect: maximises the probability of winning with the duel solver's
//     exact two-player table (with three or more players: against the
//     strongest opponent, an approximation; see Perfect).
//   - expert: the solo solver's expected-points optimum, adjusted for the
//     scores near the end of the game (see Expert).
//   - cautious, steady, bold, reckless: personalities with fixed bank
//     thresholds per dice left and a keep style, from the most careful to
//     the wildest (see Threshold).
//
// Of makes a Strategy a game.Bot, the contract of the bots of every
// variant: front ends get bots by level name through a game.Cast
// (advise.Cast), whatever the variant, and play them through package game.
//
// Every bot is also a Decider: it answers "which keep?" and "bank?" from a
// View, the plain-value form of a decision. Choose on an engine state asks
// the same two questions, so the fast simulator of package sim, which plays
// Deciders without the engine, plays the very same games. Deciders are
// unchecked fast paths: they trust that they are asked only what the rules
// allow.
//
// Bots that need solver results (expert, perfect) take them from a
// solved.Tables, the process's service of solver results: the one the
// caller injects (WithTables), else solved.DefaultTables(). A bot whose
// result cannot be had plays a simpler level (perfect as expert, expert as
// steady) and never fails. The package touches no files and reads no
// environment.
package bot
