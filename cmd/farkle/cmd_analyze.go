package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
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
	setCommandHelp(e, fs, c, para("cli.help.analyze.details", analyzeHelp))
	asJSON := fs.Bool("json", false, "print JSON: {\"measure\":...,\"players\":[{\"name\":...,\"accuracy\":...,\"total_loss\":...,\"worst\":[...]}],\"decisions\":[...]}")
	points := fs.Bool("points", false, "value by expected points even in a two-player game")
	all := fs.Bool("all", false, "list every decision, not only the worst")
	cache := cacheFlags(e, fs)
	setLang := langFlag(e, fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if len(files) != 1 {
		return usageMsg("cli.err.oneRecord", "cmd", "analyze", "n", len(files))
	}
	rec, v, err := readRecord(files[0])
	if err != nil {
		return err
	}
	if rec.NeedsSeed() {
		if err := seedUnrevealed(e.cat(), rec, e.msg("cli.seed.analyze", "kind", string(rec.Kind))); err != nil {
			return err
		}
	}
	players := len(rec.Players)
	if *points && players == 2 {
		players = 0 // no duel table
	}
	adv, err := advise.Cast(solverTables(e, cache())).Advisor(v, players)
	if err != nil {
		return solverError(err)
	}
	rep, err := advise.AnalyzeWith(rec, adv)
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
	var b strings.Builder
	printAnalysis(&b, e.cat(), files[0], rec.Players, rep, viewOf(v.Kind()), *all, tableWidth(e))
	io.WriteString(e.stdout, termFitted(e, b.String()))
	return nil
}

func printAnalysis(w io.Writer, c *lang.Catalogue, file string, players []string, rep *advise.Report, view kindView, all bool, width int) {
	m := rep.Measure
	fmt.Fprintln(w, c.Msg("cli.analyze.head", "file", file, "rules", rep.Rules, "n", len(rep.Players), "measure", measureText(c, m)))
	if rep.Note != "" {
		fmt.Fprintln(w, c.Msg("cli.note", "note", noteText(c, rep.Note)))
	}
	loss := func(m advise.Measure, v float64) string {
		if m == advise.WinProbability {
			return c.Pct(v, 2)
		}
		return c.Dec(v, 1)
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
	head := c.Msg("cli.analyze.columns")
	for _, o := range others {
		head += "\t" + c.Msg("cli.analyze.lossIn", "measure", measureText(c, o))
	}
	var names []string
	var rows [][]string
	for _, p := range rep.Players {
		accuracy := "—" // no decisions: no share of them
		if p.Accuracy != nil {
			accuracy = c.Pct(*p.Accuracy, 1)
		}
		row := []string{c.Num(int64(p.Decisions)), c.Num(int64(p.Best)), accuracy, loss(m, p.TotalLoss)}
		for _, o := range others {
			row = append(row, loss(o, p.Losses[o]))
		}
		names, rows = append(names, p.Name), append(rows, row)
	}
	fmt.Fprint(w, "\n"+fitTabbed(head, names, rows, width))
	line := func(d advise.Decision) {
		dm := m
		if d.Measure != "" {
			dm = d.Measure
		}
		where := view.position(c, d.Position, m == advise.WinProbability)
		fmt.Fprintf(w, "  %s\n", c.Msg("cli.analyze.decision", "action", d.Action, "turn", d.Turn, "where", where,
			"played", actionText(c, d.Played, players), "value", formatValue(c, dm, d.Value),
			"best", actionText(c, d.Best, players), "bestValue", formatValue(c, dm, d.BestValue), "loss", loss(dm, d.Loss)))
	}
	for _, p := range rep.Players {
		switch {
		case p.Decisions == 0:
			fmt.Fprintf(w, "\n%s\n", c.Msg("cli.analyze.none", "p", p.Name))
			continue
		case len(p.Worst) == 0:
			fmt.Fprintf(w, "\n%s\n", c.Msg("cli.analyze.allBest", "p", p.Name))
			continue
		}
		if strings.EqualFold(p.Name, "you") {
			fmt.Fprintf(w, "\n%s\n", c.Msg("cli.analyze.worstYou", "you", p.Name))
		} else {
			fmt.Fprintf(w, "\n%s\n", c.Msg("cli.analyze.worst", "p", p.Name))
		}
		for _, d := range p.Worst {
			line(d)
		}
	}
	if all {
		fmt.Fprintf(w, "\n%s\n", c.Msg("cli.analyze.every"))
		for _, d := range rep.Decisions {
			fmt.Fprintf(w, "%s ", d.Name)
			line(d)
		}
	}
}

// measureText says a measure of values in the language of c.
func measureText(c *lang.Catalogue, m advise.Measure) string { return m.Text(c) }
