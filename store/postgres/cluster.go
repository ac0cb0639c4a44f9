package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// The nodes on one database hear of each other's changes through LISTEN
// and NOTIFY on channel (each write that changes a table notifies
// "N STATUS ID" with the commit: table ID has N actions and the status; a
// batch of the group commit sends its hints together, one a line, right
// after its commit in a transaction of their own), and share the tables' bots and
// clocks through leases: rows in the leases table, renewed by their node,
// expiring by the database's clock.

// Changes implements store.Cluster. A connection of its own listens; when
// it is lost it is made again (with a pause growing to two seconds), and a
// Change with no table is sent first: hints may have been missed meanwhile.
func (db *DB) Changes(ctx context.Context) <-chan store.Change {
	out := make(chan store.Change, 256)
	go func() {
		defer close(out)
		pause := 50 * time.Millisecond
		for ctx.Err() == nil {
			if db.listen(ctx, out) {
				pause = 50 * time.Millisecond
			}
			select {
			case <-ctx.Done():
			case <-time.After(pause):
			}
			pause = min(2*pause, 2*time.Second)
		}
	}()
	return out
}

// listen listens on one connection until it fails or ctx ends; it
// reports whether it got as far as listening.
func (db *DB) listen(ctx context.Context, out chan<- store.Change) bool {
	conn, err := pgx.ConnectConfig(ctx, db.cfg.Copy())
	if err != nil {
		return false
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `LISTEN `+db.channel); err != nil {
		return false
	}
	select {
	case out <- store.Change{}: // what happened before LISTEN is read again
	case <-ctx.Done():
		return true
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true
		}
		if n.Payload == handoffPayload { // handoff.go
			select {
			case out <- store.Change{}:
			case <-ctx.Done():
				return true
			}
			continue
		}
		for _, line := range strings.Split(n.Payload, "\n") { // a batch's hints, one a line
			c, ok := db.followOf(line) // follow.go
			if !ok {
				f := strings.SplitN(line, " ", 3)
				if len(f) != 3 {
					continue
				}
				actions, err := strconv.Atoi(f[0])
				if err != nil {
					continue
				}
				c = store.Change{Table: f[2], Actions: actions, Status: store.Status(f[1])}
			}
			select {
			case out <- c:
			case <-ctx.Done():
				return true
			}
		}
	}
}

// ttl is the lease time as seconds for SQL.
func (db *DB) ttl() float64 { return db.opt.LeaseTTL.Seconds() }

// Claim implements store.Cluster.
func (db *DB) Claim(ctx context.Context, table string) (bool, error) {
	rows, err := db.W.QueryContext(ctx, `INSERT INTO leases (table_id, node, expires) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
		ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, expires = excluded.expires
		WHERE leases.node = excluded.node OR leases.expires < clock_timestamp() OR leases.node = ''
		RETURNING node`, table, db.node, db.ttl())
	if err != nil {
		if isForeignKey(err) {
			return false, store.Errorf(store.ENOTFOUND, "no table %q", table)
		}
		return false, err
	}
	defer rows.Close()
	held := rows.Next()
	rows.Close()
	if err := rows.Err(); err != nil {
		if isForeignKey(err) {
			return false, store.Errorf(store.ENOTFOUND, "no table %q", table)
		}
		return false, err
	}
	return held, nil
}

// Renew implements store.Cluster.
func (db *DB) Renew(ctx context.Context) ([]string, error) {
	return db.tables(ctx, `UPDATE leases SET expires = clock_timestamp() + make_interval(secs => $2) WHERE node = $1 RETURNING table_id`, db.node, db.ttl())
}

// Release implements store.Cluster.
func (db *DB) Release(ctx context.Context, table string) error {
	_, err := db.W.ExecContext(ctx, `DELETE FROM leases WHERE table_id = $1 AND node = $2`, table, db.node)
	return err
}

// Orphans implements store.Cluster.
func (db *DB) Orphans(ctx context.Context) ([]string, error) {
	return db.tables(ctx, `SELECT id FROM tables t WHERE status IN ('waiting', 'playing')
		AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.table_id = t.id AND l.expires >= clock_timestamp()) ORDER BY id`)
}

// tables runs a query of table IDs.
func (db *DB) tables(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := db.W.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
