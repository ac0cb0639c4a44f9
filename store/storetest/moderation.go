package storetest

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// modPlayers makes the players of the moderation tests: an account
// "mod" (Maud), an account "acc" (Ann Lee) and the guests g1 (Troll) and
// g2 (Bea).
func modPlayers(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, p := range []store.Player{{ID: "mod", Name: "g", TokenHash: "tm"}, {ID: "acc", Name: "g", TokenHash: "ta"},
		{ID: "g1", Name: "Troll", TokenHash: "t1"}, {ID: "g2", Name: "Bea", TokenHash: "t2"}} {
		must(t, s.CreatePlayer(ctx, p))
	}
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "mod", Name: "Maud", RecoveryHash: "r"}, passkey("km", "mod", 0), store.Session{TokenHash: "sm"}))
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "acc", Name: "Ann Lee", RecoveryHash: "r"}, passkey("ka", "acc", 0), store.Session{TokenHash: "sa"}))
}

func entry(action, target, reason string, at int64) store.AuditEntry {
	return store.AuditEntry{Moderator: "mod", Action: action, Target: target, Reason: reason, At: time.Unix(at, 0)}
}

func testModerators(t *testing.T, s store.Store) {
	ctx := context.Background()
	modPlayers(t, s)
	wantCode(t, s.AddModerator(ctx, "g1", time.Unix(1, 0)), store.ENOTFOUND, "a guest made a moderator")
	wantCode(t, s.AddModerator(ctx, "nobody", time.Unix(1, 0)), store.ENOTFOUND, "nobody made a moderator")
	if ok, err := s.IsModerator(ctx, "mod"); err != nil || ok {
		t.Fatalf("IsModerator before: %v %v", ok, err)
	}
	must(t, s.AddModerator(ctx, "mod", time.Unix(10, 0)))
	must(t, s.AddModerator(ctx, "acc", time.Unix(20, 0)))
	wantCode(t, s.AddModerator(ctx, "mod", time.Unix(30, 0)), store.ECONFLICT, "a moderator twice")
	list, err := s.Moderators(ctx)
	must(t, err)
	if len(list) != 2 || list[0].PlayerID != "mod" || list[0].Name != "Maud" || !list[0].Added.Equal(time.Unix(10, 0)) || list[1].Name != "Ann Lee" {
		t.Fatalf("Moderators = %+v", list)
	}
	must(t, s.RemoveModerator(ctx, "acc"))
	wantCode(t, s.RemoveModerator(ctx, "acc"), store.ENOTFOUND, "a moderator removed twice")
	for id, want := range map[string]bool{"mod": true, "acc": false, "g1": false, "nobody": false} {
		if ok, err := s.IsModerator(ctx, id); err != nil || ok != want {
			t.Errorf("IsModerator(%s) = %v %v, want %v", id, ok, err, want)
		}
	}
}

