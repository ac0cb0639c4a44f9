package main

// cliHeadroom is the memory beyond a command's --max-memory that the rest
// of the process (the runtime, the catalogues, the work outside the
// solver) is given under the Go runtime's soft memory limit.
const cliHeadroom = 256 << 20

// limitMemory gives the Go runtime a soft memory limit of maxMem plus
// headroom, unless GOMEMLIMIT is set (the operator's word) or e has no
// way to set it (tests in one process, whose limit is not a command's).
// The solver's bounds count the memory it holds; without a limit the
// garbage collector lets the heap grow to twice that before it runs
// (GOGC=100), and the garbage of a three-player solve's warm start stayed
// resident: classic's table at 10,000, bound 5.0 GiB, had 6.2 GiB
// resident during its sweeps.
func (e *env) limitMemory(maxMem int64) {
	if e.setMemoryLimit == nil || e.getenv("GOMEMLIMIT") != "" || maxMem <= 0 {
		return
	}
	e.setMemoryLimit(maxMem + cliHeadroom)
}
