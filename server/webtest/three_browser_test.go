package webtest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// TestBrowserThreeSeatNote: at a three-seat table whose three-player table
// is being prepared, the page says under the perfect bot's name that it
// plays as expert and why, in English and in Norwegian, and the note fits
// a phone; at a table of rules the three-player solver refuses (a farkle
// penalty) it says so. Once the table is there the note goes by itself
// (the page asks for it again while it says "being prepared").
func TestBrowserThreeSeatNote(t *testing.T) {
	t.Parallel()
	r := servertest.ThreeRules()
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		t.Fatal(err)
	}
	tabs := solved.NewLimitedTables(t.TempDir(), solved.Limits{NoWait: true, Solves: 1, Queue: 8, Memory: 256 << 20, ThreeSolve: triples})
	open := make(chan struct{})
	tabs.OnJob = func(kind string, _ rules.Rules) {
		if kind == "three" {
			<-open // held for the test: the table stays in preparation
		}
	}
	opened := false
	defer func() {
		if !opened {
			close(open)
		}
	}()
	t.Cleanup(tabs.Close)
	ts := servertest.StartFile(t, "", server.Options{Cast: advise.Cast(tabs)})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pen := servertest.ThreeRules()
	pen.Turn.BankMinimum = 300
	pen.Turn.HotDice, pen.Turn.FarklePenalty = false, rules.Penalty{Count: 3, Points: 1000}
	h := servertest.NewPlayer(t, ts, "Host")
	table := func(r rules.Rules) string {
		tb, err := h.CreateTable(ctx, r, map[string]string{"type": "human"}, map[string]string{"type": "bot", "level": "perfect"}, map[string]string{"type": "bot", "level": "steady"})
		if err != nil {
			t.Fatal(err)
		}
		return tb.ID
	}
	preparing, refused := table(r), table(pen)
	var last context.Context
	for _, c := range []struct {
		lang, name, table, want string
	}{
		{"en", "refused", refused, "plays as expert: the three-player solver needs hot dice where a bank or entry minimum meets a farkle penalty"},
		{"nb", "refused", refused, "spiller som ekspert: løseren for tre spillere trenger varme terninger der minste innsetting eller inngangskrav møter farkle-straff"},
		{"nb", "preparing", preparing, "spiller som ekspert: tabellen forberedes"},
		{"en", "preparing", preparing, "plays as expert: its table is being prepared"},
	} {
		bctx := Browser(t, 1280, 800)
		if c.lang == "nb" {
			bctx = NorwegianBrowser(t, 1280, 800)
		}
		if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/t/"+c.table), chromedp.WaitVisible("#game .scoreboard")); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for got := Text(t, bctx, ".scoreboard .seat-note"); got != c.want; got = Text(t, bctx, ".scoreboard .seat-note") {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the seat's note is %q, want %q", c.lang, got, c.want)
			}
			// The page shows the note it was sent: load it again.
			if err := chromedp.Do(bctx, chromedp.Reload(), chromedp.WaitVisible("#game .scoreboard")); err != nil {
				t.Fatal(err)
			}
		}
		if rows := Texts(t, bctx, ".scoreboard tr"); len(rows) != 3 || !strings.Contains(rows[1], c.want) || strings.Contains(rows[2], "expert") {
			t.Fatalf("%s: the scoreboard's rows: %q", c.lang, rows)
		}
		Settled(t, bctx)
		Shot(t, bctx, "three-note-"+c.name+"-"+c.lang)
		PhoneShot(t, bctx, "three-note-"+c.name+"-"+c.lang+"-phone")
		last = bctx
	}
	// The solve goes on: the note goes from the page that shows it.
	close(open)
	opened = true
	deadline := time.Now().Add(time.Minute)
	for got := Text(t, last, ".scoreboard .seat-note"); got != ""; got = Text(t, last, ".scoreboard .seat-note") {
		if time.Now().After(deadline) {
			t.Fatalf("the note stays once the table is there: %q", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if tags := Texts(t, last, ".scoreboard .tag"); len(tags) != 2 || slices.Contains(tags, "bot*") {
		t.Fatalf("the bots' tags once the table is there: %q", tags)
	}
}
