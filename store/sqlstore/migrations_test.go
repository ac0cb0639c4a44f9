package sqlstore_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/farkle/farkle/store/sqlstore"
)

// TestMigrations: the migration files are listed by their number (not
// by name: 0100 after 0099, 10 after 9), other files are left out, and a
// migration whose name has no number is refused by name.
func TestMigrations(t *testing.T) {
	fsys := fstest.MapFS{
		"migrations/0100_later.sql":  {},
		"migrations/0099_before.sql": {},
		"migrations/9_nine.sql":      {},
		"migrations/10_ten.sql":      {},
		"migrations/README.md":       {},
		"other/0001_not.sql":         {},
	}
	ms, err := sqlstore.Migrations(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
		if m.Path != "migrations/"+m.Name {
			t.Errorf("migration %s at %s", m.Name, m.Path)
		}
	}
	if want := []string{"9_nine.sql", "10_ten.sql", "0099_before.sql", "0100_later.sql"}; !slices.Equal(names, want) {
		t.Fatalf("migrations %q, want %q", names, want)
	}
	if v := sqlstore.Versions(fsys); !slices.Equal(v, []int{9, 10, 99, 100}) {
		t.Fatalf("versions %v", v)
	}
	fsys["migrations/x_bad.sql"] = &fstest.MapFile{}
	if _, err := sqlstore.Migrations(fsys); err == nil || !strings.Contains(err.Error(), "x_bad.sql") {
		t.Fatalf("a migration without a number: %v", err)
	}
	if v := sqlstore.Versions(fsys); len(v) != 0 {
		t.Fatalf("versions with a migration without a number: %v", v)
	}
}
