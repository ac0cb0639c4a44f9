package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// expireGuestsQuery selects the guests ExpireGuests deletes: made before
// ?1 and not kept (players_unkept, oldest first), with no session seen
// since ?1, no account and no SSH key (each by its player's index); at
// most ?2.
const expireGuestsQuery = `SELECT p.id FROM players AS p INDEXED BY players_unkept
	WHERE p.kept = 0 AND p.created < ?1
		AND NOT EXISTS (SELECT 1 FROM sessions AS s WHERE s.player_id = p.id AND s.last_seen >= ?1)
		AND NOT EXISTS (SELECT 1 FROM accounts AS a WHERE a.player_id = p.id)
		AND NOT EXISTS (SELECT 1 FROM ssh_keys AS k WHERE k.player_id = p.id)
	ORDER BY p.created LIMIT ?2`

// ExpireGuests implements store.Store, in one write.
func (db *DB) ExpireGuests(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire guests: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, expireGuestsQuery, before.UnixNano(), limit)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire guests: %w", err)
	}
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sqlite: expire guests: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sqlite: expire guests: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE player_id IN `+in, ids...); err != nil {
		return 0, fmt.Errorf("sqlite: expire guests: %w", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM players WHERE id IN `+in+` AND kept = 0`, ids...)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire guests: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), tx.Commit()
}
