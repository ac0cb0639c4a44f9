package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// nextOf reads c's messages until one of the type (and code, for errors).
func nextOf(t *testing.T, ctx context.Context, c *wsclient.Client, typ, code string) json.RawMessage {
	t.Helper()
	for {
		m, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s %s: %v", typ, code, err)
		}
		if m.Type == typ && (code == "" || m.Code == code) {
			return m.Raw
		}
	}
}

type auditJSON struct {
	Entries []struct {
		ID                                      int64
		Moderator, Name, Action, Target, Reason string
		Detail                                  string
	}
	Next int64
}

// TestModeration: a player reports a line of the chat; the moderator
// reads the report, hides the line (every client gets it again, hidden),
// mutes the player (told at once; its lines refused saying until when),
// bans it (a 403 with the reason on every way to play), bans and lifts an
// address range, renames it (the player reads a notice once) and closes
// its table (failed, unrated); every action is in the audit log, newest
// first, a page at a time. Nobody else may use the API, and every field is
// bounded.
func TestModeration(t *testing.T) {
	ts := start(t, "", server.Options{ReportsPerHour: 3})
	ctx := ctxT(t, time.Minute)
	ann, troll, mod := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Troll"), newPlayer(t, ts, "Mo")
	makeModerator(t, ts, mod, "Maud")
	id := paceTable(t, ctx, ann, troll, "1d")

	// Nobody but a moderator.
	anon := wsclient.New(ts.URL)
	for _, c := range []*wsclient.Client{anon, ann.Client} {
		for _, path := range []string{"/api/moderation/reports", "/api/moderation/audit", "/api/moderation/sanctions"} {
			if a := modCall(t, c, "GET", path, nil, nil); a.Status != 403 || a.Code != "not_moderator" {
				t.Errorf("GET %s by a non-moderator: %+v", path, a)
			}
		}
		if a := modCall(t, c, "POST", "/api/moderation/actions", map[string]any{"action": "ban", "player": troll.ID, "reason": "x"}, nil); a.Status != 403 {
			t.Errorf("a ban by a non-moderator: %+v", a)
		}
	}

	if err := troll.Send(ctx, map[string]string{"type": "chat", "text": "you are all idiots"}); err != nil {
		t.Fatal(err)
	}
	nextOf(t, ctx, ann.Client, "chat", "")
	// Reports: bounded, not of oneself, a few an hour.
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"table": id, "line": 1, "reason": strings.Repeat("x", 301)}, "reason"},
		{map[string]any{"table": id, "line": 1, "reason": " "}, "reason"},
		{map[string]any{"table": id, "reason": "x"}, "line"},
		{map[string]any{"reason": "x"}, "player"},
		{map[string]any{"player": ann.ID, "reason": "x"}, "player"},
		{map[string]any{"table": id, "line": 1, "player": ann.ID, "reason": "x"}, "player"},
	} {
		if a := modCall(t, ann.Client, "POST", "/api/reports", c.body, nil); a.Status != 400 || a.Field != c.field {
			t.Errorf("report %v: %+v, want 400 naming %s", c.body, a, c.field)
		}
	}
	if a := modCall(t, ann.Client, "POST", "/api/reports", map[string]any{"table": id, "line": 9, "reason": "x"}, nil); a.Status != 404 {
		t.Errorf("a report of a line not said: %+v", a)
	}
	var rep struct{ ID int64 }
	if a := modCall(t, ann.Client, "POST", "/api/reports", map[string]any{"table": id, "line": 1, "reason": "insults everyone"}, &rep); a.Status != 200 || rep.ID == 0 {
		t.Fatalf("the report: %+v %+v", a, rep)
	}
	modCall(t, ann.Client, "POST", "/api/reports", map[string]any{"player": troll.ID, "reason": "rude name"}, nil)
	modCall(t, ann.Client, "POST", "/api/reports", map[string]any{"player": troll.ID, "reason": "again"}, nil)
	if a := modCall(t, ann.Client, "POST", "/api/reports", map[string]any{"player": troll.ID, "reason": "a fourth"}, nil); a.Status != 429 || a.Code != "rate_limited" {
		t.Errorf("a fourth report within the hour: %+v", a)
	}
	var reports struct {
		Reports []struct {
			ID                                int64
			Player, Name, Table, Text, Reason string
			Line                              int
		}
		Next int64
	}
	modCall(t, mod.Client, "GET", "/api/moderation/reports", nil, &reports)
	if len(reports.Reports) != 3 {
		t.Fatalf("the moderator reads %d reports", len(reports.Reports))
	}
	if r := reports.Reports[2]; r.ID != rep.ID || r.Player != troll.ID || r.Name != "Troll" || r.Table != id || r.Line != 1 || r.Text != "you are all idiots" || r.Reason != "insults everyone" {
		t.Fatalf("the report of the line: %+v", r)
	}

	act := func(body map[string]any) apiAnswer {
		t.Helper()
		return modCall(t, mod.Client, "POST", "/api/moderation/actions", body, nil)
	}
	// Every field bounded, every mistake said.
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"action": "mute", "player": troll.ID, "minutes": 10, "reason": ""}, "reason"},
		{map[string]any{"action": "mute", "player": troll.ID, "minutes": 10, "reason": strings.Repeat("é", 301)}, "reason"},
		{map[string]any{"action": "mute", "player": troll.ID, "reason": "x"}, "minutes"},
		{map[string]any{"action": "mute", "player": troll.ID, "minutes": 30*24*60 + 1, "reason": "x"}, "minutes"},
		{map[string]any{"action": "ban", "player": troll.ID, "minutes": -1, "reason": "x"}, "minutes"},
		{map[string]any{"action": "ban", "range": "0.0.0.0/0", "reason": "x"}, "range"},
		{map[string]any{"action": "ban", "range": "2001:db8::/16", "reason": "x"}, "range"},
		{map[string]any{"action": "ban", "range": "nonsense", "reason": "x"}, "range"},
		{map[string]any{"action": "mute", "range": "10.0.0.0/8", "minutes": 5, "reason": "x"}, "player"},
		{map[string]any{"action": "hide", "table": id, "reason": "x"}, "line"},
		{map[string]any{"action": "hide", "table": id, "line": 1, "player": troll.ID, "reason": "x"}, "player"},
		{map[string]any{"action": "rename", "player": troll.ID, "name": "", "reason": "x"}, "name"},
		{map[string]any{"action": "rename", "player": troll.ID, "name": "bot:expert", "reason": "x"}, "name"},
		{map[string]any{"action": "lift", "reason": "x"}, "sanction"},
		{map[string]any{"action": "dismiss", "reason": "x"}, "report"},
		{map[string]any{"action": "flog", "player": troll.ID, "reason": "x"}, "action"},
	} {
		if a := act(c.body); a.Status != 400 || a.Field != c.field {
			t.Errorf("%v: %+v, want 400 naming %s", c.body, a, c.field)
		}
	}
	if a := act(map[string]any{"action": "mute", "player": troll.ID, "minutes": 5, "reason": "x", "extra": 1}); a.Status != 400 {
		t.Errorf("an unknown field: %+v", a)
	}

	// Hide the line, answering the report: every client gets it hidden.
	if a := act(map[string]any{"action": "hide", "table": id, "line": 1, "reason": "insult", "report": rep.ID}); a.Status != 200 {
		t.Fatalf("hide: %+v", a)
	}
	var hidden chatJSON
	json.Unmarshal(nextOf(t, ctx, ann.Client, "chat", ""), &hidden)
	if len(hidden.Lines) != 1 || hidden.Lines[0].N != 1 || hidden.Lines[0].Text != "" {
		t.Fatalf("the hidden line as sent: %+v", hidden)
	}
	modCall(t, mod.Client, "GET", "/api/moderation/reports", nil, &reports)
	if len(reports.Reports) != 2 || reports.Reports[0].ID == rep.ID || reports.Reports[1].ID == rep.ID {
		t.Fatalf("the report answered is still open: %+v", reports.Reports)
	}
	late := clientWithToken(t, ts.URL, ann.Token)
	if err := late.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	var hist chatJSON
	json.Unmarshal(nextOf(t, ctx, late, "chat", ""), &hist)
	if len(hist.Lines) != 1 || hist.Lines[0].Text != "" {
		t.Fatalf("the history after the hide: %+v", hist)
	}

	// Mute: the player is told at once, and its lines are refused.
	if a := act(map[string]any{"action": "mute", "player": troll.ID, "minutes": 10, "reason": "insults"}); a.Status != 200 {
		t.Fatalf("mute: %+v", a)
	}
	var told struct {
		Code, Message string
		Sanction      struct {
			Kind, Reason string
			Until        *time.Time
		}
	}
	json.Unmarshal(nextOf(t, ctx, troll.Client, "error", "muted"), &told)
	if told.Sanction.Kind != "mute" || told.Sanction.Reason != "insults" || told.Sanction.Until == nil || time.Until(*told.Sanction.Until) < 9*time.Minute ||
		!strings.Contains(told.Message, "muted in chat until") {
		t.Fatalf("the mute as told: %+v", told)
	}
	if err := troll.Send(ctx, map[string]string{"type": "chat", "text": "hello?", "id": "c1"}); err != nil {
		t.Fatal(err)
	}
	var refused struct{ Code, ID string }
	json.Unmarshal(nextOf(t, ctx, troll.Client, "error", "muted"), &refused)
	if refused.ID != "c1" {
		t.Fatalf("the refused line: %+v", refused)
	}
	if a := act(map[string]any{"action": "mute", "player": troll.ID, "minutes": 20, "reason": "again"}); a.Status != 409 {
		t.Errorf("a second mute: %+v", a)
	}
	// A muted player still plays.
	if a := modCall(t, troll.Client, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}, nil); a.Status != 200 {
		t.Fatalf("a muted player's new table: %+v", a)
	}

	// Ban: every way to play answers 403 with the reason.
	if a := act(map[string]any{"action": "ban", "player": troll.ID, "reason": "keeps at it"}); a.Status != 200 {
		t.Fatalf("ban: %+v", a)
	}
	var waiting wsclient.Table
	modCall(t, ann.Client, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}, &waiting)
	for _, c := range []struct{ method, path string }{{"POST", "/api/tables"}, {"POST", "/api/tables/" + waiting.ID + "/join"}, {"POST", "/api/tables/" + id + "/rematch"}} {
		a := modCall(t, troll.Client, c.method, c.path, map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}, nil)
		if a.Status != 403 || a.Code != "banned" || a.Sanction == nil || a.Sanction.Reason != "keeps at it" || a.Sanction.Until != nil || !strings.Contains(a.Error, "until a moderator lifts it") {
			t.Errorf("%s %s by a banned player: %+v", c.method, c.path, a)
		}
	}
	var me struct {
		Sanction *struct{ Kind string }
	}
	modCall(t, troll.Client, "GET", "/api/me", nil, &me)
	if me.Sanction == nil || me.Sanction.Kind != "ban" {
		t.Errorf("GET /api/me of the banned player: %+v", me)
	}

	// A range: everyone here comes from 127.0.0.1.
	var rng struct{ ID int64 }
	if a := modCall(t, mod.Client, "POST", "/api/moderation/actions", map[string]any{"action": "ban", "range": "127.0.0.9/8", "minutes": 60, "reason": "a flood"}, &rng); a.Status != 200 {
		t.Fatalf("a range ban: %+v", a)
	}
	if a := modCall(t, ann.Client, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}, nil); a.Status != 403 || a.Code != "banned" {
		t.Errorf("a new table from a banned range: %+v", a)
	}
	var sanctions struct {
		Sanctions []struct {
			ID           int64
			Kind, Range  string
			Player, Name string
		}
	}
	modCall(t, mod.Client, "GET", "/api/moderation/sanctions", nil, &sanctions)
	if len(sanctions.Sanctions) != 3 || sanctions.Sanctions[0].Range != "127.0.0.0/8" || sanctions.Sanctions[1].Name != "Troll" {
		t.Fatalf("the sanctions in force: %+v", sanctions)
	}
	if a := act(map[string]any{"action": "lift", "sanction": rng.ID, "reason": "over"}); a.Status != 200 {
		t.Fatalf("lift: %+v", a)
	}
	if a := act(map[string]any{"action": "lift", "sanction": rng.ID, "reason": "over"}); a.Status != 409 {
		t.Errorf("lifted twice: %+v", a)
	}
	if a := modCall(t, ann.Client, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}, nil); a.Status != 200 {
		t.Errorf("a new table once the range is lifted: %+v", a)
	}

	// Rename: the player reads a notice, once.
	if a := act(map[string]any{"action": "rename", "player": troll.ID, "name": "Player 7", "reason": "offensive name"}); a.Status != 200 {
		t.Fatalf("rename: %+v", a)
	}
	var notice struct {
		Notices []struct {
			ID      int64
			Kind    string
			OldName string `json:"old_name"`
			NewName string `json:"new_name"`
			Reason  string
		}
	}
	json.Unmarshal(nextOf(t, ctx, troll.Client, "notice", ""), &notice)
	if len(notice.Notices) != 1 || notice.Notices[0].NewName != "Player 7" {
		t.Fatalf("the notice sent: %+v", notice)
	}
	var me2 struct {
		Name    string
		Notices []struct {
			ID      int64
			OldName string `json:"old_name"`
			NewName string `json:"new_name"`
			Reason  string
		}
	}
	modCall(t, troll.Client, "GET", "/api/me", nil, &me2)
	if me2.Name != "Player 7" || len(me2.Notices) != 1 || me2.Notices[0].OldName != "Troll" || me2.Notices[0].Reason != "offensive name" {
		t.Fatalf("GET /api/me after the rename: %+v", me2)
	}
	if a := modCall(t, ann.Client, "POST", fmt.Sprintf("/api/me/notices/%d/seen", me2.Notices[0].ID), map[string]any{}, nil); a.Status != 404 {
		t.Errorf("another player's notice seen: %+v", a)
	}
	modCall(t, troll.Client, "POST", fmt.Sprintf("/api/me/notices/%d/seen", me2.Notices[0].ID), map[string]any{}, nil)
	me2.Notices = nil
	modCall(t, troll.Client, "GET", "/api/me", nil, &me2)
	if len(me2.Notices) != 0 {
		t.Fatalf("the notice after it was seen: %+v", me2)
	}

	// Close: the table fails, unrated, with the moderator's reason.
	if a := act(map[string]any{"action": "close", "table": id, "reason": "abuse"}); a.Status != 200 {
		t.Fatalf("close: %+v", a)
	}
	var failed struct{ Type, Reason string }
	json.Unmarshal(nextOf(t, ctx, ann.Client, "failed", ""), &failed)
	if failed.Reason != "closed by a moderator: abuse" {
		t.Fatalf("the players are told: %+v", failed)
	}
	if a := act(map[string]any{"action": "close", "table": id, "reason": "abuse"}); a.Status != 409 {
		t.Errorf("a table closed twice: %+v", a)
	}
	tb, err := ts.Store.Table(ctx, id)
	if err != nil || tb.Status != store.Failed {
		t.Fatalf("the closed table in the store: %+v %v", tb, err)
	}
	if ch, err := ts.Store.TableRatings(ctx, id); err != nil || len(ch) != 0 {
		t.Fatalf("the closed table was rated: %v %v", ch, err)
	}
	if a := act(map[string]any{"action": "dismiss", "report": reports.Reports[0].ID, "reason": "dealt with"}); a.Status != 200 {
		t.Fatalf("dismiss: %+v", a)
	}

	// The audit log, newest first, a page at a time.
	var log auditJSON
	modCall(t, mod.Client, "GET", "/api/moderation/audit", nil, &log)
	var acts []string
	for _, e := range log.Entries {
		acts = append(acts, e.Action)
		if e.Moderator != mod.ID || e.Name != "Maud" || e.Reason == "" {
			t.Errorf("an audit entry: %+v", e)
		}
	}
	if got := strings.Join(acts, " "); got != "dismiss close rename lift ban ban mute dismiss hide" {
		t.Fatalf("the audit log: %s", got)
	}
	if log.Entries[4].Target != "127.0.0.0/8" || !strings.HasPrefix(log.Entries[4].Detail, "until ") || log.Entries[2].Detail != "Troll → Player 7" {
		t.Errorf("the audit entries' targets and details: %+v", log.Entries)
	}
	var page auditJSON
	modCall(t, mod.Client, "GET", "/api/moderation/audit?limit=4", nil, &page)
	if len(page.Entries) != 4 || page.Next != page.Entries[3].ID {
		t.Fatalf("a page of 4: %+v", page)
	}
	modCall(t, mod.Client, "GET", fmt.Sprintf("/api/moderation/audit?limit=4&before=%d", page.Next), nil, &page)
	if len(page.Entries) != 4 || page.Entries[0].ID != log.Entries[4].ID {
		t.Fatalf("the second page: %+v", page)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "before=-1"} {
		if a := modCall(t, mod.Client, "GET", "/api/moderation/audit?"+q, nil, nil); a.Status != http.StatusBadRequest {
			t.Errorf("audit ?%s: %+v", q, a)
		}
	}
}

