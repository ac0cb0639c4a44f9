package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// Moderation (store.Moderation): every moderator's action writes its
// effect and its audit entry in one transaction. A player named by a
// sanction, a report or a notice is kept (players.kept): a guest that
// expired would leave them pointing at nobody.

// AddModerator implements store.Store.
func (db *DB) AddModerator(ctx context.Context, playerID string, at time.Time) error {
	return db.InTx(ctx, "add moderator", func(tx *sql.Tx) error {
		n, err := db.count(ctx, tx, `SELECT count(*) FROM accounts WHERE player_id = ?`, playerID)
		if err != nil {
			return err
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "player %s has no account: only an account can moderate", playerID)
		}
		_, err = db.exec(ctx, tx, `INSERT INTO moderators (player_id, added) VALUES (?, ?)`, playerID, at.UnixNano())
		if db.D.IsUnique(err) {
			return store.Errorf(store.ECONFLICT, "player %s is a moderator already", playerID)
		}
		return err
	})
}

// RemoveModerator implements store.Store.
func (db *DB) RemoveModerator(ctx context.Context, playerID string) error {
	return db.InTx(ctx, "remove moderator", func(tx *sql.Tx) error {
		res, err := db.exec(ctx, tx, `DELETE FROM moderators WHERE player_id = ?`, playerID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return orNotFound(err, "player %s is not a moderator", playerID)
		}
		return nil
	})
}

// orNotFound is err, or ENOTFOUND saying the message when err is nil.
func orNotFound(err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	return store.Errorf(store.ENOTFOUND, format, args...)
}

// Moderators implements store.Store.
func (db *DB) Moderators(ctx context.Context) ([]store.Moderator, error) {
	return readAll(ctx, db, "moderators", func(s Scanner) (store.Moderator, error) {
		var m store.Moderator
		var added int64
		err := s.Scan(&m.PlayerID, &m.Name, &added)
		m.Added = time.Unix(0, added)
		return m, err
	}, `SELECT m.player_id, p.name, m.added FROM moderators m JOIN players p ON p.id = m.player_id ORDER BY m.added, m.player_id`)
}

// IsModerator implements store.Store.
func (db *DB) IsModerator(ctx context.Context, playerID string) (bool, error) {
	n, err := db.count(ctx, db.R, `SELECT count(*) FROM moderators WHERE player_id = ?`, playerID)
	if err != nil {
		return false, db.Errorf("is moderator", err)
	}
	return n > 0, nil
}

// logAction writes the audit entry e in tx.
func (db *DB) logAction(ctx context.Context, tx *sql.Tx, e store.AuditEntry) error {
	if e.Moderator == "" || e.Action == "" {
		return store.Errorf(store.EINVALID, "an audit entry needs a moderator and an action")
	}
	if e.At.IsZero() {
		e.At = db.Now()
	}
	_, err := db.exec(ctx, tx, `INSERT INTO moderation_log (moderator, action, target, detail, reason, at) VALUES (?, ?, ?, ?, ?, ?)`,
		e.Moderator, e.Action, e.Target, e.Detail, e.Reason, e.At.UnixNano())
	return err
}

// keep marks the players kept, so that a guest named by moderation does
// not expire.
func (db *DB) keep(ctx context.Context, tx *sql.Tx, ids ...string) error {
	for _, id := range ids {
		if id == "" {
			continue
		}
		if _, err := db.exec(ctx, tx, `UPDATE players SET kept = {true} WHERE id = ? AND kept = {false}`, id); err != nil {
			return err
		}
	}
	return nil
}

// playerName returns the name of the player in tx, ENOTFOUND if none.
func (db *DB) playerName(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	var name string
	err := db.row(ctx, tx, `SELECT name FROM players WHERE id = ?`, id).Scan(&name)
	return name, notFound(err, "no such player %s", id)
}

// LogAction implements store.Store.
func (db *DB) LogAction(ctx context.Context, e store.AuditEntry) error {
	return db.InTx(ctx, "audit", func(tx *sql.Tx) error { return db.logAction(ctx, tx, e) })
}

