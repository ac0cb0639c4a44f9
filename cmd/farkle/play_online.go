package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/tui"
)

const playOnlineHelp = `With --online URL the game is played at a farkle serve: URL is the server
(http://host:8080) or a table's link (http://host:8080/t/ID), which sits at
that table (or watches it with --watch, or when it is full). Without a table
it opens the server's lobby: enter sits at a table, w watches, n opens a new
one from the setup screen (people after the first are free seats for
friends, who join by the table's link); with --players it opens that table
at once. The first time, it signs in as a guest called --name (default
$USER); the guest's token is kept in $FARKLE_DATA_DIR/online (or beside the
games directory), so the next session is the same player; --name with
another name signs in as the guest of that name (made, and said so, the
first time), and the saved one stays for a session without --name. The
server deals the dice and keeps the turn clock (shown under the header); a
dropped connection is opened again. At the end the server's record is
checked and saved in the games directory (farkle verify FILE). --rules
dragon (or Dragon Farkle on the setup screen) plays Dragon Farkle at the
server. q at a table goes back to the lobby, q in the lobby quits; p at the
end asks for a rematch. With --plain (or without a terminal) it is the line
mode at the table of a link, or of --players; it says the time left on the
turn clock at each of your decisions, and q (quit) ends it.`

// runPlayOnline checks the flags of farkle play --online and plays.
func runPlayOnline(ctx context.Context, e *env, fs *flag.FlagSet, f onlineFlags, resolve func() (game.Variant, error), players string) error {
	for _, name := range []string{"resume", "seed"} {
		if fs.Lookup(name).Value.String() != fs.Lookup(name).DefValue {
			return usageMsg("cli.err.localOnly", "flag", name)
		}
	}
	v, err := resolve()
	if err != nil {
		return err
	}
	nt := tui.NewTable{Rules: v.Scoring()}
	parse := func(spec string) ([]tui.Seat, error) { return tui.ParsePlayers(spec, nt.Rules) }
	if o, ok := ownViews[v.Kind()]; ok {
		nt.Preset = o.preset() // the server plays the kind's preset
		parse = func(spec string) ([]tui.Seat, error) { return o.onlineSeats(spec, v) }
	}
	if players != "" {
		if nt.Seats, err = parse(players); err != nil {
			return playersError(players, err)
		}
	}
	f.plain = fs.Lookup("plain").Value.String() == "true"
	f.hold = fs.Lookup("farkle-hold").Value.(flag.Getter).Get().(time.Duration)
	return playOnline(ctx, e, f, nt, tui.NewSolverAdvisor(playTables(e)))
}

// onlineFlags are the flags of farkle play --online.
type onlineFlags struct {
	url, name string
	watch     bool
	plain     bool          // line mode (--plain, or stdin not a terminal)
	hold      time.Duration // --farkle-hold: how long the player's farkle stays on screen
}

// playOnline plays at a farkle server: the lobby, or the table of the
// link, or a new table of r and the seats.
func playOnline(ctx context.Context, e *env, f onlineFlags, nt tui.NewTable, advisor tui.Advisor) error {
	lineMode := f.plain || !e.terminal || !isTerminalReader(e.stdin)
	base, table, err := online.ParseLink(f.url)
	if err != nil {
		return usageMsg("cli.err.flagErr", "flag", "online", "err", err)
	}
	if f.watch && table == "" {
		return usageMsg("cli.err.watchLink")
	}
	c := online.New(base)
	c.Lang = e.cat().Code // the log of a Dragon Farkle game joined mid-way, as the server writes it
	gamesDir, dirErr := tui.GamesDir(e.getenv)
	if dirErr == nil {
		c.RecordDir = gamesDir
	}
	tokenFile := ""
	if dirErr == nil {
		u, _ := url.Parse(base)
		tokenFile = filepath.Join(filepath.Dir(gamesDir), "online", safeHost(u.Host)+".token")
	}
	p, was, err := signIn(ctx, c, f.name, e.getenv("USER"), tokenFile)
	if err != nil {
		return err
	}
	if was != "" {
		fmt.Fprintln(e.stderr, e.msg("cli.play.newGuest", "name", p.Name, "was", was))
	}
	if nt.Seats != nil {
		if table != "" {
			return usageMsg("cli.err.playersLink")
		}
		if table, err = c.Create(ctx, nt); err != nil {
			return fmt.Errorf("a new table at %s: %w", base, err)
		}
	}
	if lineMode {
		return playOnlineLines(ctx, e, c, table, f.watch, advisor)
	}
	lm := tui.NewLobby(tui.LobbyOptions{
		Options: tui.Options{Rules: nt.Rules, Advisor: advisor, FarkleHold: f.hold, Lang: e.cat()},
		Server:  base, Player: p.Name, Table: table, Watch: f.watch,
	}, c)
	if err := tui.RunModel(ctx, lm, e.stdin, e.stdout); err != nil {
		return err
	}
	for _, r := range lm.Results() {
		fmt.Fprintln(e.stdout, r.Winners)
		if r.Record != "" {
			fmt.Fprintln(e.stdout, e.msg("tui.lines.saved", "file", r.Record))
		}
	}
	return nil
}

