package solve

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
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
	return filepath.Join(dir, "duel-"+r.ForSolver().Hash()+".bin") // no cap: shared by max_turns
}

// cacheChunk is the number of values WriteTable and ReadTable encode at a
// time: the file is streamed, never held in memory whole.
const cacheChunk = 8192

// fileHead begins a cache file of r's table: the header's start (magic,
// format version, the rules' hash) in a buffer of capacity size, and the
// SHA-256 that out feeds as it writes to w (writeValues ends the file).
func fileHead(w io.Writer, r rules.Rules, magic string, version uint32, size int) (head []byte, out io.Writer, sum hash.Hash, err error) {
	h := r.Hash()
	if len(h) != 64 {
		return nil, nil, nil, fmt.Errorf("solve: rules hash %q is not 64 hex digits", h)
	}
	sum = sha256.New()
	head = make([]byte, 0, size)
	head = append(head, magic...)
	head = binary.LittleEndian.AppendUint32(head, version)
	return append(head, h...), io.MultiWriter(w, sum), sum, nil
}

// WriteTable writes t to w in the cache format.
func WriteTable(w io.Writer, t *Table) error {
	head, out, sum, err := fileHead(w, t.m.r, cacheMagic, cacheVersion, headerSize)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	for _, v := range []uint32{uint32(t.A), uint32(t.c), uint32(t.m.unit), uint32(t.sweeps)} {
		head = le.AppendUint32(head, v)
	}
	for _, f := range []float64{t.seconds, t.change, t.errEst} {
		head = le.AppendUint64(head, math.Float64bits(f))
	}
	head = le.AppendUint64(head, uint64(len(t.w)))
	if _, err := out.Write(head); err != nil {
		return err
	}
	return writeValues(w, out, sum, t.w)
}

