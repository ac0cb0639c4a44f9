package postgres

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// The first keys of the advisory locks held for a table (the second is a
// hash of the table's ID): its chat lines are numbered, its game rated,
// under them.
const (
	chatLock = 0x63686174 // "chat"
	rateLock = 0x72617465 // "rate"
)

// lockFor takes the advisory lock (space, table) until the transaction ends.
func lockFor(ctx context.Context, tx pgx.Tx, space int32, tableID string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, space, tableID)
	return err
}

// AddChat implements store.Store. The lines of a table are numbered under
// an advisory lock of that table's chat, so that nodes adding lines at
// once number them one after the other without touching the table's row.
func (db *DB) AddChat(ctx context.Context, line store.ChatLine, max int) (store.ChatLine, error) {
	line, err := line.Prepare(db.now())
	if err != nil {
		return line, err
	}
	err = db.inTx(ctx, "chat", func(tx pgx.Tx) error {
		if err := lockFor(ctx, tx, chatLock, line.TableID); err != nil {
			return err
		}
		var tables, n int
		if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM tables WHERE id = $1), coalesce((SELECT max(n) FROM chat WHERE table_id = $1), 0)`,
			line.TableID).Scan(&tables, &n); err != nil {
			return err
		}
		if tables == 0 {
			return store.Errorf(store.ENOTFOUND, "no table %q", line.TableID)
		}
		if max > 0 && n >= max {
			return store.Errorf(store.ECONFLICT, "the chat of table %s is full (%d lines)", line.TableID, max)
		}
		line.N = n + 1
		_, err := tx.Exec(ctx, `INSERT INTO chat (table_id, n, player_id, name, text, at) VALUES ($1, $2, $3, $4, $5, $6)`,
			line.TableID, line.N, line.PlayerID, line.Name, line.Text, line.At.UnixNano())
		return err
	})
	return line, err
}

// Chat implements store.Store.
func (db *DB) Chat(ctx context.Context, tableID string, limit int) ([]store.ChatLine, error) {
	if limit <= 0 {
		limit = 100
	}
	out, err := queryAll(ctx, db, "chat", func(row pgx.Row) (store.ChatLine, error) {
		l := store.ChatLine{TableID: tableID}
		var at int64
		err := row.Scan(&l.N, &l.PlayerID, &l.Name, &l.Text, &at)
		l.At = time.Unix(0, at)
		return l, err
	}, `SELECT n, player_id, name, text, at FROM chat WHERE table_id = $1 ORDER BY n DESC LIMIT $2`, tableID, limit)
	slices.Reverse(out)
	return out, err
}
