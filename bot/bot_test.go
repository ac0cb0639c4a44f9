package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

func short(base string, target int) rules.Rules {
	r := rules.MustPreset(base)
	r.Game.Target = target
	return r
}

// tables is shared by the tests: duel tables of short rules solve in well
// under a second.
var tables = solved.NewTables("")

func TestLevels(t *testing.T) {
	names := LevelNames()
	for _, want := range []string{"perfect", "expert", "cautious", "steady", "bold", "reckless"} {
		if !slices.Contains(names, want) {
			t.Errorf("level %q missing from %v", want, names)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("LevelNames not sorted: %v", names)
	}
	for _, l := range Levels() {
		if l.Description == "" || strings.Contains(l.Description, "\n") || len(l.Description) > 120 {
			t.Errorf("%s: description %q is not one short line", l.Name, l.Description)
		}
	}
	_, err := New("genius", rules.MustPreset("classic"))
	if !errors.Is(err, ErrUnknownLevel) || !strings.Contains(err.Error(), "perfect") {
		t.Errorf("New(genius): %v, want ErrUnknownLevel listing the levels", err)
	}
}

// TestBotsPlayLegalGames plays whole games with every level under varied
// rules and player counts, checking every action against State.Legal (so
// never Resign). In some three-player games an opponent resigns part way,
// and the bots play on among the players left.
func TestBotsPlayLegalGames(t *testing.T) {
	variants := map[string]rules.Rules{
		"classic":       short("classic", 1000),
		"pocket-farkel": short("pocket-farkel", 1500),
		"cardgames":     short("cardgames", 1500),
		"farkle-dice":   short("farkle-dice", 1000),
	}
	sdn := short("pocket-farkel", 1500)
	sdn.Scoring.SixDiceNothing, sdn.Turn.HotDice, sdn.Turn.BankMinimum = 500, false, 300
	variants["sdn-no-hot-bank-min"] = sdn
	for name, r := range variants {
		for _, n := range []int{1, 2, 3} {
			if n < r.Game.MinPlayers || n > r.Game.MaxPlayers {
				continue
			}
			for _, level := range LevelNames() {
				t.Run(fmt.Sprintf("%s/%d/%s", name, n, level), func(t *testing.T) {
					b, err := New(level, r, WithTables(tables))
					if err != nil {
						t.Fatal(err)
					}
					// Others: steady, so perfect meets a real opponent.
					other, _ := New("steady", r)
					for g := range 6 {
						st, err := engine.New(r, slices.Repeat([]string{"x"}, n))
						if err != nil {
							t.Fatal(err)
						}
						src := dice.NewSource(dice.SeedFrom(fmt.Sprint(name, n, level, g)))
						resign := n == 3 && g%2 == 1
						for moves := 0; !st.Over(); moves++ {
							if resign && moves >= 20 && st.Actor() != g%n {
								resign = false
								if st, _, err = engine.Apply(st, engine.ResignBy(st.Actor()), src); err != nil {
									t.Fatal(err)
								}
								continue
							}
							s := other
							if st.Actor() == g%n {
								s = b
							}
							a := s.Choose(st)
							if !slices.Contains(st.Legal(), a) {
								t.Fatalf("chose %v in %v/%v, legal %v", a, st.Phase, st.Step, st.Legal())
							}
							if st, _, err = engine.Apply(st, a, src); err != nil {
								t.Fatal(err)
							}
							if moves > 100000 {
								t.Fatal("runaway game")
							}
						}
					}
				})
			}
		}
	}
}

// keepView returns the View of a keep decision on throw.
func keepView(r *rules.Rules, throw dice.Hand) *View {
	return &View{Rules: r, Table: engine.TableFor(*r), Players: 2, Left: throw.N(), Throw: throw, ThrowIndex: throw.Index(), Trigger: -1}
}

func TestThresholdKeeps(t *testing.T) {
	r := rules.MustPreset("classic") // three 1s 1000, no four of a kind, no straight
	// Expected keeps worked out by hand from each style:
	// cautious the most points; steady the most points per die; bold the
	// most points less 60 a die; reckless less 90 a die; all dice when they
	// all score (except cautious, which takes the most points anyway).
	for _, tc := range []struct {
		throw                            string
		cautious, steady, bold, reckless string
	}{
		// 111: 1000 (333/die, 820, 730); 1115: 1050 (262, 810, 690).
		{"111523", "1115", "111", "111", "111"},
		// 1: 100 (100/die, 40, 10); 15: 150 (75, 30, -30).
		{"152346", "15", "1", "1", "1"},
		// 555: 500 (167/die, 320, 230); 5555: 550 (137, 310, 190).
		{"555523", "5555", "555", "555", "555"},
		// Every die scores: all of them.
		{"15", "15", "15", "15", "15"},
		{"111555", "111555", "111555", "111555", "111555"},
		// 222 (200: 67/die, 20, -70) or 2225 (250: 62, 10, -110) or 5 (50, -10, -40).
		{"222534", "2225", "222", "222", "5"},
	} {
		throw, err := dice.Parse(tc.throw)
		if err != nil {
			t.Fatal(err)
		}
		for level, want := range map[string]string{"cautious": tc.cautious, "steady": tc.steady, "bold": tc.bold, "reckless": tc.reckless} {
			b, _ := New(level, r)
			v := keepView(&r, throw)
			got := v.Table.Keeps(throw)[b.(Decider).Keep(v)].Hand
			if w, _ := dice.Parse(want); got != w {
				t.Errorf("%s keeps %s from %s, want %s", level, got, tc.throw, want)
			}
		}
	}
}

func TestThresholdBanks(t *testing.T) {
	classic := rules.MustPreset("classic")
	immediate := rules.MustPreset("cardgames")
	for _, tc := range []struct {
		name   string
		r      *rules.Rules
		level  string
		scores [2]int
		total  int
		left   int
		final  bool
		want   bool
	}{
		{"steady at 300 with 3 left", &classic, "steady", [2]int{0, 0}, 300, 3, false, true},
		{"steady at 300 with 4 left", &classic, "steady", [2]int{0, 0}, 300, 4, false, false},
		{"steady at 400 with 4 left", &classic, "steady", [2]int{0, 0}, 400, 4, false, true},
		{"cautious at 50 with 1 left", &classic, "cautious", [2]int{0, 0}, 50, 1, false, true},
		{"reckless at 550 with 1 left", &classic, "reckless", [2]int{0, 0}, 550, 1, false, false},
		{"reckless at 600 with 1 left", &classic, "reckless", [2]int{0, 0}, 600, 1, false, true},
		{"bold at 650 with 4 left", &classic, "bold", [2]int{0, 0}, 650, 4, false, false},
		{"hot dice: throw six", &classic, "cautious", [2]int{0, 0}, 5000, 0, false, false},
		{"reckless banks the win", &immediate, "reckless", [2]int{9700, 9900}, 300, 5, false, true},
		{"reckless one short of the win", &immediate, "reckless", [2]int{9700, 9900}, 250, 5, false, false},
		{"last turn behind: throw", &classic, "cautious", [2]int{9000, 10200}, 1200, 1, true, false},
		{"last turn level: throw", &classic, "cautious", [2]int{9000, 10200}, 1200, 1, true, false},
		{"last turn ahead: bank", &classic, "reckless", [2]int{9000, 10200}, 1250, 5, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := New(tc.level, *tc.r)
			v := &View{Rules: tc.r, Table: engine.TableFor(*tc.r), Players: 2, Total: tc.total, Left: tc.left, FinalRound: tc.final, Trigger: -1}
			v.Scores[0], v.Scores[1] = tc.scores[0], tc.scores[1]
			if tc.final {
				v.Trigger = 1
			}
			if got := b.(Decider).Bank(v); got != tc.want {
				t.Errorf("Bank = %v, want %v", got, tc.want)
			}
		})
	}
}

