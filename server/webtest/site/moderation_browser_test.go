package site

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/webtest"
)

// pageText is the text of the elements sel selects, joined by " | ".
func pageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(`+strconv.Quote(sel)+`)].map((e) => e.textContent.trim()).join(' | ')`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// moderate sends the action form open on the moderator's page: the reason,
// and the length (an option's value) for a mute or a ban.
func moderate(t *testing.T, ctx context.Context, scope, reason, minutes string) {
	t.Helper()
	acts := []chromedp.Action[chromedp.Void]{chromedp.WaitVisible(scope + ` .mod-form .mod-reason`), chromedp.SendKeys(scope+` .mod-form .mod-reason`, reason)}
	if minutes != "" {
		acts = append(acts, chromedp.SetValue(scope+` .mod-form select[name="minutes"]`, minutes))
	}
	acts = append(acts, browsertest.Click(scope+` .mod-form button[type="submit"]`))
	if err := chromedp.Do(ctx, acts...); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserModeration: a moderator handles a reported abusive player end
// to end in the browser. The troll says an abusive line; Ann reports the
// line (its "report" control) and the player (on its page); the moderator
// reads both reports on /moderate, hides the line (Ann's chat shows it
// hidden at once), mutes the troll (whose chat box says until when, in
// place of the box), then bans it; the troll, pressing "Play now", reads
// that it is banned and why; the audit log on the page lists every action,
// newest first. Screenshots of /moderate at desktop and phone width, in
// English and Norwegian.
func TestBrowserModeration(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := servertest.Context(t, 3*time.Minute)
	ann, troll, mod := servertest.NewPlayer(t, ts, "Ann"), servertest.NewPlayer(t, ts, "Troll"), servertest.NewPlayer(t, ts, "Mo")
	servertest.MakeModerator(t, ts, mod, "Maud")
	id := servertest.PaceTable(t, ctx, ann, troll, "1d")
	ann.Close()
	troll.Close()
	annB, trollB, modB := webtest.Browser(t, 1100, 900), webtest.Browser(t, 1100, 900), webtest.Browser(t, 1100, 900)
	webtest.SignInBrowser(t, annB, ts.URL, ann.Token)
	webtest.SignInBrowser(t, trollB, ts.URL, troll.Token)
	webtest.SignInBrowser(t, modB, ts.URL, mod.Token)

	// The troll says it; Ann reports the player (on its page), then the
	// line, and stays at the table.
	const abuse = "you are all idiots"
	if err := chromedp.Do(trollB, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible("#chat-text"), chromedp.SendKeys("#chat-text", abuse),
		browsertest.Click(`#chat .chat-form button[type="submit"]`), chromedp.WaitVisible(`#chat-lines li[data-n="1"]`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(annB, chromedp.Navigate(ts.URL+"/players/"+troll.ID), chromedp.WaitVisible("#report-player .report-open"),
		browsertest.Click("#report-player .report-open"), chromedp.SendKeys("#report-player .report-reason", "a rude player"),
		browsertest.Click("#report-player .report-send")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, annB, "the player reported", `(document.querySelector('#report-player .report-status') || {}).textContent.startsWith('Reported')`)
	if err := chromedp.Do(annB, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible(`#chat-lines li[data-n="1"] .report-open`),
		browsertest.Click(`#chat-lines li[data-n="1"] .report-open`), chromedp.SendKeys(`#chat-lines li[data-n="1"] .report-reason`, "insults everyone"),
		browsertest.Click(`#chat-lines li[data-n="1"] .report-send`)); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, annB, "the line reported", `(document.querySelector('#chat-lines li[data-n="1"] .report-status') || {}).textContent === 'Reported: the moderators will look at it.'`)

	// The moderator reads them: the header leads to the page.
	if err := chromedp.Do(modB, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#moderate-link"), browsertest.Click("#moderate-link"),
		chromedp.WaitVisible("#mod-reports li.mod-report")); err != nil {
		t.Fatal(err)
	}
	reports := pageText(t, modB, "#mod-reports li.mod-report")
	if strings.Count(reports, "Troll") != 2 || !strings.Contains(reports, abuse) || !strings.Contains(reports, "insults everyone") || !strings.Contains(reports, "a rude player") {
		t.Fatalf("the reports as the moderator reads them: %q", reports)
	}
	webtest.Shot(t, modB, "moderate-reports-en-1100")
	// Hide the line, from its report.
	lineReport := `#mod-reports li.mod-report:has(blockquote)`
	if err := chromedp.Do(modB, browsertest.Click(lineReport+` button[data-open="hide"]`)); err != nil {
		t.Fatal(err)
	}
	moderate(t, modB, lineReport, "insult", "")
	// Ann's open page shows it hidden at once.
	webtest.WaitPage(t, annB, "the line hidden", `!!document.querySelector('#chat-lines li[data-n="1"] .chat-hidden') && !document.querySelector('#chat-lines li[data-n="1"] .chat-text')`)
	if txt := pageText(t, annB, "#chat-lines"); strings.Contains(txt, abuse) {
		t.Fatalf("Ann still reads the hidden line: %q", txt)
	}
	// Mute, from the report of the player: the troll's chat box says until when.
	webtest.WaitPage(t, modB, "the line's report gone", `document.querySelectorAll('#mod-reports li.mod-report').length === 1`)
	if err := chromedp.Do(modB, browsertest.Click(`#mod-reports li.mod-report button[data-open="mute"]`)); err != nil {
		t.Fatal(err)
	}
	moderate(t, modB, "#mod-reports li.mod-report", "keeps insulting", "60")
	webtest.WaitPage(t, trollB, "the troll told it is muted", `(() => { const n = document.getElementById('chat-sanction');
		return !!n && !n.hidden && n.textContent.startsWith('You are muted in chat until ') && n.textContent.includes('Reason: keeps insulting'); })()`)
	if hidden, err := chromedp.Run(trollB, chromedp.Evaluate[bool](`document.querySelector('#chat form').hidden`)); err != nil || !hidden {
		t.Fatalf("the muted troll's chat box: hidden %v %v", hidden, err)
	}
	// Reloaded, the page says it again (the server says it at each connection).
	if err := chromedp.Do(trollB, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible("#chat-sanction")); err != nil {
		t.Fatal(err)
	}
	// Ban, from the form of any player.
	webtest.WaitPage(t, modB, "the reports answered", `!!document.querySelector('#mod-reports p.muted')`)
	if err := chromedp.Do(modB, chromedp.SetValue("#mod-any-action", "ban"), chromedp.Evaluate[chromedp.Void](`document.getElementById('mod-any-action').dispatchEvent(new Event('change'))`),
		chromedp.SendKeys("#mod-any-player", troll.ID)); err != nil {
		t.Fatal(err)
	}
	moderate(t, modB, "#mod-any", "will not stop", "0")
	webtest.WaitPage(t, modB, "the ban listed", `document.querySelectorAll('#mod-sanctions li.mod-sanction').length === 2`)
	// The banned troll cannot play, and reads why.
	if err := chromedp.Do(trollB, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible("#play-now"), browsertest.Click("#play-now")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, trollB, "the troll told it is banned", `[...document.querySelectorAll('#main .error')].some((e) => e.textContent === 'You are banned from playing and chatting until a moderator lifts it. Reason: will not stop')`)
	webtest.Shot(t, trollB, "banned-en-1100")

	// The audit log, newest first.
	if err := chromedp.Do(modB, chromedp.Navigate(ts.URL+"/moderate"), chromedp.WaitVisible("#mod-audit li")); err != nil {
		t.Fatal(err)
	}
	acts, err := chromedp.Run(modB, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#mod-audit li')].map((l) => l.dataset.action)`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(acts, " "); got != "ban dismiss mute dismiss hide" {
		t.Fatalf("the audit log on the page: %s", got)
	}
	if log := pageText(t, modB, "#mod-audit li"); !strings.Contains(log, "Maud banned Troll "+troll.ID) || !strings.Contains(log, "will not stop") || !strings.Contains(log, "Maud hid "+id+"#1") {
		t.Fatalf("the audit log's lines: %q", log)
	}
	for _, lang := range []string{"en", "nb"} {
		webtest.OpenIn(t, modB, ts.URL+"/moderate", lang)
		if err := chromedp.Do(modB, chromedp.WaitVisible("#mod-audit li")); err != nil {
			t.Fatal(err)
		}
		webtest.Shot(t, modB, "moderate-"+lang+"-1100")
	}
	// Someone else reads that the page is not theirs.
	if err := chromedp.Do(annB, chromedp.Navigate(ts.URL+"/moderate"), chromedp.WaitVisible("#not-moderator")); err != nil {
		t.Fatal(err)
	}

	// The moderator closes the table, from the form of any table: Ann's
	// page says the game was aborted by a moderator and why, in her
	// language (TestModeration checks it is nobody's loss).
	webtest.OpenIn(t, modB, ts.URL+"/moderate", "en")
	if err := chromedp.Do(modB, chromedp.WaitVisible("#mod-any-action"), chromedp.SetValue("#mod-any-action", "close"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('mod-any-action').dispatchEvent(new Event('change'))`),
		chromedp.SendKeys("#mod-any-table", id)); err != nil {
		t.Fatal(err)
	}
	moderate(t, modB, "#mod-any", "the table is all insults", "")
	webtest.WaitPage(t, modB, "the close in the audit log", `(document.querySelector('#mod-audit li') || {dataset: {}}).dataset.action === 'close'`)
	for _, c := range []struct{ lang, title, why string }{
		{"en", "Game aborted", "Closed by a moderator: the table is all insults"},
		{"nb", "Spillet ble avbrutt", "Stengt av en moderator: the table is all insults"},
	} {
		webtest.OpenIn(t, annB, ts.URL+"/t/"+id, c.lang)
		if err := chromedp.Do(annB, chromedp.WaitVisible("#stopped")); err != nil {
			t.Fatal(err)
		}
		if got := pageText(t, annB, "#stopped h2, #stopped p"); !strings.HasPrefix(got, c.title+" | "+c.why) {
			t.Errorf("the closed table in %s reads %q, want %q then %q", c.lang, got, c.title, c.why)
		}
	}
}

// TestBrowserWatchersChat: a watcher of a table reads the players' chat in
// one tab and talks with the other watchers in another; the players never
// see the watchers' lines (their page has no tabs, and the line is not
// there), and a moderator hides a watcher's line as any other.
func TestBrowserWatchersChat(t *testing.T) {
	t.Parallel()
	ts := servertest.StartFile(t, "", server.Options{})
	ctx := servertest.Context(t, 2*time.Minute)
	ann, bea, cy, mod := servertest.NewPlayer(t, ts, "Ann"), servertest.NewPlayer(t, ts, "Bea"), servertest.NewPlayer(t, ts, "Cy"), servertest.NewPlayer(t, ts, "Mo")
	servertest.MakeModerator(t, ts, mod, "Maud")
	id := servertest.PaceTable(t, ctx, ann, bea, "1d")
	ann.Close()
	if err := bea.Send(ctx, map[string]string{"type": "chat", "text": "good luck"}); err != nil {
		t.Fatal(err)
	}
	annB, cyB := webtest.Browser(t, 1100, 900), webtest.Browser(t, 390, 844)
	webtest.SignInBrowser(t, annB, ts.URL, ann.Token)
	webtest.SignInBrowser(t, cyB, ts.URL, cy.Token)
	if err := chromedp.Do(annB, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible(`#chat-lines li[data-n="1"]`)); err != nil {
		t.Fatal(err)
	}
	// The watcher reads the players' line, then writes in the watchers' tab.
	if err := chromedp.Do(cyB, chromedp.Navigate(ts.URL+"/t/"+id), chromedp.WaitVisible(`#chat-lines li[data-n="1"]`)); err != nil {
		t.Fatal(err)
	}
	if form, err := chromedp.Run(cyB, chromedp.Evaluate[bool](`document.querySelector('#chat form').hidden`)); err != nil || !form {
		t.Fatalf("the watcher can write in the players' tab: hidden %v %v", form, err)
	}
	if err := chromedp.Do(cyB, browsertest.Click("#chat-tab-watchers"), chromedp.WaitVisible("#chat-text"), chromedp.SendKeys("#chat-text", "bank now, Bea"),
		browsertest.Click(`#chat .chat-form button[type="submit"]`), chromedp.WaitVisible(`#chat-lines li[data-n="2"]`)); err != nil {
		t.Fatal(err)
	}
	if txt := pageText(t, cyB, "#chat-lines .chat-text"); txt != "bank now, Bea" {
		t.Fatalf("the watchers' tab: %q", txt)
	}
	// The players' tab still holds only the players' line; a player's new
	// line reaches it, and the player's page never shows the watcher's.
	wait, cancel := context.WithTimeout(annB, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(wait, chromedp.SendKeys("#chat-text", "thanks"), browsertest.Click(`#chat .chat-form button[type="submit"]`), chromedp.WaitVisible(`#chat-lines li[data-n="3"]`)); err != nil {
		html, _ := chromedp.Run(annB, chromedp.Evaluate[string](`document.getElementById('chat').outerHTML + ' ERR ' + ((document.querySelector('.error')||{}).textContent||'')`))
		t.Fatalf("Ann's line: %v\n%s", err, html)
	}
	txt, err := chromedp.Run(annB, chromedp.Evaluate[string](`document.getElementById('chat').innerText`)) // what shows
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(txt, "bank now") || strings.Contains(txt, "Watchers") || !strings.Contains(txt, "thanks") {
		t.Fatalf("the player's chat shows the watchers: %q", txt)
	}
	if err := chromedp.Do(cyB, browsertest.Click("#chat-tab-players"), chromedp.WaitVisible(`#chat-lines li[data-n="3"]`)); err != nil {
		t.Fatal(err)
	}
	if txt := pageText(t, cyB, "#chat-lines .chat-text"); txt != "good luck | thanks" {
		t.Fatalf("the players' tab of the watcher: %q", txt)
	}
	webtest.Shot(t, cyB, "watchers-chat-390")
	// A moderator hides the watcher's line: gone from the watchers' tab.
	if a := servertest.ModCall(t, mod.Client, "POST", "/api/moderation/actions", map[string]any{"action": "hide", "table": id, "line": 2, "reason": "coaching"}, nil); a.Status != 200 {
		t.Fatalf("hide: %+v", a)
	}
	if err := chromedp.Do(cyB, browsertest.Click("#chat-tab-watchers")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitPage(t, cyB, "the watcher's line hidden", `!!document.querySelector('#chat-lines li[data-n="2"] .chat-hidden') && !document.querySelector('#chat-lines .chat-text')`)
}
