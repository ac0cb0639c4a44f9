package tui

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
)

// cardPolicy is a person's play that meets the card rules: attack with
// enough soldiers; hire a Companion in every third round (keep the new
// one); brawl a richer player; in a brawl use the
// first usable card, then stand; keep the most soldiers (in battle the
// cheapest), doubling on a Rally, and stop at 1000 or two dice left;
// accept a farkle; discard the first item. It returns the action and,
// after a keep, what follows it (roll or stop; Kind 0 for nothing).
func cardPolicy(v dragon.View) (dragon.Action, dragon.Action) {
	me := v.Players[v.Seat]
	switch v.Phase {
	case dragon.PhaseChoose:
		switch {
		case hasKind(v.Legal, dragon.ActBattle):
			return dragon.Battle(), dragon.Action{}
		case hasKind(v.Legal, dragon.ActHire) && v.Round%3 == 2:
			return dragon.Hire(), dragon.Action{}
		}
		for _, a := range v.Legal {
			if a.Kind == dragon.ActBrawl && v.Players[a.Target].Soldiers > me.Soldiers {
				return a, dragon.Action{}
			}
		}
		return dragon.Recruit(), dragon.Action{}
	case dragon.PhaseHire:
		return dragon.Dismiss(me.Companion.ID), dragon.Action{}
	case dragon.PhaseBrawl:
		for _, a := range v.Legal {
			if a.Kind == dragon.ActUse {
				return a, dragon.Action{}
			}
		}
		return dragon.Pass(), dragon.Action{}
	case dragon.PhaseKeep:
		best, most := dragon.KeepValue{}, -1<<30
		for _, kv := range v.KeepValues {
			worth := kv.Soldiers
			if v.Mode == dragon.Battling {
				worth = -kv.Dice.N()
			}
			if worth > most {
				best, most = kv, worth
			}
		}
		if most == -1<<30 {
			return dragon.Accept(), dragon.Action{}
		}
		keep := dragon.Keep(best.Dice)
		if v.Mode == dragon.Recruiting && v.Event == dragon.Rally {
			keep = dragon.KeepRally(best.Dice, dragon.Double)
		}
		left := v.Dice - best.Dice.N()
		if v.Mode == dragon.Recruiting && left > 0 && (v.Pool+best.Soldiers >= 1000 || left <= 2) {
			return keep, dragon.Stop()
		}
		return keep, dragon.Roll()
	case dragon.PhaseEvaded:
		return dragon.Roll(), dragon.Action{}
	case dragon.PhaseRoll:
		if v.Mode == dragon.Recruiting && (v.Pool >= 1000 || v.Dice <= 2) {
			return dragon.Stop(), dragon.Action{}
		}
		return dragon.Roll(), dragon.Action{}
	case dragon.PhaseDiscard:
		return dragon.Discard(me.Items[0].ID), dragon.Action{}
	}
	panic("cardPolicy: phase " + v.Phase.String())
}

// cardKeys are the keys that play cardPolicy's choice on the table of m.
func cardKeys(m *DragonModel, v dragon.View) []string {
	a, then := cardPolicy(v)
	switch a.Kind {
	case dragon.ActRecruit:
		return []string{"r"}
	case dragon.ActBattle:
		return []string{"f"}
	case dragon.ActBrawl:
		return []string{"b"}
	case dragon.ActHire:
		return []string{"c"}
	case dragon.ActDismiss:
		return []string{"n"}
	case dragon.ActPass:
		return []string{"p"}
	case dragon.ActUse:
		i := slices.IndexFunc(m.menu.items, func(it dragonMenuItem) bool { return it.act == a })
		return []string{fmt.Sprint(i + 1)}
	case dragon.ActAccept:
		return []string{"a"}
	case dragon.ActDiscard:
		return []string{"1"}
	case dragon.ActRoll:
		return []string{"r"}
	case dragon.ActStop:
		return []string{"s"}
	}
	// A keep: choose its dice (the Dragon has chosen them already), then
	// throw on or stop; a Rally asks for its reward.
	var keys []string
	if !m.forced {
		for _, f := range a.Keep.Faces() {
			keys = append(keys, fmt.Sprint(f))
		}
	}
	if then.Kind == dragon.ActStop {
		keys = append(keys, "s")
	} else {
		keys = append(keys, "r")
	}
	if a.Reward == dragon.Double {
		keys = append(keys, "d")
	}
	return keys
}

// cardGame is what a game played with cardPolicy held: its events, the
// seats that used a card defending in a brawl, and whether you hired.
type cardGame struct {
	events    []dragon.Event
	defenders []int
	hired     bool
}