// randomKeepView returns a random keep decision of a two-player game under
// r: scores below the target, a reachable turn total, a throw.
func randomKeepView(rng *rand.Rand, r *rules.Rules) *View {
	u := 50
	n := 1 + rng.IntN(6)
	throws := dice.Throws(n)
	throw := throws[rng.IntN(len(throws))]
	v := keepView(r, throw)
	v.Scores[0] = u * rng.IntN(r.Game.Target/u)
	v.Scores[1] = u * rng.IntN(r.Game.Target/u)
	v.Total = 0
	if n < 6 || rng.IntN(2) == 0 {
		v.Total = u * (1 + rng.IntN(30))
	}
	v.Seat = rng.IntN(2)
	if r.Turn.FarklePenalty.Count > 0 {
		v.Streaks[0], v.Streaks[1] = rng.IntN(r.Turn.FarklePenalty.Count), rng.IntN(r.Turn.FarklePenalty.Count)
	}
	return v
}

func TestPerfectFollowsTheTable(t *testing.T) {
	for _, r := range []rules.Rules{short("pocket-farkel", 2000), short("cardgames", 2000), short("classic", 1000)} {
		t.Run(r.Name, func(t *testing.T) {
			b, _ := New("perfect", r, WithTables(tables))
			p := b.(*Perfect)
			if err := p.Prepare(); err != nil {
				t.Fatal(err)
			}
			tab := p.Table()
			rng := rand.New(rand.NewPCG(1, 2))
			for range 300 {
				v := randomKeepView(rng, &r)
				keeps := v.Table.Keeps(v.Throw)
				if len(keeps) == 0 {
					continue
				}
				opts, _, err := tab.Options(DuelPosition(v, v.Total, v.Left), v.Throw)
				if err != nil {
					t.Fatal(err)
				}
				i := p.Keep(v)
				best := slices.IndexFunc(opts, func(o solve.KeepValue) bool { return o.Best })
				if i != best || opts[i].Keep.Hand != keeps[i].Hand {
					t.Fatalf("scores %v total %d throw %s: keeps %s, the table's best is %s", v.Scores[:2], v.Total, v.Throw, keeps[i].Hand, opts[best].Keep.Hand)
				}
				// After the keep: the remembered choice, then a fresh one.
				v.Total += int(keeps[i].Points)
				v.Left -= int(keeps[i].N)
				c, err := tab.Choice(DuelPosition(v, v.Total, v.Left))
				if err != nil {
					t.Fatal(err)
				}
				if got := p.Bank(v); got != c.BankBest {
					t.Fatalf("bank %v, table says %v (%+v)", got, c.BankBest, c)
				}
				p.memo.Store(nil)
				if got := p.Bank(v); got != c.BankBest {
					t.Fatalf("bank %v without memo, table says %v", got, c.BankBest)
				}
			}
		})
	}
}

