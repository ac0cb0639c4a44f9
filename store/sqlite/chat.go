package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// AddChat implements store.Store.
func (db *DB) AddChat(ctx context.Context, line store.ChatLine, max int) (store.ChatLine, error) {
	line, err := line.Prepare(db.now())
	if err != nil {
		return line, err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return line, fmt.Errorf("sqlite: chat: %w", err)
	}
	defer tx.Rollback()
	var tables, n int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tables WHERE id = ?), coalesce((SELECT max(n) FROM chat WHERE table_id = ?), 0)`,
		line.TableID, line.TableID).Scan(&tables, &n); err != nil {
		return line, fmt.Errorf("sqlite: chat: %w", err)
	}
	if tables == 0 {
		return line, store.Errorf(store.ENOTFOUND, "no table %q", line.TableID)
	}
	if max > 0 && n >= max {
		return line, store.Errorf(store.ECONFLICT, "the chat of table %s is full (%d lines)", line.TableID, max)
	}
	line.N = n + 1
	if _, err := tx.ExecContext(ctx, `INSERT INTO chat (table_id, n, player_id, name, text, at) VALUES (?, ?, ?, ?, ?, ?)`,
		line.TableID, line.N, line.PlayerID, line.Name, line.Text, line.At.UnixNano()); err != nil {
		return line, fmt.Errorf("sqlite: chat: %w", err)
	}
	return line, tx.Commit()
}

// Chat implements store.Store.
func (db *DB) Chat(ctx context.Context, tableID string, limit int) ([]store.ChatLine, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := db.r.QueryContext(ctx, `SELECT n, player_id, name, text, at FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?`, tableID, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: chat: %w", err)
	}
	defer rows.Close()
	var out []store.ChatLine
	for rows.Next() {
		l := store.ChatLine{TableID: tableID}
		var at int64
		if err := rows.Scan(&l.N, &l.PlayerID, &l.Name, &l.Text, &at); err != nil {
			return nil, fmt.Errorf("sqlite: chat: %w", err)
		}
		l.At = time.Unix(0, at)
		out = append(out, l)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}