func testSanctions(t *testing.T, s store.Store) {
	ctx := context.Background()
	modPlayers(t, s)
	mute := store.Sanction{Kind: store.Mute, PlayerID: "g1", Reason: "insults", By: "mod", At: time.Unix(100, 0), Until: time.Unix(200, 0)}
	m, err := s.AddSanction(ctx, mute, entry(store.ActMute, "g1", "insults", 100))
	must(t, err)
	if m.ID == 0 || m.Name != "Troll" {
		t.Fatalf("the mute stored: %+v", m)
	}
	ban, err := s.AddSanction(ctx, store.Sanction{Kind: store.Ban, PlayerID: "g1", Reason: "again", By: "mod", At: time.Unix(150, 0)}, entry(store.ActBan, "g1", "again", 150))
	must(t, err)
	rng, err := s.AddSanction(ctx, store.Sanction{Kind: store.Ban, Range: "203.0.113.0/24", Reason: "a botnet", By: "mod", At: time.Unix(160, 0), Until: time.Unix(1000, 0)}, entry(store.ActBan, "203.0.113.0/24", "a botnet", 160))
	must(t, err)
	_, err = s.AddSanction(ctx, store.Sanction{Kind: store.Ban, PlayerID: "g2", Range: "10.0.0.0/8", By: "mod"}, entry(store.ActBan, "x", "r", 1))
	wantCode(t, err, store.EINVALID, "a sanction of a player and a range")
	_, err = s.AddSanction(ctx, store.Sanction{Kind: store.Ban, By: "mod"}, entry(store.ActBan, "x", "r", 1))
	wantCode(t, err, store.EINVALID, "a sanction of nobody")
	_, err = s.AddSanction(ctx, store.Sanction{Kind: "flog", PlayerID: "g2", By: "mod"}, entry(store.ActBan, "x", "r", 1))
	wantCode(t, err, store.EINVALID, "a sanction of no kind")
	_, err = s.AddSanction(ctx, store.Sanction{Kind: store.Ban, PlayerID: "nobody", By: "mod"}, entry(store.ActBan, "nobody", "r", 1))
	wantCode(t, err, store.ENOTFOUND, "a sanction of no player")
	// An audit entry that cannot be written takes its sanction with it.
	_, err = s.AddSanction(ctx, store.Sanction{Kind: store.Mute, PlayerID: "g2", By: "mod"}, store.AuditEntry{Action: store.ActMute})
	wantCode(t, err, store.EINVALID, "a sanction without its audit entry")

	ids := func(list []store.Sanction) string {
		out := ""
		for _, x := range list {
			out += fmt.Sprintf("%d%s ", x.ID, x.Kind)
		}
		return out
	}
	at := func(sec int64, player string) []store.Sanction {
		t.Helper()
		list, err := s.Sanctions(ctx, store.SanctionFilter{PlayerID: player, At: time.Unix(sec, 0)})
		must(t, err)
		for _, x := range list {
			if !x.Holds(time.Unix(sec, 0)) {
				t.Errorf("sanction %+v listed at %d, when it does not hold", x, sec)
			}
		}
		return list
	}
	want := func(got []store.Sanction, w ...store.Sanction) {
		t.Helper()
		if ids(got) != ids(w) {
			t.Errorf("sanctions %s, want %s", ids(got), ids(w))
		}
	}
	want(at(120, "g1"), rng, ban, m)
	want(at(120, "g2"), rng) // another player: only the range
	want(at(250, "g1"), rng, ban)
	want(at(1000, "g1"), ban) // the range's ban ran out
	all, err := s.Sanctions(ctx, store.SanctionFilter{})
	must(t, err)
	want(all, rng, ban, m)
	if all[0].Range != "203.0.113.0/24" || all[0].PlayerID != "" || !all[0].Until.Equal(time.Unix(1000, 0)) || all[1].Reason != "again" || !all[1].Until.IsZero() {
		t.Errorf("sanctions read back: %+v", all)
	}
	if !all[0].Covers("g2", netip.MustParseAddr("203.0.113.9")) || all[0].Covers("g2", netip.MustParseAddr("203.0.114.9")) || !all[1].Covers("g1", netip.Addr{}) || all[1].Covers("g2", netip.Addr{}) {
		t.Error("Covers is wrong")
	}
	one, err := s.Sanctions(ctx, store.SanctionFilter{Limit: 1})
	must(t, err)
	want(one, rng)

	must(t, s.LiftSanction(ctx, ban.ID, entry(store.ActLift, "g1", "appealed", 300)))
	wantCode(t, s.LiftSanction(ctx, ban.ID, entry(store.ActLift, "g1", "twice", 301)), store.ECONFLICT, "a sanction lifted twice")
	wantCode(t, s.LiftSanction(ctx, m.ID, entry(store.ActLift, "g1", "ran out", 301)), store.ECONFLICT, "a sanction that ran out, lifted")
	wantCode(t, s.LiftSanction(ctx, 99999, entry(store.ActLift, "g1", "none", 301)), store.ENOTFOUND, "no sanction lifted")
	want(at(400, "g1"), rng)

	log, err := s.AuditLog(ctx, 0, 0)
	must(t, err)
	var acts []string
	for _, e := range log {
		acts = append(acts, e.Action+" "+e.Target+" "+e.Reason)
	}
	if fmt.Sprint(acts) != "[lift g1 appealed ban 203.0.113.0/24 a botnet ban g1 again mute g1 insults]" {
		t.Fatalf("the audit log: %q", acts)
	}
	if log[0].Name != "Maud" || log[0].Moderator != "mod" || !log[0].At.Equal(time.Unix(300, 0)) || log[0].TargetName != "Troll" || log[1].TargetName != "" {
		t.Fatalf("the newest entry: %+v", log[0])
	}
	page, err := s.AuditLog(ctx, log[1].ID, 2)
	must(t, err)
	if len(page) != 2 || page[0].ID != log[2].ID || page[1].ID != log[3].ID {
		t.Fatalf("the page after %d: %+v", log[1].ID, page)
	}
}

