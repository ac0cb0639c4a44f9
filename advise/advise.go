package advise

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// ErrPosition is wrapped by every error about a position that cannot occur
// under the rules.
var ErrPosition = errors.New("advise: impossible position")

// Measure is what the values of an Advice are (game.Measure).
type Measure = game.Measure

// The measures.
const (
	// WinProbability: the probability of winning a two-player game with
	// best play from then on (the duel table).
	WinProbability = game.WinProbability
	// ExpectedPoints: the points the rest of the turn is expected to bank
	// with best play (the solo policy; with a farkle penalty or an entry
	// minimum, relative to a player on the board with no farkles behind).
	ExpectedPoints = game.ExpectedPoints
	// Soldiers measures a Dragon Farkle decision by the soldiers it is
	// expected to bring (game.ExpectedSoldiers).
	Soldiers = game.ExpectedSoldiers
)

// Position is a decision of the player to move ("me"), in points
// (game.Position).
type Position = game.Position

// Choice is one thing the player may do, with its value.
type Choice struct {
	Action engine.Kind `json:"action"`         // keep, throw or bank
	Keep   dice.Hand   `json:"keep,omitempty"` // a keep's dice
	Points int         `json:"points,omitempty"`
	Total  int         `json:"total"` // the turn total after the choice
	// Left is, after a keep, the dice left to throw (all of them after hot
	// dice); 0 when the keep ends the throwing.
	Left  int     `json:"left,omitempty"`
	Value float64 `json:"value"`
	// Then is, after a keep, what to do next: "bank" or "throw" (or "none"
	// when the turn ends scoring nothing).
	Then string `json:"then,omitempty"`
	// Bank and Throw are, after a keep, the values of banking and of
	// throwing on (nil when not allowed).
	Bank      *float64 `json:"bank,omitempty"`
	ThrowOn   *float64 `json:"throw,omitempty"`
	Best      bool     `json:"best"`
	engineAct engine.Action
}

// Advice is the value of every choice in a position.
type Advice struct {
	Rules    string   `json:"rules"`
	Measure  Measure  `json:"measure"`
	Position Position `json:"position"`
	// Farkle is set when the throw scores nothing: no choice, the value
	// is what the farkle leaves (or, for six dice under six_dice_nothing,
	// the value of the bonus and the throw of six that must follow).
	Farkle      bool     `json:"farkle,omitempty"`
	FarkleValue float64  `json:"farkle_value,omitempty"`
	Choices     []Choice `json:"choices"`
	Note        string   `json:"note,omitempty"`
}

// Best returns the best choice (the first of the highest value), or nil
// when there is none (a farkle).
func (a *Advice) Best() *Choice {
	for i := range a.Choices {
		if a.Choices[i].Best {
			return &a.Choices[i]
		}
	}
	return nil
}

// Advisor values positions under one rule set: by win probability with a
// duel table, else by expected points with the solo policy. It is
// immutable and safe for concurrent use.
type Advisor struct {
	r     rules.Rules
	duel  *solve.Table
	three *solve.Three // values the decisions of three seats all in (three.go)
	solo  *solve.Policy
	unit  int
}

// New returns an advisor for r. With duel (solved for r) values are win
// probabilities of a two-player game; without, expected points from solo
// (which is required).
func New(r rules.Rules, duel *solve.Table, solo *solve.Policy) (*Advisor, error) {
	if solo == nil {
		return nil, fmt.Errorf("advise: no solo policy")
	}
	if duel != nil && duel.Rules().Hash() != r.ForSolver().Hash() {
		return nil, fmt.Errorf("advise: the duel table is for other rules")
	}
	return &Advisor{r: r, duel: duel, solo: solo, unit: solo.Unit()}, nil
}

// For returns the advisor for a game of players players under r, with the
// solver results from ts (nil: solved.DefaultTables()): win probabilities for
// two players when the rules allow a duel table, and for three when ts has
// their three-player table (solved.Tables.Three), expected points otherwise.
// Solving a duel table the first time can take a while (see solved.Tables).
func For(r rules.Rules, players int, ts *solved.Tables) (*Advisor, error) {
	if ts == nil {
		ts = solved.DefaultTables()
	}
	solo, err := ts.Solo(r)
	if err != nil {
		return nil, err
	}
	var duel *solve.Table
	if players == 2 {
		if duel, err = ts.Duel(r); err != nil && !errors.Is(err, solve.ErrRules) {
			return nil, err
		}
	}
	if players == 3 {
		if three, err := ts.Three(r); err == nil {
			return NewThree(r, three, solo)
		}
	}
	return New(r, duel, solo)
}