// signIn signs the client in with the token kept in tokenFile, or as a
// new guest whose token it then keeps there. A name given (--name) wins:
// when the saved guest has another name, it signs in as the guest of
// that name kept beside tokenFile (guestFile), or as a new one kept
// there, and was is the saved guest's name (for a word to the player:
// the saved guest is still there, without --name). A token file that is
// too large or holds no token is refused (readToken).
func signIn(ctx context.Context, c *online.Client, name, user, tokenFile string) (p online.Player, was string, err error) {
	if tokenFile != "" {
		tok, err := readToken(tokenFile)
		if err != nil {
			return online.Player{}, "", err
		}
		if tok != "" {
			if p, err := c.SignIn(ctx, "", tok); err == nil {
				if name == "" || p.Name == name {
					return p, "", nil
				}
				was, tokenFile = p.Name, guestFile(tokenFile, name)
				if tok, err := readToken(tokenFile); err != nil {
					return online.Player{}, "", err
				} else if tok != "" {
					if p, err := c.SignIn(ctx, "", tok); err == nil {
						return p, "", nil // the guest of that name, kept from before
					}
				}
			}
		}
	}
	if name == "" {
		name = user
	}
	if name == "" {
		name = "guest"
	}
	p, err = c.SignIn(ctx, name, "")
	if err != nil {
		return p, "", err
	}
	if tokenFile != "" {
		if err := os.MkdirAll(filepath.Dir(tokenFile), 0o700); err == nil {
			err = os.WriteFile(tokenFile, []byte(p.Token+"\n"), 0o600)
			if err != nil && !errors.Is(err, os.ErrExist) {
				return p, "", fmt.Errorf("keeping the guest's token: %w", err)
			}
		}
	}
	return p, was, nil
}

// guestFile is the token file of the guest called name, beside the saved
// guest's tokenFile: HOST.token gives HOST.NAME.token, the name written
// so that it is one file name.
func guestFile(tokenFile, name string) string {
	return strings.TrimSuffix(tokenFile, ".token") + "." + url.PathEscape(name) + ".token"
}

// safeHost is a server's host:port as a file name.
func safeHost(host string) string {
	return strings.NewReplacer(":", "_", "/", "_", "[", "", "]", "").Replace(host)
}

// playOnlineLines plays at the table of a link (or the one --players
// opened) in line mode: farkle play --online --plain, for scripts and
// screen readers. Without a table it lists the lobby's, to choose one.
func playOnlineLines(ctx context.Context, e *env, c *online.Client, table string, watch bool, advisor tui.Advisor) error {
	if table == "" {
		ts, err := c.Tables(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, e.msg("cli.play.onlineTables", "n", len(ts)))
		for _, t := range ts {
			var seats []string
			for _, s := range t.Seats {
				name := s.Name
				if s.Free {
					name = e.msg("tui.lobby.free")
				}
				seats = append(seats, name)
			}
			fmt.Fprintf(e.stdout, "  %s  %s  %s  %s\n", c.Link(t.ID), t.Rules, t.Status, strings.Join(seats, ", "))
		}
		return usagef("%s", e.msg("cli.play.onlineLinesTable"))
	}
	r, err := c.Open(ctx, table, watch)
	if err != nil {
		return err
	}
	defer c.Close()
	return tui.RunOnlineLines(ctx, r, e.stdin, e.stdout, tui.OnlineLinesOptions{Options: tui.Options{Advisor: advisor, Lang: e.cat()}, Link: c.Link(table)})
}