// AddSanction implements store.Store.
func (db *DB) AddSanction(ctx context.Context, s store.Sanction, e store.AuditEntry) (store.Sanction, error) {
	if (s.PlayerID == "") == (s.Range == "") {
		return s, store.Errorf(store.EINVALID, "a sanction names a player or an address range")
	}
	if s.Kind != store.Mute && s.Kind != store.Ban {
		return s, store.Errorf(store.EINVALID, "no sanction of kind %q", s.Kind)
	}
	if s.At.IsZero() {
		s.At = db.Now()
	}
	err := db.InTx(ctx, "sanction", func(tx *sql.Tx) error {
		if s.PlayerID != "" {
			name, err := db.playerName(ctx, tx, s.PlayerID)
			if err != nil {
				return err
			}
			s.Name = name
			if err := db.keep(ctx, tx, s.PlayerID); err != nil {
				return err
			}
		}
		if err := db.row(ctx, tx, `INSERT INTO sanctions (kind, player_id, addr_range, name, reason, by_player, at, until, lifted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id`,
			string(s.Kind), s.PlayerID, s.Range, s.Name, s.Reason, s.By, s.At.UnixNano(), unixOrZero(s.Until)).Scan(&s.ID); err != nil {
			return err
		}
		return db.logAction(ctx, tx, e)
	})
	return s, err
}

// LiftSanction implements store.Store.
func (db *DB) LiftSanction(ctx context.Context, id int64, e store.AuditEntry) error {
	if e.At.IsZero() {
		e.At = db.Now()
	}
	return db.InTx(ctx, "lift sanction", func(tx *sql.Tx) error {
		var until, lifted int64
		err := db.row(ctx, tx, `SELECT until, lifted FROM sanctions WHERE id = ?{for update}`, id).Scan(&until, &lifted)
		if err = notFound(err, "no sanction %d", id); err != nil {
			return err
		}
		if !(store.Sanction{Until: timeOrZero(until), Lifted: timeOrZero(lifted)}).Holds(e.At) {
			return store.Errorf(store.ECONFLICT, "sanction %d no longer holds", id)
		}
		if _, err := db.exec(ctx, tx, `UPDATE sanctions SET lifted = ? WHERE id = ?`, e.At.UnixNano(), id); err != nil {
			return err
		}
		return db.logAction(ctx, tx, e)
	})
}

// Sanctions implements store.Store.
func (db *DB) Sanctions(ctx context.Context, f store.SanctionFilter) ([]store.Sanction, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q := `SELECT id, kind, player_id, addr_range, name, reason, by_player, at, until, lifted FROM sanctions WHERE 1 = 1`
	var args []any
	if f.PlayerID != "" {
		q += ` AND (player_id = ? OR addr_range != '')`
		args = append(args, f.PlayerID)
	}
	if !f.At.IsZero() {
		q += ` AND lifted = 0 AND (until = 0 OR until > ?)`
		args = append(args, f.At.UnixNano())
	}
	q += ` ORDER BY id DESC LIMIT ?`
	args = append(args, f.Limit)
	return readAll(ctx, db, "sanctions", func(sc Scanner) (store.Sanction, error) {
		var s store.Sanction
		var kind string
		var at, until, lifted int64
		err := sc.Scan(&s.ID, &kind, &s.PlayerID, &s.Range, &s.Name, &s.Reason, &s.By, &at, &until, &lifted)
		s.Kind, s.At, s.Until, s.Lifted = store.SanctionKind(kind), time.Unix(0, at), timeOrZero(until), timeOrZero(lifted)
		return s, err
	}, q, args...)
}

// HideChat implements store.Store.
func (db *DB) HideChat(ctx context.Context, tableID string, n int, e store.AuditEntry) error {
	return db.InTx(ctx, "hide chat", func(tx *sql.Tx) error {
		res, err := db.exec(ctx, tx, `UPDATE chat SET hidden = {true} WHERE table_id = ? AND n = ?`, tableID, n)
		if err != nil {
			return err
		}
		if k, err := res.RowsAffected(); err != nil || k == 0 {
			return orNotFound(err, "no line %d in the chat of table %s", n, tableID)
		}
		return db.logAction(ctx, tx, e)
	})
}