func TestPerfectFacesTheStrongestOpponent(t *testing.T) {
	r := short("pocket-farkel", 2000)
	v := keepView(&r, dice.Of(1, 5, 2))
	v.Players, v.Seat = 4, 1
	v.Scores = [MaxPlayers]int{1500, 200, 900, 1500}
	// Seats 0 and 3 tie for the lead; after seat 1 come 2, 3, 0: seat 3.
	pos := DuelPosition(v, 100, 3)
	if pos.Me != 200 || pos.Them != 1500 || pos.Total != 100 || pos.Dice != 3 {
		t.Errorf("DuelPosition = %+v", pos)
	}
	if o := v.Opponent(); o != 3 {
		t.Errorf("Opponent = %d, want 3 (the leader next to play)", o)
	}
	// A seat that resigned is no opponent, however high its score.
	v.Out = 1<<3 | 1<<0
	if o := v.Opponent(); o != 2 {
		t.Errorf("Opponent = %d with seats 0 and 3 out, want 2", o)
	}
	v.Out = 1<<3 | 1<<0 | 1<<2
	if o, l := v.Opponent(), v.Leader(); o != -1 || l != 0 {
		t.Errorf("Opponent, Leader = %d, %d with everyone else out, want -1, 0", o, l)
	}
}

func TestPerfectFallsBackToExpert(t *testing.T) {
	solo := short("classic", 2000)
	solo.Game.MinPlayers, solo.Game.MaxPlayers = 1, 1
	b, _ := New("perfect", solo, WithTables(solved.NewTables("")))
	if err := Prepare(b); !errors.Is(err, solve.ErrRules) {
		t.Fatalf("Prepare for one-player rules: %v, want solve.ErrRules", err)
	}
	e, _ := New("expert", solo)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		v := randomKeepView(rng, &solo)
		v.Players, v.Seat = 1, 0
		if len(v.Table.Keeps(v.Throw)) == 0 {
			continue
		}
		if got, want := b.(Decider).Keep(v), e.(Decider).Keep(v); got != want {
			t.Fatalf("perfect keeps %d, expert %d", got, want)
		}
	}
}

