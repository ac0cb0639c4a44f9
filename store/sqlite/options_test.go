package sqlite_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/store/sqlite"
)

// TestOptions: Open is durable (synchronous=FULL, 2) with a bounded WAL;
// OpenWith applies the options; bad options are refused naming the field.
func TestOptions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, tc := range []struct {
		opt           sqlite.Options
		sync, walSize string
	}{
		{sqlite.Options{}, "2", "16777216"},
		{sqlite.Options{Synchronous: "normal", WALLimit: 1 << 20}, "1", "1048576"},
		{sqlite.Options{Synchronous: "EXTRA"}, "3", "16777216"},
	} {
		db, err := sqlite.OpenWith(ctx, filepath.Join(dir, "o.db"), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		for pragma, want := range map[string]string{"synchronous": tc.sync, "journal_size_limit": tc.walSize, "journal_mode": "wal"} {
			if got, err := db.Pragma(pragma); err != nil || got != want {
				t.Errorf("%+v: PRAGMA %s = %q (%v), want %q", tc.opt, pragma, got, err, want)
			}
		}
		db.Close()
	}
	for _, tc := range []struct {
		opt  sqlite.Options
		want string
	}{
		{sqlite.Options{Synchronous: "OFF"}, `synchronous "OFF"`},
		{sqlite.Options{WALLimit: -1}, "WAL limit -1"},
		{sqlite.Options{Check: "deep"}, `check "deep"`},
		{sqlite.Options{MaxBytes: -5}, "max bytes -5"},
	} {
		_, err := sqlite.OpenWith(ctx, filepath.Join(dir, "bad.db"), tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenWith(%+v) = %v, want an error naming %s", tc.opt, err, tc.want)
		}
	}
}
