package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
)

// newDragonModel returns the model of a game of players with seed, sized
// w×h, without colours, bots playing at once.
func newDragonModel(t testing.TB, players string, seed [32]byte, w, h int) *DragonModel {
	t.Helper()
	g := newDragonGame(t, players, seed, "")
	m := NewDragon(DragonOptions{Game: g})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	run(m, m.Init())
	return m
}

// dragonSeed returns the first seed "name-0", "name-1", ... for which ok
// holds of a new game of players (seat 0 is a person).
func dragonSeed(t testing.TB, name, players string, ok func(g *DragonGame) bool) [32]byte {
	t.Helper()
	for i := range 5000 {
		seed := dice.SeedFrom(fmt.Sprintf("%s-%d", name, i))
		if ok(newDragonGame(t, players, seed, "")) {
			return seed
		}
	}
	t.Fatalf("no seed for %s", name)
	return [32]byte{}
}

// youStart: seat 0 has the first turn.
func youStart(g *DragonGame) bool { return g.Turn() == 0 }

// recruitsToALoneDie: seat 0 starts, recruits, and throws a blank with a
// die that does not score alone (loneFace).
func recruitsToALoneDie(g *DragonGame) bool {
	if g.Turn() != 0 {
		return false
	}
	if _, err := g.Do(dragon.Recruit()); err != nil {
		return false
	}
	v := g.View(0)
	return v.Phase == dragon.PhaseKeep && v.Event == dragon.Blank && loneFace(v.Throw.Faces()) != ""
}

// loneFace returns the key (its face) of a die of the throw that does not score
// alone (a 2, 3, 4 or 6 that is not part of three of a kind), or "".
func loneFace(faces []int) string {
	count := map[int]int{}
	for _, f := range faces {
		count[f]++
	}
	for _, f := range faces {
		if f != 1 && f != 5 && count[f] < 3 {
			return fmt.Sprint(f)
		}
	}
	return ""
}

func TestDragonIllegalKeepChangesNothing(t *testing.T) {
	seed := dragonSeed(t, "illegal", "you,bot:smart", recruitsToALoneDie)
	m := newDragonModel(t, "you,bot:smart", seed, 80, 30)
	press(m, "r")
	before, actions := m.g.State(), len(m.g.Record().Actions)
	bad := loneFace(m.faces)
	for _, keys := range [][]string{{bad, "r"}, {"s"}, {"9"}, {"x"}} {
		press(m, keys...)
		if !reflect.DeepEqual(m.g.State(), before) || len(m.g.Record().Actions) != actions {
			t.Fatalf("keys %v changed the game", keys)
		}
	}
	press(m, "r") // the lone die is still chosen
	if !strings.Contains(drawn(m), "scores only as part of") {
		t.Fatalf("the illegal keep is not explained:\n%s", drawn(m))
	}
	// A scoring die is kept.
	press(m, bad) // unchoose
	for _, f := range m.faces {
		if f == 1 || f == 5 {
			press(m, fmt.Sprint(f), "r")
			break
		}
	}
	if len(m.g.Record().Actions) <= actions {
		t.Fatal("a legal keep was not played")
	}
}

// itemNames returns the names of the Magic Items seat holds.
func itemNames(g *DragonGame, seat int) []string {
	var out []string
	for _, id := range g.State().Players[seat].Items {
		out = append(out, g.Game().Cards().Card(id).Name)
	}
	return out
}

