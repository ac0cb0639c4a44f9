package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solved"
	"github.com/farkle/farkle/tui"
)

func init() {
	register(&command{
		name:    "play",
		args:    "[--rules NAME|FILE] [--players you,ana,bot:LEVEL,...] [--seed S] [--bot-speed SPEED] [--farkle-hold D] [--plain] [--resume FILE] [--online URL [--watch] [--name NAME]]",
		summary: "a game in the terminal: you against bots, or friends around one keyboard",
		run:     runPlay,
	})
}

const playHelp = `Without --players a setup screen asks for the rules, the players and the bot
levels. --players lists the seats in order: a person's name, bot:LEVEL for a
bot, or NAME=bot:LEVEL for a named bot.

On a terminal the game is full-screen: number keys choose dice by face (5
chooses a die showing 5, as the hints say "keep 5"), as do a click on a die
or the arrows and space; r keeps them and throws the rest, b keeps them and
banks, h shows a hint, u undoes a choice, + and - make the bots faster or
slower (--bot-speed sets the start; your farkle stays on the table until a
key, or --farkle-hold), PgUp and PgDn scroll the log, m turns the mouse off so that the
terminal can select text, ? shows the keys and the rules, p plays again at
the end with the same players, q quits (while a perfect bot is being
prepared, its solve shows its progress; a quit lets it finish and be cached).
Its colours suit the terminal's background and come down to what the
terminal can show; NO_COLOR set to anything turns them off (bold stays).

When stdin is not a terminal, or with --plain, it is a line mode for pipes,
scripts and screen readers: it prints "throw: 1 1 3 4 5 6" after each of your
throws and reads commands: keep 1 1 5, roll, bank, hint, score, help, quit.
Without --players it plays you against one bot.

With --rules dragon it plays Dragon Farkle (bots: random, simple, smart;
default players you,bot:smart): at the start of a turn r recruits, b
brawls, f attacks the dragon; s stops or retreats; on a Rally d doubles
and i draws an item; c uses a card. Line mode reads recruit, brawl NAME,
battle, keep 1 1 5 [double|item], roll, stop, retreat, accept, use CARD,
discard CARD, hand, score, hint, help, quit.

Every game is saved as a record in $FARKLE_DATA_DIR/games, else
$XDG_DATA_HOME/farkle/games, else ~/.local/share/farkle/games: at the end of
every turn, at the end of the game and when you quit. The seed of an
unfinished game is kept beside it (FILE.seed), so a saved game is no
fair-dice commitment to yourself; --resume FILE continues it.`

// watchSolves returns the meter of the duel solves of ts, so that the
// full-screen game shows how far a perfect bot's preparation is.
func watchSolves(ts *solved.Tables) *tui.SolveMeter {
	m := tui.NewSolveMeter(nil)
	ts.Progress = m.Progress
	return m
}

// playTables returns the solver results of farkle play, shared by the bots
// and the hint key: duel tables read from and written to the cache
// directory of the environment, memory caches bounded as
// solved.DefaultLimits.
func playTables(e *env) *solved.Tables {
	return solved.NewLimitedTables(solved.CacheDir(e.getenv), solved.DefaultLimits())
}

// botLevelsHelp describes every bot level of the ordinary game, one a
// line, in the language of cat (the setup screen's descriptions).
func botLevelsHelp(cat *lang.Catalogue) string {
	var b strings.Builder
	b.WriteString(helpIn(cat, "cli.help.play.levels", "Bot levels (bot:LEVEL):"))
	for _, l := range bot.Levels() {
		fmt.Fprintf(&b, "\n  %-9s %s", l.Name, helpIn(cat, "setup.bot."+l.Name, l.Description))
	}
	return b.String()
}

