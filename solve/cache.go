package solve

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/farkle/farkle/rules"
)

// The cache file of a duel table (all integers little-endian):
//
//	magic    8 bytes "FRKLDUEL"
//	version  uint32 (cacheVersion)
//	hash     64 bytes: rules.Hash() of the rules solved, hex
//	A, c, unit  uint32 each: scores per player, streak states, point unit
//	sweeps   uint32; seconds, change, error estimate float64
//	n        uint64: number of values (A*A*c*c)
//	values   n float64
//	checksum 32 bytes: SHA-256 of everything before it
//
// A file whose magic, version, hash, dimensions, length or checksum does not
// match is refused (ErrCache), never trusted.
const (
	cacheMagic   = "FRKLDUEL"
	cacheVersion = 2
	headerSize   = 8 + 4 + 64 + 4*3 + 4 + 8 + 8 + 8 + 8
)

// CacheFile returns the name of the cache file of r's duel table in dir.
func CacheFile(dir string, r rules.Rules) string {
	return filepath.Join(dir, "duel-"+r.Uncapped().Hash()+".bin") // no cap: shared by max_turns
}

// WriteTable writes t to w in the cache format.
func WriteTable(w io.Writer, t *Table) error {
	var buf bytes.Buffer
	buf.WriteString(cacheMagic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint32(nil, cacheVersion))
	hash := t.m.r.Hash()
	if len(hash) != 64 {
		return fmt.Errorf("solve: rules hash %q is not 64 hex digits", hash)
	}
	buf.WriteString(hash)
	for _, v := range []uint32{uint32(t.A), uint32(t.c), uint32(t.m.unit), uint32(t.sweeps)} {
		buf.Write(le.AppendUint32(nil, v))
	}
	buf.Write(le.AppendUint64(nil, math.Float64bits(t.seconds)))
	buf.Write(le.AppendUint64(nil, math.Float64bits(t.change)))
	buf.Write(le.AppendUint64(nil, math.Float64bits(t.errEst)))
	buf.Write(le.AppendUint64(nil, uint64(len(t.w))))
	body := make([]byte, 8*len(t.w))
	for i, v := range t.w {
		le.PutUint64(body[8*i:], math.Float64bits(v))
	}
	buf.Write(body)
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadTable reads a table of r written by WriteTable. Every mismatch
// (magic, format version, rules hash, dimensions, length, checksum) is an
// error wrapping ErrCache.
func ReadTable(rd io.Reader, r rules.Rules) (*Table, error) {
	if err := CheckDuelRules(r); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCache, err)
	}
	if len(data) < headerSize+32 {
		return nil, fmt.Errorf("%w: %d bytes is shorter than a header", ErrCache, len(data))
	}
	if string(data[:8]) != cacheMagic {
		return nil, fmt.Errorf("%w: not a duel table (magic %q)", ErrCache, data[:8])
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != cacheVersion {
		return nil, fmt.Errorf("%w: format version %d (this program reads %d)", ErrCache, v, cacheVersion)
	}
	if h, want := string(data[12:76]), r.Uncapped().Hash(); h != want {
		return nil, fmt.Errorf("%w: table of other rules (hash %.12s…, want %.12s…)", ErrCache, h, want)
	}
	body, sum := data[:len(data)-32], data[len(data)-32:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, fmt.Errorf("%w: checksum mismatch (truncated or corrupt)", ErrCache)
	}
	m := newModel(r)
	A, c, unit := le.Uint32(data[76:]), le.Uint32(data[80:]), le.Uint32(data[84:])
	if int32(A) != m.target || int(c) != m.streaks() || int(unit) != m.unit {
		return nil, fmt.Errorf("%w: dimensions %dx%d streaks %d unit %d do not match the rules (%dx%d, %d, %d)", ErrCache, A, A, c, unit, m.target, m.target, m.streaks(), m.unit)
	}
	t := &Table{m: m, A: int32(A), c: int32(c)}
	t.sweeps = int(le.Uint32(data[88:]))
	t.seconds = math.Float64frombits(le.Uint64(data[92:]))
	t.change = math.Float64frombits(le.Uint64(data[100:]))
	t.errEst = math.Float64frombits(le.Uint64(data[108:]))
	n := le.Uint64(data[116:])
	if n != uint64(A)*uint64(A)*uint64(c)*uint64(c) || uint64(len(body)-headerSize) != 8*n {
		return nil, fmt.Errorf("%w: %d values in %d bytes for a %dx%d table", ErrCache, n, len(body)-headerSize, A, A)
	}
	t.w = make([]float64, n)
	vals := body[headerSize:]
	for i := range t.w {
		v := math.Float64frombits(le.Uint64(vals[8*i:]))
		if !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("%w: value %d is %v, not a probability", ErrCache, i, v)
		}
		t.w[i] = v
	}
	t.fr = m.newFinalRound()
	t.pFmin = m.pFmin()
	return t, nil
}

