package main

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/sqlite"
)

// healthMetric is farkle_database_healthy: 1 when the database answers
// the health round trip (a write and a read, as /healthz) within 2 s at the
// scrape, else 0. The alert rules of docs/deploy/alerts.yml watch it.
func healthMetric(db store.Store) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "farkle_database_healthy",
		Help: "1 when the database answered a write and a read within 2 s at this scrape, else 0."}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if db.Health(ctx) != nil {
			return 0
		}
		return 1
	})
}

// schemaBefore returns the migrations the database at addr has recorded
// before it is opened (none for a new database; nil if they cannot be
// read: the open that follows says why).
func schemaBefore(ctx context.Context, addr string) []int {
	if postgres.IsAddress(addr) {
		conn, err := pgx.Connect(ctx, addr)
		if err != nil {
			return nil
		}
		defer conn.Close(context.Background())
		query := func(ctx context.Context, q string, args ...any) (rowsScanner, error) {
			rows, err := conn.Query(ctx, q, args...)
			if err != nil {
				return nil, err
			}
			return pgRows{rows}, nil
		}
		v, _ := appliedVersions(ctx, query, addr)
		return v
	}
	if _, err := os.Stat(addr); err != nil {
		return []int{}
	}
	raw, err := openSQLiteRaw(addr)
	if err != nil {
		return nil
	}
	defer raw.Close()
	v, _ := appliedVersions(ctx, func(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
		return raw.QueryContext(ctx, q, args...)
	}, addr)
	return v
}

// logMigrations logs, as an operator's event, the migrations the open of
// the database applied.
func logMigrations(log *slog.Logger, addr string, before []int) {
	known := sqlite.Versions()
	if postgres.IsAddress(addr) {
		known = postgres.Versions()
	}
	had := map[int]bool{}
	for _, v := range before {
		had[v] = true
	}
	var applied []int
	for _, v := range known {
		if !had[v] {
			applied = append(applied, v)
		}
	}
	if len(applied) > 0 {
		log.Info("database migrated", "event", "migration", "db", dbName(addr), "applied", applied, "schema", known[len(known)-1])
	}
}
