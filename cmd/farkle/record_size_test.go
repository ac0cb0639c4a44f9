package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/game"
)

// TestRecordSizeBounded: replay, verify and analyze refuse a file longer
// than game.MaxRecordBytes (exit 2, one line naming the file and the
// bound), and read a record of exactly that size.
func TestRecordSizeBounded(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: no disk is written for its zeros.
	if err := f.Truncate(game.MaxRecordBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bound := fmt.Sprint(game.MaxRecordBytes)
	for _, cmd := range []string{"replay", "verify", "analyze"} {
		t.Run(cmd, func(t *testing.T) {
			_, errOut, code := runFarkle(t, "", cmd, huge)
			checkBadInput(t, errOut, code, "huge.json", bound, "64 MiB")
		})
	}
	t.Run("binary", func(t *testing.T) {
		_, errOut, code := execFarkle(t, "", "verify", huge)
		checkBadInput(t, errOut, code, "huge.json", bound)
	})

	// A record padded with white space to the bound is read whole.
	file, _ := botRecord(t, shortRules("classic", 1000), []string{"steady", "bold"}, "size", nil)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, strings.Repeat(" ", game.MaxRecordBytes-len(data))...)
	atBound := filepath.Join(t.TempDir(), "at-bound.json")
	if err := os.WriteFile(atBound, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFarkle(t, "", "verify", atBound)
	if code != 0 || !strings.Contains(out, "at-bound.json") {
		t.Fatalf("verify of a record of exactly %d bytes: exit %d, %q %q", game.MaxRecordBytes, code, out, errOut)
	}
}