// TestDragonHotSeatHidesItems: in hot-seat play the screen shows only the
// hand of the person at the keyboard, and nobody's between turns.
func TestDragonHotSeatHidesItems(t *testing.T) {
	seed := dragonSeed(t, "hotseat", "ana,bob", youStart)
	m := newDragonModel(t, "ana,bob", seed, 100, 40)
	g := m.g
	ana, bob := itemNames(g, 0), itemNames(g, 1)
	if len(ana) == 0 || len(bob) == 0 {
		t.Fatal("no items dealt")
	}
	shows := func(names []string) bool {
		screen := drawn(m)
		for _, n := range names {
			if strings.Contains(screen, n) {
				return true
			}
		}
		return false
	}
	if !strings.Contains(drawn(m), "Pass the keyboard to ana") || shows(ana) || shows(bob) {
		t.Fatalf("the first screen is not a pass screen hiding both hands:\n%s", drawn(m))
	}
	press(m, "r") // nothing until enter
	if len(g.Record().Actions) != 0 {
		t.Fatal("a key played before the pass was accepted")
	}
	press(m, "enter")
	if !shows(ana) || shows(bob) {
		t.Fatalf("ana's screen:\n%s", drawn(m))
	}
	// ana recruits: keep a scoring die each throw, stop after the first keep.
	press(m, "r")
	for g.Turn() == 0 && !g.Over() {
		v := g.View(0)
		switch v.Phase {
		case dragon.PhaseKeep:
			if shows(bob) {
				t.Fatal("bob's items on ana's screen")
			}
			k := firstKeepAction(v)
			if k.Kind == 0 {
				press(m, "a")
				continue
			}
			for _, key := range faceKeys(t, m.faces, k.Keep) {
				press(m, key)
			}
			press(m, "s")
			if m.menu != nil { // a Rally
				press(m, "d")
			}
		case dragon.PhaseEvaded, dragon.PhaseRoll:
			press(m, "s")
		case dragon.PhaseDiscard:
			press(m, "1")
		default:
			t.Fatalf("phase %v", v.Phase)
		}
	}
	if !strings.Contains(drawn(m), "Pass the keyboard to bob") || shows(ana) || shows(bob) {
		t.Fatalf("after ana's turn:\n%s", drawn(m))
	}
	press(m, "enter")
	if !shows(itemNames(g, 1)) || shows(itemNames(g, 0)) {
		t.Fatalf("bob's screen:\n%s", drawn(m))
	}
}

// firstKeepAction returns the first legal keep of v (zero if none).
func firstKeepAction(v dragon.View) dragon.Action {
	for _, a := range v.Legal {
		if a.Kind == dragon.ActKeep {
			return a
		}
	}
	return dragon.Action{}
}

// TestDragonBotItemsNeverShown plays a game of a person against a bot by
// keys and checks every screen: the bot's Magic Items never appear above
// the log (the log names only cards discarded or used, which are public).
func TestDragonBotItemsNeverShown(t *testing.T) {
	m := newDragonModel(t, "you,bot:smart", dice.SeedFrom("never"), 100, 40)
	g := m.g
	for steps := 0; !g.Over() && steps < 3000; steps++ {
		screen, _, _ := strings.Cut(drawn(m), "─ log")
		for _, n := range itemNames(g, 1) {
			mine := false
			for _, o := range itemNames(g, 0) {
				mine = mine || o == n
			}
			if strings.Contains(screen, n) && !mine {
				t.Fatalf("the bot's %s is on the screen:\n%s", n, screen)
			}
		}
		v := g.View(0)
		cmd := dragonPolicy(g.Game(), v)
		switch {
		case m.held: // your farkle stays on the table until a key
			press(m, "enter")
		case m.menu != nil && v.Phase == dragon.PhaseChoose && cmd == "battle":
			press(m, "f")
		case m.menu != nil && v.Phase == dragon.PhaseChoose:
			press(m, "r")
		case m.menu != nil:
			press(m, "1")
		case strings.HasPrefix(cmd, "keep"):
			k, _ := dice.Parse(strings.TrimSuffix(strings.TrimPrefix(cmd, "keep "), " double"))
			press(m, faceKeys(t, m.faces, k)...)
			press(m, "r")
			if m.menu != nil {
				press(m, "d")
			}
		case cmd == "stop":
			press(m, "s")
		case cmd == "roll":
			press(m, "r")
		case cmd == "accept":
			press(m, "a")
		default:
			t.Fatalf("no key for %q in phase %v", cmd, v.Phase)
		}
	}
	if !g.Over() {
		t.Fatal("the game did not end")
	}
	if !strings.Contains(drawn(m), g.Winners()[1:]) {
		t.Fatalf("the end screen does not name the winner:\n%s", drawn(m))
	}
}

