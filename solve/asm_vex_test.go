package solve

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAsmAllVEX: the AVX2 routines use only VEX-encoded instructions on
// vector registers. A legacy SSE instruction (MOVQ AX, X4 where VMOVQ is
// meant) after the upper halves of the YMM registers are written costs a
// state transition each time it runs: on this project's machine about 300
// ns, which made the duel's bound routine take a third of a classic
// duel's CPU time. The values are the same either way, so only this test
// sees it.
func TestAsmAllVEX(t *testing.T) {
	files, err := filepath.Glob("*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly files: %v", err)
	}
	vecReg := regexp.MustCompile(`\b[XYZ]\d+\b`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "//")
			fields := strings.Fields(code)
			if len(fields) < 2 || strings.HasSuffix(fields[0], ":") || strings.ToUpper(fields[0]) != fields[0] {
				continue
			}
			if vecReg.MatchString(strings.Join(fields[1:], " ")) && !strings.HasPrefix(fields[0], "V") {
				t.Errorf("%s:%d: %s: a legacy SSE instruction on a vector register (use its VEX form)", f, i+1, strings.TrimSpace(code))
			}
		}
	}
}
