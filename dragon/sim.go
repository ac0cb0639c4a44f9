package dragon

import (
	"crypto/sha256"
	"encoding/binary"
)

// What simulations of Dragon Farkle share (package sim plays them, as it
// plays every variant): the seed of each game and the cap on a game's
// length.

// DefaultMaxRounds ends a simulated game that has no round limit of its own
// after this many rounds (most soldiers wins: RoundCap), so that bots that
// never attack cannot run forever.
const DefaultMaxRounds = 200

// GameSeed returns the 32-byte key of game i of a simulation with seed:
// SHA-256 of the seed, "dragon-game" and i (8 bytes, little-endian).
func GameSeed(seed [32]byte, i int) [32]byte {
	b := make([]byte, 0, 32+11+8)
	b = append(b, seed[:]...)
	b = append(b, "dragon-game"...)
	b = binary.LittleEndian.AppendUint64(b, uint64(i))
	return sha256.Sum256(b)
}

// RoundCap returns the winners of a game that a simulation ends once it
// has passed maxRounds rounds, at the start of a turn: the players with
// the most soldiers. ok is false before then, and for maxRounds 0 (no
// cap).
func RoundCap(s State, maxRounds int) (winners []int, ok bool) {
	if maxRounds <= 0 || s.Round <= maxRounds || s.Phase != PhaseChoose {
		return nil, false
	}
	best := -1
	for i, p := range s.Players {
		switch {
		case p.Soldiers > best:
			best, winners = p.Soldiers, []int{i}
		case p.Soldiers == best:
			winners = append(winners, i)
		}
	}
	return winners, true
}
