package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
)

func init() {
	register(&command{
		name:    "admin",
		args:    "moderator add|remove|list [NAME] [--db DB]",
		summary: "the site's moderators: name and remove them on the server's database",
		run:     runAdmin,
	})
}

const adminHelp = `farkle admin moderator add NAME makes the account NAME a moderator of the
site on the database --db (the one farkle serve uses: $FARKLE_DB, else
farkle.db; a SQLite file or a PostgreSQL URL postgres://…): on the /moderate
page and its API it may then mute and ban players, hide chat lines, rename
names, close tables and read the players' reports. farkle admin moderator
remove NAME ends that; farkle admin moderator list lists them. Only an
account (a player with a passkey) can be a moderator, named by its account
name. Moderators are named only here, never through the site: whoever can
run this on the server's database runs the site. It may run while farkle
serve runs; the change counts at once on every node. Each change is written
to the moderators' audit log, by "operator".`

// operator is who the audit log says named or removed a moderator.
const operator = "operator"

func runAdmin(ctx context.Context, e *env, args []string) error {
	c := commands["admin"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.admin.details", adminHelp))
	db := fs.String("db", "farkle.db", "the database farkle serve uses: a SQLite file or a PostgreSQL URL postgres://…; $"+dbEnv+" when not given")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if v := e.getenv(dbEnv); v != "" && !flagGiven(fs, "db") {
		*db = v
	}
	if len(words) < 2 || words[0] != "moderator" {
		return usageMsg("cli.admin.usage")
	}
	verb, rest := words[1], words[2:]
	switch verb {
	case "add", "remove":
		if len(rest) != 1 {
			return usageMsg("cli.admin.oneName", "verb", verb)
		}
	case "list":
		if len(rest) != 0 {
			return usageMsg("cli.admin.listNoName")
		}
	default:
		return usageMsg("cli.admin.usage")
	}
	// Opening a SQLite path creates the file: a mistyped --db must not
	// make a new empty database.
	if !postgres.IsAddress(*db) {
		if st, err := os.Stat(*db); err != nil || !st.Mode().IsRegular() {
			return usageMsg("cli.admin.noFile", "db", *db)
		}
	}
	st, err := openStore(ctx, *db, postgres.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if verb == "list" {
		mods, err := st.Moderators(ctx)
		if err != nil {
			return err
		}
		if len(mods) == 0 {
			fmt.Fprintf(e.stdout, "farkle: %s has no moderators\n", dbName(*db))
		}
		for _, m := range mods {
			fmt.Fprintf(e.stdout, "%s\t%s\tsince %s\n", m.Name, m.PlayerID, m.Added.UTC().Format(time.RFC3339))
		}
		return nil
	}
	name := rest[0]
	acc, err := st.AccountByName(ctx, name)
	if store.Code(err) == store.ENOTFOUND {
		return usageMsg("cli.admin.noAccount", "name", strconv.Quote(name), "db", dbName(*db))
	}
	if err != nil {
		return err
	}
	now := time.Now()
	entry := store.AuditEntry{Moderator: operator, Target: acc.PlayerID, Detail: acc.Name, Reason: "farkle admin", At: now}
	if verb == "add" {
		err = st.AddModerator(ctx, acc.PlayerID, now)
		entry.Action = "appoint"
	} else {
		err = st.RemoveModerator(ctx, acc.PlayerID)
		entry.Action = "revoke"
	}
	switch store.Code(err) {
	case store.ECONFLICT: // add: one already
		return usageMsg("cli.admin.already", "name", acc.Name)
	case store.ENOTFOUND: // remove: not one
		return usageMsg("cli.admin.notModerator", "name", acc.Name)
	case "":
		if err != nil {
			return err
		}
	}
	if err := st.LogAction(ctx, entry); err != nil {
		return err
	}
	if verb == "add" {
		fmt.Fprintf(e.stdout, "farkle: %s (%s) is a moderator of %s\n", acc.Name, acc.PlayerID, dbName(*db))
	} else {
		fmt.Fprintf(e.stdout, "farkle: %s (%s) is no longer a moderator of %s\n", acc.Name, acc.PlayerID, dbName(*db))
	}
	return nil
}
