package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/sim"
	"github.com/farkle/farkle/tui"
)

// dragonView is Dragon Farkle on the command line (its own package and
// rule set; a rule file is a Dragon Farkle file when it says base =
// "dragon", game.ParseRuleFile): the soldiers of its replays and
// analyses, the Final Battle's odds, its rules and its terminal game.
type dragonView struct{}

func init() { ownViews[game.Dragon] = dragonView{} }

// dragonPreset is the --rules name of Dragon Farkle (game.Preset).
const dragonPreset = "dragon"

func (dragonView) title() string { return "Dragon Farkle" }

func (dragonView) preset() string { return dragonPreset }

func (dragonView) onlineSeats(spec string, v game.Variant) ([]tui.Seat, error) {
	return tui.ParseDragonPlayers(spec, dragonRules(v))
}

// dragonRules returns the rules of v, a variant of this view's own kind.
func dragonRules(v game.Variant) dragon.Rules { return v.(*game.DragonVariant).Game().Rules() }

// dragonCommands are the commands that play or describe Dragon Farkle.
const dragonCommands = "rules, score, odds, sim, play, replay, verify, analyze"

func (d dragonView) unsupported(cmd string) error {
	return usageMsg("cli.err.notDragon", "rules", dragonPreset, "cmd", cmd, "game", d.title(), "cmds", dragonCommands)
}

func (dragonView) scoresLabel(c *lang.Catalogue) string { return c.Msg("dragon.tui.soldiersWord") }

func (dragonView) eventPlace(ev game.Event) (place, seat, round int) {
	if ev, ok := ev.(dragon.Event); ok {
		switch ev.Kind {
		case dragon.EvTurn:
			return turnStart, ev.Seat, ev.Round
		case dragon.EvWin:
			return gameEnd, 0, 0
		}
	}
	return inTurn, 0, 0
}

// position says a Dragon Farkle decision's position (advise.AnalyzeSteps):
// soldiers, the pool and the dice.
func (dragonView) position(c *lang.Catalogue, p game.Position, _ bool) string {
	parts := []string{c.Msg("cli.pos.soldiers", "n", p.Me, "them", p.Them)}
	if p.Total > 0 {
		parts = append(parts, c.Msg("dragon.tui.pool", "n", p.Total))
	}
	if p.Throw != 0 {
		parts = append(parts, c.Msg("cli.pos.threw", "dice", p.Throw.String()))
	} else if p.Dice > 0 {
		parts = append(parts, c.Msg("cli.pos.dice", "n", p.Dice))
	}
	return strings.Join(parts, ", ")
}

// odds adds the Final Battle's odds: P(slaying the dragon) by soldiers
// brought.
func (dragonView) odds(v game.Variant, res *oddsResult) func(e *env) {
	d := dragonRules(v)
	rows := dragon.OddsTable(d)
	res.Battle = rows
	return func(e *env) { printBattleOdds(e, d, rows) }
}

// printBattleOdds draws the Final Battle odds as a table with a bar per row.
func printBattleOdds(e *env, d dragon.Rules, rows []dragon.OddsRow) {
	c := e.cat()
	fmt.Fprintf(e.stdout, "\n%s\n", c.Msg("cli.odds.battle"))
	if d.Army() {
		fmt.Fprintln(e.stdout, c.Msg("cli.odds.army", "wave", d.BattleWave, "fire", d.BattleFire))
	} else {
		fmt.Fprintln(e.stdout, c.Msg("cli.odds.classic"))
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t\n", c.Msg("cli.odds.battleColumns"))
	for _, row := range rows {
		bar := strings.Repeat("█", int(math.Round(row.PWin*40)))
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Num(int64(row.Soldiers)), c.Dec(row.PWin, 4), c.Dec(row.ExpectedLoss, 0), bar)
	}
	tw.Flush()
}

// printRules writes the Dragon Farkle rules (dragon.Rules).
func (dragonView) printRules(e *env, v game.Variant, asJSON bool) error {
	d := dragonRules(v)
	if asJSON {
		return emitJSON(e, d, true)
	}
	return toml.NewEncoder(e.stdout).Encode(d)
}

// listed is the --list line of Dragon Farkle.
func (dragonView) listed(name string, v game.Variant) presetInfo {
	d := dragonRules(v)
	return presetInfo{Name: name, Description: describeDragon(d), Hash: d.Soldiers.Hash()}
}

// describeDragon is the --list line of Dragon Farkle.
func describeDragon(d dragon.Rules) string {
	s := d.Soldiers.Scoring
	return fmt.Sprintf("Dragon Farkle (Z-Man Games): soldiers, an event die, cards; four of a kind %d, three pairs %d, six of a kind %d, straight %d; %d soldiers to fight the dragon; %d-%d players",
		s.FourOfAKind, s.ThreePairs, s.SixOfAKind, s.Straight, d.BattleMinimum, d.MinPlayers, d.MaxPlayers)
}