// RenamePlayer implements store.Store. Accounts are renamed one at a
// time (nameLock), as they are made, so that two never end up with names
// that look alike.
func (db *DB) RenamePlayer(ctx context.Context, playerID, name string, e store.AuditEntry) error {
	if name == "" {
		return store.Errorf(store.EINVALID, "a name cannot be empty")
	}
	if e.At.IsZero() {
		e.At = db.Now()
	}
	return db.InTx(ctx, "rename", func(tx *sql.Tx) error {
		if err := db.lockPlayer(ctx, tx, playerID); err != nil {
			return err
		}
		old, err := db.playerName(ctx, tx, playerID)
		if err != nil {
			return err
		}
		accounts, err := db.count(ctx, tx, `SELECT count(*) FROM accounts WHERE player_id = ?`, playerID)
		if err != nil {
			return err
		}
		if accounts > 0 {
			if err := db.lock(ctx, tx, nameLock, ""); err != nil {
				return err
			}
			key := store.NameKey(name)
			look, upper := store.NameLooks(name)
			n, err := db.count(ctx, tx, `SELECT count(*) FROM accounts WHERE player_id != ? AND (name_key = ? OR skeleton = ? OR skeleton_upper = ?)`, playerID, key, look, upper)
			if err != nil {
				return err
			}
			if n > 0 {
				return store.Errorf(store.ECONFLICT, "the name %s is taken by another account, or looks like one", name)
			}
			_, err = db.exec(ctx, tx, `UPDATE accounts SET name_key = ?, skeleton = ?, skeleton_upper = ? WHERE player_id = ?`, key, look, upper, playerID)
			if db.D.IsUnique(err) {
				return store.Errorf(store.ECONFLICT, "the name %s is taken by another account, or looks like one", name)
			}
			if err != nil {
				return err
			}
		}
		if _, err := db.exec(ctx, tx, `UPDATE players SET name = ? WHERE id = ?`, name, playerID); err != nil {
			return err
		}
		if err := db.keep(ctx, tx, playerID); err != nil {
			return err
		}
		if _, err := db.exec(ctx, tx, `INSERT INTO notices (player_id, kind, old_name, new_name, reason, at, seen) VALUES (?, 'renamed', ?, ?, ?, ?, {false})`,
			playerID, old, name, e.Reason, e.At.UnixNano()); err != nil {
			return err
		}
		if e.Detail == "" {
			e.Detail = fmt.Sprintf("%s → %s", old, name)
		}
		return db.logAction(ctx, tx, e)
	})
}

// AuditLog implements store.Store.
func (db *DB) AuditLog(ctx context.Context, before int64, limit int) ([]store.AuditEntry, error) {
	if limit <= 0 {
		limit = 50
	}
	if before <= 0 {
		before = 1<<63 - 1
	}
	return readAll(ctx, db, "audit log", func(s Scanner) (store.AuditEntry, error) {
		var e store.AuditEntry
		var at int64
		err := s.Scan(&e.ID, &e.Moderator, &e.Name, &e.Action, &e.Target, &e.TargetName, &e.Detail, &e.Reason, &at)
		e.At = time.Unix(0, at)
		return e, err
	}, `SELECT l.id, l.moderator, coalesce(p.name, ''), l.action, l.target, coalesce(t.name, ''), l.detail, l.reason, l.at
		FROM moderation_log l LEFT JOIN players p ON p.id = l.moderator LEFT JOIN players t ON t.id = l.target
		WHERE l.id < ? ORDER BY l.id DESC LIMIT ?`, before, limit)
}

