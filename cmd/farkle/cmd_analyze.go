package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/game"
)

func init() {
	register(&command{
		name:    "analyze",
		args:    "FILE [--json] [--points]",
		summary: "go through a game record: the best choice at each decision and what the choice played lost",
		run:     runAnalyze,

		recordRules: true,
	})
}

const analyzeHelp = `FILE is a game record (the rules are the record's own). Every decision with
more than one choice (a keep from a throw with several keeps, or throwing on
against banking) is valued as farkle advise would: with two players by the
probability of winning (the duel table, solved once and cached), otherwise by
the expected points of the turn. The summary gives per player the decisions,
the share that were best (accuracy), the total loss and the three worst.
--json prints every decision too.

A Dragon Farkle record (its seed revealed) is judged by the values of the
terminal game's hint: expected soldiers while recruiting and at the start of a
turn, the chance of slaying the dragon in the Final Battle (a column of its
own). Card plays, and the start of a turn when the battle is among the choices,
are not judged.`

func runAnalyze(ctx context.Context, e *env, args []string) error {
	c := commands["analyze"]
	fs := newFlags(e, c)
	setCommandHelp(fs, c, analyzeHelp)
	asJSON := fs.Bool("json", false, "print JSON: {\"measure\":...,\"players\":[{\"name\":...,\"accuracy\":...,\"total_loss\":...,\"worst\":[...]}],\"decisions\":[...]}")
	points := fs.Bool("points", false, "value by expected points even in a two-player game")
	all := fs.Bool("all", false, "list every decision, not only the worst")
	cache := cacheFlags(e, fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("analyze takes one FILE, a game record (got %d arguments)", len(files))
	}
	rec, v, err := readRecord(files[0])
	if err != nil {
		return err
	}
	var rep *advise.Report
	if fv, ok := v.(*game.FarkleVariant); ok {
		rep, err = analyzeOrdinary(e, rec, fv, *points, cache())
	} else if err = seedUnrevealed(rec, v, fmt.Sprintf("a %s record holds the actions only, and the seed rebuilds the game to analyze", rec.Kind)); err == nil {
		rep, err = advise.AnalyzeDragon(rec)
	}
	if err != nil {
		if errors.Is(err, game.ErrBadRecord) {
			return usagef("%s: %v", files[0], err)
		}
		return err
	}
	rep.Rules = v.Name()
	if *asJSON {
		return emitJSON(e, rep, false)
	}
	printAnalysis(e.stdout, files[0], rep, v.Kind() == game.Dragon, *all)
	return nil
}

// analyzeOrdinary values the decisions of an ordinary game with the
// solvers' tables (by expected points with points set).
func analyzeOrdinary(e *env, rec *game.Record, v *game.FarkleVariant, points bool, cache string) (*advise.Report, error) {
	old, err := rec.Ordinary()
	if err != nil {
		return nil, err
	}
	players := len(rec.Players)
	if points && players == 2 {
		players = 0 // no duel table
	}
	a, err := advise.For(old.Rules, players, solverTables(e, cache))
	if err != nil {
		return nil, solverError(err)
	}
	return a.Analyze(old)
}

func printAnalysis(w io.Writer, file string, rep *advise.Report, dragonGame, all bool) {
	m := rep.Measure
	fmt.Fprintf(w, "%s: %s, %d players; values: %s\n", file, rep.Rules, len(rep.Players), m)
	if rep.Note != "" {
		fmt.Fprintf(w, "note: %s\n", rep.Note)
	}
	loss := func(m advise.Measure, v float64) string {
		if m == advise.WinProbability {
			return fmt.Sprintf("%.2f%%", 100*v)
		}
		return fmt.Sprintf("%.1f", v)
	}
	// Losses in measures other than the report's have columns of their own.
	var others []advise.Measure
	for _, p := range rep.Players {
		for o := range p.Losses {
			if o != m && !slices.Contains(others, o) {
				others = append(others, o)
			}
		}
	}
	slices.Sort(others)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\nplayer\tdecisions\tbest\taccuracy\ttotal loss\t")
	for _, o := range others {
		fmt.Fprintf(tw, "loss in %s\t", o)
	}
	fmt.Fprintln(tw)
	for _, p := range rep.Players {
		accuracy := "—" // no decisions: no share of them
		if p.Accuracy != nil {
			accuracy = fmt.Sprintf("%.1f%%", 100**p.Accuracy)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t", p.Name, p.Decisions, p.Best, accuracy, loss(m, p.TotalLoss))
		for _, o := range others {
			fmt.Fprintf(tw, "%s\t", loss(o, p.Losses[o]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	line := func(d advise.Decision) {
		dm := m
		if d.Measure != "" {
			dm = d.Measure
		}
		where := describePosition(d.Position, m == advise.WinProbability)
		if dragonGame {
			where = describeDragonPosition(d.Position)
		}
		fmt.Fprintf(w, "  action %d, turn %d: %s: played %s (%s), best %s (%s): lost %s\n",
			d.Action, d.Turn, where, d.Played, formatValue(dm, d.Value), d.Best, formatValue(dm, d.BestValue), loss(dm, d.Loss))
	}
	for _, p := range rep.Players {
		switch {
		case p.Decisions == 0:
			fmt.Fprintf(w, "\n%s: no decisions to judge\n", p.Name)
			continue
		case len(p.Worst) == 0:
			fmt.Fprintf(w, "\n%s: every decision was best\n", p.Name)
			continue
		}
		fmt.Fprintf(w, "\n%s worst decisions:\n", possessive(p.Name))
		for _, d := range p.Worst {
			line(d)
		}
	}
	if all {
		fmt.Fprintln(w, "\nevery decision:")
		for _, d := range rep.Decisions {
			fmt.Fprintf(w, "%s ", d.Name)
			line(d)
		}
	}
}

// possessive is name's possessive form: "your" for a player called you,
// else "ana's".
func possessive(name string) string {
	if strings.EqualFold(name, "you") {
		return name[:3] + "r"
	}
	return name + "'s"
}

// describeDragonPosition says a Dragon Farkle decision's position
// (advise.AnalyzeDragonSteps): soldiers, the pool and the dice.
func describeDragonPosition(p advise.Position) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d soldiers, strongest opponent %d", p.Me, p.Them)
	if p.Total > 0 {
		fmt.Fprintf(&b, ", pool %d", p.Total)
	}
	if p.Throw != 0 {
		fmt.Fprintf(&b, ", threw %s", p.Throw)
	} else if p.Dice > 0 {
		fmt.Fprintf(&b, ", %d %s to throw", p.Dice, plural(p.Dice, "die", "dice"))
	}
	return b.String()
}