// TestDragonRallyReward: on a Rally, r asks for the reward; esc goes back
// without playing anything; i keeps the dice with a Magic Item and throws
// the rest, and the item drawn shows in the hand (face down for others).
func TestDragonRallyReward(t *testing.T) {
	seed := dragonSeed(t, "golden-rally", "you,bot:smart", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && v.Event == dragon.Rally && v.Throw.Count(1) > 0
	})
	m := newDragonModel(t, "you,bot:smart", seed, 100, 40)
	press(m, "r")
	n := len(m.g.Record().Actions)
	press(m, faceKeys(t, m.faces, dice.Of(1))...)
	press(m, "r")
	if m.menu == nil || !strings.Contains(drawn(m), "Rally! Your reward") {
		t.Fatalf("no reward menu:\n%s", drawn(m))
	}
	press(m, "esc")
	if m.menu != nil || len(m.g.Record().Actions) != n {
		t.Fatal("esc did not go back, or played something")
	}
	press(m, "r", "i")
	acts := recordedActions[dragon.Action](t, m.g.table)[n:]
	if len(acts) < 2 || acts[0] != dragon.KeepRally(dice.Of(1), dragon.DrawItem) || acts[1] != dragon.Roll() {
		t.Fatalf("played %v, want the keep with an item, then a throw", acts)
	}
	if s := m.g.State(); s.Turn == 0 && len(s.Drawn) > 0 {
		name := m.g.Game().Cards().Card(s.Drawn[0]).Name
		if !strings.Contains(drawn(m), "drawn "+name) {
			t.Fatalf("the drawn item is not in the hand:\n%s", drawn(m))
		}
	}
}

// TestDragonQuitAsks: q asks first; n goes back, y quits and saves.
func TestDragonQuitAsks(t *testing.T) {
	m := newDragonModel(t, "you,bot:smart", dice.SeedFrom("quit"), 80, 30)
	press(m, "q")
	if !strings.Contains(drawn(m), "Quit?") {
		t.Fatalf("q did not ask:\n%s", drawn(m))
	}
	press(m, "n")
	if strings.Contains(drawn(m), "Quit?") || m.quitting {
		t.Fatal("n did not go back")
	}
	m.Update(keyMsg("q"))
	_, cmd := m.Update(keyMsg("y"))
	if cmd == nil || !m.quitting {
		t.Fatal("y did not quit")
	}
}

// TestDragonNarrow: every line of the table fits 60 columns.
func TestDragonNarrow(t *testing.T) {
	m := newDragonModel(t, "you,ana,bot:smart", dice.SeedFrom("narrow"), 60, 24)
	press(m, "enter")
	for _, l := range strings.Split(drawn(m), "\n") {
		if w := len([]rune(l)); w > 60 {
			t.Errorf("line of %d columns: %q", w, l)
		}
	}
}

// TestDragonHintKey: h shows the value of every action and the battle
// odds for the player's soldiers, and hides them again.
func TestDragonHintKey(t *testing.T) {
	seed := dragonSeed(t, "golden-choose", "you,bot:smart", youStart)
	m := newDragonModel(t, "you,bot:smart", seed, 100, 40)
	odds := fmt.Sprintf("%.1f%% to slay", 100*m.g.Brains().Odds().Win(0))
	press(m, "h")
	screen := drawn(m)
	for _, want := range []string{"hint (h hides)", "recruit: ", "brawl smart: ", odds} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the hint lacks %q:\n%s", want, screen)
		}
	}
	press(m, "h")
	if strings.Contains(drawn(m), "hint (h hides)") {
		t.Fatal("h did not hide the hint")
	}
}

// TestDragonUseCard: c lists the cards usable on the throw; choosing one
// plays it.
func TestDragonUseCard(t *testing.T) {
	seed := dragonSeed(t, "use", "you,bot:smart", func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		return hasKind(g.View(0).Legal, dragon.ActUse)
	})
	m := newDragonModel(t, "you,bot:smart", seed, 100, 40)
	press(m, "r")
	n := len(m.g.Record().Actions)
	press(m, "c")
	if m.menu == nil || !strings.Contains(drawn(m), "Use a card") {
		t.Fatalf("no card menu:\n%s", drawn(m))
	}
	want := m.menu.items[0].act
	press(m, "1")
	if acts := recordedActions[dragon.Action](t, m.g.table); len(acts) != n+1 || acts[n] != want {
		t.Fatalf("played %v, want %v", acts[n:], want)
	}
}

