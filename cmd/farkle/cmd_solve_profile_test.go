package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveProfile checks that --profile writes a CPU profile (a gzipped
// protocol buffer) of a duel solve, and that a path that cannot be created
// is refused naming the flag.
func TestSolveProfile(t *testing.T) {
	file := writeTestFile(t, "tiny.toml", tinyDuel)
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	_, errOut, code := runFarkle(t, "", "solve", "--duel", "--json", "--no-cache", "--rules", file, "--profile", prof)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("profile of %d bytes does not start as gzip: % x", len(data), data[:min(len(data), 8)])
	}
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof")
	_, errOut, code = runFarkle(t, "", "solve", "--duel", "--no-cache", "--rules", file, "--profile", bad)
	if code == 0 || !strings.Contains(errOut, "--profile") {
		t.Errorf("profile into a missing directory: exit %d, stderr %q", code, errOut)
	}
}
