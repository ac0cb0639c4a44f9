package explore

import (
	"fmt"
	"sort"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// Bot is a bot level that can be asked about any position.
type Bot struct {
	Level   string
	Decider bot.Decider
}

// Bots returns every bot level for r, taking solver results from ts.
func Bots(r rules.Rules, ts *solved.Tables) ([]Bot, error) {
	var out []Bot
	for _, name := range bot.LevelNames() {
		s, err := bot.New(name, r, bot.WithTables(ts))
		if err != nil {
			return nil, err
		}
		d, ok := s.(bot.Decider)
		if !ok {
			return nil, fmt.Errorf("explore: bot %s cannot be asked about a position", name)
		}
		out = append(out, Bot{Level: name, Decider: d})
	}
	return out, nil
}

// Pick is what one bot does in a position: the text of its choice (as in
// Option.Text) and, after a keep, whether it then banks or throws on.
type Pick struct {
	Level  string `json:"level"`
	Choice string `json:"choice"`
	Then   string `json:"then,omitempty"` // "bank" or "throw" after a keep; "" otherwise
}

// Option is one choice of a position with its value.
type Option struct {
	Text  string  `json:"text"`  // "bank", "throw" or "keep 1 5"
	Value float64 `json:"value"` // in Measure
	Then  string  `json:"then,omitempty"`
	Total int     `json:"total"`
	Best  bool    `json:"best"`
	Loss  float64 `json:"loss"` // the best value minus this one
}

// Inspection is every choice of a position, best first, and the bots' picks.
type Inspection struct {
	Rules    string          `json:"rules"`
	Measure  advise.Measure  `json:"measure"`
	Position advise.Position `json:"position"`
	Options  []Option        `json:"options"`
	Farkle   bool            `json:"farkle,omitempty"`
	Note     string          `json:"note,omitempty"`
	Bots     []Pick          `json:"bots"`
}

// Inspect values every choice of p with adv (best first; equal values in
// the advisor's order) and asks each bot what it would do.
func Inspect(adv *advise.Advisor, bots []Bot, p advise.Position) (*Inspection, error) {
	a, err := adv.Position(p)
	if err != nil {
		return nil, err
	}
	in := &Inspection{Rules: a.Rules, Measure: a.Measure, Position: p, Farkle: a.Farkle, Note: a.Note, Options: []Option{}, Bots: []Pick{}}
	best := 0.0
	if b := a.Best(); b != nil {
		best = b.Value
	}
	for _, c := range a.Choices {
		in.Options = append(in.Options, Option{Text: choiceText(c.Action, c.Keep.String()), Value: c.Value, Then: c.Then, Total: c.Total, Best: c.Best, Loss: best - c.Value})
	}
	sort.SliceStable(in.Options, func(i, j int) bool {
		if in.Options[i].Best != in.Options[j].Best {
			return in.Options[i].Best
		}
		return in.Options[i].Value > in.Options[j].Value
	})
	if a.Farkle {
		return in, nil
	}
	r := adv.Rules()
	canBank := false
	for _, c := range a.Choices {
		canBank = canBank || c.Action == engine.Bank
	}
	for _, b := range bots {
		in.Bots = append(in.Bots, pick(b, r, p, canBank))
	}
	return in, nil
}

func choiceText(k engine.Kind, keep string) string {
	if k == engine.Keep {
		return "keep " + keep
	}
	return k.String()
}

// pick asks one bot (a Decider: only questions the rules allow).
func pick(b Bot, r rules.Rules, p advise.Position, canBank bool) Pick {
	v := view(r, p)
	if p.Throw == 0 {
		if canBank && b.Decider.Bank(&v) {
			return Pick{Level: b.Level, Choice: "bank"}
		}
		return Pick{Level: b.Level, Choice: "throw"}
	}
	keeps := v.Table.Keeps(p.Throw)
	k := keeps[b.Decider.Keep(&v)]
	out := Pick{Level: b.Level, Choice: "keep " + k.Hand.String()}
	// After the keep: bank or throw on, where both are allowed.
	v.Total += int(k.Points)
	v.Left = p.Dice - int(k.N)
	v.Throw, v.ThrowIndex = 0, 0
	bankOK := v.Total >= r.Turn.BankMinimum && (p.Me > 0 || v.Total >= r.Turn.EntryMinimum)
	throwOK := v.Left > 0 || r.Turn.HotDice
	switch {
	case bankOK && throwOK:
		out.Then = Throw
		if b.Decider.Bank(&v) {
			out.Then = Bank
		}
	case bankOK:
		out.Then = Bank
	case throwOK:
		out.Then = Throw
	}
	return out
}

// view is the bots' view of p: a two-player game, the player to move in
// seat 0; on the last turn of a final round (Them at the target) the other
// player started it.
func view(r rules.Rules, p advise.Position) bot.View {
	v := bot.View{Rules: &r, Table: engine.TableFor(r), Players: 2, Seat: 0, Total: p.Total, Trigger: -1}
	v.Scores[0], v.Scores[1] = p.Me, p.Them
	v.Streaks[0], v.Streaks[1] = p.MyStreak, p.TheirStreak
	if p.Throw != 0 {
		v.Left, v.Throw, v.ThrowIndex = p.Throw.N(), p.Throw, p.Throw.Index()
	} else {
		v.Left = p.Dice % r.Dice
	}
	if p.Them >= r.Game.Target && r.Game.Ending == rules.EndFinalRound {
		v.FinalRound, v.Trigger = true, 1
	}
	return v
}
