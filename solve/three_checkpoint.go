//go:build !js

package solve

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/farkle/farkle/rules"
)

// The checkpoint of a three-player solve with a farkle penalty, written
// after each sweep (all integers little-endian):
//
//	magic    8 bytes "FRKLSWEP"
//	version  uint32 (threeCheckpointVersion)
//	hash     64 bytes: rules.Hash() of the rules solved, hex
//	A, unit, rule, streaks, sweep, changes  uint32 each
//	seconds, prevDelta, prevRho  float64
//	changes  float64 each: the largest change of each sweep so far
//	n        uint64: number of values
//	values   n float64
//	checksum 32 bytes: SHA-256 of everything before it
//
// Any mismatch wraps ErrCache: the solve starts over.
const (
	threeCheckpointMagic   = "FRKLSWEP"
	threeCheckpointVersion = 1
	threeCheckpointHeader  = 8 + 4 + 64 + 6*4 + 3*8
)

// ThreeCheckpointFile returns the name of the checkpoint file of r's
// three-player solve with rule in dir, beside its cache file.
func ThreeCheckpointFile(dir string, r rules.Rules, rule OrbitRule) string {
	return strings.TrimSuffix(ThreeCacheFile(dir, r, rule), ".bin") + ".sweeps"
}

// writeCheckpoint writes the values of t and where its sweeps stand to
// name, through a temporary file renamed into place.
func (t *Three) writeCheckpoint(name string, st sweepState) error {
	dir := filepath.Dir(name)
	return saveFile(dir, ".sweeps-*.tmp", name, func(w io.Writer) error {
		b, out, sum, err := fileHead(w, t.m.r, threeCheckpointMagic, threeCheckpointVersion, threeCheckpointHeader+8*len(st.changes)+8)
		if err != nil {
			return err
		}
		le := binary.LittleEndian
		for _, v := range []int{int(t.A), t.m.unit, int(t.rule), int(t.c), st.sweep, len(st.changes)} {
			b = le.AppendUint32(b, uint32(v))
		}
		for _, f := range append([]float64{st.seconds, st.prevDelta, st.rho}, st.changes...) {
			b = le.AppendUint64(b, math.Float64bits(f))
		}
		b = le.AppendUint64(b, uint64(len(t.w)))
		if _, err := out.Write(b); err != nil {
			return err
		}
		return writeValues(w, out, sum, t.w)
	})
}

// readCheckpoint reads the checkpoint name into t's values (on an error
// they hold whatever was read) and returns where its
// sweeps stood. A file that is missing returns an error wrapping
// os.ErrNotExist; one of other rules or dimensions, or damaged, ErrCache.
func (t *Three) readCheckpoint(name string) (sweepState, error) {
	f, err := os.Open(name)
	if err != nil {
		return sweepState{}, err
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 1<<16)
	sum := sha256.New()
	in := io.TeeReader(rd, sum)
	head, err := readHeader(in, threeCheckpointHeader, threeCheckpointMagic, threeCheckpointVersion, "a three-player checkpoint", t.m.r)
	if err != nil {
		return sweepState{}, err
	}
	le := binary.LittleEndian
	var v [6]uint32
	for k := range v {
		v[k] = le.Uint32(head[76+4*k:])
	}
	if v[0] != uint32(t.A) || v[1] != uint32(t.m.unit) || v[2] != uint32(t.rule) || v[3] != uint32(t.c) {
		return sweepState{}, fmt.Errorf("%w: checkpoint of dimensions %d unit %d rule %d streaks %d, not (%d, %d, %d, %d)", ErrCache, v[0], v[1], v[2], v[3], t.A, t.m.unit, t.rule, t.c)
	}
	if v[4] < 1 || v[4] > maxSweeps || v[5] != v[4] {
		return sweepState{}, fmt.Errorf("%w: checkpoint after sweep %d with %d changes", ErrCache, v[4], v[5])
	}
	f64 := func(b []byte) float64 { return math.Float64frombits(le.Uint64(b)) }
	st := sweepState{sweep: int(v[4]), seconds: f64(head[100:]), prevDelta: f64(head[108:]), rho: f64(head[116:])}
	cb := make([]byte, 8*v[5])
	if _, err := io.ReadFull(in, cb); err != nil {
		return sweepState{}, fmt.Errorf("%w: checkpoint truncated in its changes", ErrCache)
	}
	for k := range int(v[5]) {
		st.changes = append(st.changes, f64(cb[8*k:]))
	}
	nb := make([]byte, 8)
	if _, err := io.ReadFull(in, nb); err != nil || le.Uint64(nb) != uint64(len(t.w)) {
		return sweepState{}, fmt.Errorf("%w: checkpoint's value count is not the table's %d", ErrCache, len(t.w))
	}
	// straight into t.w (a second table would double the memory): a
	// failed read leaves it to be set again (solveStreaks)
	if err := readValuesInto(rd, in, sum, t.w); err != nil {
		return sweepState{}, err
	}
	return st, nil
}
