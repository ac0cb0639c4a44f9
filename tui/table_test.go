package tui

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
)

// TestSavesNeverCollide: games started in the same second by the same
// players (the same file name) are saved to files of their own, even when
// they save at once, and each resumes to its own game.
func TestSavesNeverCollide(t *testing.T) {
	dir := t.TempDir()
	path := GamePath(dir, fixedNow(), []string{"ana", "steady"})
	const n = 8
	games := make([]*Game, n)
	for i := range games {
		g, err := NewGame(seatOrder("classic"), []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom(string(rune('a'+i))), path, fixedNow, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Do(engine.ThrowBy(0)); err != nil {
			t.Fatal(err)
		}
		games[i] = g
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, g := range games {
		wg.Go(func() { errs[i] = g.Save() })
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, g := range games {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if seen[g.Path()] {
			t.Fatalf("two games saved to %s", g.Path())
		}
		seen[g.Path()] = true
		back, err := ResumeGame(g.Path(), fixedNow, nil)
		if err != nil {
			t.Fatal(err)
		}
		if back.State().Throw != g.State().Throw {
			t.Fatalf("%s resumes to another game", filepath.Base(g.Path()))
		}
		// Later saves go to the same file.
		if err := g.Save(); err != nil || g.Path() != back.Path() {
			t.Fatalf("the second save moved the game to %s (%v)", g.Path(), err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != n {
		t.Fatalf("%d files for %d games: %v", len(files), n, files)
	}
}
