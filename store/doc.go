// Package store is the persistence of the web game: guest players, tables
// with their secret dice seeds and seats, every accepted action in order,
// and the results of finished games from which stats, the leaderboard and
// the history are read.
//
// Store is an interface so that the embedded SQLite implementation
// (store/sqlite) and a PostgreSQL one can serve the same server; the
// conformance suite in store/storetest runs against any of them. Errors
// carry a code (ENOTFOUND, ECONFLICT, EINVALID) through *Error; only the
// HTTP layer maps codes to status codes.
package store
