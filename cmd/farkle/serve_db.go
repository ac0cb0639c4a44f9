package main

import (
	"context"
	"net/url"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/sqlite"
)

// dbEnv is the variable that names the database when --db is not given.
const dbEnv = "FARKLE_DB"

// openStore opens the store at addr: a PostgreSQL database for a
// postgres:// (or postgresql://) URL, else the SQLite file at that path.
func openStore(ctx context.Context, addr string) (store.Store, error) {
	if postgres.IsAddress(addr) {
		return postgres.Open(ctx, addr)
	}
	return sqlite.Open(ctx, addr)
}

// dbName is addr as it may be shown or logged: a URL without its
// password.
func dbName(addr string) string {
	if !postgres.IsAddress(addr) {
		return addr
	}
	u, err := url.Parse(addr)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}
