package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
)

func init() {
	register(&command{
		name:    "replay",
		args:    "FILE",
		summary: "print a game record turn by turn, with the scores after each turn",
		run:     runReplay,

		recordRules: true,
	})
	register(&command{
		name:    "verify",
		args:    "FILE",
		summary: "check a game record: the seed matches its commitment, every throw is the seed's, every action legal",
		run:     runVerify,

		recordRules: true,
	})
}

const replayHelp = `FILE is a game record (JSON) as written by farkle play, farkle serve and farkle
sim --record, of the ordinary game or Dragon Farkle. The rules are the record's
own. The dice of an ordinary game are the recorded ones: farkle verify checks
them against the seed. A Dragon Farkle record holds the actions only: the game
is rebuilt from its seed, revealed when the game ends.`

const verifyHelp = `Exit status 0 with a one-line summary when the record holds: the revealed seed
hashes to the commitment made at the start, every throw is the one the seed
gives, and every action was legal. Exit status 1 with the first discrepancy on
stderr otherwise; 2 when FILE is not a record.`

// readRecord reads and parses a record file of any kind and opens its
// variant; any failure is bad input, a file longer than
// game.MaxRecordBytes too, refused without reading past the bound.
func readRecord(path string) (*game.Record, game.Variant, error) {
	data, err := game.ReadRecordFile(path)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		return nil, nil, usagef("%s: %v", path, err)
	}
	v, err := rec.Variant()
	if err != nil {
		return nil, nil, usagef("%s: %v", path, err)
	}
	return rec, v, nil
}

// fileArg parses the flags of a command taking one FILE.
func fileArg(e *env, name string, help helpPara, args []string) (path string, err error) {
	c := commands[name]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, help)
	setLang := langFlag(e, fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return "", err
	}
	if err := setLang(); err != nil {
		return "", err
	}
	if len(files) != 1 {
		return "", usageMsg("cli.err.oneRecord", "cmd", name, "n", len(files))
	}
	return files[0], nil
}

func runReplay(ctx context.Context, e *env, args []string) error {
	path, err := fileArg(e, "replay", para("cli.help.replay.details", replayHelp), args)
	if err != nil {
		return err
	}
	rec, v, err := readRecord(path)
	if err != nil {
		return err
	}
	acts, over, rerr := replaySteps(e.cat(), rec, v)
	if errors.Is(rerr, game.ErrBadRecord) {
		return usagef("%s: %v", path, rerr)
	}
	var b strings.Builder
	printReplay(&b, e.cat(), rec, v, acts)
	io.WriteString(e.stdout, termFitted(e, b.String()))
	if rerr != nil {
		return rerr
	}
	if !over {
		fmt.Fprintf(e.stdout, "\n%s\n", e.msg("cli.replay.notOver", "n", len(rec.Actions)))
	}
	return nil
}

// replayed is one action of a replay as printReplay writes it: the events
// it caused and the scores after it.
type replayed struct {
	events []game.Event
	scores []int
}

// replaySteps replays rec (game.Steps: an ordinary game with its recorded
// dice, which needs no seed, any other kind from its revealed seed). It
// returns the actions replayed up to the first discrepancy, if any, and
// whether the game is over.
func replaySteps(c *lang.Catalogue, rec *game.Record, v game.Variant) ([]replayed, bool, error) {
	if rec.NeedsSeed() {
		if err := seedUnrevealed(c, rec, c.Msg("cli.seed.rebuilds", "kind", string(rec.Kind))); err != nil {
			return nil, false, err
		}
	}
	final, steps, err := game.Steps(rec)
	if len(steps) == 0 {
		return nil, final != nil && final.Over(), err
	}
	// The start's events (a first turn, soldiers dealt) are the ones the
	// game drew first from the seed, when it is revealed.
	var start []game.Event
	if seed, err := dice.ParseSeed(rec.Seed); err == nil {
		_, start, _ = v.Start(rec.Players, dice.NewSource(seed))
	}
	acts := []replayed{{events: start, scores: steps[0].Before.Scores()}}
	for i, st := range steps {
		after := final
		if i+1 < len(steps) {
			after = steps[i+1].Before
		}
		acts = append(acts, replayed{events: st.Events, scores: after.Scores()})
	}
	return acts, final.Over(), err
}

