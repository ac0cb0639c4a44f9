package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// preparedDB is a store over a real SQLite file as store/sqlite opens it:
// one writer connection, readers beside it, statements kept.
func preparedDB(t *testing.T) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.db")
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	db := &DB{W: w, R: r, D: testDialect(false), Prepared: NewPrepared()}
	t.Cleanup(func() {
		if err := db.Prepared.Close(); err != nil {
			t.Error(err)
		}
		r.Close()
		w.Close()
	})
	if _, err := db.exec(context.Background(), w, `CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return db
}

func sum(t *testing.T, db *DB, x querier) (n int, vs string) {
	t.Helper()
	ctx := context.Background()
	if err := db.row(ctx, x, `SELECT count(*) FROM t WHERE k > ?`, 0).Scan(&n); err != nil {
		t.Fatal(err)
	}
	got, err := all(ctx, db, x, scanString, `SELECT v FROM t WHERE k > ? ORDER BY k`, 0)
	if err != nil {
		t.Fatal(err)
	}
	return n, strings.Join(got, ",")
}

// TestPreparedSameAnswers: statements run through the kept ones, on the
// writer, the readers and in transactions, answer as they do unprepared,
// and each is kept once however often it runs.
func TestPreparedSameAnswers(t *testing.T) {
	ctx := context.Background()
	db := preparedDB(t)
	for i := 1; i <= 5; i++ {
		if _, err := db.exec(ctx, db.W, `INSERT INTO t (k, v) VALUES (?, ?)`, i, fmt.Sprint("v", i)); err != nil {
			t.Fatal(err)
		}
	}
	kept := db.Prepared.Len()
	n, vs := sum(t, db, db.R)
	if n != 5 || vs != "v1,v2,v3,v4,v5" {
		t.Fatalf("readers: %d rows %q, want 5 rows v1..v5", n, vs)
	}
	if got := db.Prepared.Len(); got != kept+2 {
		t.Fatalf("kept %d statements after two queries on the readers, want %d", got, kept+2)
	}
	// In a transaction: the writer's statements kept are used, those not
	// yet kept run as they are and are kept once the connection is free.
	for round := range 3 {
		err := db.InTx(ctx, "test", func(tx *sql.Tx) error {
			if _, err := db.exec(ctx, tx, `UPDATE t SET v = v || ? WHERE k = ?`, "x", 1+round); err != nil {
				return err
			}
			n, vs := sum(t, db, tx)
			if n != 5 || !strings.Contains(vs, fmt.Sprintf("v%dx", 1+round)) {
				t.Errorf("round %d in the transaction: %d rows %q", round, n, vs)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		db.Prepared.Wait()
	}
	// The update and the two queries on the writer, now kept once each.
	if got := db.Prepared.Len(); got != kept+2+3 {
		t.Fatalf("kept %d statements, want %d", got, kept+5)
	}
	db.Prepared = nil
	n2, vs2 := sum(t, db, db.W)
	db.Prepared = NewPrepared()
	n1, vs1 := sum(t, db, db.W)
	if n1 != n2 || vs1 != vs2 || vs1 != "v1x,v2x,v3x,v4,v5" {
		t.Fatalf("kept: %d %q; unprepared: %d %q; want v1x,v2x,v3x,v4,v5", n1, vs1, n2, vs2)
	}
}

// TestPreparedBounded: past maxPrepared statements, and for statements
// longer than maxCached, a statement runs unprepared, and right.
func TestPreparedBounded(t *testing.T) {
	ctx := context.Background()
	db := preparedDB(t)
	for i := range maxPrepared + 20 {
		var got int
		if err := db.row(ctx, db.R, fmt.Sprintf(`SELECT %d + ?`, i), 1).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("statement %d: %d, %v", i, got, err)
		}
	}
	if got := db.Prepared.Len(); got != maxPrepared {
		t.Fatalf("kept %d statements, want the bound %d", got, maxPrepared)
	}
	db.Prepared = NewPrepared()
	long := `SELECT ? ` + strings.Repeat(" ", maxCached)
	var got int
	if err := db.row(ctx, db.R, long, 7).Scan(&got); err != nil || got != 7 {
		t.Fatalf("long statement: %d, %v", got, err)
	}
	if n := db.Prepared.Len(); n != 0 {
		t.Fatalf("kept %d statements after a long one, want 0", n)
	}
	if err := db.Prepared.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.row(ctx, db.R, `SELECT ?`, 8).Scan(&got); err != nil || got != 8 || db.Prepared.Len() != 0 {
		t.Fatalf("after Close: %d, %v, %d kept", got, err, db.Prepared.Len())
	}
}
