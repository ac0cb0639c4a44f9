package site

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// TestBrowserDragonAnalysisInNorwegian: the costliest choices of a Dragon
// Farkle game, which the server names in English as the game names its
// actions (a keep with its reward, stopping, throwing, a brawl, a card
// used or discarded, recruiting), read in Norwegian on the end screen:
// each as the Norwegian catalogue words it, none in English.
func TestBrowserDragonAnalysisInNorwegian(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Millisecond, Cast: servertest.Advising(servertest.PointsAdvisor{}), Analyzer: servertest.PointsAdvisor{}})
	ctx := servertest.Context(t, 2*time.Minute)
	me := servertest.NewPlayer(t, ts, "Tessa")
	defer me.Close()
	tb, err := me.CreateTable(ctx, "dragon", map[string]string{"type": "bot", "level": "smart"}, map[string]string{"type": "bot", "level": "random"})
	if err != nil {
		t.Fatal(err)
	}
	for servertest.GetInfo(t, ctx, me.Client, tb.ID).Status != "over" {
		time.Sleep(20 * time.Millisecond) // polling the API: bots play
	}
	var info struct{ Seats []struct{ Name string } }
	if err := me.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &info); err != nil {
		t.Fatal(err)
	}
	nb := lang.Get("nb")
	card := nb.Msg("card.pip.name")
	want := []string{
		nb.Msg("dragon.act.keepReward", "dice", "1 5", "reward", nb.Msg("dragon.act.reward.double")),
		nb.Msg("dragon.act.keepReward", "dice", "1", "reward", nb.Msg("dragon.act.reward.item")),
		nb.Msg("dragon.act.stop"), nb.Msg("dragon.act.roll"),
		nb.Msg("dragon.act.brawl", "p", info.Seats[len(info.Seats)-1].Name),
		nb.Msg("dragon.act.useOn", "card", card, "face", 3),
		nb.Msg("dragon.act.discard", "card", card), nb.Msg("dragon.act.recruit"),
	}
	b := webtest.Browser(t, 390, 844)
	webtest.SignInBrowser(t, b, ts.URL, me.Token)
	webtest.OpenIn(t, b, ts.URL+"/t/"+tb.ID, "nb")
	if err := chromedp.Do(b, chromedp.WaitVisible("#end .worst li")); err != nil {
		t.Fatal(err)
	}
	webtest.Shot(t, b, "dragon-analysis-nb-390")
	moments := strings.Join(webtest.Texts(t, b, "#end .worst li"), "\n")
	for _, w := range want {
		if !strings.Contains(moments, w) {
			t.Errorf("the costliest choices do not say %q:\n%s", w, moments)
		}
	}
	for _, en := range []string{"keep", "double", "item", "stop", "roll", "brawl", "use", "discard", "recruit", "best was"} {
		if regexp.MustCompile(`\b` + en + `\b`).MatchString(moments) {
			t.Errorf("the costliest choices in Norwegian say %q:\n%s", en, moments)
		}
	}
}
