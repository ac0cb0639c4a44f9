// Package sim plays bot tournaments: many games between bot levels, in
// parallel, reproducible from one seed (game i's dice seed and seating
// depend only on the tournament seed and i), with win rates and 95% Wilson
// intervals.
//
// Games between bots of package bot (all Deciders) are played by Fast, an
// unchecked simulator that follows the engine's semantics and dice exactly
// without allocating per action; its tests check that it plays the same
// games as engine.Apply for the same seeds. Games to be recorded are played
// through the engine (record.Game), so every record verifies.
//
// The package touches no files and no clock: the caller writes records and
// times runs.
package sim
