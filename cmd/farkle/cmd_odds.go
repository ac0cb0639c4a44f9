package main

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

func init() {
	register(&command{
		name:    "odds",
		args:    "[--rules NAME|FILE] [--json]",
		summary: "P(farkle) and the expected points of the best keep for 1..6 dice",
		run:     runOdds,
	})
}

const oddsHelp = `For each number of dice 1..6: the probability of a farkle as an exact reduced
fraction and a decimal (6 places), and the expected points of the best single
keep of the throw (a farkle counts 0). Where six_dice_nothing scores, six dice
that score nothing are not a farkle and count their bonus.`

// oddsResult is the JSON of farkle odds (a stable format: fields may be
// added, never renamed).
type oddsResult struct {
	Rules string     `json:"rules"`
	Dice  []oddsDice `json:"dice"`
	// Battle is the kind's own odds, set by its view's odds (Dragon
	// Farkle's Final Battle: P(slaying the dragon) by soldiers brought;
	// none for the ordinary game).
	Battle any `json:"battle,omitempty"`
}

type oddsDice struct {
	N        int     `json:"n"`
	Farkle   string  `json:"farkle"`   // exact reduced fraction, e.g. "2/3"
	PFarkle  float64 `json:"p_farkle"` // rounded to 6 decimals
	Expected float64 `json:"expected"` // rounded to 4 decimals
	// ExpectedExact is the expected points as a reduced fraction.
	ExpectedExact string `json:"expected_exact"`
}

func runOdds(ctx context.Context, e *env, args []string) error {
	c := commands["odds"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.odds.details", oddsHelp))
	asJSON := fs.Bool("json", false, `print JSON: {"rules":"classic","dice":[{"n":1,"farkle":"2/3","p_farkle":0.666667,"expected":25},...]}`)
	resolve := variantFlag(fs)
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.noArgs", "cmd", "odds", "got", strconv.Quote(strings.Join(fs.Args(), " ")))
	}
	v, err := resolve()
	if err != nil {
		return err
	}
	r := v.Scoring()
	res := farkleOdds(r, dice.NewTable(r))
	more := viewOf(v.Kind()).odds(v, &res)
	if *asJSON {
		return emitJSON(e, res, false)
	}
	if more != nil {
		defer more(e)
	}
	cat := e.cat()
	fmt.Fprintln(e.stdout, cat.Msg("cli.odds.head", "rules", res.Rules))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t\n", cat.Msg("cli.odds.columns"))
	for _, d := range res.Dice {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", d.N, d.Farkle, cat.Dec(d.PFarkle, 6), cat.Dec(d.Expected, 2))
	}
	return tw.Flush()
}

// farkleOdds sums over the distinct throws of 1..r.Dice dice, each weighted
// by its number of ordered outcomes, so the fractions are exact.
func farkleOdds(r rules.Rules, tab *dice.Table) oddsResult {
	res := oddsResult{Rules: r.Name, Dice: []oddsDice{}}
	for n := 1; n <= r.Dice; n++ {
		o := tab.Odds(n)
		total := dice.Outcomes(n)
		pf := big.NewRat(o.FarkleWays, total)
		ex := big.NewRat(o.PointWays, total)
		pfFloat, _ := pf.Float64()
		exFloat, _ := ex.Float64()
		res.Dice = append(res.Dice, oddsDice{
			N:             n,
			Farkle:        ratString(pf),
			PFarkle:       math.Round(pfFloat*1e6) / 1e6,
			Expected:      math.Round(exFloat*1e4) / 1e4,
			ExpectedExact: ratString(ex),
		})
	}
	return res
}

// ratString writes a whole number without "/1".
func ratString(x *big.Rat) string {
	if x.IsInt() {
		return x.Num().String()
	}
	return x.String()
}
