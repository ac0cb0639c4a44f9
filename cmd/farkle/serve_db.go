package main

import (
	"context"
	"flag"
	"net/url"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/sqlite"
)

// dbEnv is the variable that names the database when --db is not given.
const dbEnv = "FARKLE_DB"

// openStore opens the store at addr: a PostgreSQL database for a
// postgres:// (or postgresql://) URL, with the options of a node among
// others, else the SQLite file at that path.
func openStore(ctx context.Context, addr string, node postgres.Options) (store.Store, error) {
	if postgres.IsAddress(addr) {
		return postgres.OpenWith(ctx, addr, node)
	}
	return sqlite.Open(ctx, addr)
}

// flagGiven reports whether the flag was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// nodeFlags adds the flags of a node sharing a PostgreSQL database.
func nodeFlags(fs *flag.FlagSet) *postgres.Options {
	var o postgres.Options
	fs.StringVar(&o.Node, "node", "", "with a PostgreSQL database: this node's name in the leases of its tables (default: random)")
	fs.DurationVar(&o.LeaseTTL, "lease", postgres.DefaultLeaseTTL, "with a PostgreSQL database: how long a node holds a table's bots and clock without renewing; a dead node's tables move to another within about this")
	return &o
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
