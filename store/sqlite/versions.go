package sqlite

import (
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Versions returns the numbers of the migrations this build applies, in
// order: a database this build has opened records each of them in
// schema_migrations (farkle db check compares).
func Versions() []int {
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	var out []int
	for _, name := range names {
		v, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, "migrations/"), "_", 2)[0])
		if err == nil {
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}
