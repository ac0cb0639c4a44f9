package game_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/game"
)

// TestReadRecordFileBounded: a record file longer than MaxRecordBytes is
// refused, naming the file and the bound, without being read.
func TestReadRecordFileBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(game.MaxRecordBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := game.ReadRecordFile(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "67108864 bytes") {
		t.Fatalf("a record file one byte over the bound: %v", err)
	}
	if err := os.Truncate(path, 1000); err != nil {
		t.Fatal(err)
	}
	if data, err := game.ReadRecordFile(path); err != nil || len(data) != 1000 {
		t.Fatalf("a record file of 1000 bytes: %d read, %v", len(data), err)
	}
}
