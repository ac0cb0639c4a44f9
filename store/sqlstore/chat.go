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
// them one after the other without touching the table's row. The two
// channels are numbered together and each holds at most max lines.
func (db *DB) AddChat(ctx context.Context, line store.ChatLine, max int) (store.ChatLine, error) {
	line, err := line.Prepare(db.Now())
	if err != nil {
		return line, err
	}
	err = db.InTx(ctx, "chat", func(tx *sql.Tx) error {
		if err := db.lock(ctx, tx, chatLock, line.TableID); err != nil {
			return err
		}
		var tables, n, inChannel int
		if err := db.row(ctx, tx, `SELECT (SELECT count(*) FROM tables WHERE id = ?), coalesce((SELECT max(n) FROM chat WHERE table_id = ?), 0),
			(SELECT count(*) FROM chat WHERE table_id = ? AND watchers = ?)`,
			line.TableID, line.TableID, line.TableID, line.Watchers).Scan(&tables, &n, &inChannel); err != nil {
			return err
		}
		if tables == 0 {
			return store.Errorf(store.ENOTFOUND, "no table %q", line.TableID)
		}
		if max > 0 && inChannel >= max {
			return store.Errorf(store.ECONFLICT, "the chat of table %s is full (%d lines)", line.TableID, max)
		}
		line.N = n + 1
		_, err := db.exec(ctx, tx, `INSERT INTO chat (table_id, n, player_id, name, text, at, watchers) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			line.TableID, line.N, line.PlayerID, line.Name, line.Text, line.At.UnixNano(), line.Watchers)
		return err
	})
	return line, err
}

// chatColumns are the columns scanChat reads.
const chatColumns = `table_id, n, player_id, name, text, at, watchers, hidden`

func scanChat(s Scanner) (store.ChatLine, error) {
	var l store.ChatLine
	var at int64
	err := s.Scan(&l.TableID, &l.N, &l.PlayerID, &l.Name, &l.Text, &at, &l.Watchers, &l.Hidden)
	l.At = time.Unix(0, at)
	return l, err
}

// chatOf returns the last limit lines of a channel of the table's chat.
func (db *DB) chatOf(ctx context.Context, tableID string, watchers bool, limit int) ([]store.ChatLine, error) {
	if limit <= 0 {
		limit = 100
	}
	out, err := readAll(ctx, db, "chat", scanChat,
		`SELECT `+chatColumns+` FROM chat WHERE table_id = ? AND watchers = ? ORDER BY n DESC LIMIT ?`, tableID, watchers, limit)
	slices.Reverse(out)
	return out, err
}

// Chat implements store.Store.
func (db *DB) Chat(ctx context.Context, tableID string, limit int) ([]store.ChatLine, error) {
	return db.chatOf(ctx, tableID, false, limit)
}

// WatchersChat implements store.Store.
func (db *DB) WatchersChat(ctx context.Context, tableID string, limit int) ([]store.ChatLine, error) {
	return db.chatOf(ctx, tableID, true, limit)
}

// ChatLineAt implements store.Store.
func (db *DB) ChatLineAt(ctx context.Context, tableID string, n int) (store.ChatLine, error) {
	l, err := scanChat(db.row(ctx, db.R, `SELECT `+chatColumns+` FROM chat WHERE table_id = ? AND n = ?`, tableID, n))
	if err = notFound(err, "no line %d in the chat of table %s", n, tableID); err != nil {
		return l, db.fail("chat line", err)
	}
	return l, nil
}
