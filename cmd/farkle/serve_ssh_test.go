package main

import (
	"path/filepath"
	"testing"
)

// TestServeBadSSHFlags: a bound of the SSH front end that cannot be is bad
// usage naming the flag and its value.
func TestServeBadSSHFlags(t *testing.T) {
	for _, tc := range [][]string{
		{"--ssh-max-window", "500", `"500" is not a size`},
		{"--ssh-max-window", "500x0", `"500x0" is not a size`},
		{"--ssh-max-window", "-5x3", `"-5x3" is not a size`},
		{"--ssh-env", "-1", "--ssh-env -1: cannot be negative"},
		{"--ssh-channels", "-3", "--ssh-channels -3: cannot be negative"},
		{"--ssh-conns-per-address", "-1", "--ssh-conns-per-address -1: cannot be negative"},
		{"--ssh-rate", "-0.5", "--ssh-rate -0.5: cannot be negative"},
		{"--ssh-burst", "0", "--ssh-burst 0: must be at least 1 with --ssh-rate 20"},
	} {
		_, stderr, code := runFarkle(t, "", "serve", "--db", filepath.Join(t.TempDir(), "x.db"), "--ssh", "127.0.0.1:0", tc[0], tc[1])
		checkBadInput(t, stderr, code, tc[2])
	}
}