func testModeratedChat(t *testing.T, s store.Store) {
	ctx := context.Background()
	modPlayers(t, s)
	must(t, s.CreateTable(ctx, newTable(t, "c1", store.Seat{Name: "Troll", PlayerID: "g1"}, store.Seat{Name: "Bea", PlayerID: "g2"})))
	say := func(player, name, text string, watchers bool) store.ChatLine {
		t.Helper()
		l, err := s.AddChat(ctx, store.ChatLine{TableID: "c1", PlayerID: player, Name: name, Text: text, Watchers: watchers}, 3)
		must(t, err)
		return l
	}
	say("g1", "Troll", "you are all idiots", false)
	say("acc", "Ann Lee", "watching you", true)
	say("g2", "Bea", "gg", false)
	say("acc", "Ann Lee", "nice", true)
	say("acc", "Ann Lee", "third", true)
	// Each channel holds its own three lines.
	_, err := s.AddChat(ctx, store.ChatLine{TableID: "c1", PlayerID: "acc", Name: "Ann Lee", Text: "fourth", Watchers: true}, 3)
	wantCode(t, err, store.ECONFLICT, "a full watchers' channel")
	say("g2", "Bea", "still room", false)

	must(t, s.HideChat(ctx, "c1", 1, entry(store.ActHide, "c1#1", "insult", 10)))
	wantCode(t, s.HideChat(ctx, "c1", 99, entry(store.ActHide, "c1#99", "x", 10)), store.ENOTFOUND, "no line hidden")
	players, err := s.Chat(ctx, "c1", 10)
	must(t, err)
	watchers, err := s.WatchersChat(ctx, "c1", 10)
	must(t, err)
	line := func(l store.ChatLine) string { return fmt.Sprintf("%d:%s:%v:%v", l.N, l.Text, l.Watchers, l.Hidden) }
	var got []string
	for _, l := range players {
		got = append(got, line(l))
	}
	for _, l := range watchers {
		got = append(got, line(l))
	}
	if fmt.Sprint(got) != "[1:you are all idiots:false:true 3:gg:false:false 6:still room:false:false 2:watching you:true:false 4:nice:true:false 5:third:true:false]" {
		t.Fatalf("the channels: %q", got)
	}
	l, err := s.ChatLineAt(ctx, "c1", 4)
	must(t, err)
	if l.Text != "nice" || !l.Watchers || l.PlayerID != "acc" || l.TableID != "c1" {
		t.Fatalf("line 4: %+v", l)
	}
	_, err = s.ChatLineAt(ctx, "c1", 7)
	wantCode(t, err, store.ENOTFOUND, "a line not said")
}

func testRename(t *testing.T, s store.Store) {
	ctx := context.Background()
	modPlayers(t, s)
	must(t, s.RenamePlayer(ctx, "g1", "Player 7", entry(store.ActRename, "g1", "offensive name", 10)))
	p, err := s.Player(ctx, "g1")
	must(t, err)
	if p.Name != "Player 7" {
		t.Fatalf("the guest renamed: %+v", p)
	}
	// An account cannot be renamed to another account's name or a look-alike.
	wantCode(t, s.RenamePlayer(ctx, "acc", "MAUD", entry(store.ActRename, "acc", "x", 11)), store.ECONFLICT, "an account renamed as another's")
	wantCode(t, s.RenamePlayer(ctx, "acc", "Mаud", entry(store.ActRename, "acc", "x", 11)), store.ECONFLICT, "an account renamed as a look-alike") // Cyrillic а
	wantCode(t, s.RenamePlayer(ctx, "nobody", "X", entry(store.ActRename, "nobody", "x", 11)), store.ENOTFOUND, "no player renamed")
	must(t, s.RenamePlayer(ctx, "acc", "Ann L", entry(store.ActRename, "acc", "rude", 12)))
	a, err := s.AccountByName(ctx, "ann l")
	must(t, err)
	if a.PlayerID != "acc" || a.Name != "Ann L" {
		t.Fatalf("the account renamed: %+v", a)
	}
	if _, err := s.AccountByName(ctx, "Ann Lee"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("the old name still finds the account: %v", err)
	}
	// The old name is free for another account.
	must(t, s.RenamePlayer(ctx, "mod", "Ann Lee", entry(store.ActRename, "mod", "swap", 13)))

	ns, err := s.Notices(ctx, "acc", 10)
	must(t, err)
	if len(ns) != 1 || ns[0].OldName != "Ann Lee" || ns[0].NewName != "Ann L" || ns[0].Reason != "rude" || ns[0].Kind != "renamed" || !ns[0].At.Equal(time.Unix(12, 0)) {
		t.Fatalf("the notices of acc: %+v", ns)
	}
	wantCode(t, s.SeeNotice(ctx, "g1", ns[0].ID), store.ENOTFOUND, "another player's notice seen")
	must(t, s.SeeNotice(ctx, "acc", ns[0].ID))
	must(t, s.SeeNotice(ctx, "acc", ns[0].ID)) // again: nothing changes
	if ns, err := s.Notices(ctx, "acc", 10); err != nil || len(ns) != 0 {
		t.Fatalf("notices after seeing: %+v %v", ns, err)
	}
	log, err := s.AuditLog(ctx, 0, 10)
	must(t, err)
	if len(log) != 3 || log[1].Detail != "Ann Lee → Ann L" || log[2].Target != "g1" {
		t.Fatalf("the audit log of the renames: %+v", log)
	}
}

