package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/farkle/farkle/store"
)

// The invitations and blocks (store/invite.go): read from open_seats, the
// index of each player's open seats that the triggers of migration 0014
// keep, and blocks.

// notBlocked is the condition, on a row o of open_seats kept for its
// player, that the player does not block the inviter.
const notBlocked = `NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = o.player_id AND b.blocked = o.inviter)`

// The queries of the invitations, each led by an index: a player's
// invitations (its rows of open_seats, then each table by its ID, not by
// the status index), and the counts of an inviter's and of an invitee's.
const (
	InvitationsQuery = `SELECT ` + TableCols + ` FROM tables WHERE id IN
		(SELECT o.table_id FROM open_seats AS o WHERE o.player_id = ? AND o.invited = {true} AND ` + notBlocked + `)
		AND {unindexed status} = 'waiting' ORDER BY created DESC, id LIMIT ?`
	SentQuery = `SELECT count(*) FROM open_seats AS o WHERE o.invited = {true} AND o.inviter = ?`
	KeptQuery = `SELECT count(*) FROM open_seats AS o WHERE o.player_id = ? AND o.invited = {true} AND ` + notBlocked
)

// Invitations implements store.Store.
func (db *DB) Invitations(ctx context.Context, playerID string, limit int) ([]store.Table, error) {
	if limit <= 0 {
		limit = 100
	}
	return readAll(ctx, db, "invitations", scanTable, InvitationsQuery, playerID, limit)
}

// CountInvitations implements store.Store.
func (db *DB) CountInvitations(ctx context.Context, f store.InvitationFilter) (int, error) {
	if err := f.Check(); err != nil {
		return 0, err
	}
	q, arg := SentQuery, f.Inviter
	if f.Invitee != "" {
		q, arg = KeptQuery, f.Invitee
	}
	n, err := db.count(ctx, db.R, q, arg)
	if err != nil {
		return 0, db.Errorf("count invitations", err)
	}
	return n, nil
}

// DeclineInvitation implements store.Store.
func (db *DB) DeclineInvitation(ctx context.Context, tableID, playerID string) ([]int, error) {
	var freed []int
	err := db.InTx(ctx, "decline", func(tx *sql.Tx) error {
		st, seats, n, err := db.lockTable(ctx, tx, tableID)
		if err != nil {
			return err
		}
		nj, f, err := store.Decline(tableID, st, seats, playerID)
		if err != nil {
			return err
		}
		if _, err := db.exec(ctx, tx, `UPDATE tables SET seats = ?, updated = ? WHERE id = ?`, nj, db.Now().UnixNano(), tableID); err != nil {
			return err
		}
		freed = f
		return db.changed(ctx, tx, tableID, n, st)
	})
	return freed, err
}

// Block implements store.Store.
func (db *DB) Block(ctx context.Context, b store.Block, max int) error {
	b, err := b.Prepare(db.Now())
	if err != nil {
		return err
	}
	return db.relate(ctx, pair{op: "block", lock: blockLock, table: "blocks", from: "blocker", to: "blocked"}, b.Blocker, b.Blocked, b.Created, max)
}

// Unblock implements store.Store.
func (db *DB) Unblock(ctx context.Context, blocker, blocked string) error {
	if _, err := db.exec(ctx, db.W, `DELETE FROM blocks WHERE blocker = ? AND blocked = ?`, blocker, blocked); err != nil {
		return db.Errorf("unblock", err)
	}
	return nil
}

// Blocks implements store.Store.
func (db *DB) Blocks(ctx context.Context, blocker string, limit int) ([]store.Block, error) {
	if limit <= 0 {
		limit = 100
	}
	return readAll(ctx, db, "blocks", func(s Scanner) (store.Block, error) {
		b := store.Block{Blocker: blocker}
		var created int64
		err := s.Scan(&b.Blocked, &b.Name, &created)
		b.Created = time.Unix(0, created)
		return b, err
	}, `SELECT b.blocked, p.name, b.created FROM blocks AS b JOIN players AS p ON p.id = b.blocked
		WHERE b.blocker = ? ORDER BY b.created DESC, b.blocked LIMIT ?`, blocker, limit)
}
