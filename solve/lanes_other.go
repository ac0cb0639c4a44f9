//go:build !amd64 || purego

package solve

// useAVX2 is false where the AVX2 lane sums are not built.
var useAVX2 = false

// useAVX512 is false where the AVX-512 lane sums are not built.
var useAVX512 = false

func sumLanesAVX512(hdr *int64, nb int, prob *float64, off *int32, k *float64, acc *[lanes]float64) {
	panic("solve: no AVX-512 lane sums on this platform")
}

func boundAllAVX512(bs *boundSet, dice int, kmax, qnext, bnext, bank, f *float64, cand, out *uint64) {
	panic("solve: no AVX-512 lane sums on this platform")
}

func sumLanesAVX2(hdr *int64, nb int, prob *float64, off *int32, k *float64, acc *[lanes]float64) {
	panic("solve: no AVX2 lane sums on this platform")
}

func sumLanesDAVX2(hdr *int64, nb int, prob *float64, off *int32, k, d *float64, acc, accD *[lanes]float64) {
	panic("solve: no AVX2 lane sums on this platform")
}

func keepRowAVX2(q, bank, z, k, knext, kmax *float64, hotJ, dice int) uint64 {
	panic("solve: no AVX2 lane sums on this platform")
}

func boundAllAVX2(bs *boundSet, dice int, kmax, qnext, bnext, bank, f *float64, cand, out *uint64) {
	panic("solve: no AVX2 lane sums on this platform")
}

func bound3AVX2(bs *boundSet, dice int, kmax, x, bOwn *float64, cand, out *uint64) {
	panic("solve: no AVX2 lane sums on this platform")
}

func keepRow3AVX2(q, bank, x, k, knext, kmax *float64, skips *uint64, ok, live uint64, hotJ, dice int) uint64 {
	panic("solve: no AVX2 lane sums on this platform")
}

func sum3LanesAVX2(hdr *int64, nb int, prob *float64, off *int32, row *float64, acc *[lanes3][4]float64) {
	panic("solve: no AVX2 lane sums on this platform")
}