func testReports(t *testing.T, s store.Store) {
	ctx := context.Background()
	modPlayers(t, s)
	rep := func(reporter, player string, at int64) (store.Report, error) {
		return s.AddReport(ctx, store.Report{Reporter: reporter, PlayerID: player, TableID: "c1", Line: 3, Text: "you idiot", Reason: "insult", At: time.Unix(at, 0)}, 3, time.Unix(at-60, 0))
	}
	var made []store.Report
	for i := range 3 {
		r, err := rep("g2", "g1", int64(100+i))
		must(t, err)
		if r.ID == 0 || r.Name != "Troll" {
			t.Fatalf("report %d: %+v", i, r)
		}
		made = append(made, r)
	}
	if _, err := rep("g2", "g1", 103); !errors.Is(err, store.ErrOverLimit) {
		t.Fatalf("a fourth report within the minute: %v", err)
	}
	if _, err := rep("acc", "g1", 103); err != nil { // another reporter has its own count
		t.Fatal(err)
	}
	r, err := rep("g2", "g1", 161) // the first ones are out of the window
	must(t, err)
	made = append(made, r)
	_, err = rep("g2", "nobody", 200)
	wantCode(t, err, store.ENOTFOUND, "a report of nobody")
	_, err = s.AddReport(ctx, store.Report{Reporter: "g2", PlayerID: "g1"}, 3, time.Unix(0, 0))
	wantCode(t, err, store.EINVALID, "a report without a reason")

	open, err := s.Reports(ctx, store.ReportFilter{Open: true})
	must(t, err)
	if len(open) != 5 || open[0].ID != r.ID || open[0].Text != "you idiot" || open[0].Line != 3 || open[0].TableID != "c1" || open[0].Reporter != "g2" || !open[0].At.Equal(time.Unix(161, 0)) {
		t.Fatalf("the open reports: %+v", open)
	}
	must(t, s.CloseReport(ctx, made[1].ID, entry(store.ActDismiss, fmt.Sprintf("report %d", made[1].ID), "not abuse", 300)))
	wantCode(t, s.CloseReport(ctx, made[1].ID, entry(store.ActDismiss, "r", "again", 301)), store.ECONFLICT, "a report closed twice")
	wantCode(t, s.CloseReport(ctx, 99999, entry(store.ActDismiss, "r", "none", 301)), store.ENOTFOUND, "no report closed")
	open, err = s.Reports(ctx, store.ReportFilter{Open: true})
	must(t, err)
	if len(open) != 4 {
		t.Fatalf("%d open reports after one closed", len(open))
	}
	for _, o := range open {
		if o.ID == made[1].ID {
			t.Fatal("the closed report is listed as open")
		}
	}
	all, err := s.Reports(ctx, store.ReportFilter{})
	must(t, err)
	var closed store.Report
	for _, a := range all {
		if a.ID == made[1].ID {
			closed = a
		}
	}
	if len(all) != 5 || closed.ClosedBy != "mod" || !closed.Closed.Equal(time.Unix(300, 0)) {
		t.Fatalf("all reports: %+v", all)
	}
	page, err := s.Reports(ctx, store.ReportFilter{Before: all[1].ID, Limit: 2})
	must(t, err)
	if len(page) != 2 || page[0].ID != all[2].ID || page[1].ID != all[3].ID {
		t.Fatalf("the page before %d: %+v", all[1].ID, page)
	}
}
