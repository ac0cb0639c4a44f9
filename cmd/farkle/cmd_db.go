package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
)

func init() {
	register(&command{
		name:    "db",
		args:    "copy|backup|check …",
		summary: "the web game's database: copy it to PostgreSQL, back it up while serving, check it or a backup",
		run:     runDB,
	})
}

const dbHelp = `farkle db backup --to FILE copies a SQLite database, while farkle serve
runs on it, to FILE (a consistent snapshot: SQLite's VACUUM INTO) and checks
the copy. farkle db check DB checks a database or a backup: the file's
integrity, its schema against this farkle's, and every finished game's record
verifying. docs/OPERATIONS.md tells how to restore.

farkle db copy reads every player, table (of every kind and status), action,
final record and result of the --from database and writes them, unchanged, to
the --to database; then it reads everything back from the target and checks it:
the same players, tables and actions, every finished game's record verifying,
the same stats for every player. The source is a SQLite file; the target a
PostgreSQL URL. It refuses a target that already holds players or tables
unless --force. Stop farkle serve on the source first: what it writes during
the copy may be missed.`

// dbCommand is the command db as its subcommand sub parses flags: the
// descriptions of its flags are its own in the catalogue.
func dbCommand(sub string) *command {
	c := *commands["db"]
	c.flagKeys = "db." + sub
	return &c
}

// dbSubcommands are the subcommands of db; each parses its own flags.
var dbSubcommands = map[string]func(ctx context.Context, e *env, args []string) error{
	"copy":   runDBCopy,
	"backup": runDBBackup, // cmd_db_backup.go
	"check":  runDBCheck,  // cmd_db_check.go
}

const dbUsage = "db takes a subcommand: copy, backup or check (farkle db SUBCOMMAND -h tells more)"

func runDB(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		if run, ok := dbSubcommands[args[0]]; ok {
			return run(ctx, e, args[1:])
		}
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-") {
		// Flags before the subcommand are parsed only to answer -h and
		// to name an unknown flag as every command does.
		fs := newFlags(e, commands["db"])
		setCommandHelp(e, fs, commands["db"], para("cli.help.db.details", dbHelp))
		if err := parseFlags(fs, args); err != nil {
			return err
		}
	}
	return usagef(dbUsage)
}

func runDBCopy(ctx context.Context, e *env, args []string) error {
	c := dbCommand("copy")
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.db.details", dbHelp))
	from := fs.String("from", "", "the source database: a SQLite file")
	to := fs.String("to", "", "the target database: a PostgreSQL URL postgres://…")
	force := fs.Bool("force", false, "copy into a target that already holds data (a player or table already there is an error)")
	partial := fs.Bool("partial", false, "copy the players and games even though the source holds accounts, SSH keys, ratings, chat or tournaments, which the copy leaves behind")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (db copy takes only flags)", fs.Arg(0))
	}
	if *from == "" || *to == "" {
		return usagef("db copy needs --from and --to")
	}
	// Nothing is opened before both ends are known to be what they must
	// be: opening a SQLite path creates the file.
	if postgres.IsAddress(*from) {
		return usagef("the source %s cannot be read out: copy from a SQLite file", dbName(*from))
	}
	if !postgres.IsAddress(*to) {
		return usagef("the target %s cannot take a copy: copy to a PostgreSQL URL (postgres://…)", *to)
	}
	if st, err := os.Stat(*from); err != nil || !st.Mode().IsRegular() {
		return usagef("--from %s: no such database file (the source is the SQLite file farkle serve --db wrote)", *from)
	}
	src, err := openStore(ctx, *from, postgres.Options{})
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openStore(ctx, *to, postgres.Options{})
	if err != nil {
		return err
	}
	defer dst.Close()
	exp, ok := src.(store.Exporter)
	if !ok {
		return usagef("the source %s cannot be read out: copy from a SQLite file", dbName(*from))
	}
	imp, ok := dst.(store.Importer)
	if !ok {
		return usagef("the target %s cannot take a copy: copy to a PostgreSQL URL", dbName(*to))
	}
	left, err := exp.Uncopied(ctx)
	if err != nil {
		return err
	}
	if len(left) > 0 && !*partial {
		return fmt.Errorf("the source %s holds %s, which db copy does not move yet: pass --partial to copy the players and games without them", dbName(*from), countsText(left))
	}
	if !*force {
		empty, err := imp.Empty(ctx)
		if err != nil {
			return err
		}
		if !empty {
			return fmt.Errorf("the target %s already holds players or tables: copy into an empty database, or pass --force", dbName(*to))
		}
	}
	n, err := copyStore(ctx, exp, imp)
	if err != nil {
		return err
	}
	if err := checkCopy(ctx, exp, dst); err != nil {
		return fmt.Errorf("the copy does not match its source: %w", err)
	}
	fmt.Fprintf(e.stdout, "farkle: copied %d players, %d tables (%d over, every record verified), %d actions and %d results from %s to %s; checked\n",
		n.players, n.tables, n.over, n.actions, n.results, dbName(*from), dbName(*to))
	return nil
}

