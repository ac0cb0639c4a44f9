package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// TestFarkleHeld: a person's farkle stays on the table, dead dice and
// all, until a key, at every bot pace; with a hold time the bots go on
// after it by themselves.
func TestFarkleHeld(t *testing.T) {
	tab := dice.NewTable(seatOrder("classic"))
	seed := seedWhere(t, "golden-farkle", tab.Farkle)
	seats := []Seat{{Name: "du"}, {Name: "steady", Bot: "steady"}}
	for _, pace := range BotPaces {
		delay := min(pace.Delay, time.Millisecond) // the pace's kind (a tick, or at once), quickly
		m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: seats, Seed: seed, BotDelay: delay})
		press(m, "r")
		v := m.game.State().Version
		screen := drawn(m)
		if !m.game.AutoToAct() || !strings.Contains(screen, "FARKLE!") || !strings.Contains(screen, "go on (any key)") {
			t.Fatalf("%s: the farkle is not held:\n%s", pace.Name, screen)
		}
		if m.game.State().Current != 1 || m.game.State().Version != v {
			t.Fatalf("%s: the bot played on", pace.Name)
		}
		press(m, "x")
		if m.game.AutoToAct() || m.game.State().Current != 0 {
			t.Fatalf("%s: a key did not let the bot play its turn", pace.Name)
		}
	}
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: seats, Seed: seed, BotDelay: time.Millisecond, FarkleHold: time.Millisecond})
	press(m, "r")
	if m.game.AutoToAct() || m.game.State().Current != 0 {
		t.Fatal("with a hold time the bots did not go on by themselves")
	}
}

// TestEndScreenStats: the end screen says each player's farkles and best
// banked turn, counted independently here from the log's lines, and the
// analysis of each one's decisions once it is done.
func TestEndScreenStats(t *testing.T) {
	g := nearEnd(t, func(engine.State) bool { return false })
	m := plainModel(t, Options{Game: g})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	farkles := map[string]int{}
	best := map[string]int{}
	for _, l := range g.Log() {
		var name string
		var points, score int
		if n, err := fmt.Sscanf(l, "%s banks %d: score %d", &name, &points, &score); err == nil && n == 3 {
			best[name] = max(best[name], points)
		}
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(f[1], "farkle") {
			farkles[f[0]]++
		}
	}
	run(m, m.analysisCmd())
	screen := drawn(m)
	for _, name := range g.Names() {
		var line string
		for _, l := range strings.Split(screen, "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == name && f[1] == "farkles" {
				line = l
				break
			}
		}
		want := fmt.Sprintf("farkles %d · best turn %s", farkles[name], m.lc.Num(int64(best[name])))
		if !strings.Contains(line, want) || !strings.Contains(line, "decisions best") {
			t.Errorf("%s: the end screen says %q, want %q and the decisions:\n%s", name, line, want, screen)
		}
	}
}

// fellBackBot is a bot that plays as a steady one and says it plays at a
// simpler level than its own.
type fellBackBot struct {
	game.Bot
	why solved.Why
}

func (b fellBackBot) FallbackWhy() solved.Why { return b.why }

// TestFallbackSaid: a bot that plays at a simpler level says so in the
// game, once, on the message line and in the log.
func TestFallbackSaid(t *testing.T) {
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "bob", Bot: "steady"}, {Name: "du"}}, Seed: dice.SeedFrom("fallback")})
	m.game.bots[0] = fellBackBot{m.game.bots[0], solved.WhyOf(solved.ErrNoThreeTable)}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	run(m, m.Init())
	want := "bob (steady) plays as expert for now: no three-player table for these rules (farkle solve --players 3 makes it)"
	n := 0
	for _, l := range m.game.Log() {
		if l == want {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the log says %q %d times:\n%s", want, n, strings.Join(m.game.Log(), "\n"))
	}
}

// TestFallbackSaidInNorwegian: at a three-seat table of rules the
// three-player solver refuses (a bank minimum without hot dice under a
// farkle penalty) the perfect bot plays as expert (here a bot saying the
// solver's reason, solved.WhyOf(solve.ErrThreeBankMinimum), as the perfect
// bot's FallbackWhy does); a Norwegian terminal says so, and why, in
// Norwegian throughout: no word of the English texts that is not
// Norwegian too.
func TestFallbackSaidInNorwegian(t *testing.T) {
	en, nb := lang.Get("en"), lang.Get("nb")
	why := solved.WhyOf(solve.ErrThreeBankMinimum)
	m := plainModel(t, Options{Lang: nb, Rules: seatOrder("classic"), Seats: []Seat{{Name: "bob", Bot: "steady"}, {Name: "du"}, {Name: "eva", Bot: "steady"}}, Seed: dice.SeedFrom("fallback")})
	m.game.bots[0] = fellBackBot{m.game.bots[0], why}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	run(m, m.Init())
	want := "bob (steady) spiller som ekspert inntil videre: løseren for tre spillere trenger varme terninger der minste innsetting eller inngangskrav møter farkle-straff"
	said := ""
	for _, l := range m.game.Log() {
		if strings.HasPrefix(l, "bob (steady)") {
			said = l
		}
	}
	if said != want {
		t.Fatalf("the log says %q, want %q:\n%s", said, want, strings.Join(m.game.Log(), "\n"))
	}
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	norsk := words(nb.Msg("tui.fallback") + " " + why.In(nb))
	for _, w := range words(en.Msg("tui.fallback", "name", "", "level", "", "why", why.In(en))) {
		if len(w) > 3 && !slices.Contains(norsk, w) && slices.Contains(words(said), w) {
			t.Errorf("the Norwegian note says the English %q: %s", w, said)
		}
	}
}