// play plays Dragon Farkle (--rules dragon): full-screen or in line mode,
// saved as a record in the games directory.
func (dragonView) play(ctx context.Context, e *env, v game.Variant, p playArgs) error {
	d := dragonRules(v)
	spec, seedText, now := p.players, p.seed, p.now
	cards := dragon.DefaultCards()
	if d.CardFile != "" {
		data, err := rules.ReadFile(d.CardFile)
		if err != nil {
			return usageMsg("cli.err.cardFile", "file", d.CardFile, "err", err)
		}
		if cards, err = dragon.ParseCards(data); err != nil {
			return usageMsg("cli.err.cardFile", "file", d.CardFile, "err", err)
		}
	}
	dg, err := dragon.NewGame(d, cards)
	if err != nil {
		return usageMsg("cli.err.flagErr", "flag", "rules", "err", err)
	}
	if spec == "" {
		spec = e.msg("dragon.you") + ",bot:smart"
	}
	seats, err := tui.ParseDragonPlayers(spec, d)
	if err != nil {
		return playersError(spec, err)
	}
	seed := dice.NewSeed()
	if seedText != "" {
		seed = dice.SeedFrom(seedText)
	}
	path := ""
	if p.dirErr != nil {
		fmt.Fprintf(e.stderr, "farkle play: this game will not be saved: %s\n", userText(p.dirErr))
	} else {
		path = tui.DragonGamePath(p.dir, now(), names(seats))
	}
	g, err := tui.NewDragonGame(dg, seats, seed, path, now)
	if err != nil {
		return usagef("%v", err)
	}
	return runDragonGame(ctx, e, g, p)
}

// resume continues the Dragon Farkle game saved at path.
func (dragonView) resume(ctx context.Context, e *env, path string, p playArgs) error {
	dg, err := tui.ResumeDragonGame(path, time.Now)
	if err != nil {
		return usageMsg("cli.err.flagErr", "flag", "resume", "err", err)
	}
	return runDragonGame(ctx, e, dg, p)
}

// runDragonGame plays g full-screen (bots pausing p.delay before each
// action, a farkle held p.hold) or in line mode and says where it is
// saved.
func runDragonGame(ctx context.Context, e *env, g *tui.DragonGame, p playArgs) error {
	var err error
	if p.lineMode {
		return tui.RunDragonLinesIn(ctx, e.cat(), g, e.stdin, e.stdout)
	}
	if g, err = tui.RunDragon(ctx, tui.DragonOptions{Game: g, BotDelay: p.delay, FarkleHold: p.hold, Lang: e.cat()}, e.stdin, e.stdout); err != nil {
		return err
	}
	return sayDragonSaved(e, g)
}

// sayDragonSaved says how the Dragon Farkle game g ended and where it is
// saved.
func sayDragonSaved(e *env, g *tui.DragonGame) error {
	if err := g.SaveError(); err != nil {
		return fmt.Errorf("the game could not be saved: %w", err)
	}
	if g.Over() {
		fmt.Fprintln(e.stdout, g.WinnersIn(e.cat()))
	}
	if g.Path() != "" {
		fmt.Fprintln(e.stdout, e.msg("tui.lines.saved", "file", g.Path()))
		if !g.Over() {
			fmt.Fprintln(e.stdout, e.msg("cli.play.resume", "file", g.Path()))
		}
	}
	return nil
}

// simHelp says what farkle sim --rules dragon plays and counts.
func (dragonView) simHelp() helpPara {
	levels := strings.Join(dragon.Levels(), ", ")
	return para("cli.help.sim.dragon", fmt.Sprintf(`With --rules dragon the players are Dragon Farkle bot levels
(%s). The first player of each game is drawn at random; a
second table gives the wins by place in the turn order (1st player, 2nd
player...), the measure of a seat's advantage, and the last line how
many games ended with the dragon slain, the rounds a game and the Final
Battles a game.`, levels), "levels", levels)
}

// dragonSimJSON is a tournament of Dragon Farkle in the JSON shape of the
// other sims (each player's 95% interval also as "ci95": [lo, hi]), with
// its own figures: wins by place in the turn order, dragons slain, games
// capped, ties, rounds, turns and Final Battles a game, and the time
// taken.
type dragonSimJSON struct {
	Rules     string            `json:"rules"`
	Games     int               `json:"games"`
	Seed      string            `json:"seed"`
	ByPlace   []dragonSimPlace  `json:"by_place"`
	Slain     int               `json:"slain"`  // games won by slaying the dragon
	Capped    int               `json:"capped"` // games ended by dragon.DefaultMaxRounds
	Ties      int               `json:"ties"`
	AvgRounds float64           `json:"avg_rounds"`
	AvgTurns  float64           `json:"avg_turns"`
	Battles   float64           `json:"battles"` // Final Battles started per game
	Players   []dragonSimPlayer `json:"players"`
	simTime
}

// dragonSimPlayer is one seat's result.
type dragonSimPlayer struct {
	Name         string     `json:"name"`
	Level        string     `json:"level"`
	Wins         int        `json:"wins"`
	Shared       int        `json:"shared,omitempty"`
	WinRate      float64    `json:"win_rate"`
	Low          float64    `json:"low"`  // 95% Wilson interval of the win rate
	High         float64    `json:"high"` //
	MeanTurns    float64    `json:"mean_turns"`
	MeanSoldiers float64    `json:"mean_soldiers"` // soldiers at the end of a game
	CI95         [2]float64 `json:"ci95"`
}

