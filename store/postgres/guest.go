package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// ExpireGuests implements store.Store, in one transaction. The guests are
// chosen as the SQLite store chooses them (players_unkept, oldest first)
// and locked, so that a guest another write keeps meanwhile (its trigger
// waits for the lock) is seen kept and stays; guests another node is
// deleting are skipped.
func (db *DB) ExpireGuests(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	n := 0
	err := db.inTx(ctx, "expire guests", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT p.id FROM players AS p
			WHERE NOT p.kept AND p.created < $1
				AND NOT EXISTS (SELECT 1 FROM sessions AS s WHERE s.player_id = p.id AND s.last_seen >= $1)
				AND NOT EXISTS (SELECT 1 FROM accounts AS a WHERE a.player_id = p.id)
				AND NOT EXISTS (SELECT 1 FROM ssh_keys AS k WHERE k.player_id = p.id)
			ORDER BY p.created LIMIT $2 FOR UPDATE SKIP LOCKED`, before.UnixNano(), limit)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE player_id = ANY($1)`, ids); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM players WHERE id = ANY($1) AND NOT kept`, ids)
		n = int(tag.RowsAffected())
		return err
	})
	return n, err
}
