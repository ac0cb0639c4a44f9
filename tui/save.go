package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solved"
)

// ErrSave is wrapped by the errors of saving and resuming games.
var ErrSave = errors.New("tui: saved game")

// GamesDir returns the directory saved games go to, from the environment
// looked up with getenv: $FARKLE_DATA_DIR/games when FARKLE_DATA_DIR is set,
// else $XDG_DATA_HOME/farkle/games, else $HOME/.local/share/farkle/games.
// It fails when none of them is set.
func GamesDir(getenv func(string) string) (string, error) {
	if d := getenv("FARKLE_DATA_DIR"); d != "" {
		return filepath.Join(d, "games"), nil
	}
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "farkle", "games"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "farkle", "games"), nil
	}
	return "", fmt.Errorf("%w: no directory for saved games (set FARKLE_DATA_DIR, XDG_DATA_HOME or HOME)", ErrSave)
}

// GamePath returns a new file name in dir for a game started at t with the
// named players, e.g. dir/20261129-163000-ana-steady.json.
func GamePath(dir string, t time.Time, names []string) string {
	var b strings.Builder
	b.WriteString(t.Format("20060102-150405"))
	for _, n := range names {
		b.WriteByte('-')
		for _, r := range strings.ToLower(n) {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
				b.WriteRune(r)
			default:
				b.WriteByte('_')
			}
		}
	}
	b.WriteString(".json")
	return filepath.Join(dir, b.String())
}

// SeedPath returns the sidecar file holding the seed of the unfinished game
// saved at path: path with ".seed" instead of ".json".
func SeedPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".seed"
}

// writeFile writes data to path through a temporary file and a rename, so
// a crash leaves the old file or the new one, never half of one.
func writeFile(path string, data []byte, perm os.FileMode) error {
	return writeVia(path, data, perm, os.Rename)
}

// writeNew is writeFile for a file that must not exist yet: the temporary
// file is linked to path, which fails with os.ErrExist (wrapped) when
// another game took the name first, even in another process.
func writeNew(path string, data []byte, perm os.FileMode) error {
	return writeVia(path, data, perm, func(tmp, path string) error {
		err := os.Link(tmp, path)
		if err == nil {
			err = os.Remove(tmp)
		}
		return err
	})
}

func writeVia(path string, data []byte, perm os.FileMode, place func(tmp, path string) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".farkle-*")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSave, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), perm)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%w: %w", ErrSave, err)
	}
	if err := place(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%w: %w", ErrSave, err)
	}
	return nil
}

// otherName returns the n-th alternative of a save file name taken by
// another game: name-2.json, name-3.json, ...
func otherName(path string, n int) string {
	return fmt.Sprintf("%s-%d.json", strings.TrimSuffix(path, ".json"), n)
}

// ResumeGame reads the unfinished game of ordinary Farkle saved at path
// and its seed from the sidecar file, replays it (checking every throw
// against the seed) and returns it ready to continue; it is saved back to
// path. A finished game, a missing sidecar or a seed that does not match
// are errors wrapping ErrSave (or game.ErrDiscrepancy).
// The bots play from the solver results of ts (nil: solved.DefaultTables()).
func ResumeGame(path string, now func() time.Time, ts *solved.Tables) (*Game, error) {
	t, steps, err := resumeTable(path, game.Farkle, now)
	if err != nil {
		return nil, err
	}
	g := &Game{table: t, tables: ts}
	if err := g.makeBots(); err != nil {
		return nil, err
	}
	// Rebuild the log and the turn's keeps from the replayed events.
	for _, st := range steps {
		for _, e := range st.Events {
			g.note(e.(engine.Event))
		}
	}
	base := filepath.Base(path)
	g.log = append(g.log, func(c *lang.Catalogue) string { return c.Msg("tui.resumed", "file", base) })
	return g, nil
}
