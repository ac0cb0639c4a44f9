// Package sim plays bot tournaments of any variant: many games between bot
// levels (made by name through a game.Cast), in parallel, reproducible
// from one seed (game i's dice seed and seating depend only on the
// tournament seed and i), with win rates and 95% Wilson intervals, and
// the records of the games (game.Record) when asked.
//
// Games between bots of package bot (all Deciders) of the ordinary game
// are played by Fast, an unchecked simulator that follows the engine's
// semantics and dice exactly without allocating per action; its tests
// check that it plays the same games as the engine for the same seeds.
// Every other game (another kind, a recorded game) is played through its
// game.Game, recorded ones through game.Play, so every record verifies.
// A kind's own conventions and figures come from the caller's hooks
// (Config.Deal, Stop, Tally): farkle sim --rules dragon keeps Dragon
// Farkle's.
//
// The package touches no files and no clock: the caller writes records and
// times runs.
package sim