// TestDragonDiscard: a turn that ends with too many Magic Items asks which
// to discard.
func TestDragonDiscard(t *testing.T) {
	seed := dragonSeed(t, "discard", "you,bot:smart", func(g *DragonGame) bool {
		return g.Turn() == 0 && g.Game().ItemLimit(g.State(), 0) == 1 && !slices.Contains(g.State().ItemDeck, "sack")
	})
	g := newDragonGame(t, "you,bot:smart", seed, "")
	g.setState(func(s *dragon.State) { // a second item from the deck
		top := s.ItemDeck[len(s.ItemDeck)-1]
		s.ItemDeck = s.ItemDeck[:len(s.ItemDeck)-1]
		s.Players[0].Items = append(s.Players[0].Items, top)
	})
	m := NewDragon(DragonOptions{Game: g})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	press(m, "r")
	for g.Turn() == 0 && g.State().Phase != dragon.PhaseDiscard {
		v := g.View(0)
		switch v.Phase {
		case dragon.PhaseKeep:
			k := firstKeepAction(v)
			if k.Kind == 0 {
				press(m, "a")
				continue
			}
			press(m, faceKeys(t, m.faces, k.Keep)...)
			press(m, "s")
			if m.menu != nil {
				press(m, "d")
			}
		default:
			press(m, "s")
		}
	}
	if g.State().Phase != dragon.PhaseDiscard || m.menu == nil || !strings.Contains(drawn(m), "Discard one") {
		t.Fatalf("no discard menu:\n%s", drawn(m))
	}
	gone := m.menu.items[1].act.Card
	press(m, "2")
	if slices.Contains(g.State().Players[0].Items, gone) || len(g.State().Players[0].Items) != 1 {
		t.Fatalf("items %v after discarding %s", g.State().Players[0].Items, gone)
	}
}

// TestDragonHotSeatBotTurn: in hot-seat play nobody's hand is on screen
// while a bot plays.
func TestDragonHotSeatBotTurn(t *testing.T) {
	players := "ana,bot:smart,bob"
	seed := dragonSeed(t, "hotseat-bot", players, youStart)
	m := newDragonModel(t, players, seed, 100, 40)
	g := m.g
	press(m, "enter", "r")
	var cmd tea.Cmd
	for g.Turn() == 0 {
		v := g.View(0)
		var k string
		switch {
		case m.menu != nil:
			k = "1"
		case v.Phase == dragon.PhaseKeep && firstKeepAction(v).Kind == 0:
			k = "a"
		case v.Phase == dragon.PhaseKeep:
			press(m, faceKeys(t, m.faces, firstKeepAction(v).Keep)...)
			k = "s"
		default:
			k = "s"
		}
		_, cmd = m.Update(keyMsg(k)) // the bot's move is not run yet
	}
	if !g.BotToAct() || cmd == nil {
		t.Fatal("the bot is not to play")
	}
	screen := drawn(m)
	for _, seat := range []int{0, 2} {
		for _, n := range itemNames(g, seat) {
			if strings.Contains(screen, n) {
				t.Fatalf("%s on screen during the bot's turn:\n%s", n, screen)
			}
		}
	}
}

// TestDragonUndo: u takes back the last choice of a die.
func TestDragonUndo(t *testing.T) {
	seed := dragonSeed(t, "golden-choose", "you,bot:smart", youStart)
	m := newDragonModel(t, "you,bot:smart", seed, 100, 40)
	press(m, "r")
	press(m, fmt.Sprint(m.faces[0]), fmt.Sprint(m.faces[1]))
	if m.selected().N() != 2 {
		t.Fatal("two dice not chosen")
	}
	press(m, "u")
	if m.selected() != dice.Single(m.faces[0], 1) {
		t.Fatalf("after u: %v", m.selected())
	}
	press(m, "u", "u")
	if m.selected() != 0 || !strings.Contains(drawn(m), "nothing to undo") {
		t.Fatalf("after three u: %v\n%s", m.selected(), drawn(m))
	}
}
