package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/farkle/farkle/store"
)

// AddChat implements store.Store. The lines of a table are numbered under
// a lock of that table's chat, so that nodes adding lines at once number
// them one after the other without touching the table's row.
func (db *DB) AddChat(ctx context.Context, line store.ChatLine, max int) (store.ChatLine, error) {
	line, err := line.Prepare(db.Now())
	if err != nil {
		return line, err
	}
	err = db.InTx(ctx, "chat", func(tx *sql.Tx) error {
		if err := db.lock(ctx, tx, chatLock, line.TableID); err != nil {
			return err
		}
		var tables, n int
		if err := db.row(ctx, tx, `SELECT (SELECT count(*) FROM tables WHERE id = ?), coalesce((SELECT max(n) FROM chat WHERE table_id = ?), 0)`,
			line.TableID, line.TableID).Scan(&tables, &n); err != nil {
			return err
		}
		if tables == 0 {
			return store.Errorf(store.ENOTFOUND, "no table %q", line.TableID)
		}
		if max > 0 && n >= max {
			return store.Errorf(store.ECONFLICT, "the chat of table %s is full (%d lines)", line.TableID, max)
		}
		line.N = n + 1
		_, err := db.exec(ctx, tx, `INSERT INTO chat (table_id, n, player_id, name, text, at) VALUES (?, ?, ?, ?, ?, ?)`,
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
	out, err := readAll(ctx, db, "chat", func(s Scanner) (store.ChatLine, error) {
		l := store.ChatLine{TableID: tableID}
		var at int64
		err := s.Scan(&l.N, &l.PlayerID, &l.Name, &l.Text, &at)
		l.At = time.Unix(0, at)
		return l, err
	}, `SELECT n, player_id, name, text, at FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?`, tableID, limit)
	slices.Reverse(out)
	return out, err
}
