package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// The sizes every screen must fit: the smallest supported, the classic
// terminal and a large one.
var fitSizes = [][2]int{{60, 20}, {80, 24}, {120, 40}}

// cutLines returns the lines of a drawn screen that fit had to cut (they
// end in "…" where a word was cut), or that are wider than width.
func cutLines(screen string, width int) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.HasSuffix(strings.TrimRight(l, " "), "…") || ansi.StringWidth(l) > width {
			out = append(out, l)
		}
	}
	return out
}

// checkScreen fails t when a line of the screen m draws is cut.
func checkScreen(t *testing.T, m tea.Model, w, h int, what string) {
	t.Helper()
	screen := drawn(m)
	if cut := cutLines(screen, w); len(cut) > 0 {
		t.Errorf("%d×%d %s: %d lines cut: %q\n%s", w, h, what, len(cut), cut, ansi.Strip(screen))
	}
	if testing.Verbose() {
		t.Logf("%d×%d %s:\n%s", w, h, what, ansi.Strip(screen))
	}
}

// TestDragonScreensFit: the Dragon Farkle table with four players (the
// turn's start, a throw, each with the hint), its help, the cards page,
// the Final Battle, the end, a farkle held, and at a server a table that
// failed with a refusal and a log joined mid-way fit 60×20, 80×24 and
// 120×40 in English and Norwegian: no line is cut.
func TestDragonScreensFit(t *testing.T) {
	players := "you,bot:smart,bot:smart,bot:smart"
	seed := dragonSeed(t, "fit", players, func(g *DragonGame) bool {
		if g.Turn() != 0 {
			return false
		}
		g.Do(dragon.Recruit())
		v := g.View(0)
		return v.Phase == dragon.PhaseKeep && firstKeepAction(v).Kind == dragon.ActKeep
	})
	farkleSeed := dragonSeed(t, "dragon-hold", "you,bot:smart", recruitFarkles)
	for _, lc := range []*lang.Catalogue{nil, norwegian()} {
		for _, size := range fitSizes {
			w, h := size[0], size[1]
			name := fmt.Sprintf("%s %dx%d", orEnglish(lc).Code, w, h)
			t.Run(name, func(t *testing.T) {
				newModel := func(g *DragonGame) *DragonModel {
					m := NewDragon(DragonOptions{Game: g, Lang: lc})
					m.Update(tea.WindowSizeMsg{Width: w, Height: h})
					run(m, m.Init())
					return m
				}
				m := newModel(newDragonGame(t, players, seed, ""))
				checkScreen(t, m, w, h, "turn's start")
				press(m, "h")
				checkScreen(t, m, w, h, "turn's start, hint")
				press(m, "h", "r")
				checkScreen(t, m, w, h, "a throw")
				press(m, "h")
				checkScreen(t, m, w, h, "a throw, hint")
				press(m, "h", "t")
				checkScreen(t, m, w, h, "the cards")
				press(m, "t", "?")
				checkScreen(t, m, w, h, "help")

				b := newModel(battleGame(t, "you,bot:smart"))
				press(b, "f")
				checkScreen(t, b, w, h, "the Final Battle")
				press(b, "h")
				checkScreen(t, b, w, h, "the Final Battle, hint")

				over := newDragonGame(t, players, seed, "")
				over.setState(func(s *dragon.State) {
					s.Phase, s.Winners = dragon.PhaseOver, []int{0}
				})
				checkScreen(t, newModel(over), w, h, "the end")

				held := newModel(newDragonGame(t, "you,bot:smart", farkleSeed, ""))
				press(held, "r")
				if !held.held {
					t.Fatal("the farkle is not held")
				}
				checkScreen(t, held, w, h, "a farkle held")

				srv := newDragonGame(t, "you,bot:smart", farkleSeed, "")
				on, err := DragonOnline(Options{Lang: lc}, &chanRemote{}, RemoteUpdate{Game: srv.play.Game(), Reset: true, Seats: srv.Seats(), You: 0, Table: "abcdefghij",
					Earlier: []string{strings.Repeat("a long line of the log the server wrote ", 5)}})
				if err != nil {
					t.Fatal(err)
				}
				on.Update(tea.WindowSizeMsg{Width: w, Height: h})
				on.Update(remoteMsg{u: RemoteUpdate{You: 0, Table: "abcdefghij", Ended: "failed", EndReason: "internal error in the bots; the table cannot go on"}})
				on.Update(remoteMsg{u: RemoteUpdate{You: 0, Table: "abcdefghij", Ended: "failed", Refused: "the game is over", RefusedCode: "game_over"}})
				checkScreen(t, on, w, h, "online: the table failed, a refusal, a log joined mid-way")
			})
		}
	}
}

