package postgres

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/farkle/farkle/store"
)

// followWord begins a line of a notification that asks for a table's
// hints: "follow ID NODE" (store.Quieter). A node of an older release
// skips it (its first word is not a number).
const followWord = "follow"

// AppendQuiet implements store.Quieter: the action goes to the group
// commit as any other, and its batch sends no hint for it.
func (db *DB) AppendQuiet(ctx context.Context, tableID string, n int, entry json.RawMessage) error {
	return db.group.AppendQuiet(ctx, tableID, n, entry)
}

// WantHints implements store.Quieter: one notification (more if they are
// too long for one), a line a table, in a transaction that waits for no
// flush of the log (a request lost in a crash is made again next round).
func (db *DB) WantHints(ctx context.Context, tables []string) error {
	if len(tables) == 0 {
		return nil
	}
	lines := make([]string, len(tables))
	for i, id := range tables {
		lines[i] = followWord + " " + id + " " + db.node
	}
	tx, err := db.W.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, msg := range joinHints(lines, maxPayload) {
		if _, err := tx.ExecContext(ctx, hintSQL, db.channel, msg); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Hint implements store.Quieter: the hint alone, sent as a batch's hints
// are (hintSQL: waiting for no flush of the log).
func (db *DB) Hint(ctx context.Context, c store.Change) error {
	_, err := db.W.ExecContext(ctx, hintSQL, db.channel, payload(c.Table, c.Actions, c.Status))
	return err
}

// followOf reads a line of a notification asking for a table's hints:
// ok is false if it is not one, or if this node sent it.
func (db *DB) followOf(line string) (c store.Change, ok bool) {
	f := strings.SplitN(line, " ", 3)
	if len(f) != 3 || f[0] != followWord || f[2] == db.node {
		return store.Change{}, false
	}
	return store.Change{Table: f[1], Follow: true}, true
}
