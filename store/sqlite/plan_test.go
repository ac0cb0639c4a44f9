package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"
)

// TestInvitationQueriesUseIndexes: a player's open tables, its invitations
// and the counts of invitations are read through the index of open seats
// (and the blocks' primary key), never by a scan of every table: SQLite's
// plan of each query searches, and its first step reads open_seats or a
// table by its ID.
func TestInvitationQueriesUseIndexes(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "plan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w, args := sqlstore.Where(store.TableFilter{PlayerID: "p", Status: []store.Status{store.Waiting, store.Playing}})
	for _, q := range []struct {
		name, sql string
		args      []any
	}{
		{"a player's open tables", `SELECT ` + sqlstore.TableCols + ` FROM tables` + w + ` ORDER BY updated DESC, id LIMIT 200`, args},
		{"a player's open tables counted", `SELECT count(*) FROM tables` + w, args},
		{"a player's invitations", sqlstore.InvitationsQuery, []any{"p", 50}},
		{"the invitations an inviter sent", sqlstore.SentQuery, []any{"p"}},
		{"the invitations kept for an invitee", sqlstore.KeptQuery, []any{"p"}},
	} {
		plan := queryPlan(t, db, q.sql, q.args...)
		text := strings.Join(plan, "; ")
		if len(plan) == 0 || strings.Contains(text, "SCAN ") || !strings.Contains(text, "open_seats") && !strings.Contains(text, " o USING") {
			t.Errorf("%s: the plan %q scans or does not read the index of open seats", q.name, text)
		}
		if strings.Contains(text, "tables_status_updated") {
			t.Errorf("%s: the plan %q searches every open table by status", q.name, text)
		}
		t.Logf("%s: %s", q.name, text)
	}
}

// TestExpireGuestsUsesIndexes: the guests ExpireGuests deletes are found
// through the index of guests not kept, oldest first, and each condition
// by its player's index: never a scan of every player, table or session.
func TestExpireGuestsUsesIndexes(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "plan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	plan := queryPlan(t, db, sqlstore.ExpireGuestsQuery, 1, 1, 500)
	text := strings.Join(plan, "; ")
	if len(plan) == 0 || strings.Contains(text, "SCAN ") || strings.Contains(text, "TEMP B-TREE") || !strings.Contains(text, "players_unkept") {
		t.Errorf("the plan %q scans, sorts or does not read the index of guests not kept", text)
	}
	t.Log(text)
}

// queryPlan returns the steps of SQLite's plan of the query.
func queryPlan(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.R.Query(`EXPLAIN QUERY PLAN `+dialect.SQL(query), args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestActionMovesNoIndexEntry: the write of an action to its table's row
// (the most common write) changes no indexed column: SQLite's program for
// it neither deletes nor inserts an index entry, nor runs a trigger. It
// wrote updated before, which moved the table's entry in the index
// (status, updated) on every action.
func TestActionMovesNoIndexEntry(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "plan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []struct {
		sql  string
		args []any
	}{{sqlstore.ActionUpdate, []any{2, 5, "t"}}, {sqlstore.ActionUpdateIf, []any{2, 5, "t", 1, "playing"}}} {
		rows, err := db.W.QueryContext(context.Background(), `EXPLAIN `+q.sql, q.args...)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		var ops []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			ops = append(ops, fmt.Sprint(vals[1])) // addr, opcode, p1, ...
		}
		rows.Close()
		if len(ops) == 0 {
			t.Fatalf("%s: no program", q.sql)
		}
		for _, op := range ops {
			if op == "IdxDelete" || op == "IdxInsert" || op == "Program" {
				t.Errorf("%s: its program has %s: %v", q.sql, op, ops)
			}
		}
	}
}
