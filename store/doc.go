// Package store is the persistence of the web game: guest players, tables
// of any kind of game (game.Kind, with the variant's rules as JSON) with
// their secret dice seeds and seats, every accepted action in order as the
// variant's record entry, the final game.Record, and the results of
// finished games from which stats, the leaderboard and the history are
// read. The store does not interpret a game: it keeps what package game
// writes.
//
// Store is an interface, composed of one interface per concern (Players,
// Accounts, Tables, Results, Invitations, Ratings, Tournaments, Chat) so
// that a caller may depend on the part it uses. It is implemented once
// for SQL databases (store/sqlstore), which the embedded SQLite store
// (store/sqlite) and the PostgreSQL one (store/postgres) open with their
// dialect; the conformance suite in store/storetest runs against both. A
// store that several server nodes share is also a Cluster: it tells each
// node of the others' changes and leases each table to one node (Solo is
// the Cluster of a node alone). Exporter and Importer move a site's data
// from one store to another. Errors
// carry a code (ENOTFOUND, ECONFLICT, EINVALID) through *Error, whose
// Message is fit for a client (no package prefix); only the HTTP layer maps
// codes to status codes.
//
// A table is waiting, playing or over in the ordinary course of a game; it
// is failed when it could not be loaded or its bots prepared, and expired
// when it waited for players too long. Failed and expired tables take no
// more seats or actions, but what they stored stays readable.
package store