// TestScreensFit: the ordinary game's screens (the setup with every row,
// the table of two and of three players with a throw, the hint, a farkle
// and the end, and the help) fit 60×20, 80×24 and 120×40 in English and
// Norwegian: no line is cut.
func TestScreensFit(t *testing.T) {
	tab := dice.NewTable(seatOrder("classic"))
	fseed := seedWhere(t, "golden-farkle", tab.Farkle)
	for _, lc := range []*lang.Catalogue{nil, norwegian()} {
		for _, size := range fitSizes {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s %dx%d", orEnglish(lc).Code, w, h), func(t *testing.T) {
				sized := func(o Options) *Model {
					o.Lang = lc
					m := plainModel(t, o)
					m.Update(tea.WindowSizeMsg{Width: w, Height: h})
					run(m, m.Init())
					return m
				}
				m := sized(Options{Rules: rules.MustPreset("classic")})
				checkScreen(t, m, w, h, "setup")
				for i := range 6 {
					press(m, "down")
					checkScreen(t, m, w, h, fmt.Sprintf("setup, row %d", i+1))
				}
				press(m, "?")
				checkScreen(t, m, w, h, "setup help")

				for _, seats := range [][]Seat{
					{{Name: "du"}, {Name: "steady", Bot: "steady"}},
					{{Name: "du"}, {Name: "Kari"}, {Name: "expert", Bot: "expert"}},
				} {
					what := fmt.Sprintf("%d players", len(seats))
					m = sized(Options{Rules: seatOrder("farkle-dice"), Seats: seats, Seed: dice.SeedFrom("fit")})
					checkScreen(t, m, w, h, what)
					press(m, "r")
					checkScreen(t, m, w, h, what+", a throw")
					press(m, "h")
					checkScreen(t, m, w, h, what+", a throw, hint")
					press(m, "?")
					checkScreen(t, m, w, h, what+", help")
				}
				m = sized(Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "Kari"}, {Name: "du"}}, Seed: fseed})
				press(m, "r")
				checkScreen(t, m, w, h, "a farkle")

				// A bot with a long name in the middle of its turn: the
				// turn line is the longest ("cautious (bot) is playing ·
				// turn total 1,050 · 2 dice left to throw").
				// (The model's own commands would play the bot's turn.)
				bot, err := NewGame(seatOrder("classic"), []Seat{{Name: "cautious", Bot: "cautious"}, {Name: "du"}}, dice.SeedFrom("fit-bot-0"), "", fixedNow, nil)
				if err != nil {
					t.Fatal(err)
				}
				for s := bot.State(); bot.BotToAct() && (s.Step != engine.StepChoose || s.Total == 0); s = bot.State() {
					if _, _, err := bot.Auto(); err != nil {
						t.Fatal(err)
					}
				}
				if !bot.BotToAct() {
					t.Fatal("the bot's turn ended before a decision with points on the table")
				}
				m = plainModel(t, Options{Game: bot, Lang: lc})
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				checkScreen(t, m, w, h, "a bot's turn")

				m = sized(Options{Game: nearEnd(t, func(engine.State) bool { return false })})
				checkScreen(t, m, w, h, "the end")
			})
		}
	}
}