// playCardPolicy plays a whole game of you against a smart bot directly
// with cardPolicy.
func playCardPolicy(t *testing.T, seed [32]byte) cardGame {
	g := newDragonGame(t, "you,bot:smart", seed, "")
	var cg cardGame
	note := func(turn int, ev []dragon.Event) {
		cg.events = append(cg.events, ev...)
		for _, e := range ev {
			switch {
			case e.Kind == dragon.EvUse && e.Seat != turn: // only a defender acts off turn
				cg.defenders = append(cg.defenders, e.Seat)
			case e.Kind == dragon.EvHire && e.Seat == 0:
				cg.hired = true
			}
		}
	}
	for steps := 0; !g.Over(); steps++ {
		if steps > 3000 {
			t.Fatal("the game does not end")
		}
		turn := g.Turn()
		if g.BotToAct() {
			_, ev, err := g.Auto()
			if err != nil {
				t.Fatal(err)
			}
			note(turn, ev)
			continue
		}
		a, then := cardPolicy(g.View(g.ToAct()))
		ev, err := g.Do(a)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		note(turn, ev)
		if then.Kind != 0 && g.State().Phase == dragon.PhaseRoll {
			ev, err := g.Do(then)
			if err != nil {
				t.Fatalf("%s: %v", then, err)
			}
			note(turn, ev)
		}
	}
	return cg
}

// cardSeed returns the seed of a game played with cardPolicy in which you
// use a card defending a brawl and hire a Companion, and its events.
func cardSeed(t *testing.T) ([32]byte, []dragon.Event) {
	for i := range 400 {
		s := dice.SeedFrom(fmt.Sprintf("cards-%d", i))
		if cg := playCardPolicy(t, s); cg.hired && slices.Contains(cg.defenders, 0) {
			return s, cg.events
		}
	}
	t.Fatal("no game in which you use a card defending and hire")
	return [32]byte{}, nil
}

// TestDragonLinesCards plays the game of cardSeed through the line
// commands: the prompts offer the hire, the two Companions to keep, and
// on your brawl throw as defender the cards and pass, with the score to
// beat.
func TestDragonLinesCards(t *testing.T) {
	seed, _ := cardSeed(t)
	g := newDragonGame(t, "you,bot:smart", seed, "")
	var out strings.Builder
	w := bufio.NewWriter(&out)
	l := &dragonLines{g: g, w: w}
	l.intro()
	for steps := 0; !g.Over(); steps++ {
		if steps > 3000 {
			t.Fatal("the game does not end")
		}
		a, then := cardPolicy(g.View(g.ToAct()))
		cmds := []string{dragonCommand(a, g.Names())}
		if then.Kind != 0 {
			cmds = append(cmds, then.Kind.String())
		}
		for i, cmd := range cmds {
			before := len(g.Record().Actions)
			if i > 0 && (g.Over() || g.BotToAct() || g.State().Phase != dragon.PhaseRoll) {
				break
			}
			l.command(cmd)
			if len(g.Record().Actions) == before {
				w.Flush()
				t.Fatalf("command %q did nothing:\n%s", cmd, tail(out.String(), 10))
			}
		}
	}
	w.Flush()
	text := out.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`choose: recruit \| brawl smart.* \| hire \(a Companion for 200 soldiers\)`),
		regexp.MustCompile(`(?m)^hire: yours .*\n^hire: hired .*\n^choose: dismiss \w+ \(keep .*\) \| dismiss \w+ \(keep .*\)$`),
		regexp.MustCompile(`you pay 200 soldiers to hire`),
		regexp.MustCompile(`(?m)^brawl: you defend against smart: .* scores \d+, against \d+\nchoose: use \w+.* \| pass \(stand by \d+\)$`),
	} {
		if !want.MatchString(text) {
			t.Errorf("the lines do not match %s", want)
		}
	}
}