// countsText says counts by kind in words: "2 accounts, 5 chat lines".
func countsText(counts map[string]int) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, ", ")
}

// copied counts what a copy wrote.
type copied struct{ players, tables, over, actions, results int }

// copyStore writes everything of src to dst.
func copyStore(ctx context.Context, src store.Exporter, dst store.Importer) (copied, error) {
	var n copied
	err := src.EachPlayer(ctx, func(p store.Player) error {
		n.players++
		return dst.ImportPlayer(ctx, p)
	})
	if err != nil {
		return n, fmt.Errorf("copy players: %w", err)
	}
	err = src.EachTable(ctx, func(d store.TableData) error {
		n.tables++
		n.actions += len(d.Actions)
		n.results += len(d.Results)
		if d.Table.Status == store.Over {
			n.over++
		}
		return dst.ImportTable(ctx, d)
	})
	if err != nil {
		return n, fmt.Errorf("copy tables: %w", err)
	}
	return n, nil
}

// checkCopy reads back from dst everything src holds: the same players,
// tables and actions, the records of finished games verifying, and the
// same stats for every player key with results.
func checkCopy(ctx context.Context, src store.Exporter, dst store.Store) error {
	err := src.EachPlayer(ctx, func(p store.Player) error {
		got, err := dst.Player(ctx, p.ID)
		if err != nil {
			return err
		}
		if got.Name != p.Name || got.TokenHash != p.TokenHash || !got.Created.Equal(p.Created) {
			return fmt.Errorf("player %s differs", p.ID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	keys := map[string]bool{}
	tables := 0
	err = src.EachTable(ctx, func(d store.TableData) error {
		tables++
		id := d.Table.ID
		got, err := dst.Table(ctx, id)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, d.Table) {
			return fmt.Errorf("table %s differs: %+v, was %+v", id, got, d.Table)
		}
		acts, err := dst.Actions(ctx, id)
		if err != nil {
			return err
		}
		if len(acts) != len(d.Actions) {
			return fmt.Errorf("table %s has %d actions, was %d", id, len(acts), len(d.Actions))
		}
		for i := range acts {
			if !bytes.Equal(acts[i], d.Actions[i]) {
				return fmt.Errorf("action %d of table %s differs", i+1, id)
			}
		}
		if d.Table.Status == store.Over {
			rec, err := dst.FinalRecord(ctx, id)
			if err != nil {
				return err
			}
			if _, _, err := game.Verify(rec); err != nil {
				return fmt.Errorf("the record of table %s does not verify: %w", id, err)
			}
		}
		for _, r := range d.Results {
			keys[r.PlayerKey] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n, err := dst.CountTables(ctx, store.TableFilter{}); err != nil || n < tables {
		return errors.Join(err, fmt.Errorf("the target counts %d tables, the source %d", n, tables))
	}
	srcStore, ok := src.(store.Store)
	if !ok {
		return nil
	}
	for k := range keys {
		want, err := srcStore.Stats(ctx, k)
		if err != nil {
			return err
		}
		got, err := dst.Stats(ctx, k)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("the stats of %s differ: %+v, were %+v", k, got, want)
		}
	}
	return nil
}