// pFmin is the least farkle probability of any throw (0 with
// six_dice_nothing, whose six-dice throws never farkle).
func (m *model) pFmin() float64 {
	if m.sdn > 0 {
		return 0
	}
	p := 1.0
	for n := 1; n <= m.dice; n++ {
		p = min(p, m.farkle[n])
	}
	return p
}

// Cached returns the duel table of r from its cache file in dir if that file
// is sound, else solves it and writes the file (through a temporary file
// renamed into place, so a crash never leaves half a file under the name).
// loaded says which happened; stale is the reason a present file was
// rebuilt (nil if there was none or it was used). A write failure is
// returned with the solved table.
func Cached(r rules.Rules, dir string, opt DuelOptions) (t *Table, loaded bool, stale error, err error) {
	if err := CheckDuelRules(r); err != nil {
		return nil, false, nil, err
	}
	name := CacheFile(dir, r)
	if f, err := os.Open(name); err == nil {
		t, rerr := ReadTable(f, r)
		f.Close()
		if rerr == nil {
			return t, true, nil, nil
		}
		stale = rerr
	} else if !errors.Is(err, os.ErrNotExist) {
		stale = fmt.Errorf("%w: %w", ErrCache, err)
	}
	t, err = SolveDuel(r, opt)
	if err != nil {
		return nil, false, stale, err
	}
	return t, false, stale, SaveTable(dir, t)
}

// SaveTable writes t to its cache file in dir, creating dir if needed.
func SaveTable(dir string, t *Table) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("solve: cache directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".duel-*.tmp")
	if err != nil {
		return fmt.Errorf("solve: cache file: %w", err)
	}
	werr := WriteTable(f, t)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), CacheFile(dir, t.m.r))
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("solve: writing the cache file: %w", werr)
	}
	return nil
}

// Rules returns the rules the table was solved for.
func (t *Table) Rules() rules.Rules { return t.m.r.Clone() }

// Unit returns the point unit of the table's scores.
func (t *Table) Unit() int { return t.m.unit }

// States returns the number of start-of-turn states in the table: scores
// below the target for each player times farkle streaks for each.
func (t *Table) States() int { return len(t.w) }

// Seconds returns the time the solve took (as recorded in a cache file for
// a loaded table).
func (t *Table) Seconds() float64 { return t.seconds }

// Sweeps returns the number of sweeps over all score pairs the solve took
// (1 without a farkle penalty).
func (t *Table) Sweeps() int { return t.sweeps }

// LastChange returns the largest change of a value in the last sweep: with a
// farkle penalty the solve stops when it is below 1e-12.
func (t *Table) LastChange() float64 { return t.change }

// ErrorEstimate returns the estimated error left by the sweeps of a solve
// with a farkle penalty (0 without one).
func (t *Table) ErrorEstimate() float64 { return t.errEst }

// FirstPlayerWins returns the probability that the player who moves first
// wins from 0 to 0.
func (t *Table) FirstPlayerWins() float64 { return t.w[t.idx(0, 0, 0, 0)] }

// FairCompensation returns the multiple of 50 points (and of the unit) given
// to the second player at the start that brings the first player's chance
// closest to 1/2, and that chance. A negative value is given to the first
// player instead (when the second is favoured). Ties go to the smaller size.
func (t *Table) FairCompensation() (points int, pFirst float64) {
	step := lcm(50, t.m.unit)
	best, bestP := 0, t.FirstPlayerWins()
	for c := step; c < t.m.r.Game.Target; c += step {
		for _, sign := range []int{1, -1} {
			var p float64
			if sign > 0 {
				p = t.w[t.idx(0, int32(c/t.m.unit), 0, 0)]
			} else {
				p = t.w[t.idx(int32(c/t.m.unit), 0, 0, 0)]
			}
			if math.Abs(p-0.5) < math.Abs(bestP-0.5)-1e-15 {
				best, bestP = sign*c, p
			}
		}
	}
	return best, bestP
}

func lcm(a, b int) int { return a / gcd(a, b) * b }
