package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// The invitations and blocks (store/invite.go): read from open_seats, the
// index of each player's open seats that the triggers of migration 0014
// keep, and blocks.

// notBlocked is the condition, on a row o of open_seats kept for its
// player, that the player does not block the inviter.
const notBlocked = `NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = o.player_id AND b.blocked = o.inviter)`

// Invitations implements store.Store.
func (db *DB) Invitations(ctx context.Context, playerID string, limit int) ([]store.Table, error) {
	if limit <= 0 {
		limit = 100
	}
	return queryAll(ctx, db, "invitations", scanTable, `SELECT `+tableCols+` FROM tables WHERE id IN
		(SELECT o.table_id FROM open_seats AS o WHERE o.player_id = $1 AND o.invited AND `+notBlocked+`)
		AND status = 'waiting' ORDER BY created DESC, id LIMIT $2`, playerID, limit)
}

// CountInvitations implements store.Store.
func (db *DB) CountInvitations(ctx context.Context, f store.InvitationFilter) (int, error) {
	if err := f.Check(); err != nil {
		return 0, err
	}
	q, arg := `SELECT count(*) FROM open_seats AS o WHERE o.invited AND o.inviter = $1`, f.Inviter
	if f.Invitee != "" {
		q, arg = `SELECT count(*) FROM open_seats AS o WHERE o.player_id = $1 AND o.invited AND `+notBlocked, f.Invitee
	}
	var n int
	if err := db.pool.QueryRow(ctx, q, arg).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count invitations: %w", err)
	}
	return n, nil
}

// DeclineInvitation implements store.Store. The other nodes hear of the
// seats freed as of any change of a waiting table's seats.
func (db *DB) DeclineInvitation(ctx context.Context, tableID, playerID string) ([]int, error) {
	var freed []int
	err := db.inTx(ctx, "decline", func(tx pgx.Tx) error {
		st, seats, n, err := lockTable(ctx, tx, tableID)
		if err != nil {
			return err
		}
		nj, f, err := store.Decline(tableID, st, seats, playerID)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE tables SET seats = $1, updated = $2 WHERE id = $3`, nj, db.now().UnixNano(), tableID); err != nil {
			return err
		}
		freed = f
		return db.notify(ctx, tx, tableID, n, st)
	})
	return freed, err
}

// Block implements store.Store. The blocker's blocks are counted under an
// advisory lock of the blocker, so that two blocks at once keep the cap.
func (db *DB) Block(ctx context.Context, b store.Block, max int) error {
	b, err := b.Prepare(db.now())
	if err != nil {
		return err
	}
	return db.inTx(ctx, "block", func(tx pgx.Tx) error {
		if err := lockFor(ctx, tx, blockLock, b.Blocker); err != nil {
			return err
		}
		var players, have, already int
		if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM players WHERE id IN ($1, $2)),
			(SELECT count(*) FROM blocks WHERE blocker = $1), (SELECT count(*) FROM blocks WHERE blocker = $1 AND blocked = $2)`,
			b.Blocker, b.Blocked).Scan(&players, &have, &already); err != nil {
			return err
		}
		switch {
		case players < 2:
			return store.Errorf(store.ENOTFOUND, "no such player")
		case already > 0:
			return nil
		case max > 0 && have >= max:
			return store.Errorf(store.ECONFLICT, "you block %d players already, the most one player may", have)
		}
		_, err := tx.Exec(ctx, `INSERT INTO blocks (blocker, blocked, created) VALUES ($1, $2, $3)`, b.Blocker, b.Blocked, b.Created.UnixNano())
		return err
	})
}

// blockLock is the first key of the advisory lock of a player's blocks.
const blockLock = 0x626c6f63 // "bloc"

// Unblock implements store.Store.
func (db *DB) Unblock(ctx context.Context, blocker, blocked string) error {
	return db.inTx(ctx, "unblock", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM blocks WHERE blocker = $1 AND blocked = $2`, blocker, blocked)
		return err
	})
}

// Blocks implements store.Store.
func (db *DB) Blocks(ctx context.Context, blocker string, limit int) ([]store.Block, error) {
	if limit <= 0 {
		limit = 100
	}
	return queryAll(ctx, db, "blocks", func(row pgx.Row) (store.Block, error) {
		b := store.Block{Blocker: blocker}
		var created int64
		err := row.Scan(&b.Blocked, &b.Name, &created)
		b.Created = time.Unix(0, created)
		return b, err
	}, `SELECT b.blocked, p.name, b.created FROM blocks AS b JOIN players AS p ON p.id = b.blocked
		WHERE b.blocker = $1 ORDER BY b.created DESC, b.blocked LIMIT $2`, blocker, limit)
}
