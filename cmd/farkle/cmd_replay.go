package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
)

func init() {
	register(&command{
		name:    "replay",
		args:    "FILE",
		summary: "print a game record turn by turn, with the scores after each turn",
		run:     runReplay,
	})
	register(&command{
		name:    "verify",
		args:    "FILE",
		summary: "check a game record: the seed matches its commitment, every throw is the seed's, every action legal",
		run:     runVerify,
	})
}

const replayHelp = `FILE is a game record (JSON) as written by farkle play, farkle serve and farkle
sim --record. The rules are the record's own. The dice are the recorded ones:
farkle verify checks them against the seed.`

const verifyHelp = `Exit status 0 with a one-line summary when the record holds: the revealed seed
hashes to the commitment made at the start, every throw is the one the seed
gives, and every action was legal. Exit status 1 with the first discrepancy on
stderr otherwise; 2 when FILE is not a record.`

// readRecord reads and parses a record file; any failure is bad input.
func readRecord(path string) (*record.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	rec, err := record.Parse(data)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return rec, nil
}

// fileArg parses the flags of a command taking one FILE.
func fileArg(e *env, name, help string, args []string) (path string, err error) {
	c := commands[name]
	fs := newFlags(e, c)
	setCommandHelp(fs, c, help)
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() != 1 {
		return "", usagef("%s takes one FILE, a game record (got %d arguments)", name, fs.NArg())
	}
	return fs.Arg(0), nil
}

func runReplay(ctx context.Context, e *env, args []string) error {
	path, err := fileArg(e, "replay", replayHelp, args)
	if err != nil {
		return err
	}
	rec, err := readRecord(path)
	if err != nil {
		return err
	}
	final, steps, rerr := record.Replay(rec)
	printReplay(e.stdout, rec, steps, final)
	if rerr != nil {
		return rerr
	}
	if !final.Over() {
		fmt.Fprintf(e.stdout, "\nthe game is not over (%d actions so far)\n", len(rec.Actions))
	}
	return nil
}

// printReplay writes the game turn by turn: the events of each turn under
// a heading, then the scores.
func printReplay(w io.Writer, rec *record.Record, steps []record.Step, final engine.State) {
	names := rec.Players
	fmt.Fprintf(w, "%s, %d %s: %s\n", rec.Rules.Name, len(names), plural(len(names), "player", "players"), strings.Join(names, ", "))
	if rec.Meta.Started != "" {
		fmt.Fprintf(w, "started %s\n", rec.Meta.Started)
	}
	turn := 0
	inTurn := false
	scores := func(s engine.State) string {
		parts := make([]string, len(s.Players))
		for i, p := range s.Players {
			parts[i] = fmt.Sprintf("%s %d", p.Name, p.Score)
		}
		return strings.Join(parts, ", ")
	}
	endTurn := func(s engine.State) {
		if inTurn {
			fmt.Fprintf(w, "  scores: %s\n", scores(s))
			inTurn = false
		}
	}
	for i, st := range steps {
		after := final
		if i+1 < len(steps) {
			after = steps[i+1].Before
		}
		for _, ev := range st.Events {
			switch ev.Kind {
			case engine.EvTurn:
				endTurn(after)
				turn++
				fmt.Fprintf(w, "\nturn %d: %s\n", turn, names[ev.Player])
				inTurn = true
			case engine.EvGameOver, engine.EvTie, engine.EvTurnLimit:
				endTurn(after)
				fmt.Fprintf(w, "\n%s\n", ev.Describe(names))
			default:
				if inTurn {
					fmt.Fprintf(w, "  %s\n", ev.Describe(names))
				} else {
					fmt.Fprintln(w, ev.Describe(names))
				}
			}
		}
	}
	endTurn(final)
}

func runVerify(ctx context.Context, e *env, args []string) error {
	path, err := fileArg(e, "verify", verifyHelp, args)
	if err != nil {
		return err
	}
	rec, err := readRecord(path)
	if err != nil {
		return err
	}
	st, err := record.Verify(rec)
	if err != nil {
		if errors.Is(err, record.ErrBadRecord) {
			return usagef("%s: %v", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	status := "not over"
	if st.Over() {
		win := make([]string, len(st.Winners))
		for i, p := range st.Winners {
			win[i] = fmt.Sprintf("%s (%d)", st.Players[p].Name, st.Players[p].Score)
		}
		status = "won by " + strings.Join(win, " and ")
		if len(win) == 0 {
			status = "ended with no winner" // the only player resigned
		}
	}
	fmt.Fprintf(e.stdout, "ok: %s: %d actions, %s, %s; the seed matches the commitment %.16s… and gives every throw\n", path, len(rec.Actions), rec.Rules.Name, status, rec.Commitment)
	return nil
}
