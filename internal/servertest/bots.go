package servertest

import (
	"fmt"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
)

// BotsCast is advise.Cast(nil) whose ordinary bots are made by f: tests
// inject failing bots with it.
func BotsCast(f func(level string, r rules.Rules) (bot.Strategy, error)) game.Cast {
	c := advise.Cast(nil)
	return c.With(game.Farkle, madeBots{c[game.Farkle], f})
}

// madeBots are the ordinary game's Players with the bots of make.
type madeBots struct {
	game.Players
	make func(level string, r rules.Rules) (bot.Strategy, error)
}

func (m madeBots) Bot(v game.Variant, level string) (game.Bot, error) {
	s, err := m.make(level, v.Scoring())
	if err != nil {
		return nil, err
	}
	return bot.Of(s), nil
}

// PointsAdvisor is a stand-in advisor and Analyzer for UI tests (given to
// a server by Advising): it values a keep by its points and throwing over
// banking; the analysis counts the decisions of each player. The real one
// (package advise) is tested in cmd/farkle.
type PointsAdvisor struct{}

// Measure is what its values are: expected points.
func (PointsAdvisor) Measure() game.Measure { return game.ExpectedPoints }

func (PointsAdvisor) Advise(g game.Game, _ int) (*game.Advice, error) {
	s := g.(*game.FarkleGame).State()
	adv := &game.Advice{Measure: game.ExpectedPoints}
	best := -1.0
	for _, a := range s.Legal() {
		v := float64(s.Total)
		if a.Kind == engine.Keep {
			p, _ := s.Table().Points(a.Dice)
			v += float64(p)
		}
		adv.Choices = append(adv.Choices, game.Choice{Action: a, Value: v})
		best = max(best, v)
	}
	for i := range adv.Choices {
		adv.Choices[i].Best = adv.Choices[i].Value == best
	}
	return adv, nil
}

func (PointsAdvisor) Analyze(rec *game.Record) (server.Analysis, error) {
	an := server.Analysis{Measure: "points"}
	_, steps, err := game.Verify(rec)
	if err != nil {
		return an, err
	}
	for i, name := range rec.Players {
		n := 0
		for _, st := range steps {
			if a, ok := st.Action.(engine.Action); st.Seat == i && (!ok || a.Kind != engine.RollOff) {
				n++
			}
		}
		worst := []server.Moment{{Action: 3, Chosen: "bank", Best: "throw", Lost: 120}}
		if rec.Kind == game.Dragon {
			worst = dragonMoments(rec.Players)
		}
		an.Players = append(an.Players, server.PlayerAnalysis{Seat: i, Name: name, Decisions: n, Mistakes: n / 4, Lost: float64(25 * n), Worst: worst})
	}
	if len(an.Players) == 0 {
		return an, fmt.Errorf("no players")
	}
	return an, nil
}

// dragonMoments are costly choices of a Dragon Farkle game as the real
// analysis names them (dragon.Action's own words, with the players'
// names): every kind of action the analysis may name, chosen or best.
func dragonMoments(players []string) []server.Moment {
	name := func(a dragon.Action) string { return a.Named(players) }
	return []server.Moment{
		{Action: 2, Chosen: name(dragon.KeepRally(dice.Of(1, 5), dragon.Double)), Best: name(dragon.KeepRally(dice.Of(1), dragon.DrawItem)), Lost: 300},
		{Action: 3, Chosen: name(dragon.Stop()), Best: name(dragon.Roll()), Lost: 200},
		{Action: 4, Chosen: name(dragon.Brawl(len(players) - 1)), Best: name(dragon.Use("pip", 3)), Lost: 150},
		{Action: 5, Chosen: name(dragon.Discard("pip")), Best: name(dragon.Recruit()), Lost: 100},
	}
}

// Panicky is a bot that panics when it is to choose, once release is
// closed.
type Panicky struct {
	Release chan struct{}
}

func (p Panicky) Choose(engine.State) engine.Action {
	<-p.Release
	panic("test: the bot breaks")
}

// Breaking makes the bots: "expert" panics at its first move (its table
// fails), the others are the real ones.
func Breaking(level string, r rules.Rules) (bot.Strategy, error) {
	if level == "expert" {
		release := make(chan struct{})
		close(release)
		return Panicky{Release: release}, nil
	}
	return bot.New(level, r)
}

// Advising is advise.Cast(nil) whose ordinary game's advisor, for every
// rule set and number of players, is a: tests give a server a stand-in
// advisor with it.
func Advising(a game.Advisor) game.Cast {
	c := advise.Cast(nil)
	return c.With(game.Farkle, advisedBy{c[game.Farkle], a})
}

// advisedBy are the ordinary game's Players with the advisor a.
type advisedBy struct {
	game.Players
	a game.Advisor
}

func (p advisedBy) Advisor(game.Variant, int) (game.Advisor, error) { return p.a, nil }
