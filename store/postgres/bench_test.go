package postgres_test

import (
	"context"
	"testing"

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
