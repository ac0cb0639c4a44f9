//go:build !amd64 || purego

package solve

// useAVX2 is false where the AVX2 lane sums are not built.
var useAVX2 = false

func sumLanesAVX2(prob *float64, off *int32, ng, cnt int, k *float64, acc *[lanes]float64) {
	panic("solve: no AVX2 lane sums on this platform")
}

func sumLanesDAVX2(prob *float64, off *int32, ng, cnt int, k, d *float64, acc, accD *[lanes]float64) {
	panic("solve: no AVX2 lane sums on this platform")
}
