package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/dragon"
)

// hintPanelLines returns the lines of the hint panel of a drawn screen:
// those under its head up to the log's head (or the screen's end).
func hintPanelLines(screen, head string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.HasPrefix(l, "─ "+head):
			in = true
		case in && strings.HasPrefix(l, "─ "):
			return out
		case in:
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

var keepHint = regexp.MustCompile(`^keep [1-6 ]+( double| item)?, then (stop \(s\)|throw on \(r\)): `)

// TestDragonKeepHintSaysWhatNext: every keep the hint lists says whether to
// stop or throw on after it, with the key that does it, and the advice's
// plan decides which; the best is marked.
func TestDragonKeepHintSaysWhatNext(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		seed := dragonSeed(t, "hint-keep", "you,bot:smart", func(g *DragonGame) bool {
			if g.Turn() != 0 {
				return false
			}
			g.Do(dragon.Recruit())
			v := g.View(0)
			return v.Phase == dragon.PhaseKeep && v.Event == dragon.Blank && firstKeepAction(v).Kind == dragon.ActKeep
		})
		m := newDragonModel(t, "you,bot:smart", seed, size[0], size[1])
		press(m, "r", "h")
		lines := hintPanelLines(drawn(m), "hint")
		adv := m.g.advice(0)
		keeps := 0
		for _, l := range lines {
			if !strings.HasPrefix(l, "keep ") {
				continue
			}
			keeps++
			if !keepHint.MatchString(l) {
				t.Errorf("%dx%d: a keep hint that does not say what next: %q", size[0], size[1], l)
			}
		}
		if keeps == 0 || keeps != len(adv.Choices) && size[1] == 40 {
			t.Fatalf("%dx%d: %d keeps shown of %d advised:\n%s", size[0], size[1], keeps, len(adv.Choices), drawn(m))
		}
		best := adv.Best()
		if best == nil || !strings.HasSuffix(lines[0], "(best)") {
			t.Fatalf("no best marked: %v", lines)
		}
		want := map[string]string{"bank": "then stop (s)", "throw": "then throw on (r)"}[best.Then]
		if want == "" || !strings.Contains(lines[0], want) {
			t.Fatalf("the best keep plans %q, the hint says %q", best.Then, lines[0])
		}
	}
}

// TestDragonTurnHintOneMeasure: once the player may attack, the turn's
// start ranks recruiting, the brawls and the attack in one measure, the
// best marked, and says what the measure is.
func TestDragonTurnHintOneMeasure(t *testing.T) {
	seed := dragonSeed(t, "hint-turn", "you,bot:smart,bot:smart", youStart)
	m := newDragonModel(t, "you,bot:smart,bot:smart", seed, 80, 24)
	m.g.setState(func(s *dragon.State) {
		s.Stockpile -= 6000 - s.Players[0].Soldiers
		s.Players[0].Soldiers = 6000
	})
	m.selAt = -1
	m.sync()
	press(m, "h")
	screen := drawn(m)
	lines := hintPanelLines(screen, "hint")
	var choices []string
	for _, l := range lines {
		if strings.HasPrefix(l, "recruit:") || strings.HasPrefix(l, "brawl ") || strings.HasPrefix(l, "battle:") {
			choices = append(choices, l)
		}
	}
	if len(choices) != 4 {
		t.Fatalf("want recruit, two brawls and the battle, got %q:\n%s", choices, screen)
	}
	for i, c := range choices {
		if !strings.Contains(c, "% to slay") {
			t.Errorf("choice %q is not in the chance to slay", c)
		}
		if (i == 0) != strings.HasSuffix(c, "(best)") {
			t.Errorf("choice %d %q: the first and only it is best", i, c)
		}
	}
	if !strings.Contains(strings.Join(lines, " "), "chance to win at the next battle") {
		t.Errorf("the hint does not say its measure: %q", lines)
	}
}

// TestDragonHintAt60x20: with four players at 60×20 the hint panel shows
// the best choice, at the turn's start and on a throw, and no hint line
// is cut.
func TestDragonHintAt60x20(t *testing.T) {
	players := "you,bot:smart,bot:smart,bot:smart"
	seed := dragonSeed(t, "hint-small", players, youStart)
	m := newDragonModel(t, players, seed, 60, 20)
	press(m, "h")
	check := func(when string) {
		screen := drawn(m)
		lines := hintPanelLines(screen, "hint")
		if len(lines) == 0 || !strings.HasSuffix(lines[0], "(best)") {
			t.Fatalf("%s: the hint shows no best choice:\n%s", when, screen)
		}
		for _, l := range strings.Split(screen, "\n") {
			if len([]rune(l)) > 60 {
				t.Errorf("%s: a line of %d columns: %q", when, len([]rune(l)), l)
			}
		}
		for _, l := range lines {
			if strings.HasSuffix(l, "…") {
				t.Errorf("%s: a hint line cut: %q", when, l)
			}
		}
		// Each choice shown is whole: a choice wrapped over lines does not
		// lose its end below the screen.
		whole := map[string]bool{}
		for _, l := range dragonHintLines(m.lcat, m.g, m.view(), false, true) {
			whole[strings.Join(strings.Fields(l), " ")] = true
		}
		wrapped := false
		for room := 2; room <= len(m.hintBody(m.view()))+1; room++ { // the panel in every room it may get
			var shown []string
			for _, l := range m.hintPanel(m.view(), room)[1:] {
				if strings.HasPrefix(l, "  "+hintIndent) && len(shown) > 0 {
					shown[len(shown)-1] += " " + strings.TrimSpace(l)
					wrapped = true
					continue
				}
				shown = append(shown, strings.TrimSpace(l))
			}
			for _, c := range shown {
				if !whole[strings.Join(strings.Fields(c), " ")] {
					t.Errorf("%s: in %d lines the hint shows part of a choice: %q\n%s", when, room, c, screen)
				}
			}
		}
		if !wrapped {
			t.Errorf("%s: no choice of the hint is wrapped at 60 columns: the check above checks nothing", when)
		}
	}
	check("turn's start")
	press(m, "r")
	if v := m.view(); v.Phase != dragon.PhaseKeep || firstKeepAction(v).Kind != dragon.ActKeep {
		t.Skip("the first throw does not score") // the seed search below keeps this rare
	}
	check("a throw")
}

// TestDragonCardTexts: t shows the whole text of the player's cards and the
// others' Companions (the items of others face down), and t closes it.
func TestDragonCardTexts(t *testing.T) {
	seed := dragonSeed(t, "texts", "you,bot:smart", youStart)
	m := newDragonModel(t, "you,bot:smart", seed, 60, 20)
	press(m, "t")
	page := strings.Join(strings.Fields(drawn(m)), " ")
	v := m.view()
	for i, p := range v.Players {
		if p.Companion != nil && !strings.Contains(page, strings.Join(strings.Fields(p.Companion.Text), " ")) {
			t.Errorf("the page lacks %s's Companion's text %q:\n%s", p.Name, p.Companion.Text, page)
		}
		if i == v.Seat {
			for _, c := range p.Items {
				if !strings.Contains(page, strings.Join(strings.Fields(c.Text), " ")) {
					t.Errorf("the page lacks the item's text %q", c.Text)
				}
			}
		} else if p.ItemCount > 0 && !strings.Contains(page, "face down") {
			t.Errorf("the others' items are not said face down: %s", page)
		}
	}
	press(m, "t")
	if strings.Contains(drawn(m), "Cards in play") {
		t.Fatal("t did not close the cards")
	}
}