// TestWatchersChat: the watchers of a table chat in a channel of their
// own: a watcher's line reaches the other watchers and not the players,
// who chat among themselves as before (the watchers read them); a watcher
// connecting later gets both channels' history, a player only its own. A
// muted watcher is refused as a player is.
func TestWatchersChat(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea, cy, dee, mod := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy"), newPlayer(t, ts, "Dee"), newPlayer(t, ts, "Mo")
	makeModerator(t, ts, mod, "Maud")
	id := paceTable(t, ctx, ann, bea, "1d")
	for _, w := range []*player{cy, dee} {
		if err := w.Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
		nextOf(t, ctx, w.Client, "welcome", "")
	}
	if err := cy.Send(ctx, map[string]string{"type": "chat", "text": "Ann should bank"}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []*player{cy, dee} {
		var m struct {
			Watchers bool
			Lines    []chatLineJSON
		}
		json.Unmarshal(nextOf(t, ctx, w.Client, "chat", ""), &m)
		if !m.Watchers || len(m.Lines) != 1 || m.Lines[0].Text != "Ann should bank" || m.Lines[0].Name != "Cy" || m.Lines[0].Seat != -1 {
			t.Fatalf("the watcher's line as a watcher gets it: %+v", m)
		}
	}
	if err := ann.Send(ctx, map[string]string{"type": "chat", "text": "gl"}); err != nil {
		t.Fatal(err)
	}
	// The players' next chat message is Ann's line, not Cy's.
	for _, p := range []*player{ann, bea, cy} {
		var m struct {
			Watchers bool
			Lines    []chatLineJSON
		}
		json.Unmarshal(nextOf(t, ctx, p.Client, "chat", ""), &m)
		if m.Watchers || len(m.Lines) != 1 || m.Lines[0].Text != "gl" || m.Lines[0].N != 2 {
			t.Fatalf("%s's next chat: %+v", p.ID, m)
		}
	}
	// History: a player gets the players' channel, a watcher both.
	for who, c := range map[string]*wsclient.Client{"player": clientWithToken(t, ts.URL, bea.Token), "watcher": clientWithToken(t, ts.URL, dee.Token)} {
		if err := c.Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
		// The history is sent before the connection reads: the answer to
		// a ping comes after all of it.
		if err := c.Send(ctx, map[string]string{"type": "ping", "id": "p"}); err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			m, err := c.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type == "pong" {
				break
			}
			if m.Type == "chat" {
				var h struct {
					Watchers bool
					Lines    []chatLineJSON
				}
				json.Unmarshal(m.Raw, &h)
				got = append(got, fmt.Sprintf("%v:%s", h.Watchers, h.Lines[0].Text))
			}
		}
		want := map[string]string{"player": "[false:gl]", "watcher": "[false:gl true:Ann should bank]"}[who]
		if fmt.Sprint(got) != want {
			t.Errorf("the %s's history: %v, want %s", who, got, want)
		}
		c.Close()
	}
	if a := modCall(t, mod.Client, "POST", "/api/moderation/actions", map[string]any{"action": "mute", "player": cy.ID, "minutes": 5, "reason": "coaching"}, nil); a.Status != 200 {
		t.Fatalf("mute a watcher: %+v", a)
	}
	nextOf(t, ctx, cy.Client, "error", "muted")
	if err := cy.Send(ctx, map[string]string{"type": "chat", "text": "bank now"}); err != nil {
		t.Fatal(err)
	}
	nextOf(t, ctx, cy.Client, "error", "muted")
	// A watcher's line can be hidden like any.
	if a := modCall(t, mod.Client, "POST", "/api/moderation/actions", map[string]any{"action": "hide", "table": id, "line": 1, "reason": "coaching"}, nil); a.Status != 200 {
		t.Fatalf("hide a watcher's line: %+v", a)
	}
	var m struct {
		Watchers bool
		Lines    []chatLineJSON
	}
	for !m.Watchers { // after Ann's line
		json.Unmarshal(nextOf(t, ctx, dee.Client, "chat", ""), &m)
	}
	if !m.Watchers || m.Lines[0].N != 1 || m.Lines[0].Text != "" {
		t.Fatalf("the watcher's line hidden: %+v", m)
	}
}
