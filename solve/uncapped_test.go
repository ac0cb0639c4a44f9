package solve

import (
	"path/filepath"
	"testing"
)

// TestCapSharesSolverResults: the solvers assume no cap on the game's
// length, so rules that differ only in game.max_turns share the cache file,
// the table's rules and the solo policy.
func TestCapSharesSolverResults(t *testing.T) {
	r := tinyRules(t, 300, "immediate")
	capped := r.Clone()
	capped.Game.MaxTurns = 50
	dir := filepath.Join(t.TempDir(), "farkle")
	if CacheFile(dir, capped) != CacheFile(dir, r) {
		t.Fatalf("cache files differ: %s, %s", CacheFile(dir, capped), CacheFile(dir, r))
	}
	t1, loaded, _, err := Cached(r, dir, DuelOptions{})
	if err != nil || loaded {
		t.Fatalf("first solve: loaded %v err %v", loaded, err)
	}
	t2, loaded, stale, err := Cached(capped, dir, DuelOptions{})
	if err != nil || !loaded || stale != nil {
		t.Fatalf("capped rules must load the uncapped table: loaded %v stale %v err %v", loaded, stale, err)
	}
	if t2.FirstPlayerWins() != t1.FirstPlayerWins() || t2.Rules().Hash() != r.ForSolver().Hash() {
		t.Fatal("the capped rules got another table")
	}
	p, err := SolveSolo(capped)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rules().Game.MaxTurns != 0 {
		t.Fatal("the solo policy must be of the uncapped rules")
	}
}
