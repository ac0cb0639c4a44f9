package store

import (
	"context"
	"encoding/json"
	"time"
)

// Moving a site's data from one store to another (farkle db copy): the
// source exports everything as stored, the target imports it as it was
// (statuses, counts, times and records unchanged).

// TableData is one table with everything stored with it.
type TableData struct {
	Table   Table
	Actions []json.RawMessage
	Record  json.RawMessage // the final record as stored, nil unless over
	Results []Result
	// Finished is when the results were stored (zero without results).
	Finished time.Time
}

// Exporter is a store whose whole content can be read out.
type Exporter interface {
	// EachPlayer calls fn with every player, stopping at fn's first error.
	EachPlayer(ctx context.Context, fn func(Player) error) error
	// EachTable calls fn with every table and its data, oldest first,
	// stopping at fn's first error.
	EachTable(ctx context.Context, fn func(TableData) error) error
	// Uncopied counts, by what they are ("accounts", "ratings", ...), the
	// rows the Each methods do not read out, so that a copy can say what
	// it would leave behind; kinds with none are left out.
	Uncopied(ctx context.Context) (map[string]int, error)
}

// Importer is a store that takes players and tables as another store
// holds them.
type Importer interface {
	// Empty reports whether the store holds no player and no table.
	Empty(ctx context.Context) (bool, error)
	// ImportPlayer stores p as it is, with the session of its token
	// (none if its TokenHash is "": that token had ended). ECONFLICT if
	// its ID or token hash is taken.
	ImportPlayer(ctx context.Context, p Player) error
	// ImportTable stores the table with its actions, record and results
	// as they are, in one transaction. ECONFLICT if its ID is taken.
	ImportTable(ctx context.Context, d TableData) error
}
