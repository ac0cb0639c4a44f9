package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/store"
)

// TestMigrateIndexesOpenSeats: migration 0014 fills the index of open
// seats from the tables already stored, so that after an upgrade a
// player's open tables and invitations are those its tables hold: seats
// of waiting and playing tables, free seats kept for it, nothing of a
// finished table.
func TestMigrateIndexesOpenSeats(t *testing.T) {
	ctx := context.Background()
	exec, upgrade := oldDatabase(t, filepath.Join(t.TempDir(), "old.db"), "0001_init.sql", "0002_table_kind.sql", "0003_failed_expired.sql",
		"0004_table_variant.sql", "0005_one_kind.sql", "0006_ssh_keys.sql", "0007_ratings.sql", "0008_accounts.sql", "0009_pace.sql",
		"0010_chat.sql", "0011_tournaments.sql", "0012_ceremonies.sql")
	exec(`INSERT INTO players VALUES ('p1', 'Ann', 'h1', 1), ('p2', 'Bea', 'h2', 1)`)
	add := func(id, status, seats string) {
		exec(`INSERT INTO tables (id, kind, rules, seats, seed, status, actions, created, updated, creator) VALUES (?, 'farkle', '{}', ?, 'ab', ?, 0, 1, 1, 'p1')`, id, seats, status)
	}
	add("invite", "waiting", `[{"name":"Ann","player_id":"p1"},{"name":"Bea","invited":"p2"}]`)
	add("play", "playing", `[{"name":"Ann","player_id":"p1"},{"name":"Bea","player_id":"p2","invited":"p2"}]`)
	add("done", "over", `[{"name":"Ann","player_id":"p1"},{"name":"Bea","player_id":"p2"}]`)
	add("gone", "expired", `[{"name":"Ann","player_id":"p1"},{"name":"Bea","invited":"p2"}]`)
	db := upgrade()
	open := []store.Status{store.Waiting, store.Playing}
	for _, c := range []struct {
		player string
		want   []string
	}{{"p1", []string{"invite", "play"}}, {"p2", []string{"play"}}} {
		got, err := db.Tables(ctx, store.TableFilter{PlayerID: c.player, Status: open})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s's open tables after the upgrade: %d, want %v", c.player, len(got), c.want)
		}
		for _, tb := range got {
			if tb.ID != c.want[0] && tb.ID != c.want[len(c.want)-1] {
				t.Fatalf("%s's open tables after the upgrade: %s among them, want %v", c.player, tb.ID, c.want)
			}
		}
	}
	inv, err := db.Invitations(ctx, "p2", 10)
	if err != nil || len(inv) != 1 || inv[0].ID != "invite" {
		t.Fatalf("p2's invitations after the upgrade: %v %v", inv, err)
	}
	if n, err := db.CountInvitations(ctx, store.InvitationFilter{Inviter: "p1"}); err != nil || n != 1 {
		t.Fatalf("p1's invitations sent after the upgrade: %d %v", n, err)
	}
}