// Measure returns what the advisor's values are.
func (a *Advisor) Measure() Measure {
	if a.duel != nil || a.three != nil {
		return WinProbability
	}
	return ExpectedPoints
}

// Rules returns the advisor's rules.
func (a *Advisor) Rules() rules.Rules { return a.r }

// PositionError says why a position cannot occur: a catalogue key
// (cli.posn.*) and its values, so that it can be said in any language
// (In); its Error is the English, after ErrPosition, which it wraps.
type PositionError struct {
	Key  string
	Args []any
}

func (e *PositionError) Error() string { return ErrPosition.Error() + ": " + e.In(nil) }

// Unwrap returns ErrPosition.
func (e *PositionError) Unwrap() error { return ErrPosition }

// In says why in the language of c (nil: English), without the
// "impossible position" before it.
func (e *PositionError) In(c *lang.Catalogue) string {
	if c == nil {
		c = lang.Get(lang.Default)
	}
	args := slices.Clone(e.Args)
	for i := 1; i < len(args); i += 2 {
		if k, ok := args[i].(posWord); ok {
			args[i] = c.Msg(string(k))
		}
	}
	return c.Msg(e.Key, args...)
}

// posWord is a value of a PositionError that is itself a catalogue key.
type posWord string

// Check returns why p cannot occur under the advisor's rules, or nil (a
// *PositionError).
func (a *Advisor) Check(p Position) error {
	r, u := &a.r, a.unit
	bad := func(key string, args ...any) error { return &PositionError{Key: key, Args: args} }
	for _, f := range []struct {
		name posWord
		v    int
	}{{"cli.posn.myScore", p.Me}, {"cli.posn.theirScore", p.Them}, {"cli.posn.turnTotal", p.Total}} {
		if f.v < 0 {
			return bad("cli.posn.negative", "what", f.name, "n", f.v)
		}
		if f.v%u != 0 {
			return bad("cli.posn.notMultiple", "what", f.name, "n", f.v, "unit", u, "rules", r.Name)
		}
	}
	if p.Dice < 1 || p.Dice > r.Dice {
		return bad("cli.posn.dice", "n", p.Dice, "max", r.Dice)
	}
	if p.Throw != 0 && p.Throw.N() != p.Dice {
		return bad("cli.posn.throwDice", "throw", p.Throw.String(), "n", p.Throw.N(), "dice", p.Dice)
	}
	if p.Me >= r.Game.Target {
		return bad("cli.posn.meAtTarget", "n", p.Me, "target", r.Game.Target)
	}
	if a.duel != nil && p.Them >= r.Game.Target && r.Game.Ending == rules.EndImmediate {
		return bad("cli.posn.themAtTarget", "n", p.Them, "target", r.Game.Target)
	}
	if p.Total == 0 && p.Dice < r.Dice {
		return bad("cli.posn.zeroTotal", "n", p.Dice, "all", r.Dice)
	}
	max := 1
	if pc := r.Turn.FarklePenalty.Count; pc > 0 {
		max = pc
	}
	for _, s := range []struct {
		name posWord
		v    int
	}{{"cli.posn.myStreak", p.MyStreak}, {"cli.posn.theirStreak", p.TheirStreak}} {
		if s.v < 0 || s.v >= max {
			return bad("cli.posn.streak", "what", s.name, "n", s.v, "max", max-1)
		}
	}
	return nil
}

func (a *Advisor) duelPos(p Position, total, dice int) solve.DuelPosition {
	return solve.DuelPosition{Me: p.Me, Them: p.Them, MyStreak: p.MyStreak, TheirStreak: p.TheirStreak, Total: total, Dice: dice}
}

func (a *Advisor) soloPos(p Position, total, dice int) solve.SoloPosition {
	return solve.SoloPosition{Total: total, Dice: dice, Streak: p.MyStreak, OffBoard: p.Me == 0 && a.r.Turn.EntryMinimum > 0}
}

// value returns the value of throwing dice dice at total.
func (a *Advisor) value(p Position, total, dice int) (float64, error) {
	if a.duel != nil {
		return a.duel.Value(a.duelPos(p, total, dice))
	}
	return a.solo.Value(a.soloPos(p, total, dice))
}

