package solve

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/farkle/farkle/rules"
)

// The cache file of a three-player table (all integers little-endian):
//
//	magic    8 bytes "FRKLTHRE"
//	version  uint32 (threeCacheVersion)
//	hash     64 bytes: rules.Hash() of the rules solved, hex
//	A, unit, rule, orbits  uint32 each
//	seconds, residual, regret  float64
//	orbits   56 bytes each: scores 3 uint32, mix 3 float64, mixed uint32,
//	         amplitude and regret float64
//	n        uint64: number of values (3*A^3)
//	values   n float64
//	checksum 32 bytes: SHA-256 of everything before it
//
// Any mismatch is ErrCache, never trusted.
const (
	threeMagic        = "FRKLTHRE"
	threeCacheVersion = 1
	threeHeader       = 8 + 4 + 64 + 4*4 + 3*8
	threeOrbitSize    = 3*4 + 3*8 + 4 + 2*8
)

// ThreeCacheFile returns the name of the cache file of r's three-player
// table solved with rule in dir.
func ThreeCacheFile(dir string, r rules.Rules, rule OrbitRule) string {
	name := "three-"
	if rule != OrbitMixed {
		name += rule.String() + "-"
	}
	return filepath.Join(dir, name+r.ForSolver().Hash()+".bin")
}

// WriteThree writes t in the cache format.
func WriteThree(w io.Writer, t *Three) error {
	b, out, sum, err := fileHead(w, t.m.r, threeMagic, threeCacheVersion, threeHeader+len(t.orbits)*threeOrbitSize+8)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	for _, v := range []uint32{uint32(t.A), uint32(t.m.unit), uint32(t.rule), uint32(len(t.orbits))} {
		b = le.AppendUint32(b, v)
	}
	for _, f := range []float64{t.seconds, t.resid, t.regret} {
		b = le.AppendUint64(b, math.Float64bits(f))
	}
	for _, o := range t.orbits {
		for _, s := range o.Scores {
			b = le.AppendUint32(b, uint32(s))
		}
		for _, f := range o.Mix {
			b = le.AppendUint64(b, math.Float64bits(f))
		}
		mixed := uint32(0)
		if o.Mixed {
			mixed = 1
		}
		b = le.AppendUint32(b, mixed)
		b = le.AppendUint64(b, math.Float64bits(o.Amplitude))
		b = le.AppendUint64(b, math.Float64bits(o.Regret))
	}
	b = le.AppendUint64(b, uint64(len(t.w)))
	if _, err := out.Write(b); err != nil {
		return err
	}
	return writeValues(w, out, sum, t.w)
}

// ReadThree reads a three-player table of r solved with rule, refusing
// rules whose table needs more than maxBytes (0: DefaultMaxBytes) before
// anything large is allocated. Every mismatch wraps ErrCache.
func ReadThree(rd io.Reader, r rules.Rules, rule OrbitRule, maxBytes int64) (*Three, error) {
	if err := CheckThreeRules(r); err != nil {
		return nil, err
	}
	m := newModel(r)
	if err := checkThree(m, 1, limitOr(maxBytes)); err != nil {
		return nil, err
	}
	sum := sha256.New()
	in := io.TeeReader(rd, sum)
	head, err := readHeader(in, threeHeader, threeMagic, threeCacheVersion, "a three-player table", r)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	A, unit, ru, no := le.Uint32(head[76:]), le.Uint32(head[80:]), le.Uint32(head[84:]), le.Uint32(head[88:])
	if A != uint32(m.target) || unit != uint32(m.unit) || ru != uint32(rule) {
		return nil, fmt.Errorf("%w: dimensions %d unit %d rule %d do not match (%d, %d, %d)", ErrCache, A, unit, ru, m.target, m.unit, rule)
	}
	C := uint64(m.threeStreaks())
	n := uint64(A) * uint64(A) * uint64(A) * 3 * C * C * C
	if uint64(no) > n {
		return nil, fmt.Errorf("%w: %d orbits in a table of %d values", ErrCache, no, n)
	}
	t := &Three{m: m, A: m.target, c: m.threeStreaks(), rule: rule}
	t.seconds = math.Float64frombits(le.Uint64(head[92:]))
	t.resid = math.Float64frombits(le.Uint64(head[100:]))
	t.regret = math.Float64frombits(le.Uint64(head[108:]))
	ob := make([]byte, threeOrbitSize)
	for i := uint32(0); i < no; i++ {
		if _, err := io.ReadFull(in, ob); err != nil {
			return nil, fmt.Errorf("%w: truncated in the orbits", ErrCache)
		}
		var o Orbit
		for k := range o.Scores {
			o.Scores[k] = int(le.Uint32(ob[4*k:]))
		}
		for k := range o.Mix {
			o.Mix[k] = math.Float64frombits(le.Uint64(ob[12+8*k:]))
		}
		o.Mixed = le.Uint32(ob[36:]) == 1
		o.Amplitude = math.Float64frombits(le.Uint64(ob[40:]))
		o.Regret = math.Float64frombits(le.Uint64(ob[48:]))
		t.orbits = append(t.orbits, o)
	}
	nb := make([]byte, 8)
	if _, err := io.ReadFull(in, nb); err != nil || le.Uint64(nb) != n {
		return nil, fmt.Errorf("%w: value count does not match %d^3 triples", ErrCache, A)
	}
	if t.w, err = readValues(rd, in, sum, n); err != nil {
		return nil, err
	}
	if !m.immediate {
		t.fin = m.newFinal3(false)
	}
	return t, nil
}

// CachedThree returns the three-player table of r from its cache file in
// dir if that file is sound, else solves it and writes the file (through a
// temporary file renamed into place). loaded says which happened; stale is
// why a present file was rebuilt. A write failure is returned with the
// solved table.
func CachedThree(r rules.Rules, dir string, opt ThreeOptions) (t *Three, loaded bool, stale error, err error) {
	if err := CheckThreeRules(r); err != nil {
		return nil, false, nil, err
	}
	return loadOrSolve(ThreeCacheFile(dir, r, opt.Rule),
		func(rd io.Reader) (*Three, error) { return ReadThree(rd, r, opt.Rule, opt.MaxBytes) },
		func() (*Three, error) { return SolveThree(r, opt) },
		func(t *Three) error { return SaveThree(dir, t) })
}

// SaveThree writes t to its cache file in dir, creating dir if needed.
func SaveThree(dir string, t *Three) error {
	return saveFile(dir, ".three-*.tmp", ThreeCacheFile(dir, t.m.r, t.rule), func(w io.Writer) error { return WriteThree(w, t) })
}
