package dice

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
)

// Seed is the 32-byte key of a game's dice: NewSource(seed) yields every
// random number of the game. A game publishes the seed's Commitment before
// the first throw and reveals the seed when it ends, so players can check
// that the dice were fixed in advance.
type Seed [32]byte

// NewSeed returns a seed from the operating system's secure random source.
func NewSeed() Seed {
	var s Seed
	_, _ = rand.Read(s[:]) // crypto/rand.Read never fails (Go 1.24+)
	return s
}

// SeedFrom turns text into a seed: 64 hex digits are the seed itself; any
// other text is hashed with SHA-256 (so "--seed 42" is reproducible).
func SeedFrom(text string) Seed {
	if len(text) == 64 {
		if b, err := hex.DecodeString(text); err == nil {
			return Seed(b)
		}
	}
	return sha256.Sum256([]byte(text))
}

// ParseSeed reads a seed written by Hex: exactly 64 lower-case hex digits.
func ParseSeed(text string) (Seed, error) {
	if len(text) != 64 {
		return Seed{}, fmt.Errorf("seed must be 64 hex digits (got %d characters)", len(text))
	}
	b, err := hex.DecodeString(text)
	if err != nil || hex.EncodeToString(b) != text {
		return Seed{}, fmt.Errorf("seed %q is not lower-case hex", text)
	}
	return Seed(b), nil
}

// Hex returns the seed as 64 lower-case hex digits.
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// Commitment returns the hex SHA-256 of the seed, published before the first
// throw so players can check the seed revealed at the end.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// Derive returns another seed made from s and a label (the SHA-256 of the
// seed followed by the label), for a second stream of random numbers, such
// as the bots', that must not disturb the dice.
func (s Seed) Derive(label string) Seed {
	return sha256.Sum256(append(s[:], label...))
}

// NewSource returns the default Source: ChaCha8 from math/rand/v2 keyed by
// the seed.
func NewSource(seed Seed) Source { return mrand.NewChaCha8(seed) }
