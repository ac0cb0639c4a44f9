package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/server"
)

// TestBrowserBotPage: a bot's page says how it plays and gives its rating
// in every family it plays: the ordinary bots' under Farkle and under
// house rules (the same fixed anchor), Dragon Farkle's bots' under Dragon
// Farkle; and the games played against it. In English and Norwegian, at
// phone width.
func TestBrowserBotPage(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{BotDelay: time.Millisecond})
	ctx := ctxT(t, time.Minute)
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, shortRules, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	for getInfo(t, ctx, p.Client, tb.ID).Status != "over" {
		time.Sleep(20 * time.Millisecond) // polling the API: bots play
	}
	const read = `[...document.querySelectorAll('.ratings [data-family]')].map((e) => e.dataset.family + ' ' + e.querySelector('.rating-now').innerText).join(', ')`
	for _, c := range []struct{ lang, house string }{{"en", "House rules"}, {"nb", "Husregler"}} {
		t.Run(c.lang, func(t *testing.T) {
			b := browser(t, 390, 844)
			for _, bot := range []struct{ level, want string }{{"steady", "farkle 1500, house 1500"}, {"smart", "dragon 1556"}} {
				openIn(t, b, ts.URL+"/players/bot:"+bot.level, c.lang)
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
				shot(t, b, "bot-"+bot.level+"-"+c.lang)
				wantFits(t, b, "bot:"+bot.level+"'s page")
			}
		})
	}
}
