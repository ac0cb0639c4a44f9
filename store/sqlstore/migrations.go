package sqlstore

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Migration is one migration file of a store, migrations/NNNN_what.sql,
// which the store runs once, in the order of the numbers, and records in
// schema_migrations.
type Migration struct {
	Version int
	Name    string // the file's name, "0023_table_acted.sql"
	Path    string // its path in the store's files, "migrations/0023_table_acted.sql"
}

// Migrations lists the migration files under migrations/ in fsys, by
// number; a file whose name does not start with one is an error.
func Migrations(fsys fs.FS) ([]Migration, error) {
	paths, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	out := make([]Migration, 0, len(paths))
	for _, p := range paths {
		name := strings.TrimPrefix(p, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", name)
		}
		out = append(out, Migration{Version: v, Name: name, Path: p})
	}
	// by number; of one number, by name (fs.Glob's order), every time
	sort.SliceStable(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// Versions returns the numbers of the migrations under migrations/ in
// fsys, in order; none when a file's name does not start with a number
// (Migrations' error, which keeps a store from opening).
func Versions(fsys fs.FS) []int {
	ms, _ := Migrations(fsys)
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Version
	}
	return out
}
