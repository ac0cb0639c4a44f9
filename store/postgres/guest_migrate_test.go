package postgres_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/storetest"
)

// TestMigrateGuestsKept: the upgrade to guests that expire (migration
// 0017) keeps every guest of a database made before that anything names,
// each by one thing only (a tournament without entrants among them), so
// that ExpireGuests then deletes only the one guest that nothing names.
func TestMigrateGuestsKept(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// The database as the migrations up to 0014 left it.
	exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`)
	files, _ := filepath.Glob("migrations/*.sql")
	for _, f := range files {
		name := filepath.Base(f)
		v, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil || v > 14 {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		exec(string(body))
		exec(`INSERT INTO schema_migrations VALUES ($1, $2, 1)`, v, name)
	}
	guests := []string{"creator", "seated", "invited", "result", "rating", "change", "chat", "tourcreator", "entrant", "blocker", "blocked", "account", "keyed", "nothing"}
	for _, id := range guests {
		exec(`INSERT INTO players (id, name, token_hash, created) VALUES ($1, $2, $3, 1)`, id, "N"+id, "tok-"+id)
		exec(`INSERT INTO sessions (token_hash, id, player_id, created, last_seen) VALUES ($1, $2, $3, 1, 1)`, "tok-"+id, "s-"+id, id)
	}
	exec(`INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, creator) VALUES
		('t1', 'farkle', '{}', '[{"name":"A","player_id":"seated"},{"name":"","invited":"invited"}]', 'ab', 'failed', 0, 1, 1, 'creator')`)
	exec(`INSERT INTO results VALUES ('t1', 0, 'result', 'N', 0, false, 0, 0, 0, 0, 0, 1)`)
	exec(`INSERT INTO ratings VALUES ('farkle', 'rating', 'N', 1500, 350, 0.06, 1, 1)`)
	exec(`INSERT INTO rating_changes VALUES ('t1', 'change', 'farkle', 'N', 1500, 350, 0.06, 1600, 300, 0.06, 0, false, 1)`)
	exec(`INSERT INTO chat VALUES ('t1', 1, 'chat', 'N', 'hi', 1)`)
	exec(`INSERT INTO tournaments (id, name, format, kind, rules, size, creator, status, entrants, state, version, created, updated)
		VALUES ('c1', 'Cup', 'swiss', 'farkle', '{}', 4, 'tourcreator', 'open', '[{"name":"B","bot":"steady"},{"name":"E","player_id":"entrant"}]', '{}', 1, 1, 1),
		('c2', 'Empty', 'swiss', 'farkle', '{}', 4, 'creator', 'open', 'null', '{}', 1, 1, 1)`)
	exec(`INSERT INTO blocks VALUES ('blocker', 'creator', 1), ('creator', 'blocked', 1)`)
	exec(`INSERT INTO accounts (player_id, name_key, recovery_hash, created) VALUES ('account', 'account', 'r', 1)`)
	exec(`INSERT INTO ssh_keys VALUES ('SHA256:k', 'keyed', 1)`)

	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.OnlyUnnamedExpire(t, db, guests)
}
