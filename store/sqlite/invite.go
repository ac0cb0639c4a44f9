package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// The invitations and blocks (store/invite.go): read from open_seats, the
// index of each player's open seats that the triggers of migration 0014
// keep, and blocks.

// notBlocked is the condition, on a row o of open_seats kept for its
// player, that the player does not block the inviter.
const notBlocked = `NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = o.player_id AND b.blocked = o.inviter)`

// The queries of the invitations, each led by an index (plan_test.go):
// a player's invitations (its rows of open_seats, then each table by its
// ID: "+status" keeps the status index out), and the counts of an
// inviter's and of an invitee's.
const (
	invitationsQuery = `SELECT ` + tableCols + ` FROM tables WHERE id IN
		(SELECT o.table_id FROM open_seats AS o WHERE o.player_id = ? AND o.invited = 1 AND ` + notBlocked + `)
		AND +status = 'waiting' ORDER BY created DESC, id LIMIT ?`
	sentQuery = `SELECT count(*) FROM open_seats AS o WHERE o.invited = 1 AND o.inviter = ?`
	keptQuery = `SELECT count(*) FROM open_seats AS o WHERE o.player_id = ? AND o.invited = 1 AND ` + notBlocked
)

// Invitations implements store.Store.
func (db *DB) Invitations(ctx context.Context, playerID string, limit int) ([]store.Table, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := db.r.QueryContext(ctx, invitationsQuery, playerID, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: invitations: %w", err)
	}
	defer rows.Close()
	var out []store.Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: invitations: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// CountInvitations implements store.Store.
func (db *DB) CountInvitations(ctx context.Context, f store.InvitationFilter) (int, error) {
	if err := f.Check(); err != nil {
		return 0, err
	}
	q, arg := sentQuery, f.Inviter
	if f.Invitee != "" {
		q, arg = keptQuery, f.Invitee
	}
	var n int
	if err := db.r.QueryRowContext(ctx, q, arg).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count invitations: %w", err)
	}
	return n, nil
}

// DeclineInvitation implements store.Store.
func (db *DB) DeclineInvitation(ctx context.Context, tableID, playerID string) ([]int, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: decline: %w", err)
	}
	defer tx.Rollback()
	var sj, st string
	err = tx.QueryRowContext(ctx, `SELECT seats, status FROM tables WHERE id = ?`, tableID).Scan(&sj, &st)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.Errorf(store.ENOTFOUND, "no table %q", tableID)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: decline: %w", err)
	}
	nj, freed, err := store.Decline(tableID, store.Status(st), sj, playerID)
	if err != nil {
		if store.Code(err) == "" {
			err = fmt.Errorf("sqlite: decline: %w", err)
		}
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET seats = ?, updated = ? WHERE id = ?`, nj, db.now().UnixNano(), tableID); err != nil {
		return nil, fmt.Errorf("sqlite: decline: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: decline: %w", err)
	}
	return freed, nil
}

// Block implements store.Store.
func (db *DB) Block(ctx context.Context, b store.Block, max int) error {
	b, err := b.Prepare(db.now())
	if err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: block: %w", err)
	}
	defer tx.Rollback()
	var players, have, already int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM players WHERE id IN (?, ?)),
		(SELECT count(*) FROM blocks WHERE blocker = ?), (SELECT count(*) FROM blocks WHERE blocker = ? AND blocked = ?)`,
		b.Blocker, b.Blocked, b.Blocker, b.Blocker, b.Blocked).Scan(&players, &have, &already); err != nil {
		return fmt.Errorf("sqlite: block: %w", err)
	}
	switch {
	case players < 2:
		return store.Errorf(store.ENOTFOUND, "no such player")
	case already > 0:
		return nil
	case max > 0 && have >= max:
		return store.Errorf(store.ECONFLICT, "you block %d players already, the most one player may", have)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO blocks (blocker, blocked, created) VALUES (?, ?, ?)`, b.Blocker, b.Blocked, b.Created.UnixNano()); err != nil {
		return fmt.Errorf("sqlite: block: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: block: %w", err)
	}
	return nil
}

// Unblock implements store.Store.
func (db *DB) Unblock(ctx context.Context, blocker, blocked string) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM blocks WHERE blocker = ? AND blocked = ?`, blocker, blocked); err != nil {
		return fmt.Errorf("sqlite: unblock: %w", err)
	}
	return nil
}

// Blocks implements store.Store.
func (db *DB) Blocks(ctx context.Context, blocker string, limit int) ([]store.Block, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := db.r.QueryContext(ctx, `SELECT b.blocked, p.name, b.created FROM blocks AS b JOIN players AS p ON p.id = b.blocked
		WHERE b.blocker = ? ORDER BY b.created DESC, b.blocked LIMIT ?`, blocker, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: blocks: %w", err)
	}
	defer rows.Close()
	var out []store.Block
	for rows.Next() {
		b := store.Block{Blocker: blocker}
		var created int64
		if err := rows.Scan(&b.Blocked, &b.Name, &created); err != nil {
			return nil, fmt.Errorf("sqlite: blocks: %w", err)
		}
		b.Created = time.Unix(0, created)
		out = append(out, b)
	}
	return out, rows.Err()
}