// writeValues writes the probabilities vals to out (which feeds sum), then
// the checksum to w: the end of every cache file.
func writeValues(w, out io.Writer, sum hash.Hash, vals []float64) error {
	le := binary.LittleEndian
	buf := make([]byte, 8*cacheChunk)
	for i := 0; i < len(vals); i += cacheChunk {
		chunk := vals[i:min(i+cacheChunk, len(vals))]
		b := buf[:8*len(chunk)]
		for j, v := range chunk {
			le.PutUint64(b[8*j:], math.Float64bits(v))
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
	_, err := w.Write(sum.Sum(nil))
	return err
}

// readValues reads n probabilities from in (which feeds sum), then checks
// the checksum that follows in rd and that every value is a probability:
// the end of every cache file, read back. Any fault wraps ErrCache.
func readValues(rd, in io.Reader, sum hash.Hash, n uint64) ([]float64, error) {
	w := make([]float64, n)
	if err := readValuesInto(rd, in, sum, w); err != nil {
		return nil, err
	}
	return w, nil
}

// readValuesInto is readValues into w, its n values: on an error, w holds
// whatever was read.
func readValuesInto(rd, in io.Reader, sum hash.Hash, w []float64) error {
	n := len(w)
	le := binary.LittleEndian
	buf := make([]byte, 8*cacheChunk)
	bad := -1
	for i := 0; i < len(w); i += cacheChunk {
		vals := w[i:min(i+cacheChunk, len(w))]
		b := buf[:8*len(vals)]
		if _, err := io.ReadFull(in, b); err != nil {
			return fmt.Errorf("%w: truncated after %d of %d values", ErrCache, i, n)
		}
		for j := range vals {
			v := math.Float64frombits(le.Uint64(b[8*j:]))
			if !(v >= 0 && v <= 1) && bad < 0 {
				bad = i + j
			}
			vals[j] = v
		}
	}
	want := sum.Sum(nil)
	got := make([]byte, len(want)+1)
	if k, _ := io.ReadFull(rd, got); k != len(want) || !bytes.Equal(got[:k], want) {
		return fmt.Errorf("%w: checksum mismatch (truncated or corrupt)", ErrCache)
	}
	if bad >= 0 {
		return fmt.Errorf("%w: value %d is %v, not a probability", ErrCache, bad, w[bad])
	}
	return nil
}

// ReadTable reads a table of r written by WriteTable, within
// DefaultMaxBytes (see ReadTableLimit).
func ReadTable(rd io.Reader, r rules.Rules) (*Table, error) {
	return ReadTableLimit(rd, r, DefaultMaxBytes)
}

// ReadTableLimit reads a table of r written by WriteTable. Every mismatch
// (magic, format version, rules hash, dimensions, length, checksum) is an
// error wrapping ErrCache. Rules whose table and final round need more than
// maxBytes (0: DefaultMaxBytes) are refused with ErrTooLarge before
// anything is read, and the header is checked before the values are
// allocated: a file never makes it allocate more than the rules need.
func ReadTableLimit(rd io.Reader, r rules.Rules, maxBytes int64) (*Table, error) {
	m, err := duelModel(r)
	if err != nil {
		return nil, err
	}
	if err := checkLoad(m, limitOr(maxBytes)); err != nil {
		return nil, err
	}
	sum := sha256.New()
	in := io.TeeReader(rd, sum)
	head, err := readHeader(in, headerSize, cacheMagic, cacheVersion, "a duel table", r)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	A, c, unit := le.Uint32(head[76:]), le.Uint32(head[80:]), le.Uint32(head[84:])
	if A != uint32(m.target) || c != uint32(m.streaks()) || unit != uint32(m.unit) {
		return nil, fmt.Errorf("%w: dimensions %dx%d streaks %d unit %d do not match the rules (%dx%d, %d, %d)", ErrCache, A, A, c, unit, m.target, m.target, m.streaks(), m.unit)
	}
	n := le.Uint64(head[116:])
	if want := uint64(A) * uint64(A) * uint64(c) * uint64(c); n != want {
		return nil, fmt.Errorf("%w: %d values for a %dx%d table with %d streak states (want %d)", ErrCache, n, A, A, c, want)
	}
	t := &Table{m: m, A: m.target, c: int32(c)}
	t.sweeps = int(le.Uint32(head[88:]))
	t.seconds = math.Float64frombits(le.Uint64(head[92:]))
	t.change = math.Float64frombits(le.Uint64(head[100:]))
	t.errEst = math.Float64frombits(le.Uint64(head[108:]))
	if t.w, err = readValues(rd, in, sum, n); err != nil {
		return nil, err
	}
	t.fr = m.finalRound() // checkLoad's plan may have computed it already
	t.pFmin = m.pFmin()
	return t, nil
}

// readHeader reads a cache file's header of size bytes from in and checks
// what both kinds of file begin with: the magic, the format version and the
// hash of the rules (bytes 0-8, 8-12, 12-76); what names the kind.
func readHeader(in io.Reader, size int, magic string, version uint32, what string, r rules.Rules) ([]byte, error) {
	head := make([]byte, size)
	if n, err := io.ReadFull(in, head); err != nil {
		return nil, fmt.Errorf("%w: %d bytes is shorter than a header", ErrCache, n)
	}
	if string(head[:8]) != magic {
		return nil, fmt.Errorf("%w: not %s (magic %q)", ErrCache, what, head[:8])
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != version {
		return nil, fmt.Errorf("%w: format version %d (this program reads %d)", ErrCache, v, version)
	}
	if h, want := string(head[12:76]), r.ForSolver().Hash(); h != want {
		return nil, fmt.Errorf("%w: table of other rules (hash %.12s…, want %.12s…)", ErrCache, h, want)
	}
	return head, nil
}

// checkLoad refuses rules whose table and final round (what a loaded table
// holds) need more than limit.
func checkLoad(m *model, limit int64) error {
	p := m.duelPlan(1)
	dims := fmt.Sprintf("%.0f scores per player in units of %d, %.0f streak states", p.A, m.unit, p.c)
	if p.table+p.fixed > float64(limit) {
		return sizeError("the table of these rules", p.table+p.fixed, limit, dims)
	}
	if p.A*p.A*p.c*p.c >= math.MaxInt32 {
		return sizeError("the table of these rules", p.table+p.fixed, 0, dims)
	}
	return nil
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
	m := newModel(r)
	if err := m.bounded(); err != nil {
		return nil, false, nil, err
	}
	if err := checkLoad(m, limitOr(opt.MaxBytes)); err != nil {
		return nil, false, nil, err
	}
	return loadOrSolve(CacheFile(dir, r),
		func(rd io.Reader) (*Table, error) { return ReadTableLimit(rd, r, opt.MaxBytes) },
		func() (*Table, error) { return SolveDuel(r, opt) },
		func(t *Table) error { return SaveTable(dir, t) })
}

// loadOrSolve reads a table from the cache file name if it is sound, else
// solves it and saves it: the steps of Cached and CachedThree. A file
// refused for its size (ErrTooLarge) is an error, not a reason to solve.
func loadOrSolve[T any](name string, read func(io.Reader) (T, error), solve func() (T, error), save func(T) error) (t T, loaded bool, stale error, err error) {
	var zero T
	if f, err := os.Open(name); err == nil {
		t, rerr := read(bufio.NewReaderSize(f, 1<<16))
		f.Close()
		if rerr == nil {
			return t, true, nil, nil
		}
		if errors.Is(rerr, ErrTooLarge) {
			return zero, false, nil, rerr
		}
		stale = rerr
	} else if !errors.Is(err, os.ErrNotExist) {
		stale = fmt.Errorf("%w: %w", ErrCache, err)
	}
	t, err = solve()
	if err != nil {
		return zero, false, stale, err
	}
	return t, false, stale, save(t)
}

// SaveTable writes t to its cache file in dir, creating dir if needed.
func SaveTable(dir string, t *Table) error {
	return saveFile(dir, ".duel-*.tmp", CacheFile(dir, t.m.r), func(w io.Writer) error { return WriteTable(w, t) })
}

// saveFile writes a cache file in dir through a temporary file (pattern)
// renamed to name once whole, so a crash never leaves half a file there.
func saveFile(dir, pattern, name string, write func(io.Writer) error) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("solve: cache directory: %w", err)
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return fmt.Errorf("solve: cache file: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	werr := write(bw)
	if werr == nil {
		werr = bw.Flush()
	}
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
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