func runPlay(ctx context.Context, e *env, args []string) error {
	c := commands["play"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.play.details", playHelp), para("cli.help.play.online", playOnlineHelp), botLevelsHelp)
	resolve := variantFlag(fs)
	players := fs.String("players", "", "the seats in order, e.g. you,ana,bot:"+tui.DefaultBot()+"; bot levels: "+strings.Join(bot.LevelNames(), ", ")+" (default: a setup screen; in line mode you,bot:"+tui.DefaultBot()+")")
	seedText := fs.String("seed", "", "the dice seed: 64 hex digits, or any text (hashed); default: random")
	plain := fs.Bool("plain", false, "line mode even on a terminal")
	resume := fs.String("resume", "", "continue the unfinished game saved in `FILE`")
	speed := fs.String("bot-speed", "normal", "how fast bots play full-screen: slow, normal, fast or instant (+ and - change it in the game)")
	hold := fs.Duration("farkle-hold", 0, "how long your farkle stays on the table before the bots play on (e.g. 2s); 0: until a key")
	var of onlineFlags
	fs.StringVar(&of.url, "online", "", "play at the farkle server at `URL` (its lobby), or at the table of a link (URL/t/ID)")
	fs.BoolVar(&of.watch, "watch", false, "with --online and a table's link: watch the table instead of sitting at it")
	fs.StringVar(&of.name, "name", "", "with --online: the guest's name (default $USER the first time); another name than the saved guest's signs in as the guest of that name")
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if of.url != "" {
		return runPlayOnline(ctx, e, fs, of, resolve, *players)
	}
	pace, err := tui.ParseBotPace(*speed)
	if err != nil {
		return usageMsg("cli.err.flagErr", "flag", "bot-speed", "err", err)
	}
	if *hold < 0 {
		return usageMsg("cli.err.holdNegative", "value", hold.String())
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.playArgs", "got", strconv.Quote(strings.Join(fs.Args(), " ")))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	lineMode := *plain || !e.terminal || !isTerminalReader(e.stdin)
	now := time.Now

	dir, dirErr := tui.GamesDir(e.getenv)
	var g *tui.Game
	tables := playTables(e)
	if *resume != "" {
		for _, f := range []string{"rules", "players", "seed"} {
			if set[f] {
				return usageMsg("cli.err.resumeFlag", "flag", f)
			}
		}
		if o, ok := ownViews[recordKind(*resume)]; ok {
			return o.resume(ctx, e, *resume, playArgs{lineMode: lineMode, delay: pace.Delay, hold: *hold})
		}
		if g, err = tui.ResumeGame(*resume, now, tables); err != nil {
			return usageMsg("cli.err.flagErr", "flag", "resume", "err", err)
		}
	}
	// The hint key: the solvers' win probability or expected points
	// (package advise).
	advisor := tui.NewSolverAdvisor(tables)
	o := tui.Options{Game: g, Now: now, Advisor: advisor, BotDelay: pace.Delay, FarkleHold: *hold, Meter: watchSolves(tables), Tables: tables, Lang: e.cat()}
	if g == nil {
		v, err := resolve()
		if err != nil {
			return err
		}
		if o, ok := ownViews[v.Kind()]; ok {
			return o.play(ctx, e, v, playArgs{players: *players, seed: *seedText, lineMode: lineMode, dir: dir, dirErr: dirErr, now: now, delay: pace.Delay, hold: *hold})
		}
		r := v.Scoring()
		o.Rules = r
		spec := *players
		if spec == "" && lineMode {
			spec = "you,bot:" + tui.DefaultBot()
		}
		if spec != "" {
			if o.Seats, err = tui.ParsePlayers(spec, r); err != nil {
				return playersError(spec, err)
			}
		}
		o.Seed = dice.NewSeed()
		if *seedText != "" {
			o.Seed = dice.SeedFrom(*seedText)
		}
		if dirErr != nil {
			fmt.Fprintf(e.stderr, "farkle play: this game will not be saved: %s\n", userText(dirErr))
		} else {
			o.GamesDir = dir
		}
	}

	if lineMode {
		if g == nil {
			path := ""
			if o.GamesDir != "" {
				path = tui.GamePath(o.GamesDir, now(), names(o.Seats))
			}
			var err error
			if g, err = tui.NewGame(o.Rules, o.Seats, o.Seed, path, now, tables); err != nil {
				return usagef("%v", err)
			}
		}
		g.FollowSolves(o.Meter)
		g.SetLang(o.Lang)
		return tui.RunLines(ctx, g, e.stdin, e.stdout, advisor)
	}
	g, dg, err := tui.RunSetup(ctx, o, e.stdin, e.stdout)
	if err != nil {
		return err
	}
	if dg != nil { // Dragon Farkle, chosen on the setup screen
		return sayDragonSaved(e, dg)
	}
	if g == nil {
		return nil
	}
	if err := g.SaveError(); err != nil {
		return fmt.Errorf("the game could not be saved: %w", err)
	}
	if g.Path() != "" {
		if g.Over() {
			fmt.Fprintf(e.stdout, "%s\n%s\n", g.Winners(), e.msg("tui.lines.saved", "file", g.Path()))
		} else {
			fmt.Fprintf(e.stdout, "%s\n%s\n", e.msg("tui.lines.saved", "file", g.Path()), e.msg("cli.play.resume", "file", g.Path()))
		}
	}
	return nil
}

func names(seats []tui.Seat) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = s.Name
	}
	return out
}

// isTerminalReader reports whether r is a terminal.
func isTerminalReader(r any) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// recordKind returns the kind of the record at path, of any format
// game.ParseRecord reads; "" for anything else, which tui.ResumeGame reads
// or refuses.
func recordKind(path string) game.Kind {
	data, err := game.ReadRecordFile(path)
	if err != nil {
		return ""
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		return ""
	}
	return rec.Kind
}