// AddReport implements store.Store. The reporter's row is locked, so that
// its reports on several nodes at once are counted one after the other.
func (db *DB) AddReport(ctx context.Context, r store.Report, max int, since time.Time) (store.Report, error) {
	if r.Reporter == "" || r.PlayerID == "" || r.Reason == "" {
		return r, store.Errorf(store.EINVALID, "a report needs a reporter, a player and a reason")
	}
	if r.At.IsZero() {
		r.At = db.Now()
	}
	err := db.InTx(ctx, "report", func(tx *sql.Tx) error {
		if err := db.lockPlayer(ctx, tx, r.Reporter); err != nil {
			return err
		}
		if max > 0 {
			n, err := db.count(ctx, tx, `SELECT count(*) FROM reports WHERE reporter = ? AND at >= ?`, r.Reporter, since.UnixNano())
			if err != nil {
				return err
			}
			if n >= max {
				return fmt.Errorf("%w: %d reports since %s", store.ErrOverLimit, n, since.UTC().Format(time.RFC3339))
			}
		}
		name, err := db.playerName(ctx, tx, r.PlayerID)
		if err != nil {
			return err
		}
		if r.Name == "" {
			r.Name = name
		}
		if err := db.keep(ctx, tx, r.Reporter, r.PlayerID); err != nil {
			return err
		}
		return db.row(ctx, tx, `INSERT INTO reports (reporter, player_id, name, table_id, line, text, reason, at, closed, closed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, '') RETURNING id`,
			r.Reporter, r.PlayerID, r.Name, r.TableID, r.Line, r.Text, r.Reason, r.At.UnixNano()).Scan(&r.ID)
	})
	return r, err
}

// Reports implements store.Store.
func (db *DB) Reports(ctx context.Context, f store.ReportFilter) ([]store.Report, error) {
	if f.Limit <= 0 {
		f.Limit = 50
	}
	if f.Before <= 0 {
		f.Before = 1<<63 - 1
	}
	q := `SELECT id, reporter, player_id, name, table_id, line, text, reason, at, closed, closed_by FROM reports WHERE id < ?`
	if f.Open {
		q += ` AND closed = 0`
	}
	q += ` ORDER BY id DESC LIMIT ?`
	return readAll(ctx, db, "reports", func(s Scanner) (store.Report, error) {
		var r store.Report
		var at, closed int64
		err := s.Scan(&r.ID, &r.Reporter, &r.PlayerID, &r.Name, &r.TableID, &r.Line, &r.Text, &r.Reason, &at, &closed, &r.ClosedBy)
		r.At, r.Closed = time.Unix(0, at), timeOrZero(closed)
		return r, err
	}, q, f.Before, f.Limit)
}

// CloseReport implements store.Store.
func (db *DB) CloseReport(ctx context.Context, id int64, e store.AuditEntry) error {
	if e.At.IsZero() {
		e.At = db.Now()
	}
	return db.InTx(ctx, "close report", func(tx *sql.Tx) error {
		var closed int64
		err := db.row(ctx, tx, `SELECT closed FROM reports WHERE id = ?{for update}`, id).Scan(&closed)
		if err = notFound(err, "no report %d", id); err != nil {
			return err
		}
		if closed != 0 {
			return store.Errorf(store.ECONFLICT, "report %d is closed already", id)
		}
		if _, err := db.exec(ctx, tx, `UPDATE reports SET closed = ?, closed_by = ? WHERE id = ?`, e.At.UnixNano(), e.Moderator, id); err != nil {
			return err
		}
		return db.logAction(ctx, tx, e)
	})
}

// Notices implements store.Store.
func (db *DB) Notices(ctx context.Context, playerID string, limit int) ([]store.Notice, error) {
	if limit <= 0 {
		limit = 10
	}
	return readAll(ctx, db, "notices", func(s Scanner) (store.Notice, error) {
		n := store.Notice{PlayerID: playerID}
		var at int64
		err := s.Scan(&n.ID, &n.Kind, &n.OldName, &n.NewName, &n.Reason, &at)
		n.At = time.Unix(0, at)
		return n, err
	}, `SELECT id, kind, old_name, new_name, reason, at FROM notices WHERE player_id = ? AND seen = {false} ORDER BY id LIMIT ?`, playerID, limit)
}

// SeeNotice implements store.Store.
func (db *DB) SeeNotice(ctx context.Context, playerID string, id int64) error {
	return db.InTx(ctx, "see notice", func(tx *sql.Tx) error {
		n, err := db.count(ctx, tx, `SELECT count(*) FROM notices WHERE id = ? AND player_id = ?`, id, playerID)
		if err != nil {
			return err
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "no notice %d", id)
		}
		_, err = db.exec(ctx, tx, `UPDATE notices SET seen = {true} WHERE id = ?`, id)
		return err
	})
}