// logShown returns the log's lines on a drawn screen.
func logShown(screen string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.HasPrefix(l, "─ log") {
			in = true
			continue
		}
		if in {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// TestLogGrowsAndScrolls: the log takes the window's height (more lines
// at 120×40 than at 80×24), PgUp shows earlier lines and PgDn comes back
// to the last.
func TestLogGrowsAndScrolls(t *testing.T) {
	g := nearEnd(t, func(engine.State) bool { return false })
	all := g.Log()
	m := plainModel(t, Options{Game: g})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	small := logShown(drawn(m))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	big := logShown(drawn(m))
	if len(big) < len(small)+15 || big[len(big)-1] != all[len(all)-1] {
		t.Fatalf("the log does not grow with the window: %d lines at 80×24, %d at 120×40", len(small), len(big))
	}
	press(m, "pgup")
	back := logShown(drawn(m))
	want := all[len(all)-len(back)-logStep : len(all)-logStep]
	if strings.Join(back, "\n") != strings.Join(want, "\n") {
		t.Fatalf("PgUp shows\n%s\nwant\n%s", strings.Join(back, "\n"), strings.Join(want, "\n"))
	}
	press(m, "pgdown")
	if again := logShown(drawn(m)); strings.Join(again, "\n") != strings.Join(big, "\n") {
		t.Fatalf("PgDn did not come back to the end:\n%s", strings.Join(again, "\n"))
	}
}

// logHeadWidth returns the width of the log's head rule on a drawn
// screen (0: no log).
func logHeadWidth(screen string) int {
	for _, l := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.HasPrefix(l, "─ log") {
			return lipgloss.Width(strings.TrimRight(l, " "))
		}
	}
	return 0
}

// TestLogFrameUsesTheWidth: the log's rule spans the window at every
// size, in the ordinary table and in Dragon Farkle's, and the Dragon log
// grows with the window and scrolls with PgUp and PgDn too.
func TestLogFrameUsesTheWidth(t *testing.T) {
	m := plainModel(t, Options{Game: nearEnd(t, func(engine.State) bool { return false })})
	g := newDragonGame(t, "bot:simple,bot:smart", dice.SeedFrom("log-width"), "")
	for range 60 {
		if _, _, err := g.Auto(); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDragon(DragonOptions{Game: g})
	for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
		for name, model := range map[string]tea.Model{"farkle": m, "dragon": d} {
			model.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			// (At 60×20 the end screen has no room for the log.)
			if w := logHeadWidth(drawn(model)); w != size[0] && (w != 0 || size[0] > 60) {
				t.Errorf("%s at %d×%d: the log's rule is %d wide:\n%s", name, size[0], size[1], w, drawn(model))
			}
		}
	}
	d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	small := logShown(drawn(d))
	d.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	big := logShown(drawn(d))
	if len(big) < len(small)+10 {
		t.Fatalf("the Dragon log does not grow with the window: %d lines at 80×24, %d at 120×40", len(small), len(big))
	}
	press(d, "pgup")
	back := logShown(drawn(d))
	if strings.Join(back, "\n") == strings.Join(big, "\n") || back[len(back)-1] != big[len(big)-1-logStep] {
		t.Fatalf("PgUp does not scroll the Dragon log %d lines back:\n%s\nwas\n%s", logStep, strings.Join(back, "\n"), strings.Join(big, "\n"))
	}
	press(d, "pgdown")
	if again := logShown(drawn(d)); strings.Join(again, "\n") != strings.Join(big, "\n") {
		t.Fatalf("PgDn did not come back to the end of the Dragon log:\n%s", strings.Join(again, "\n"))
	}
}

// TestKeptLineFits: a turn of many small keeps at 60×20 shows its last
// keeps after "…" on one line, in both languages, and no line is cut.
func TestKeptLineFits(t *testing.T) {
	r := seatOrder("classic")
	for _, lc := range []*lang.Catalogue{nil, norwegian()} {
		var g *Game
		for i := 0; g == nil; i++ {
			if i == 200 {
				t.Fatal("no seed gives a turn of six keeps")
			}
			try, err := NewGame(r, []Seat{{Name: "du"}, {Name: "Kari"}}, dice.SeedFrom(fmt.Sprint("many-keeps-", i)), "", fixedNow, nil)
			if err != nil {
				t.Fatal(err)
			}
			for try.State().Current == 0 && len(try.Keeps()) < 6 {
				s := try.State()
				if s.Step != engine.StepKeep {
					if _, err := try.Do(engine.ThrowBy(0)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				keeps := s.Table().Keeps(s.Throw)
				if len(keeps) == 0 {
					break
				}
				if _, err := try.Do(engine.KeepBy(0, keeps[0].Hand)); err != nil { // the fewest dice
					t.Fatal(err)
				}
			}
			if try.State().Current == 0 && len(try.Keeps()) >= 6 {
				g = try
			}
		}
		m := plainModel(t, Options{Game: g, Lang: lc})
		m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
		checkScreen(t, m, 60, 20, "six keeps")
		keeps := g.Keeps()
		last := keeps[len(keeps)-1]
		want := fmt.Sprintf("[%s] %s", last.Dice, orEnglish(lc).Num(int64(last.Points)))
		found := false
		for _, l := range strings.Split(ansi.Strip(drawn(m)), "\n") {
			if strings.HasPrefix(l, orEnglish(lc).Msg("tui.keptThisTurn")) {
				found = strings.HasSuffix(strings.TrimRight(l, " "), want) && strings.Contains(l, "… ")
			}
		}
		if !found {
			t.Errorf("the kept line does not end with the last keep %q after …:\n%s", want, drawn(m))
		}
	}
}
