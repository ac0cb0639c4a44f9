package engine

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	mrand "math/rand/v2"

	"github.com/farkle/farkle/dice"
)

// Source supplies dice faces.
type Source interface {
	// Face returns a uniformly random face 1..6.
	Face() int
}

// Seed is the 32-byte key of a ChaCha8 dice source.
type Seed [32]byte

// ChaCha is the default Source: ChaCha8 from math/rand/v2 keyed by a Seed.
// Faces are drawn by rejection sampling from its 64-bit outputs, so the
// sequence of faces is the same on every machine and Go version.
type ChaCha struct{ r *mrand.ChaCha8 }

// NewChaCha returns the source keyed by seed.
func NewChaCha(seed Seed) *ChaCha { return &ChaCha{r: mrand.NewChaCha8(seed)} }

// Face returns the next face, 1..6.
func (c *ChaCha) Face() int { return dice.Face(c.r) }

// NewSeed returns a seed from the operating system's secure random source.
func NewSeed() Seed {
	var s Seed
	_, _ = rand.Read(s[:]) // crypto/rand.Read never fails (Go 1.24+)
	return s
}

// SeedFrom turns text into a seed (dice.SeedFrom): 64 hex digits are the
// seed itself; any other text is hashed with SHA-256 (so "--seed 42" is
// reproducible).
func SeedFrom(text string) Seed { return Seed(dice.SeedFrom(text)) }

// Hex returns the seed as 64 hex digits.
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// Commitment returns the hex SHA-256 of the seed, published before the first
// throw so players can check the seed revealed at the end.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// ThrowDice draws n dice from src.
func ThrowDice(src Source, n int) dice.Hand {
	var h dice.Hand
	for range n {
		h += dice.Single(src.Face(), 1)
	}
	return h
}

// Faces is a scripted Source for tests and replays: it returns its faces in
// order and panics when they run out.
type Faces struct {
	faces []int
	next  int
}

// NewFaces returns a scripted source yielding faces in order.
func NewFaces(faces ...int) *Faces { return &Faces{faces: faces} }

// Face returns the next scripted face.
func (f *Faces) Face() int {
	if f.next >= len(f.faces) {
		panic("engine: scripted dice ran out")
	}
	v := f.faces[f.next]
	f.next++
	return v
}

// Left returns how many scripted faces are unused.
func (f *Faces) Left() int { return len(f.faces) - f.next }
