package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// englishOnlyWords are the words of the English catalogue that the
// Norwegian one never uses: one of them in a Norwegian line is English
// left over.
func englishOnlyWords() map[string]bool { return lang.OnlyIn(lang.Get("en"), lang.Get("nb")) }

var letters = lang.Word

// TestDragonRefusalsNorwegian plays illegal Dragon Farkle moves in the
// line mode and on the screen, in Norwegian: each refusal is said, none
// is the English one, and none has an English word of the catalogue in it.
func TestDragonRefusalsNorwegian(t *testing.T) {
	seed := dragonSeed(t, "refusals-nb", "du,bot:smart", recruitsToALoneDie)
	bad := loneFace(newThrow(t, seed))
	script := []string{
		"stop", "keep 1", "battle", "accept", "roll", "retreat", "discard nothing",
		"recruit",
		"stop", "roll", "recruit", "keep " + bad, "keep 6 6 6 6 6 6", "battle",
		"quit",
	}
	refusals := func(c *lang.Catalogue, prefix string) []string {
		g := newDragonGame(t, "du,bot:smart", seed, "")
		var out strings.Builder
		if err := RunDragonLinesIn(t.Context(), c, g, strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, prefix) {
				lines = append(lines, l)
			}
		}
		return lines
	}
	en, nb := refusals(lang.Get("en"), "error: "), refusals(lang.Get("nb"), "feil: ")
	if len(en) != len(script)-2 || len(nb) != len(en) {
		t.Fatalf("%d English and %d Norwegian refusals for %d illegal commands:\n%s\n--\n%s", len(en), len(nb), len(script)-2, strings.Join(en, "\n"), strings.Join(nb, "\n"))
	}
	english := englishOnlyWords()
	cards := testDragon.Game().Cards()
	for _, c := range append(cards.Companions, cards.Items...) {
		delete(english, c.ID) // a card's id is what the line mode's commands take
	}
	for i, line := range nb {
		if strings.TrimPrefix(line, "feil: ") == strings.TrimPrefix(en[i], "error: ") {
			t.Errorf("refusal of %q is the English one: %s", script[i], line)
		}
		var found []string
		for _, w := range letters.FindAllString(strings.ToLower(quoted.ReplaceAllString(line, " ")), -1) {
			if english[w] {
				found = append(found, w)
			}
		}
		if len(found) > 0 {
			t.Errorf("English %v in the Norwegian refusal %q (English: %q)", found, line, en[i])
		}
	}
	t.Logf("\n%s", strings.Join(nb, "\n"))

	// On the screen: a die that does not score, chosen and thrown on.
	m := NewDragon(DragonOptions{Game: newDragonGame(t, "du,bot:smart", seed, ""), Lang: lang.Get("nb")})
	m.Update(keyMsgSize(80, 24))
	press(m, "r")
	press(m, bad, "r")
	screen := drawn(m)
	if strings.Contains(screen, "scores only") || !strings.Contains(screen, "teller bare i") {
		t.Errorf("the screen's refusal of a keep is not Norwegian:\n%s", screen)
	}
}

// quoted is what a refusal repeats of the command: «keep», "x".
var quoted = regexp.MustCompile(`«[^»]*»|"[^"]*"`)

// newThrow is the first throw of seat 0's recruiting in a game of seed.
func newThrow(t *testing.T, seed [32]byte) []int {
	g := newDragonGame(t, "du,bot:smart", seed, "")
	if _, err := g.Do(dragon.Recruit()); err != nil {
		t.Fatal(err)
	}
	return g.View(0).Throw.Faces()
}

// TestDragonRulesTableNorwegian: the soldier table of the Dragon rules
// text is in Norwegian under nb, as the ordinary rules' scoring table is.
func TestDragonRulesTableNorwegian(t *testing.T) {
	nb := lang.Get("nb")
	text := DragonRulesTextIn(nb, testDragon.Game(), 80)
	english := englishOnlyWords()
	rows := 0
	for i, line := range text {
		if line != nb.Msg("dragon.rules.soldiers") {
			continue
		}
		for _, row := range text[i+1:] {
			if row == "" {
				break
			}
			rows++
			for _, w := range letters.FindAllString(strings.ToLower(row), -1) {
				if english[w] {
					t.Errorf("English %q in the Norwegian soldier table: %q", w, row)
				}
			}
		}
	}
	if rows < 4 {
		t.Fatalf("no soldier table (%d rows) in:\n%s", rows, strings.Join(text, "\n"))
	}
}