// TestDragonTerminalWholeGameWithCards plays a whole game against a smart
// bot on the full-screen table, in a teatest program, by keys: brawls, in
// one of which you defend and use a Magic Item, and a Companion hired. The game is found by playing the same policy directly;
// the table must then show each decision (your brawl throw with its
// cards, the two Companions of a hire) and play it to the same end. The
// screens of those moments are kept in the test's artifact directory.
func TestDragonTerminalWholeGameWithCards(t *testing.T) {
	seed, want := cardSeed(t)

	g := newDragonGame(t, "you,bot:smart", seed, "")
	m := NewDragon(DragonOptions{Game: g, BotDelay: time.Millisecond})
	tm := teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(100, 40))
	type look struct {
		screen   string
		view     dragon.View
		deciding bool
		over     bool
		held     bool
		version  int
		keys     []string
	}
	probe := func() look {
		ch := make(chan look, 1)
		tm.Send(lookMsg(func() {
			var l look
			l.screen, l.view, l.version = drawn(m), m.view(), m.version()
			l.over, l.held = m.g.Over(), m.held
			l.deciding = m.deciding() && m.show == nil && !l.over
			if l.deciding {
				l.keys = cardKeys(m, l.view)
			}
			ch <- l
		}))
		select {
		case l := <-ch:
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("the program does not answer")
			return look{}
		}
	}
	saw := map[string]string{}
	keep := func(name, screen string) {
		if _, ok := saw[name]; !ok {
			saw[name] = screen
			if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name+".txt"), []byte(screen), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for steps := 0; ; steps++ {
		if steps > 20000 {
			t.Fatal("the game does not end on the table")
		}
		l := probe()
		if l.over {
			keep("over", l.screen)
			break
		}
		if l.held { // your farkle stays on the table until a key
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			continue
		}
		if !l.deciding {
			if b := l.view.Brawl; b != nil && b.Defending && l.view.ToAct == 1 {
				keep("waiting-for-defender", l.screen)
			}
			continue
		}
		v := l.view
		switch {
		case v.Phase == dragon.PhaseBrawl && v.Brawl.Defending:
			keep("you-defend", l.screen)
			for _, w := range []string{"Brawl · smart challenged you", "you defend against smart", "Use a card on your brawl throw", "Stand by this throw", fmt.Sprintf("against %d", v.Brawl.Score)} {
				if !strings.Contains(l.screen, w) {
					t.Fatalf("your brawl throw as defender does not show %q:\n%s", w, l.screen)
				}
			}
		case v.Phase == dragon.PhaseBrawl:
			keep("you-challenge", l.screen)
		case v.Phase == dragon.PhaseHire:
			keep("hire", l.screen)
			for _, w := range []string{"You hired a Companion", "Keep " + v.Offer.Name + " (new)", "Keep " + v.Players[0].Companion.Name + " (yours)"} {
				if !strings.Contains(l.screen, w) {
					t.Fatalf("the hire does not show %q:\n%s", w, l.screen)
				}
			}
		}
		for _, k := range l.keys {
			for _, msg := range keyMsgs(k) {
				tm.Send(msg)
			}
		}
		for i := 0; ; i++ {
			next := probe()
			if next.version != l.version {
				break
			}
			if i > 10000 {
				t.Fatalf("keys %q did nothing:\n%s", l.keys, next.screen)
			}
		}
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	for _, name := range []string{"you-defend", "hire", "over"} {
		if _, ok := saw[name]; !ok {
			t.Errorf("the table never showed %s", name)
		}
	}
	got := m.g.Events()
	if n := min(len(want), dragonLogSize); !slices.EqualFunc(got[len(got)-n:], want[len(want)-n:], func(a, b dragon.Event) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		t.Fatal("the game played on the table is not the one played directly")
	}
	if !strings.Contains(saw["over"], m.g.Winners()[1:]) {
		t.Fatalf("the last screen does not say %q:\n%s", m.g.Winners(), saw["over"])
	}
}

// lookMsg runs a function in the program's loop (see probed).
type lookMsg func()

// TestDragonWaitingForDefender: while the bot defends a brawl and may use
// a card on its throw, the table shows your settled throw's score, the
// bot's throw and whom the game waits for.
func TestDragonWaitingForDefender(t *testing.T) {
	var g *DragonGame
	for i := 0; g == nil; i++ {
		if i == 300 {
			t.Fatal("no game in which the bot defends with a card to decide on")
		}
		c := newDragonGame(t, "you,bot:smart", dice.SeedFrom(fmt.Sprintf("cards-%d", i)), "")
		for steps := 0; !c.Over() && steps < 3000; steps++ {
			if s := c.State(); s.Phase == dragon.PhaseBrawl && s.ToAct() == 1 && s.Turn == 0 {
				g = c
				break
			}
			if c.BotToAct() {
				if _, _, err := c.Auto(); err != nil {
					t.Fatal(err)
				}
				continue
			}
			a, then := cardPolicy(c.View(0))
			if _, err := c.Do(a); err != nil {
				t.Fatal(err)
			}
			if then.Kind != 0 && c.State().Phase == dragon.PhaseRoll {
				if _, err := c.Do(then); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s := g.State()
	m := NewDragon(DragonOptions{Game: g, BotDelay: time.Hour})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	screen := drawn(m)
	if testing.Verbose() {
		t.Log("\n" + screen)
	}
	for _, want := range []string{
		"Brawl · you challenged smart · waiting for smart (defending)",
		fmt.Sprintf("smart defends against you: %s and", s.Throw),
		fmt.Sprintf("against %d", s.Brawl.Score),
		fmt.Sprintf("Your throw to beat: %s and", s.Brawl.Throw),
		"defending",
	} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the table does not show %q:\n%s", want, screen)
		}
	}
}
