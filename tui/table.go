package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// table is what the terminal games of every variant share: the game being
// played from its secret seed (game.Play), the seats, and the file it is
// saved to with the seed kept beside it until the game ends.
type table struct {
	play  *game.Play
	seats []Seat
	path  string // save file; "" when games are not saved
	taken bool   // the save file is this game's (it wrote it, or resumed from it)
	now   func() time.Time
	saved error // the error of the last save, nil if it worked
}

// startTable starts a game of v for the seats; it is saved to path ("" for
// never) and now stamps the record (nil: time.Now).
func startTable(v game.Variant, seats []Seat, seed dice.Seed, path string, now func() time.Time) (*table, []game.Event, error) {
	if now == nil {
		now = time.Now
	}
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	play, evs, err := game.Start(v, names, seed)
	if err != nil {
		return nil, nil, err
	}
	meta := &play.Record().Meta
	meta.Started = now().UTC().Format(time.RFC3339)
	meta.Extra = map[string]string{"client": "farkle play"}
	for i, s := range seats {
		if s.IsBot() {
			meta.SetLevel(i, s.Bot)
		}
	}
	return &table{play: play, seats: seats, path: path, now: now}, evs, nil
}

// do plays a for seat and stamps the end of the game in the record.
func (t *table) do(seat int, a game.Action) ([]game.Event, error) {
	evs, err := t.play.Do(seat, a)
	if err != nil {
		return nil, err
	}
	if t.play.Game().Over() {
		t.play.Record().Meta.Ended = t.now().UTC().Format(time.RFC3339)
	}
	return evs, nil
}

// Seats returns the players.
func (t *table) Seats() []Seat { return t.seats }

// Names returns the players' names by seat.
func (t *table) Names() []string { return t.play.Record().Players }

// Record returns the game's record so far.
func (t *table) Record() *game.Record { return t.play.Record() }

// Path returns the file the game is saved to ("" for none).
func (t *table) Path() string { return t.path }

// Over reports whether the game has ended.
func (t *table) Over() bool { return t.play.Game().Over() }

// SaveError returns the error of the last automatic save, nil if it
// worked.
func (t *table) SaveError() error { return t.saved }

// Save writes the record to the game's file (creating its directory) and,
// while the game is unfinished, its seed to the sidecar file (SeedPath);
// once the game is over the record holds the seed and the sidecar is
// removed. It does nothing for a game without a file.
func (t *table) Save() error {
	if t.path == "" {
		return nil
	}
	data, err := t.play.Record().Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o755); err != nil {
		return fmt.Errorf("%w: %w", ErrSave, err)
	}
	if !t.taken {
		if err := t.claim(append(data, '\n')); err != nil {
			return err
		}
	}
	seedPath := SeedPath(t.path)
	if t.Over() {
		if err := writeFile(t.path, append(data, '\n'), 0o644); err != nil {
			return err
		}
		if err := os.Remove(seedPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w: %w", ErrSave, err)
		}
		return nil
	}
	if err := writeFile(seedPath, []byte(t.play.Seed().Hex()+"\n"), 0o600); err != nil {
		return err
	}
	return writeFile(t.path, append(data, '\n'), 0o644)
}

// claim writes the game's first save to a file no other game has: the
// path it was given, or, when another game took that name (two games
// started in the same second by the same players), the next free
// alternative. The game's path becomes the one written.
func (t *table) claim(data []byte) error {
	path := t.path
	for n := 2; ; n++ {
		err := writeNew(path, data, 0o644)
		if err == nil {
			t.path, t.taken = path, true
			return nil
		}
		if !errors.Is(err, os.ErrExist) || n > 1000 {
			return err
		}
		path = otherName(t.path, n)
	}
}

// readSaved reads the record saved at path, of any kind.
func readSaved(path string) (*game.Record, error) {
	data, err := game.ReadRecordFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSave, err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSave, path, err)
	}
	return rec, nil
}

// readSeedFile reads a seed sidecar file: 64 hex digits and a newline, so
// no more than a few hundred bytes are read of whatever the file holds.
func readSeedFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 256))
}

// resumeTable reads the unfinished game saved at path and its seed from
// the sidecar file, replays it (checking every action against the seed)
// and returns it ready to continue, with the steps so far. A finished
// game, a missing sidecar or a seed that does not match are errors
// wrapping ErrSave (or game.ErrDiscrepancy). Dragon Farkle games saved
// before the one record format kept their seed in the record itself.
func resumeTable(path string, kind game.Kind, now func() time.Time) (*table, []game.Step, error) {
	if now == nil {
		now = time.Now
	}
	rec, err := readSaved(path)
	if err != nil {
		return nil, nil, err
	}
	if rec.Kind != kind {
		return nil, nil, fmt.Errorf("%w: %s: a game of %s, not %s", ErrSave, path, rec.Kind, kind)
	}
	if len(rec.Meta.Winners) > 0 || (rec.Seed != "" && rec.Meta.Ended != "") {
		msg := "the game is over"
		if len(rec.Meta.Winners) > 0 && len(rec.Meta.Scores) == len(rec.Players) {
			w := rec.Meta.Winners[0]
			msg = fmt.Sprintf("the game is over: %s won with %s", rec.Players[w], orEnglish(nil).Num(int64(rec.Meta.Scores[w])))
		}
		return nil, nil, fmt.Errorf("%w: %s: %s; nothing to resume", ErrSave, path, msg)
	}
	var seed dice.Seed
	if rec.Seed != "" {
		if seed, err = dice.ParseSeed(rec.Seed); err != nil {
			return nil, nil, fmt.Errorf("%w: %s: %w", ErrSave, path, err)
		}
	} else {
		text, err := readSeedFile(SeedPath(path))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %s: the seed of an unfinished game is kept in %s, which cannot be read: %w", ErrSave, path, SeedPath(path), err)
		}
		if seed, err = dice.ParseSeed(strings.TrimSpace(string(text))); err != nil {
			return nil, nil, fmt.Errorf("%w: %s does not hold a seed (64 hex digits)", ErrSave, SeedPath(path))
		}
	}
	play, steps, err := game.Resume(rec, seed)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrSave, path, err)
	}
	if play.Game().Over() {
		return nil, nil, fmt.Errorf("%w: %s: the game is over; nothing to resume", ErrSave, path)
	}
	play.Record().Seed = "" // kept in the sidecar until the game ends
	seats := make([]Seat, len(rec.Players))
	for i, n := range rec.Players {
		seats[i] = Seat{Name: n, Bot: rec.Meta.Level(i)}
	}
	return &table{play: play, seats: seats, path: path, taken: true, now: now}, steps, nil
}