// choice returns the bank and throw values after a keep leaving left dice
// (0: none) at total.
func (a *Advisor) choice(p Position, total, left int) (solve.Choice, error) {
	if a.duel != nil {
		return a.duel.Choice(a.duelPos(p, total, left))
	}
	return a.solo.Choice(a.soloPos(p, total, left))
}

func ptr(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

// Position returns the value of every choice in p: with a throw, each of
// its legal keeps (valued by the better of banking and throwing on after
// it); without, throwing and (when allowed) banking. Errors wrap
// ErrPosition.
func (a *Advisor) Position(p Position) (*Advice, error) {
	if err := a.Check(p); err != nil {
		return nil, err
	}
	adv := &Advice{Rules: a.r.Name, Measure: a.Measure(), Position: p, Choices: []Choice{}}
	r := &a.r
	wrap := func(err error) error { return fmt.Errorf("%w: %w", ErrPosition, err) }
	if p.Throw == 0 {
		// Throw or bank with p.Dice dice to throw.
		left := p.Dice
		if p.Dice == r.Dice {
			left = 0
		}
		startOrForced := p.Total == 0 || (left == 0 && !r.Turn.HotDice)
		if startOrForced {
			v, err := a.value(p, p.Total, p.Dice)
			if err != nil {
				return nil, wrap(err)
			}
			adv.Choices = append(adv.Choices, Choice{Action: engine.Throw, Total: p.Total, Value: v, Best: true})
			adv.Note = "only a throw is allowed here"
			return adv, nil
		}
		c, err := a.choice(p, p.Total, left)
		if err != nil {
			return nil, wrap(err)
		}
		if ok, why := a.bankAllowed(p, p.Total); !ok {
			adv.Note = "banking is not allowed: " + why
		} else if !math.IsNaN(c.Bank) {
			adv.Choices = append(adv.Choices, Choice{Action: engine.Bank, Total: p.Total, Value: c.Bank})
		}
		if !math.IsNaN(c.Throw) {
			adv.Choices = append(adv.Choices, Choice{Action: engine.Throw, Total: p.Total, Value: c.Throw})
		}
		markBest(adv.Choices)
		return adv, nil
	}
	keeps := engine.TableFor(a.r).Keeps(p.Throw)
	if len(keeps) == 0 {
		adv.Farkle = true
		adv.Note = "farkle: the turn total is lost"
		if p.Dice == 6 && r.Scoring.SixDiceNothing > 0 {
			adv.Note = fmt.Sprintf("six dice and nothing: +%d and throw six again", r.Scoring.SixDiceNothing)
		}
		var err error
		if adv.FarkleValue, err = a.farkleValue(p); err != nil {
			return nil, wrap(err)
		}
		return adv, nil
	}
	for _, k := range keeps {
		total := p.Total + int(k.Points)
		left := p.Dice - int(k.N)
		c, err := a.choice(p, total, left)
		if err != nil {
			return nil, wrap(err)
		}
		if ok, _ := a.bankAllowed(p, total); !ok && !math.IsNaN(c.Bank) {
			// The last turn of a final round is valued without the entry
			// minimum (banking loses there anyway); the engine forbids it.
			c.Bank, c.BankBest = math.NaN(), false
			c.TurnEnds = math.IsNaN(c.Throw)
		}
		ch := Choice{Action: engine.Keep, Keep: k.Hand, Points: int(k.Points), Total: total, Left: left, Bank: ptr(c.Bank), ThrowOn: ptr(c.Throw)}
		if left == 0 && r.Turn.HotDice {
			ch.Left = r.Dice
		}
		switch {
		case c.TurnEnds:
			ch.Value, ch.Then = c.NoneValue, "none"
		case c.BankBest:
			ch.Value, ch.Then = c.Bank, "bank"
		default:
			ch.Value, ch.Then = c.Throw, "throw"
		}
		adv.Choices = append(adv.Choices, ch)
	}
	markBest(adv.Choices)
	return adv, nil
}

// farkleValue is the value left by the farkle throw of p (or the value of
// the six-dice-nothing bonus and the throw that follows).
func (a *Advisor) farkleValue(p Position) (float64, error) {
	if a.duel != nil {
		_, v, err := a.duel.Options(a.duelPos(p, p.Total, p.Dice), p.Throw)
		return v, err
	}
	_, v, err := a.solo.Options(a.soloPos(p, p.Total, p.Dice), p.Throw)
	return v, err
}

// bankAllowed says whether banking total is allowed in p, and if not why.
func (a *Advisor) bankAllowed(p Position, total int) (bool, string) {
	t := a.r.Turn
	if total < t.BankMinimum {
		return false, fmt.Sprintf("%d is below the bank minimum of %d", total, t.BankMinimum)
	}
	if p.Me == 0 && total < t.EntryMinimum {
		return false, fmt.Sprintf("%d is below the %d needed to get on the board", total, t.EntryMinimum)
	}
	return true, ""
}

// markBest marks the first choice of the highest value. Bank comes before
// throw, so a tie banks, as the perfect bot does (solve.Choice.BankBest).
func markBest(cs []Choice) {
	best := -1
	for i := range cs {
		if best < 0 || cs[i].Value > cs[best].Value {
			best = i
		}
	}
	if best >= 0 {
		cs[best].Best = true
	}
}

// PositionOf returns the position of the player to move in s: against the
// strongest opponent (the highest score among the others, ties going to the
// next to play, as the perfect bot sees it). ok is false when s is not a
// decision of play (a roll-off, or the game is over).
func PositionOf(s engine.State) (p Position, ok bool) {
	if s.Phase != engine.PhasePlay {
		return Position{}, false
	}
	var v bot.View
	bot.FromState(s, &v)
	dp := bot.DuelPosition(&v, s.Total, 0)
	p = Position{Me: dp.Me, Them: dp.Them, MyStreak: dp.MyStreak, TheirStreak: dp.TheirStreak, Total: s.Total}
	switch s.Step {
	case engine.StepKeep:
		p.Dice, p.Throw = s.Throw.N(), s.Throw
	default:
		p.Dice = s.ToThrow()
	}
	return p, true
}

// State returns the advice for the player to move in s (see PositionOf);
// each choice's Action is the engine action it stands for (Choice.Engine).
// With more than two players and a duel table, the values are the
// two-player approximation against the strongest opponent.
func (a *Advisor) State(s engine.State) (*Advice, error) {
	p, ok := PositionOf(s)
	if !ok {
		return nil, fmt.Errorf("%w: no decision in phase %s", ErrPosition, s.Phase)
	}
	adv, three, err := a.stateThree(s, p)
	if err != nil {
		return nil, err
	}
	if !three {
		if adv, err = a.stateTwo(s, p); err != nil {
			return nil, err
		}
	}
	for i := range adv.Choices {
		c := &adv.Choices[i]
		switch c.Action {
		case engine.Keep:
			c.engineAct = engine.KeepBy(s.Current, c.Keep)
		case engine.Throw:
			c.engineAct = engine.ThrowBy(s.Current)
		case engine.Bank:
			c.engineAct = engine.BankBy(s.Current)
		}
	}
	return adv, nil
}

// stateTwo is State's advice from the duel table (against the strongest
// opponent) or the solo policy.
func (a *Advisor) stateTwo(s engine.State, p Position) (*Advice, error) {
	if a.duel == nil {
		p.Them, p.TheirStreak = 0, 0
	}
	var adv *Advice
	switch s.Step {
	case engine.StepKeep:
		var err error
		if adv, err = a.Position(p); err != nil {
			return nil, err
		}
	case engine.StepThrow:
		// The start of a turn, or six dice that scored nothing: throw.
		v, err := a.value(p, p.Total, p.Dice)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPosition, err)
		}
		adv = &Advice{Rules: a.r.Name, Measure: a.Measure(), Position: p,
			Choices: []Choice{{Action: engine.Throw, Total: p.Total, Value: v, Best: true}}}
	default:
		c, err := a.choice(p, p.Total, s.Left)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPosition, err)
		}
		adv = &Advice{Rules: a.r.Name, Measure: a.Measure(), Position: p, Choices: []Choice{}}
		if ok, _ := s.CanBank(); ok && !math.IsNaN(c.Bank) {
			adv.Choices = append(adv.Choices, Choice{Action: engine.Bank, Total: p.Total, Value: c.Bank})
		}
		if !math.IsNaN(c.Throw) && s.CanThrow() {
			adv.Choices = append(adv.Choices, Choice{Action: engine.Throw, Total: p.Total, Value: c.Throw})
		}
		markBest(adv.Choices)
	}
	if len(s.Players) > 2 && a.duel != nil {
		adv.Note = "more than two players: win probability against the strongest opponent only"
	}
	return adv, nil
}

// Engine returns the engine action of a choice from State (zero for a
// choice from Position).
func (c *Choice) Engine() engine.Action { return c.engineAct }
