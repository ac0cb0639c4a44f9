package sqlite_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/store/storetest"
)

// TestMigrateGuestsKept: the upgrade to guests that expire (migration
// 0017) keeps every guest of a database made before that anything names,
// each by one thing only, so that ExpireGuests then deletes only the one
// guest that nothing names.
func TestMigrateGuestsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	var names []string
	for i := 1; i <= 14; i++ {
		m, err := filepath.Glob(filepath.Join("migrations", fmt.Sprintf("%04d_*.sql", i)))
		if err != nil || len(m) != 1 {
			t.Fatalf("migration %d: %v %v", i, m, err)
		}
		names = append(names, filepath.Base(m[0]))
	}
	exec, upgrade := oldDatabase(t, path, names...)
	guests := []string{"creator", "seated", "invited", "result", "rating", "change", "chat", "tourcreator", "entrant", "blocker", "blocked", "account", "keyed", "nothing"}
	for _, id := range guests {
		exec(`INSERT INTO players (id, name, token_hash, created) VALUES (?, ?, ?, 1)`, id, "N"+id, "tok-"+id)
	}
	exec(`INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, creator) VALUES
		('t1', 'farkle', '{}', '[{"name":"A","player_id":"seated"},{"name":"","invited":"invited"}]', 'ab', 'failed', 0, 1, 1, 'creator')`)
	exec(`INSERT INTO results VALUES ('t1', 0, 'result', 'N', 0, 0, 0, 0, 0, 0, 0, 1)`)
	exec(`INSERT INTO ratings VALUES ('farkle', 'rating', 'N', 1500, 350, 0.06, 1, 1)`)
	exec(`INSERT INTO rating_changes VALUES ('t1', 'change', 'farkle', 'N', 1500, 350, 0.06, 1600, 300, 0.06, 0, 0, 1)`)
	exec(`INSERT INTO chat VALUES ('t1', 1, 'chat', 'N', 'hi', 1)`)
	exec(`INSERT INTO tournaments (id, name, format, kind, rules, size, creator, status, entrants, state, version, created, updated)
		VALUES ('c1', 'Cup', 'swiss', 'farkle', '{}', 4, 'tourcreator', 'open', '[{"name":"B","bot":"steady"},{"name":"E","player_id":"entrant"}]', '{}', 1, 1, 1)`)
	exec(`INSERT INTO blocks VALUES ('blocker', 'creator', 1), ('creator', 'blocked', 1)`)
	exec(`INSERT INTO accounts (player_id, name_key, recovery_hash, created) VALUES ('account', 'account', 'r', 1)`)
	exec(`INSERT INTO ssh_keys VALUES ('SHA256:k', 'keyed', 1)`)
	// Every session seen long ago.
	exec(`UPDATE sessions SET last_seen = 1`)
	db := upgrade()
	storetest.OnlyUnnamedExpire(t, db, guests)
}
