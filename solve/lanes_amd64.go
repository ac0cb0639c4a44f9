//go:build amd64 && !purego

package solve

import "golang.org/x/sys/cpu"

// useAVX2 tells the lane sums to use their AVX2 forms.
var useAVX2 = cpu.X86.HasAVX2

// sumLanesAVX2 is sumLanesGo of one block (ng > 0 groups of cnt options).
//
//go:noescape
func sumLanesAVX2(prob *float64, off *int32, ng, cnt int, k *float64, acc *[lanes]float64)

// sumLanesDAVX2 is sumLanesDGo of one block (ng > 0 groups of cnt options).
//
//go:noescape
func sumLanesDAVX2(prob *float64, off *int32, ng, cnt int, k, d *float64, acc, accD *[lanes]float64)
