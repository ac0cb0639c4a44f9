package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/farkle/farkle/store"
)

// pair is a table of relations from one player to another (blocks,
// follows): its operation's verb, the advisory lock of its rows of one
// player, and its table and columns (constants of this package, never
// input).
type pair struct {
	op       string
	lock     int32
	table    string
	from, to string
}

// relate stores the relation from a to b at created, once (again: nothing
// changes). a's relations are counted under a lock of a, so that two
// made at once keep the cap: ECONFLICT if max > 0 and a already has max;
// ENOTFOUND if either player does not exist.
func (db *DB) relate(ctx context.Context, p pair, a, b string, created time.Time, max int) error {
	return db.InTx(ctx, p.op, func(tx *sql.Tx) error {
		if err := db.lock(ctx, tx, p.lock, a); err != nil {
			return err
		}
		var players, have, already int
		if err := db.row(ctx, tx, `SELECT (SELECT count(*) FROM players WHERE id IN (?, ?)),
			(SELECT count(*) FROM `+p.table+` WHERE `+p.from+` = ?), (SELECT count(*) FROM `+p.table+` WHERE `+p.from+` = ? AND `+p.to+` = ?)`,
			a, b, a, a, b).Scan(&players, &have, &already); err != nil {
			return err
		}
		switch {
		case players < 2:
			return store.Errorf(store.ENOTFOUND, "no such player")
		case already > 0:
			return nil
		case max > 0 && have >= max:
			return store.Errorf(store.ECONFLICT, "you %s %d players already, the most one player may", p.op, have)
		}
		_, err := db.exec(ctx, tx, `INSERT INTO `+p.table+` (`+p.from+`, `+p.to+`, created) VALUES (?, ?, ?)`, a, b, created.UnixNano())
		return err
	})
}
