package explore

import (
	"fmt"
	"strings"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// BuscheNellerRules returns the rule set of the two-player results of
// Busche and Neller: singles (1 = 100, 5 = 50) and triples only, hot dice,
// no farkle penalty, no entry minimum, a race to 10,000 won by the first
// to bank it, the first player fixed.
func BuscheNellerRules() rules.Rules {
	r := rules.MustPreset("classic")
	r.Name = "busche-neller"
	r.Turn.FarklePenalty = rules.Penalty{}
	r.Game.Ending = rules.EndImmediate
	r.Game.MinPlayers, r.Game.MaxPlayers = 2, 2
	r.Game.FirstPlayer = rules.SeatOrder
	return r
}

// Result is one published result beside this project's value for the
// same rules.
type Result struct {
	Source    string `json:"source"`    // who published it, where
	Claim     string `json:"claim"`     // what it says
	Rules     string `json:"rules"`     // the rule set it was computed on
	Published string `json:"published"` // the published value, in words ("" when not given here)
	Ours      string `json:"ours"`      // this project's value, or why it is not at hand
	// Agrees is "yes" or "no" when the two are compared, "" when they are
	// not (no published figure given, or ours not at hand).
	Agrees string `json:"agrees,omitempty"`
}

// The sources.
const (
	SourceBuscheNeller  = "Matthew Busche and Todd W. Neller, optimal play of two-player Farkle, Advances in Computer Games (ACG 2017)"
	SourceNellerPresser = "Todd W. Neller and Clifton G. M. Presser, optimal play of Farkle: bank thresholds by dice left"
)

// PublishedCompensation is the fair compensation Busche and Neller give
// the second player.
const PublishedCompensation = 200

// Published returns the published results with this project's values
// (only the figures given here are compared: the Neller–Presser thresholds
// are shown beside the source without a transcribed figure)
// from src (solving the Busche–Neller rule set's tables through it);
// a table src cannot give is reported in Ours, and why is note(err).
func Published(src Source, note func(error) string) []Result {
	r := BuscheNellerRules()
	rulesText := "singles and triples only, no farkle penalty, race to 10,000 (two players)"
	comp := Result{Source: SourceBuscheNeller, Claim: "fair compensation: points given to the second player at the start that make the game closest to even", Rules: rulesText,
		Published: fmt.Sprintf("%d points", PublishedCompensation)}
	edge := Result{Source: SourceBuscheNeller, Claim: "the first player has the edge between two optimal players", Rules: rulesText,
		Published: "P(first player wins) above 1/2"}
	if t, err := src.Duel(r); err != nil {
		comp.Ours, edge.Ours = note(err), note(err)
	} else {
		points, p := t.FairCompensation()
		comp.Ours = fmt.Sprintf("%d points (P(first player wins) with it %.4f)", points, p)
		comp.Agrees = yesNo(points == PublishedCompensation)
		first := t.FirstPlayerWins()
		edge.Ours = fmt.Sprintf("P(first player wins) %.4f", first)
		edge.Agrees = yesNo(first > 0.5)
	}
	thr := Result{Source: SourceNellerPresser, Claim: "the turn total from which banking maximises the expected points of a turn, by dice left to throw", Rules: "singles and triples only, no farkle penalty"}
	if p, err := src.Solo(r); err != nil {
		thr.Ours = note(err)
	} else if st, err := NewSoloThresholds(p); err != nil {
		thr.Ours = err.Error()
	} else {
		var parts []string
		for i, v := range st.BankAt[0] {
			text := thresholdText(lang.Get(lang.Default), v) // the claims are quoted in English
			if v >= r.Game.Target {
				text = "never below the target"
			}
			dice := fmt.Sprintf("%d dice", st.Dice[i])
			if st.Dice[i] == 1 {
				dice = "1 die"
			}
			parts = append(parts, dice+": "+text)
		}
		thr.Ours = strings.Join(parts, ", ") + fmt.Sprintf("; %.1f points per turn", st.ExpectedTurn)
	}
	return []Result{comp, edge, thr}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// thresholdText writes a bank threshold for people.
func thresholdText(c *lang.Catalogue, v int) string {
	if v == NeverBank {
		return c.Msg("cli.explore.never")
	}
	return c.Num(int64(v))
}
