package tui

import (
	"math"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solved"
)

// playerStats is what the end screen says of each player: farkles, the
// best turn banked, and, once the analysis is done, its decisions.
type playerStats struct {
	Farkles  int
	BestTurn int
}

// gameStats counts each player's farkles and best banked turn over the
// whole record (a resumed game's turns before the resume too).
func gameStats(rec *game.Record) ([]playerStats, error) {
	_, steps, err := game.Steps(rec)
	if err != nil {
		return nil, err
	}
	out := make([]playerStats, len(rec.Players))
	for _, st := range steps {
		for _, ev := range st.Events {
			if e, ok := ev.(engine.Event); ok {
				countEvent(out, e)
			}
		}
	}
	return out, nil
}

// countEvent adds e to the players' stats.
func countEvent(stats []playerStats, e engine.Event) {
	if e.Player < 0 || e.Player >= len(stats) {
		return
	}
	switch e.Kind {
	case engine.EvFarkle:
		stats[e.Player].Farkles++
	case engine.EvBank:
		stats[e.Player].BestTurn = max(stats[e.Player].BestTurn, e.Points)
	}
}

// stats are the players' stats of the game: of its record, or online,
// where the server keeps the record, of the events the server sent.
func (g *Game) stats() ([]playerStats, error) {
	if g.online != nil {
		return g.online.tally, nil
	}
	return gameStats(g.Record())
}

// analysisMsg carries the decision analysis of a finished game.
type analysisMsg struct {
	of     *Game // the game analysed
	report *advise.Report
	err    error
}

// analysisCmd analyses the decisions of the finished game with the
// advisors the hints use (the solvers' win probability or expected
// points), once: a local game's record, or at a server the record it
// saved here at the end (the whole game, also when this terminal came
// in late).
func (m *Model) analysisCmd() tea.Cmd {
	g := m.game
	if g == nil || !g.Over() || m.analysing || m.analysis != nil {
		return nil
	}
	tables := g.tables
	if tables == nil {
		tables = solved.DefaultTables()
	}
	cast := advise.Cast(tables)
	if !g.Online() {
		m.analysing = true
		rec := g.Record()
		return func() tea.Msg {
			r, err := advise.Analyze(rec, cast)
			return analysisMsg{of: g, report: r, err: err}
		}
	}
	path := g.Path()
	if path == "" || strings.Contains(path, "://") {
		return nil // no record saved here (yet): none to analyse
	}
	m.analysing = true
	return func() tea.Msg {
		data, err := game.ReadRecordFile(path)
		var rec *game.Record
		if err == nil {
			rec, err = game.ParseRecord(data)
		}
		if err != nil {
			return analysisMsg{of: g, err: err}
		}
		r, err := advise.Analyze(rec, cast)
		return analysisMsg{of: g, report: r, err: err}
	}
}

// endLines are the end screen's lines on each player: farkles, best
// turn, and the analysis of their decisions (or that it is being made).
func (m *Model) endLines() []string {
	c := m.lc
	stats, err := m.game.stats()
	if err != nil {
		return nil
	}
	names := m.game.Names()
	w := 0
	for _, n := range names {
		w = max(w, len([]rune(n)))
	}
	var out []string
	for i, s := range stats {
		line := c.Msg("tui.end.player", "name", padRight(names[i], w), "farkles", s.Farkles, "best", s.BestTurn)
		if d := m.decisionsOf(i); d != "" {
			line += " · " + d
		}
		out = append(out, wrapStyled(line, m.width-2, "    ")...)
	}
	switch {
	case m.analysis != nil && m.analysis.err != nil:
		out = append(out, c.Msg("tui.end.noAnalysis", "why", Reason(m.analysis.err)))
	case m.analysis == nil && m.analysing:
		out = append(out, c.Msg("tui.end.analysing"))
	}
	for i := range out {
		out[i] = "  " + out[i]
	}
	return out
}

// decisionsOf says player i's decisions as the analysis found them: "12
// of 14 best, 3.2% of win chance lost".
func (m *Model) decisionsOf(i int) string {
	a := m.analysis
	if a == nil || a.report == nil {
		return ""
	}
	for _, s := range a.report.Players {
		if s.Player != i || s.Decisions == 0 {
			continue
		}
		return m.lc.Msg("tui.end.decisions", "best", s.Best, "n", s.Decisions, "lost", lossText(m.lc, s.TotalLoss, a.report.Measure))
	}
	return ""
}

// lossText says a total loss in its measure: "3.2% win chance", "140
// points".
func lossText(c *lang.Catalogue, loss float64, m advise.Measure) string {
	if m == game.WinProbability {
		return c.Msg("tui.end.lostWin", "p", c.Pct(loss, 1))
	}
	return c.Msg("tui.end.lostPoints", "n", int(math.Round(loss)))
}

func padRight(s string, w int) string {
	for n := len([]rune(s)); n < w; n++ {
		s += " "
	}
	return s
}
