//go:build amd64 && !purego

package solve

import "golang.org/x/sys/cpu"

// useAVX2 tells whether the CPU runs the AVX2 forms of the lane sums; the
// solves then use them (bestSIMD; the three-player lanes check it alone).
var useAVX2 = cpu.X86.HasAVX2

// useAVX512 tells whether the CPU (and the system, which must keep the
// vector registers' upper halves and the masks) runs the AVX-512 forms;
// the duel's solves then use them (bestSIMD).
var useAVX512 = cpu.X86.HasAVX512F

// sumLanesAVX512 is sumLanesAVX2 with the lanes in one vector.
//
//go:noescape
func sumLanesAVX512(hdr *int64, nb int, prob *float64, off *int32, k *float64, acc *[lanes]float64)

// boundAllAVX512 is boundAllAVX2 with the lanes in one vector.
//
//go:noescape
func boundAllAVX512(bs *boundSet, dice int, kmax, qnext, bnext, bank, f *float64, cand, out *uint64)

// sumLanesAVX2 is sumLanes of a laneSet of nb > 0 blocks.
//
//go:noescape
func sumLanesAVX2(hdr *int64, nb int, prob *float64, off *int32, k *float64, acc *[lanes]float64)

// sumLanesDAVX2 is sumLanesD of a laneSet of nb > 0 blocks.
//
//go:noescape
func sumLanesDAVX2(hdr *int64, nb int, prob *float64, off *int32, k, d *float64, acc, accD *[lanes]float64)

// keepRowAVX2 is keepRowGo.
//
//go:noescape
func keepRowAVX2(q, bank, z, k, knext, kmax *float64, hotJ, dice int) uint64

// boundAllAVX2 is boundAll, bs[n] for n = 1..dice.
//
//go:noescape
func boundAllAVX2(bs *boundSet, dice int, kmax, qnext, bnext, bank, f *float64, cand, out *uint64)

// bound3AVX2 is banked3 for the four three-player lanes, bs[n] for n =
// 1..dice (model.bounds3).
//
//go:noescape
func bound3AVX2(bs *boundSet, dice int, kmax, x, bOwn *float64, cand, out *uint64)

// keepRow3AVX2 is keepRow3Go for the four lanes at once (q, bank, k,
// knext and kmax at their rows' starts).
//
//go:noescape
func keepRow3AVX2(q, bank, x, k, knext, kmax *float64, skips *uint64, ok, live uint64, hotJ, dice int) uint64

// sum3LanesAVX2 is sum3Lanes of every lane for a laneSet of nb > 0 blocks of
// pruned groups (lane3Set).
//
//go:noescape
func sum3LanesAVX2(hdr *int64, nb int, prob *float64, off *int32, row *float64, acc *[lanes3][4]float64)
