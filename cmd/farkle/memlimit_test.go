package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestLimitMemory: solve and sim give the Go runtime a soft memory limit
// of their --max-memory plus headroom, so that the garbage of a solve is
// collected before the process holds more than it was allowed; not when
// GOMEMLIMIT is set, the operator's own.
func TestLimitMemory(t *testing.T) {
	for _, tc := range []struct {
		name      string
		gomem     string
		args      []string
		want      int64 // 0: no limit set
		wantInOut string
	}{
		{"solve", "", []string{"solve", "--solo", "--rules", "pocket-farkel", "--max-memory", "300000000"}, 300000000 + cliHeadroom, "expected points per turn"},
		{"solve default", "", []string{"solve", "--players", "3", "--rules", "cardgames", "--target", "300", "--no-cache"}, 2<<30 + cliHeadroom, "three players"},
		{"sim", "", []string{"sim", "--players", "steady,bold", "--games", "20", "--max-memory", "5000000"}, 5000000 + cliHeadroom, "20 games of classic"},
		{"GOMEMLIMIT set", "1GiB", []string{"solve", "--solo", "--rules", "pocket-farkel"}, 0, "expected points per turn"},
		{"another command", "", []string{"odds"}, 0, "P(farkle)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got int64
			var out, errOut bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
				getenv: func(k string) string {
					if k == "GOMEMLIMIT" {
						return tc.gomem
					}
					return ""
				},
				setMemoryLimit: func(n int64) int64 { got = n; return 0 }}
			if code := Main(context.Background(), e, tc.args); code != 0 || !strings.Contains(out.String(), tc.wantInOut) {
				t.Fatalf("exit %d:\n%s\n%s", code, out.String(), errOut.String())
			}
			if got != tc.want {
				t.Errorf("memory limit %d, want %d", got, tc.want)
			}
		})
	}
}
