package postgres

import "github.com/farkle/farkle/store/sqlstore"

// Versions returns the numbers of the migrations this build applies, in
// order: a database this build has opened records each of them in
// schema_migrations (farkle db check compares).
func Versions() []int { return sqlstore.Versions(migrations) }
