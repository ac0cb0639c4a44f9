package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
)

// notEnglish are English catalogue values that a Norwegian page may show
// all the same: names (of the game, of bots, of rule presets), which are
// the same in both languages, and the words Norwegian shares with English.
// The bots' levels are in their names ("Steady bot"), and a Norwegian menu
// gives the level's English name beside its own ("Stødig (Steady)").
var notEnglish = map[string]bool{"Cautious": true, "Steady": true, "Reckless": true, "Expert": true, "Perfect": true, "Smart": true, "Simple": true, "Random": true}

// englishPhrases returns the English catalogue's values that are not its
// Norwegian values: whole texts of five letters or more without
// placeholders, each of which on a Norwegian page means a text that did
// not go through the catalogue.
func englishPhrases(t *testing.T) []string {
	t.Helper()
	read := func(path string) map[string]string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var c struct{ Messages map[string]string }
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		return c.Messages
	}
	en, nb := read("../../lang/en.json"), read("../../lang/nb.json")
	seen := map[string]bool{}
	for _, v := range nb {
		seen[v] = true
	}
	var out []string
	for k, v := range en {
		v = strings.TrimSpace(v)
		if strings.ContainsAny(v, "{}") || utf8.RuneCountInString(v) < 5 || nb[k] == v || seen[v] || notEnglish[v] || strings.HasPrefix(k, "cli.") {
			continue
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkNorwegian fails the test when the Norwegian page pg shows one of the
// English catalogue's values as a whole phrase.
func checkNorwegian(t *testing.T, ctx context.Context, pg sitePage, english []string) {
	t.Helper()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, e := range english {
		if !strings.Contains(text, e) {
			continue
		}
		if regexp.MustCompile(`(^|[^\pL])` + regexp.QuoteMeta(e) + `($|[^\pL])`).MatchString(text) {
			found = append(found, e)
		}
	}
	if len(found) > 0 {
		t.Errorf("%s (%s) in Norwegian shows English: %q", pg.name, pg.path, found)
	}
}

// checkRatingTabs opens each tab of the leaderboard's ratings (a family of
// games each) and fails the test on English in it.
func checkRatingTabs(t *testing.T, ctx context.Context, pg sitePage, english []string) {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#rating-board [role=tab]').length`))
	if err != nil || n < 2 {
		t.Fatalf("the ratings have %d tabs (%v), want one a family", n, err)
	}
	for i := range n {
		sel := fmt.Sprintf(`#rating-board [role=tab]:nth-child(%d)`, i+1)
		if err := chromedp.Do(ctx, browsertest.Click(sel), chromedp.WaitVisible(sel+`[aria-selected=true]`)); err != nil {
			t.Fatal(err)
		}
		checkNorwegian(t, ctx, sitePage{fmt.Sprintf("%s, ratings tab %d", pg.name, i+1), pg.path, pg.ready}, english)
	}
}
