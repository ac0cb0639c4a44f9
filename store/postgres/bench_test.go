package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlstore"

	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/storetest"
)

// BenchmarkAppendAction measures the cost of one action's commit on
// PostgreSQL, as store/sqlite's benchmark of the same name does: one table
// appending serially (each action its own commit) and 64 tables appending
// in parallel.
//
//	FARKLE_TEST_POSTGRES=... go test ./store/postgres/ -run '^$' -bench AppendAction -benchmem
func BenchmarkAppendAction(b *testing.B) {
	for _, tc := range []struct {
		name   string
		tables int
	}{{"serial", 1}, {"parallel64", 64}} {
		b.Run(tc.name, func(b *testing.B) {
			db, err := postgres.Open(context.Background(), pgtest.DSN(b))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			storetest.BenchAppend(b, db, tc.tables)
		})
	}
}

// BenchmarkCommitBatch measures a batch of the group commit of k later
// actions of k tables, written by one statement (together) or one
// statement an action (alone), one batch at a time: the time a batch
// waits for its commit, and the PostgreSQL backend's CPU an action (from
// /proc, where the database runs on this machine).
//
//	FARKLE_TEST_POSTGRES=... go test ./store/postgres/ -run '^$' -bench CommitBatch -benchmem
func BenchmarkCommitBatch(b *testing.B) {
	for _, k := range []int{2, 4, 11, 35} {
		for _, together := range []bool{true, false} {
			name := fmt.Sprintf("k-%d/alone", k)
			if together {
				name = fmt.Sprintf("k-%d/together", k)
			}
			b.Run(name, func(b *testing.B) {
				benchCommitBatch(b, k, together)
			})
		}
	}
}

func benchCommitBatch(b *testing.B, k int, together bool) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if !together {
		db.WriteAlone()
	}
	ids := make([]string, k)
	for i := range ids {
		ids[i] = fmt.Sprint("b", i)
		if err := db.CreateTable(ctx, store.Table{ID: ids[i], Kind: game.Farkle, Rules: json.RawMessage(`{}`),
			Seats: []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}, Seed: dice.SeedFrom(ids[i])}); err != nil {
			b.Fatal(err)
		}
		if err := db.AppendAction(ctx, ids[i], 1, json.RawMessage(`{"n":1}`), nil); err != nil {
			b.Fatal(err)
		}
	}
	cpu0 := backendsCPU(b, db)
	b.ResetTimer()
	for n := 2; n < b.N+2; n++ {
		batch := make([]*sqlstore.Append, k)
		for i, id := range ids {
			a, err := sqlstore.NewAppend(id, n, json.RawMessage(`{"roll":[1,2,3,4,5,6]}`), nil)
			if err != nil {
				b.Fatal(err)
			}
			a.Quiet = true
			batch[i] = &a
		}
		for _, err := range db.CommitBatch(batch) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	if cpu := backendsCPU(b, db); cpu0 >= 0 && cpu >= 0 {
		b.ReportMetric(float64(cpu-cpu0)/float64(b.N*k), "pg-ns/action")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/action")
}

// backendsCPU returns the CPU time of db's backends, read from /proc (-1
// where the database is not on this machine or /proc cannot be read).
func backendsCPU(b *testing.B, db *postgres.DB) time.Duration {
	rows, err := db.R.Query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'farkle %'`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var total time.Duration
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			b.Fatal(err)
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return -1
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+s) * (time.Second / 100)
	}
	return total
}