// seedUnrevealed says plainly why rec, whose seed is not revealed, cannot
// be checked or rebuilt yet (then, why: what needs the seed): the game is
// not over, and a front end reveals the seed when it ends. It returns nil
// when the seed is revealed, or when the recorded dice of a record that
// keeps them (game.Steps) show a game that is over: then the missing seed
// is a discrepancy that game.Verify reports.
func seedUnrevealed(c *lang.Catalogue, rec *game.Record, then string) error {
	if rec.Seed != "" {
		return nil
	}
	if final, _, err := game.Steps(rec); err == nil && final.Over() {
		return nil
	}
	return errors.New(c.Msg("cli.seed.unrevealed", "n", len(rec.Actions), "then", then))
}

// A line of the replay: where an event goes.
const (
	inTurn    = iota // a line of the turn
	turnStart        // the heading of a turn
	gameEnd          // the end of the game, on a line of its own
)

// printReplay writes the game turn by turn: the events of each turn under
// a heading, then the scores (Dragon Farkle: the soldiers).
func printReplay(w io.Writer, c *lang.Catalogue, rec *game.Record, v game.Variant, acts []replayed) {
	names := rec.Players
	fmt.Fprintln(w, c.Msg("cli.replay.head", "rules", v.Name(), "n", len(names), "names", strings.Join(names, ", ")))
	if rec.Meta.Started != "" {
		fmt.Fprintln(w, c.Msg("cli.replay.started", "when", rec.Meta.Started))
	}
	view := viewOf(v.Kind())
	label := view.scoresLabel(c)
	turn := 0
	inTurn := false
	endTurn := func(scores []int) {
		if inTurn {
			parts := make([]string, len(scores))
			for i, s := range scores {
				parts[i] = names[i] + " " + c.Num(int64(s))
			}
			fmt.Fprintf(w, "  %s: %s\n", label, strings.Join(parts, ", "))
			inTurn = false
		}
	}
	var last []int
	for _, a := range acts {
		for _, ev := range a.events {
			switch place, seat, round := view.eventPlace(ev); place {
			case turnStart:
				endTurn(a.scores)
				turn++
				if round > 0 {
					fmt.Fprintf(w, "\n%s\n", c.Msg("cli.replay.turnRound", "turn", turn, "p", names[seat], "round", round))
				} else {
					fmt.Fprintf(w, "\n%s\n", c.Msg("cli.replay.turn", "turn", turn, "p", names[seat]))
				}
				inTurn = true
			case gameEnd:
				endTurn(a.scores)
				fmt.Fprintf(w, "\n%s\n", v.Describe(c, ev, names))
			default:
				if inTurn {
					fmt.Fprintf(w, "  %s\n", v.Describe(c, ev, names))
				} else {
					fmt.Fprintln(w, v.Describe(c, ev, names))
				}
			}
		}
		last = a.scores
	}
	endTurn(last)
}

func runVerify(ctx context.Context, e *env, args []string) error {
	path, err := fileArg(e, "verify", para("cli.help.verify.details", verifyHelp), args)
	if err != nil {
		return err
	}
	rec, v, err := readRecord(path)
	if err != nil {
		return err
	}
	if err := seedUnrevealed(e.cat(), rec, e.msg("cli.seed.unchecked")); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	g, _, err := game.Verify(rec)
	if err != nil {
		if errors.Is(err, game.ErrBadRecord) {
			return usagef("%s: %v", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	status := e.msg("cli.verify.notOver")
	if g.Over() {
		scores := g.Scores()
		win := make([]string, len(g.Winners()))
		for i, p := range g.Winners() {
			win[i] = rec.Players[p] + " (" + e.cat().Num(int64(scores[p])) + ")"
		}
		status = e.msg("cli.verify.wonBy", "winners", strings.Join(win, e.msg("end.and")))
		if len(win) == 0 {
			status = e.msg("cli.verify.noWinner") // the only player resigned
		}
	}
	commitment := rec.Commitment
	if len(commitment) > 16 {
		commitment = commitment[:16]
	}
	io.WriteString(e.stdout, termFitted(e, e.msg("cli.verify.ok", "file", path, "n", len(rec.Actions), "rules", v.Name(), "status", status, "commitment", commitment)+"\n"))
	return nil
}
