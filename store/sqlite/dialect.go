package sqlite

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/farkle/farkle/store/sqlstore"
)

// dialect is SQLite's SQL (sqlstore.Dialect): booleans are 1 and 0, the
// one writer's IMMEDIATE transactions stand for row and advisory locks,
// the seats are searched with json_each, and the index hints that keep
// the planner on the index of open seats and of guests not kept are
// SQLite's own.
var dialect = &sqlstore.Dialect{
	Name: "sqlite",
	Words: map[string]string{
		"true":        "1",
		"false":       "0",
		"for update":  "",
		"skip locked": "",
		"offset":      "LIMIT -1 OFFSET ?",
		"seat holder": `EXISTS (SELECT 1 FROM json_each(tables.seats) WHERE json_extract(value, '$.player_id') = ?)`,
	},
	Index:     func(name string) string { return "INDEXED BY " + name },
	Unindexed: func(col string) string { return "+" + col },
	SeatArg:   func(player string) any { return player },
	IsUnique: func(err error) bool {
		c := code(err)
		return c&0xff == sqlite3.SQLITE_CONSTRAINT && c != sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
	},
	IsForeignKey: func(err error) bool { return code(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY },
}

// code is the extended result code of a SQLite error, 0 for another.
func code(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}
