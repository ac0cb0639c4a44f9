package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

func init() {
	register(&command{
		name:    "score",
		args:    "[--rules NAME|FILE] [--json] [DICE...]",
		summary: "every legal keep of a throw with its points; with no DICE, one JSON line per stdin line",
		run:     runScore,
	})
}

const scoreHelp = `DICE is one throw, written 113556, 1 1 3 5 5 6 or 1,1,3,5,5,6 (one argument or
several). The output is a table of every legal keep: its dice, its points and the
melds of its best split; or "farkle".

With no DICE, score reads one throw a line from stdin and prints one JSON line per
throw (JSON Lines), as --json does for one throw. Blank lines are skipped. A line
that is not a throw gets the line ` + scoreLineExample + `; the
other lines are still scored, and at the end the exit status is 2 with one line
on stderr if any line was bad.`

// scoreLineExample is the line of a bad throw in score's help (its
// catalogue texts' {example}: they cannot hold braces).
const scoreLineExample = `{"line":N,"input":"...","error":"..."}`

// scoreResult is the JSON of one scored throw (a stable format: fields may
// be added, never renamed).
type scoreResult struct {
	Roll   dice.Hand   `json:"roll"`
	Farkle bool        `json:"farkle"`
	Keeps  []scoreKeep `json:"keeps"`
	// SixDiceNothing is the bonus for six dice that score nothing, when the
	// rules have one: such a throw is not a farkle.
	SixDiceNothing int `json:"six_dice_nothing,omitempty"`
}

type scoreKeep struct {
	Dice   dice.Hand `json:"dice"`
	Points int       `json:"points"`
	Melds  []string  `json:"melds"` // the melds of a best split of the dice
}

// scoreLineError is the JSON line for a stdin line that is not a throw.
type scoreLineError struct {
	Line  int    `json:"line"`
	Input string `json:"input"`
	Error string `json:"error"`
}

func runScore(ctx context.Context, e *env, args []string) error {
	c := commands["score"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.score.details", scoreHelp, "example", scoreLineExample))
	asJSON := fs.Bool("json", false, "print JSON: {\"roll\":[...],\"farkle\":false,\"keeps\":[{\"dice\":[1],\"points\":100,\"melds\":[...]},...]}")
	resolve := soldierOrRulesFlag(fs)
	diceArgs, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	r, err := resolve()
	if err != nil {
		return err
	}
	tab := dice.NewTable(r)
	if len(diceArgs) == 0 {
		return scoreLines(ctx, e, tab)
	}
	throw, err := parseThrow(strings.Join(diceArgs, " "), r)
	if err != nil {
		return usagef("%v", err)
	}
	res := scoreThrow(tab, throw)
	if *asJSON {
		return emitJSON(e, res, false)
	}
	return printScore(e, r, res)
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments (farkle score 113556 --json) and returns the
// positional ones. An argument like "-1" is a die, not a flag.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	isFlag := func(s string) bool {
		return len(s) >= 2 && s[0] == '-' && (s[1] == '-' || (s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z'))
	}
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		i := 0
		for i < len(rest) && !isFlag(rest[i]) {
			i++
		}
		pos = append(pos, rest[:i]...)
		if i == len(rest) {
			return pos, nil
		}
		args = rest[i:]
	}
}

// parseThrow reads a throw and checks it fits the rules' number of dice.
func parseThrow(s string, r rules.Rules) (dice.Hand, error) {
	throw, err := dice.Parse(s)
	if err != nil {
		return 0, err
	}
	if throw.N() > r.Dice {
		return 0, fmt.Errorf("%w: %q has %d dice but the rules %s play with %d (a throw has 1 to %d dice)", dice.ErrBadThrow, s, throw.N(), r.Name, r.Dice, r.Dice)
	}
	return throw, nil
}

// scoreThrow lists the keeps of throw from the table.
func scoreThrow(tab *dice.Table, throw dice.Hand) scoreResult {
	res := scoreResult{Roll: throw, Keeps: []scoreKeep{}}
	for _, k := range tab.Keeps(throw) {
		res.Keeps = append(res.Keeps, scoreKeep{Dice: k.Hand, Points: int(k.Points), Melds: meldNames(tab, k.Hand)})
	}
	if len(res.Keeps) == 0 {
		if bonus := tab.Rules().Scoring.SixDiceNothing; bonus > 0 && throw.N() == 6 {
			res.SixDiceNothing = bonus
		} else {
			res.Farkle = true
		}
	}
	return res
}

func meldNames(tab *dice.Table, h dice.Hand) []string {
	var names []string
	for _, m := range tab.Split(h) {
		names = append(names, m.Name)
	}
	return names
}

// scoreLines scores one throw a line from stdin as JSON Lines.
func scoreLines(ctx context.Context, e *env, tab *dice.Table) error {
	sc := bufio.NewScanner(e.stdin)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	lineNo, bad, firstBad := 0, 0, ""
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		throw, err := parseThrow(line, tab.Rules())
		if err != nil {
			bad++
			if firstBad == "" {
				firstBad = fmt.Sprintf("line %d: %s", lineNo, userText(err))
			}
			if err := emitJSON(e, scoreLineError{Line: lineNo, Input: line, Error: userText(err)}, false); err != nil {
				return err
			}
			continue
		}
		if err := emitJSON(e, scoreThrow(tab, throw), false); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	if bad > 0 {
		return usageMsg("cli.err.scoreLines", "n", bad, "first", firstBad)
	}
	return nil
}

// printScore prints the keeps of one throw as an aligned table.
func printScore(e *env, r rules.Rules, res scoreResult) error {
	head := fmt.Sprintf("throw %s (%s)", res.Roll, r.Name)
	switch {
	case res.Farkle:
		_, err := fmt.Fprintf(e.stdout, "%s: farkle, no die scores\n", head)
		return err
	case res.SixDiceNothing > 0:
		_, err := fmt.Fprintf(e.stdout, "%s: no die scores; six_dice_nothing: +%d and throw six dice again\n", head, res.SixDiceNothing)
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d keeps\n", head, len(res.Keeps))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "keep\tpoints\tmelds")
	for _, k := range res.Keeps {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", k.Dice, k.Points, strings.Join(k.Melds, " + "))
	}
	return tw.Flush()
}
