package site

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// createAccount makes the browser's player an account named name with a
// passkey of a new virtual authenticator, from the account page.
func createAccount(t *testing.T, ctx context.Context, site, name string) webtest.MeJSON {
	t.Helper()
	webtest.Authenticator(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	if status, msg := webtest.FetchStatus(t, ctx, "/api/players", `JSON.stringify({name: 'Guest'})`); status != 201 {
		t.Fatalf("a guest: %d %s", status, msg)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible("#create-account"),
		chromedp.SetValue("#account-name", name), browsertest.Click("#create-account"), chromedp.WaitVisible("#recovery-code")); err != nil {
		t.Fatal(err)
	}
	me := webtest.WhoAmI(t, ctx)
	if !me.Account || me.Name != name {
		t.Fatalf("the account: %+v", me)
	}
	return me
}

// TestBrowserOwnPaceGame plays a whole game at your own pace between two
// accounts in two browsers. Ann creates it from the new-table form (house
// rules to 3,100, rated, "1 hour a move", an hour being a minute here,
// inviting Bea by name); Bea accepts the invitation from her home page,
// and they chat (a line with markup shows as text; Ann mutes Bea). For
// their first turns each comes to the home page, finds the game under
// "Your move" (the tab title counting it) with the other's last turn
// summarised (a list that cannot be read says so and can be read again),
// plays a turn with the keyboard and leaves; then each opens
// the table for a turn until the end. At the end Bea says "good game" and
// both are rated in the house family.
func TestBrowserOwnPaceGame(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{PaceHour: time.Minute})
	site := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	ann, bea := webtest.Browser(t, 1100, 900), webtest.Browser(t, 1100, 900)
	annMe, beaMe := createAccount(t, ann, site, "Ann"), createAccount(t, bea, site, "Bea")

	if err := chromedp.Do(ann, chromedp.Navigate(site+"/new"), chromedp.WaitVisible("#create"),
		browsertest.Click("#custom"), chromedp.SetValue(`input[name="game.target"]`, "3100"), // a rated target: 10 throws' worth or more
		browsertest.Click(`button[aria-label="remove seat 2"]`), browsertest.Click(`.row.gap button`), // + Friend
		chromedp.SetValue("#pace", "1h"), browsertest.Click("#rated"), chromedp.SetValue("#invite", "bea"),
		browsertest.Click("#create"), chromedp.WaitVisible("input.link")); err != nil {
		t.Fatal(err)
	}
	link, err := chromedp.Run(ann, chromedp.Evaluate[string](`document.querySelector("input.link").value`))
	if err != nil {
		t.Fatal(err)
	}
	id := link[strings.LastIndex(link, "/")+1:]
	// Bea finds the invitation on her home page and accepts it.
	if err := chromedp.Do(bea, chromedp.Navigate(site+"/"), chromedp.WaitVisible(`#invitations li[data-table="`+id+`"] .accept-invite`),
		browsertest.Click(`#invitations li[data-table="`+id+`"] .accept-invite`), chromedp.WaitVisible("#game .scoreboard")); err != nil {
		t.Fatal(err)
	}

	// The chat: Bea's line reaches Ann as text, never markup; Ann mutes
	// Bea on her screen, and the mute outlives a reload.
	const said = `<img src=x onerror="window.pwned=1">hi Ann`
	if err := chromedp.Do(bea, chromedp.WaitVisible("#chat-text"), chromedp.SendKeys("#chat-text", said), browsertest.Click(`#chat button[type="submit"]`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ann, chromedp.Navigate(site+"/t/"+id), chromedp.WaitVisible("#chat-lines li")); err != nil {
		t.Fatal(err)
	}
	type chatView struct {
		Text   string
		Images int
		Pwned  bool
		Muted  bool
	}
	readChat := `(() => ({text: (document.querySelector('#chat-lines li .chat-text') || {}).textContent || '',
		images: document.querySelectorAll('#chat img').length, pwned: !!window.pwned,
		muted: !!document.querySelector('#chat-lines li.muted-line')}))()`
	cv, err := chromedp.Run(ann, chromedp.Evaluate[chatView](readChat))
	if err != nil || cv.Text != said || cv.Images != 0 || cv.Pwned || cv.Muted {
		t.Fatalf("Ann's chat: %+v %v, want the line as text", cv, err)
	}
	if err := chromedp.Do(ann, browsertest.Click("#chat-lines li .mute"), chromedp.Navigate(site+"/t/"+id), chromedp.WaitVisible("#chat-lines li")); err != nil {
		t.Fatal(err)
	}
	if cv, err = chromedp.Run(ann, chromedp.Evaluate[chatView](readChat)); err != nil || !cv.Muted || cv.Text != "" {
		t.Fatalf("after muting Bea and a reload: %+v %v", cv, err)
	}
	if err := chromedp.Do(ann, browsertest.Click("#chat-lines li .mute")); err != nil {
		t.Fatal(err)
	}
	var tb struct {
		Pace  string
		Seats []struct{ Name string }
		Clock struct{ Seconds float64 }
	}
	if err := servertest.ClientWithToken(t, ts.URL, "").Do(servertest.Context(t, time.Minute), "GET", "/api/tables/"+id, nil, &tb); err != nil {
		t.Fatal(err)
	}
	if tb.Pace != "1h" || tb.Clock.Seconds != 60 || tb.Seats[0].Name != "Ann" || tb.Seats[1].Name != "Bea" {
		t.Fatalf("the table: %+v", tb)
	}

	// A list of games that cannot be read says so and offers to try
	// again, rather than showing none.
	browsertest.Block(t, ann, "*://*:*/api/me/games*")
	if err := chromedp.Do(ann, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ann, "the list of games", `['yes', 'error'].includes(document.getElementById('my-games').dataset.loaded)`)
	if text := browsertest.Eval[string](t, ann, `document.getElementById('my-games').textContent`); !strings.Contains(text, "could not be loaded: The server could not be reached") {
		t.Fatalf("the home page with its games unreadable: %q", text)
	}
	browsertest.Block(t, ann)
	if err := chromedp.Do(ann, browsertest.Click("#my-games .retry-games"), chromedp.WaitVisible(`#my-games li[data-table="`+id+`"]`)); err != nil {
		t.Fatal(err)
	}

	names := map[context.Context]string{ann: "Ann", bea: "Bea"}
	turns, summaries := 0, 0
	over := false
	// The first turns come through the home page; the others straight to
	// the table (the home page's list and summaries are checked by then,
	// and a page load a turn less halves the test's CPU).
	const viaHome = 6
	// playAt goes to the table by open, plays a turn there with the keys
	// and says whether the game is over.
	playAt := func(b context.Context, open chromedp.Action[chromedp.Void]) bool {
		if err := chromedp.Do(b, open, chromedp.WaitVisible("#game .scoreboard")); err != nil {
			t.Fatal(err)
		}
		webtest.WaitPage(t, b, "the table's state", `!!document.getElementById('game') && document.getElementById('game').dataset.online === 'yes'`)
		return webtest.PressKeys(t, b)
	}
	for turns < 200 && !over {
		for _, b := range []context.Context{ann, bea} {
			if turns >= viaHome {
				if over = playAt(b, chromedp.Navigate(site+"/t/"+id)); over {
					break
				}
				turns++
				continue
			}
			if err := chromedp.Do(b, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now")); err != nil {
				t.Fatal(err)
			}
			webtest.WaitPage(t, b, "the list of games", `['yes', 'error'].includes(document.getElementById('my-games').dataset.loaded)`)
			type home struct {
				Loaded string
				Mine   bool
				Last   string
				Title  string
				Listed bool
				Text   string
			}
			hm, err := chromedp.Run(b, chromedp.Evaluate[home](`(() => {
				const box = document.getElementById('my-games');
				const li = document.querySelector('#your-move li[data-table="`+id+`"]');
				const any = document.querySelector('#my-games li[data-table="`+id+`"]');
				return {loaded: box.dataset.loaded, mine: !!li, last: li ? (li.querySelector('.last-turn') || {}).textContent || '' : '',
					title: document.title, listed: !!any, text: box.textContent};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if hm.Loaded != "yes" {
				t.Fatalf("%s's home page could not list her games: %q", names[b], hm.Text)
			}
			if !hm.Listed { // the game is no longer open: it must be over
				var tb struct{ Status string }
				if err := servertest.ClientWithToken(t, ts.URL, "").Do(servertest.Context(t, time.Minute), "GET", "/api/tables/"+id, nil, &tb); err != nil {
					t.Fatal(err)
				}
				if tb.Status != "over" {
					t.Fatalf("%s's home page does not list the game, which is %q: %q", names[b], tb.Status, hm.Text)
				}
				over = true
				break
			}
			if !hm.Mine {
				continue
			}
			if !strings.HasPrefix(hm.Title, "(1) ") {
				t.Fatalf("%s's tab title %q does not count the game waiting on her", names[b], hm.Title)
			}
			other := "Ann"
			if names[b] == "Ann" {
				other = "Bea"
			}
			if hm.Last != "" {
				if !strings.HasPrefix(hm.Last, other+" ") || !strings.Contains(hm.Last, " to ") {
					t.Fatalf("%s's summary of the last turn: %q", names[b], hm.Last)
				}
				summaries++
			}
			if turns == 2 {
				webtest.Shot(t, b, "own-pace-home")
			}
			if over = playAt(b, browsertest.Click(`#your-move li[data-table="`+id+`"] a.button`)); over {
				break
			}
			turns++
		}
	}
	if !over {
		t.Fatalf("the game did not end in %d turns", turns)
	}
	if summaries == 0 {
		t.Fatal("no home page summarised the other's last turn")
	}
	final, err := chromedp.Run(ann, chromedp.Evaluate[string](`fetch('/api/tables/`+id+`').then((r) => r.json()).then((t) => t.status + ' ' + (t.ratings || []).length)`, chromedp.EvalAwaitPromise))
	if err != nil || final != "over 2" {
		t.Fatalf("the finished table: %q %v (want over, both rated)", final, err)
	}
	for _, me := range []webtest.MeJSON{annMe, beaMe} {
		cur, err := ts.DB.Ratings(context.Background(), "house", []string{me.ID})
		if err != nil || cur[me.ID].Games != 1 {
			t.Fatalf("%s's house rating: %+v %v", me.Name, cur, err)
		}
	}
	// After the end, "good game".
	if err := chromedp.Do(ann, chromedp.Navigate(site+"/t/"+id), chromedp.WaitVisible("#end")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bea, chromedp.Navigate(site+"/t/"+id), chromedp.WaitVisible("#good-game"), browsertest.Click("#good-game")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, ann, "Bea's good game", `[...document.querySelectorAll('#chat-lines li')].some((li) => li.textContent.includes('Bea') && li.textContent.includes('Good game!'))`)
	webtest.Shot(t, ann, "own-pace-end-chat")

	if err := chromedp.Do(bea, chromedp.Navigate(site+"/"), chromedp.WaitVisible("#play-now")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, bea, "the list of games", `document.getElementById('my-games').dataset.loaded === 'yes'`)
	if title, _ := chromedp.Run(bea, chromedp.Evaluate[string](`document.title`)); strings.HasPrefix(title, "(") {
		t.Fatalf("the tab title still counts a game: %q", title)
	}
}
