// Package record keeps a game as a JSON record: the rules, the players, the
// SHA-256 commitment of the dice seed, the seed (once revealed), and every
// action with the dice it threw. A record replays to the same game (Replay)
// and its dice can be checked against the seed (Verify). Game ties a live
// engine state, its dice source and its record together for front ends.
package record
