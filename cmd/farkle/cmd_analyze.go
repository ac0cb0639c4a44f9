package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/farkle/farkle/advise"
)

func init() {
	register(&command{
		name:    "analyze",
		args:    "FILE [--json] [--points]",
		summary: "go through a game record: the best choice at each decision and what the choice played lost",
		run:     runAnalyze,
	})
}

const analyzeHelp = `FILE is a game record (the rules are the record's own). Every decision with
more than one choice (a keep from a throw with several keeps, or throwing on
against banking) is valued as farkle advise would: with two players by the
probability of winning (the duel table, solved once and cached), otherwise by
the expected points of the turn. The summary gives per player the decisions,
the share that were best (accuracy), the total loss and the three worst.
--json prints every decision too.`

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
	rec, err := readRecord(files[0])
	if err != nil {
		return err
	}
	players := len(rec.Players)
	if *points && players == 2 {
		players = 0 // no duel table
	}
	a, err := advise.For(rec.Rules, players, solverTables(e, cache()))
	if err != nil {
		return solverError(err)
	}
	rep, err := a.Analyze(rec)
	if err != nil {
		return err
	}
	if *asJSON {
		return emitJSON(e, rep, false)
	}
	printAnalysis(e.stdout, files[0], rep, *all)
	return nil
}

func printAnalysis(w io.Writer, file string, rep *advise.Report, all bool) {
	m := rep.Measure
	fmt.Fprintf(w, "%s: %s, %d players; values: %s\n", file, rep.Rules, len(rep.Players), m)
	if rep.Note != "" {
		fmt.Fprintf(w, "note: %s\n", rep.Note)
	}
	loss := func(v float64) string {
		if m == advise.WinProbability {
			return fmt.Sprintf("%.2f%%", 100*v)
		}
		return fmt.Sprintf("%.1f", v)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\nplayer\tdecisions\tbest\taccuracy\ttotal loss\t")
	for _, p := range rep.Players {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%s\t\n", p.Name, p.Decisions, p.Best, 100*p.Accuracy, loss(p.TotalLoss))
	}
	tw.Flush()
	line := func(d advise.Decision) {
		fmt.Fprintf(w, "  action %d, turn %d: %s: played %s (%s), best %s (%s): lost %s\n",
			d.Action, d.Turn, describePosition(d.Position, m == advise.WinProbability), d.Played, formatValue(m, d.Value), d.Best, formatValue(m, d.BestValue), loss(d.Loss))
	}
	for _, p := range rep.Players {
		if len(p.Worst) == 0 {
			fmt.Fprintf(w, "\n%s: every decision was best\n", p.Name)
			continue
		}
		fmt.Fprintf(w, "\n%s's worst decisions:\n", p.Name)
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
