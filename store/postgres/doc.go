// Package postgres is the store.Store of a PostgreSQL database, through
// github.com/jackc/pgx/v5's database/sql driver, for a site that runs the
// web game as several server nodes on one database. Its statements are the
// one SQL store's (store/sqlstore) in PostgreSQL's dialect (dialect.go):
// rows locked FOR UPDATE and advisory locks where nodes must take turns.
// This package adds the leases, the change hints and the one-statement
// append of an action.
//
// The schema is the SQLite store's (store/sqlite), in migrations of its
// own: embedded SQL files run in order, each in its own transaction under
// an advisory lock (nodes starting together migrate once) and recorded in
// schema_migrations. From 0006 on a migration has the number of the
// SQLite migration it mirrors (ssh_keys, ratings, accounts, pace, chat,
// tournaments, ceremonies).
//
// Every write is one transaction. AppendAction locks the table's row and
// the primary key (table_id, n) refuses a second action n, so of two nodes
// appending the same action one gets ECONFLICT: nothing is lost or doubled.
// An action is durable when AppendAction returns (PostgreSQL's commit).
// The other writes that nodes may race on are as safe: a rating is
// written conditionally on the games it was computed from, a tournament on
// its version, a recovery code replaced only if unchanged, an account's
// passkeys removed under its row's lock, and a table's chat lines
// numbered under an advisory lock of that chat; a sign-in ceremony is
// taken by one delete, and put under an advisory lock that keeps the cap.
//
// DB is also a store.Cluster: each write that changes a table notifies the
// channel of its schema (farkle_tables_ and a hash of the schema name, so
// sites and tests sharing a database never hear each other) with the
// table's ID and number of actions (never its seed or its moves) when it
// commits (an action of the group commit just after its batch commits,
// never before), and the leases table says which
// node runs each table's bots and clock, until its lease expires by the
// database's clock (Options.LeaseTTL).
package postgres
