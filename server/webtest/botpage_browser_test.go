package webtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/server"
)

// TestBrowserBotPage: a bot's page says how it plays and gives its rating
// in every family it plays: the ordinary bots' under Farkle and under
// house rules (the same fixed anchor), Dragon Farkle's bots' under Dragon
// Farkle; and the games played against it. In English and Norwegian, at
// phone width. Its figures are those of the game it plays: a Dragon
// Farkle bot's soldiers a game and most soldiers, not points per turn.
func TestBrowserBotPage(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := servertest.Context(t, time.Minute)
	p := servertest.NewPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, servertest.ShortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	dr, err := p.CreateTable(ctx, "dragon", map[string]string{"type": "bot", "level": "smart"}, map[string]string{"type": "bot", "level": "simple"})
	if err != nil {
		t.Fatal(err)
	}
	for servertest.GetInfo(t, ctx, p.Client, tb.ID).Status != "over" || servertest.GetInfo(t, ctx, p.Client, dr.ID).Status != "over" {
		time.Sleep(20 * time.Millisecond) // polling the API: bots play
	}
	// The smart bot's one Dragon Farkle game, as its table says it: its
	// soldiers at the end, and whether it won.
	var final struct {
		Scores  []int `json:"scores"`
		Winners []int `json:"winners"`
	}
	if err := p.Do(ctx, "GET", "/api/tables/"+dr.ID, nil, &final); err != nil || len(final.Scores) != 2 {
		t.Fatalf("the Dragon Farkle game: %+v %v", final, err)
	}
	smartWins := 0
	if slices.Contains(final.Winners, 0) {
		smartWins = 1
	}
	const read = `[...document.querySelectorAll('.ratings [data-family]')].map((e) => e.dataset.family + ' ' + e.querySelector('.rating-now').innerText).join(', ')`
	for vi, c := range []struct{ lang, house string }{{"en", "House rules"}, {"nb", "Husregler"}} {
		t.Run(c.lang, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, vi)
			b := Browser(t, 390, 844)
			for _, bot := range []struct{ level, want string }{{"steady", "farkle 1500, house 1500"}, {"smart", "dragon 1556"}} {
				OpenIn(t, b, ts.URL+"/players/bot:"+bot.level, c.lang)
				if err := chromedp.Do(b, chromedp.WaitVisible("#bot-about"), chromedp.WaitVisible(".ratings")); err != nil {
					t.Fatal(err)
				}
				got, err := chromedp.Run(b, chromedp.Evaluate[string](read))
				if err != nil || got != bot.want {
					t.Errorf("bot:%s's ratings %q %v, want %q", bot.level, got, err, bot.want)
				}
				about, err := chromedp.Run(b, chromedp.Text("#bot-about"))
				if err != nil || len(strings.TrimSpace(about)) < 10 {
					t.Errorf("bot:%s's page says how it plays: %q %v", bot.level, about, err)
				}
				if bot.level == "steady" {
					text, _ := chromedp.Run(b, chromedp.Text(".ratings"))
					if !strings.Contains(text, c.house) {
						t.Errorf("bot:steady's ratings say %q, want %q", text, c.house)
					}
					if n, err := chromedp.Run(b, chromedp.Evaluate[int](`document.querySelectorAll('a[href="/replay/`+tb.ID+`"]').length`)); err != nil || n != 1 {
						t.Errorf("bot:steady's page links %d times to its game (%v), want once", n, err)
					}
				}
				// The figures: a Dragon Farkle bot's are Dragon Farkle's
				// (soldiers), an ordinary bot's the ordinary game's.
				tiles, err := chromedp.Run(b, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('.tiles .tile')].map((e) => [e.querySelector('.muted').textContent, e.querySelector('.tile-v').textContent])`))
				if err != nil {
					t.Fatal(err)
				}
				cat := lang.Get(c.lang)
				want := [][]string{{cat.Msg("web.st.games"), "1"}, {cat.Msg("web.st.wins"), fmt.Sprint(smartWins)}, {cat.Msg("web.st.winRate"), ""},
					{cat.Msg("web.st.soldiers"), fmt.Sprint(final.Scores[0])}, {cat.Msg("web.st.bestSoldiers"), fmt.Sprint(final.Scores[0])}}
				if bot.level == "steady" {
					want = [][]string{{cat.Msg("web.st.games"), "1"}, {cat.Msg("web.st.wins"), ""}, {cat.Msg("web.st.winRate"), ""},
						{cat.Msg("web.st.ppt"), ""}, {cat.Msg("web.st.farkleRate"), ""}, {cat.Msg("web.st.bestTurn"), ""}}
				}
				ok := len(tiles) == len(want)
				for i := 0; ok && i < len(want); i++ {
					ok = tiles[i][0] == want[i][0] && (want[i][1] == "" || strings.NewReplacer(",", "", "\u00a0", "").Replace(tiles[i][1]) == want[i][1]) // "": any value; thousands written as the language writes them
				}
				if !ok {
					t.Errorf("bot:%s's figures %q, want %q", bot.level, tiles, want)
				}
				Shot(t, b, "bot-"+bot.level+"-"+c.lang)
				WantFits(t, b, "bot:"+bot.level+"'s page")
			}
		})
	}
}
