package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
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

// dragonRules returns the rules of v, a variant of this view's own kind.
func dragonRules(v game.Variant) dragon.Rules { return v.(*game.DragonVariant).Game().Rules() }

// dragonCommands are the commands that play or describe Dragon Farkle.
const dragonCommands = "rules, score, odds, sim, play, replay, verify, analyze"

func (d dragonView) unsupported(cmd string) error {
	return usagef("--rules %s: farkle %s does not play %s (%s works with: %s)", dragonPreset, cmd, d.title(), d.title(), dragonCommands)
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
	res.Battle = dragon.OddsTable(d)
	return func(e *env) { printBattleOdds(e, d, res.Battle) }
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
		data, err := os.ReadFile(d.CardFile)
		if err != nil {
			return usagef("card_file %s: %v", d.CardFile, err)
		}
		if cards, err = dragon.ParseCards(data); err != nil {
			return usagef("card_file %s: %v", d.CardFile, err)
		}
	}
	dg, err := dragon.NewGame(d, cards)
	if err != nil {
		return usagef("--rules: %v", err)
	}
	if spec == "" {
		spec = e.msg("dragon.you") + ",bot:smart"
	}
	seats, err := tui.ParseDragonPlayers(spec, d)
	if err != nil {
		return usagef("--players %s: %v", spec, strings.TrimPrefix(err.Error(), tui.ErrPlayers.Error()+": "))
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
	return runDragonGame(ctx, e, g, p.lineMode, p.delay)
}

// resume continues the Dragon Farkle game saved at path.
func (dragonView) resume(ctx context.Context, e *env, path string, lineMode bool, delay time.Duration) error {
	dg, err := tui.ResumeDragonGame(path, time.Now)
	if err != nil {
		return usagef("--resume: %v", err)
	}
	return runDragonGame(ctx, e, dg, lineMode, delay)
}

// runDragonGame plays g full-screen (bots pausing delay before each
// action) or in line mode and says where it is saved.
func runDragonGame(ctx context.Context, e *env, g *tui.DragonGame, lineMode bool, delay time.Duration) error {
	var err error
	if lineMode {
		return tui.RunDragonLinesIn(ctx, e.cat(), g, e.stdin, e.stdout)
	}
	if g, err = tui.RunDragon(ctx, tui.DragonOptions{Game: g, BotDelay: delay, Lang: e.cat()}, e.stdin, e.stdout); err != nil {
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