// dragonSimPlace is the result of the players by their place in the turn
// order (1: the first player of a game, drawn at random), whatever their
// level: a fair game gives every place 1/players of the wins when the
// players are of one level.
type dragonSimPlace struct {
	Place   int     `json:"place"`
	Wins    int     `json:"wins"`
	Shared  int     `json:"shared,omitempty"`
	WinRate float64 `json:"win_rate"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
}

// simulate plays a Dragon Farkle tournament as its simulations always
// have: game i from dragon.GameSeed, the players in the order given (the
// game draws the first player), a game still going after
// dragon.DefaultMaxRounds rounds ended with the most soldiers winning;
// its own figures are counted as the games end.
func (dragonView) simulate(cfg *sim.Config) simShow {
	n := len(cfg.Players)
	cfg.Deal = func(seed dice.Seed, i, players int) (dice.Seed, []int) {
		seat := make([]int, players)
		for j := range seat {
			seat[j] = j
		}
		return dragon.GameSeed(seed, i), seat
	}
	cfg.Stop = func(g game.Game) ([]int, string) {
		if ws, ok := dragon.RoundCap(g.(*game.DragonGame).State(), dragon.DefaultMaxRounds); ok {
			return ws, "the simulator ended the game after its last round"
		}
		return nil, ""
	}
	out := dragonSimJSON{ByPlace: make([]dragonSimPlace, n)}
	var rounds, turns, battles int
	cfg.Tally = func(_ int, g game.Game, winners []int, actions []game.Action, capped bool) {
		s := g.(*game.DragonGame).State()
		for _, w := range winners {
			place := &out.ByPlace[(w-s.First+n)%n]
			place.Wins++
			if len(winners) > 1 {
				place.Shared++
			}
		}
		if len(winners) > 1 {
			out.Ties++
		}
		if s.Slain {
			out.Slain++
		}
		if capped {
			out.Capped++
		}
		rounds += s.Round
		turns += s.Turns
		for _, a := range actions {
			if a.(dragon.Action).Kind == dragon.ActBattle {
				battles++
			}
		}
	}
	return func(e *env, res *sim.Result, t simTime, asJSON bool, recordDir string) error {
		games := float64(res.Games)
		out.Rules, out.Games, out.Seed, out.simTime = res.Rules, res.Games, res.Seed, t
		out.AvgRounds, out.AvgTurns, out.Battles = float64(rounds)/games, float64(turns)/games, float64(battles)/games
		for _, p := range res.Players {
			out.Players = append(out.Players, dragonSimPlayer{Name: p.Name, Level: p.Level, Wins: p.Wins, Shared: p.Shared, WinRate: p.WinRate,
				Low: p.CI95[0], High: p.CI95[1], MeanTurns: p.MeanTurns, MeanSoldiers: p.MeanScore, CI95: p.CI95})
		}
		for i := range out.ByPlace {
			q := &out.ByPlace[i]
			q.Place, q.WinRate = i+1, float64(q.Wins)/games
			ci := sim.Wilson(q.Wins, res.Games)
			q.Low, q.High = ci[0], ci[1]
		}
		if asJSON {
			return emitJSON(e, out, false)
		}
		lc := e.cat()
		sayFitted(e, lc.Msg("cli.sim.head", "n", out.Games, "rules", out.Rules, "seed", out.Seed))
		var names []string
		var rows [][]string
		for _, p := range out.Players {
			names = append(names, p.Name)
			rows = append(rows, []string{winsText(lc, p.Wins, p.Shared), lc.Pct(p.WinRate, 2), interval(lc, p.Low, p.High), lc.Dec(p.MeanTurns, 1), lc.Dec(p.MeanSoldiers, 0)})
		}
		fmt.Fprint(e.stdout, fitTabbed(lc.Msg("cli.sim.columnsDragon"), names, rows, tableWidth(e)))
		sayFitted(e, lc.Msg("cli.sim.speed", "turns", lc.Dec(out.AvgTurns, 1), "secs", lc.Dec(t.Seconds, 2), "workers", t.Workers, "rate", lc.Dec(t.GamesPerSec, 0)))
		names, rows = nil, nil
		for _, q := range out.ByPlace {
			names = append(names, ordinal(lc, q.Place))
			rows = append(rows, []string{winsText(lc, q.Wins, q.Shared), lc.Pct(q.WinRate, 2), interval(lc, q.Low, q.High)})
		}
		fmt.Fprint(e.stdout, fitTabbed(lc.Msg("cli.sim.columnsOrder"), names, rows, tableWidth(e)))
		sayFitted(e, lc.Msg("cli.sim.dragon", "slain", out.Slain, "capped", out.Capped, "rounds", lc.Dec(out.AvgRounds, 1), "battles", lc.Dec(out.Battles, 2)))
		sayRecords(e, recordDir, out.Games)
		return nil
	}
}