// TestExpertFollowsTheSoloPolicy: away from the end of the game the expert
// plays the solo policy's best keep and bank choice.
func TestExpertFollowsTheSoloPolicy(t *testing.T) {
	for _, r := range []rules.Rules{rules.MustPreset("classic"), rules.MustPreset("farkle-dice"), rules.MustPreset("pocket-farkel")} {
		t.Run(r.Name, func(t *testing.T) {
			b, _ := New("expert", r, WithTables(tables))
			e := b.(*Expert)
			pol, err := tables.Solo(r)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			for range 500 {
				v := randomKeepView(rng, &r)
				v.Scores[0], v.Scores[1] = 50*(1+rng.IntN(100)), 50*(1+rng.IntN(100)) // on the board, far from 10,000
				if len(v.Table.Keeps(v.Throw)) == 0 {
					continue
				}
				pos := e.soloPos(v, v.Total, v.Left)
				opts, _, err := pol.Options(pos, v.Throw)
				if err != nil {
					t.Fatal(err)
				}
				i := e.Keep(v)
				if !opts[i].Best && opts[i].Value < bestValue(opts)-1e-9 {
					t.Fatalf("total %d throw %s: keeps %s (%.3f), best %.3f", v.Total, v.Throw, opts[i].Keep.Hand, opts[i].Value, bestValue(opts))
				}
				if opts[i].Choice.TurnEnds || math64NaN(opts[i].Choice.Bank) || math64NaN(opts[i].Choice.Throw) {
					continue
				}
				v.Total += int(opts[i].Keep.Points)
				v.Left -= int(opts[i].Keep.N)
				if got := e.Bank(v); got != opts[i].Choice.BankBest {
					t.Fatalf("total %d, %d left: bank %v, policy %+v", v.Total, v.Left, got, opts[i].Choice)
				}
			}
		})
	}
}

func bestValue(opts []solve.KeepValue) float64 {
	best := opts[0].Value
	for _, o := range opts {
		best = max(best, o.Value)
	}
	return best
}

func math64NaN(x float64) bool { return x != x }

func TestExpertEndgame(t *testing.T) {
	r := rules.MustPreset("cardgames") // immediate ending at 10,000
	b, _ := New("expert", r, WithTables(tables))
	d := b.(Decider)
	v := &View{Rules: &r, Table: engine.TableFor(r), Players: 2, Trigger: -1}
	// Banking wins at once: bank, even with six dice to throw.
	v.Scores = [MaxPlayers]int{9800, 5000}
	v.Total, v.Left = 200, 0
	if !d.Bank(v) {
		t.Error("did not bank the win")
	}
	// The opponent is one turn from winning and the expert is far behind:
	// a bank of 600 with one die left would still leave it behind.
	v.Scores = [MaxPlayers]int{6000, 9700}
	v.Total, v.Left = 600, 1
	if d.Bank(v) {
		t.Error("banked while chasing an opponent about to win")
	}
	// The same bank early in the game: the solo policy banks 600 with 1 die.
	v.Scores = [MaxPlayers]int{1000, 1200}
	if !d.Bank(v) {
		t.Error("did not bank 600 with one die left early in the game")
	}
	// A keep that reaches the target is taken over one that scores more.
	v.Scores = [MaxPlayers]int{9850, 9000}
	v.Total, v.Throw, v.Left = 0, dice.Of(1, 5, 2, 3, 4, 6), 6
	v.ThrowIndex = v.Throw.Index()
	k := v.Table.Keeps(v.Throw)[d.Keep(v)]
	if k.Points < 150 {
		t.Errorf("kept %s for %d, not enough to win", k.Hand, k.Points)
	}
}
