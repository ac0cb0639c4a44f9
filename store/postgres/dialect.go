package postgres

import (
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/farkle/farkle/store/sqlstore"
)

// dialect is PostgreSQL's SQL (sqlstore.Dialect): numbered arguments, rows
// locked FOR UPDATE and advisory locks where nodes must take turns, and
// the seats (jsonb) searched by containment through their GIN index.
var dialect = &sqlstore.Dialect{
	Name:     "postgres",
	Numbered: true,
	Words: map[string]string{
		"true":        "true",
		"false":       "false",
		"for update":  " FOR UPDATE",
		"skip locked": " FOR UPDATE SKIP LOCKED",
		"offset":      "OFFSET ?",
		"seat holder": "seats @> CAST(? AS jsonb)",
	},
	Index:     func(string) string { return "" },
	Unindexed: func(col string) string { return col },
	SeatArg: func(player string) any {
		pj, _ := json.Marshal([]map[string]string{{"player_id": player}})
		return string(pj)
	},
	IsUnique:     isUnique,
	IsForeignKey: isForeignKey,
	Lock:         `SELECT pg_advisory_xact_lock(?, hashtext(?))`,
}

// isUnique reports whether err is a uniqueness violation.
func isUnique(err error) bool { return pgCode(err) == "23505" }

// isForeignKey reports whether err is a foreign key violation.
func isForeignKey(err error) bool { return pgCode(err) == "23503" }

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}
