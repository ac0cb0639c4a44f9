package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// idList returns the IDs of tables, in their order.
func idList(tables []store.Table) []string {
	out := []string{}
	for _, t := range tables {
		out = append(out, t.ID)
	}
	return out
}

func wantIDs(t *testing.T, what string, got []store.Table, err error, want ...string) {
	t.Helper()
	must(t, err)
	if want == nil {
		want = []string{}
	}
	if g := idList(got); !reflect.DeepEqual(g, want) {
		t.Fatalf("%s: %v, want %v", what, g, want)
	}
}

func wantCount(t *testing.T, s store.Store, f store.InvitationFilter, want int) {
	t.Helper()
	n, err := s.CountInvitations(context.Background(), f)
	must(t, err)
	if n != want {
		t.Fatalf("invitations %+v: %d, want %d", f, n, want)
	}
}

// testInvitations: a free seat kept for a player is an invitation from the
// table's creator, listed and counted while it is open; taking it, the
// table ending or declining it closes it; declining frees the seat for
// anyone; a block hides the blocked player's invitations from the blocker
// (and from its count) and nothing else.
func testInvitations(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, p := range []string{"p1", "p2", "p3", "p4"} {
		must(t, s.CreatePlayer(ctx, store.Player{ID: p, Name: "Name " + p, TokenHash: "h" + p}))
	}
	clock := 90 * time.Second
	table := func(id, creator string, created int64, status store.Status, seats ...store.Seat) {
		t.Helper()
		tb := newTable(t, id, seats...)
		tb.Creator, tb.Created, tb.Status = creator, time.Unix(created, 0), status
		must(t, s.CreateTable(ctx, tb))
	}
	table("t1", "p1", 10, store.Waiting, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bea", Invited: "p2", Clock: clock})
	table("t2", "p1", 20, store.Playing, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Cy", PlayerID: "p3"})
	table("t3", "p3", 30, store.Waiting, store.Seat{Name: "Cy", PlayerID: "p3"}, store.Seat{Name: "bea", Invited: "p2", Clock: clock}, store.Seat{Name: "Bot", Bot: "steady"})
	table("t4", "p1", 40, store.Waiting, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Ghost", Invited: "?ghost"})
	table("t5", "p4", 50, store.Over, store.Seat{Name: "Di", PlayerID: "p4"}, store.Seat{Name: "Bea", Invited: "p2"})

	got, err := s.Invitations(ctx, "p2", 10)
	wantIDs(t, "p2's invitations", got, err, "t3", "t1")
	if got[0].Seats[1].Invited != "p2" || got[0].Creator != "p3" {
		t.Fatalf("an invitation as read: %+v", got[0])
	}
	got, err = s.Invitations(ctx, "p2", 1)
	wantIDs(t, "p2's first invitation", got, err, "t3")
	wantCount(t, s, store.InvitationFilter{Inviter: "p1"}, 2)
	wantCount(t, s, store.InvitationFilter{Inviter: "p3"}, 1)
	wantCount(t, s, store.InvitationFilter{Invitee: "p2"}, 2)
	wantCount(t, s, store.InvitationFilter{Invitee: "?ghost"}, 1)
	wantCount(t, s, store.InvitationFilter{Invitee: "p4"}, 0)
	_, err = s.CountInvitations(ctx, store.InvitationFilter{})
	wantCode(t, err, store.EINVALID, "a count of nobody's invitations")
	_, err = s.CountInvitations(ctx, store.InvitationFilter{Inviter: "p1", Invitee: "p2"})
	wantCode(t, err, store.EINVALID, "a count of both")
	open := []store.Status{store.Waiting, store.Playing}
	got, err = s.Tables(ctx, store.TableFilter{PlayerID: "p1", Status: open})
	wantIDs(t, "p1's open tables", got, err, "t4", "t2", "t1")
	got, err = s.Tables(ctx, store.TableFilter{PlayerID: "p2", Status: open})
	wantIDs(t, "p2's open tables (invitations are not seats)", got, err)
	if n, err := s.CountTables(ctx, store.TableFilter{PlayerID: "p3", Status: open}); err != nil || n != 2 {
		t.Fatalf("p3's open tables counted: %d %v", n, err)
	}

	// Bea takes t1's seat: no longer an invitation, now her table.
	must(t, s.ClaimSeat(ctx, "t1", 1, "p2", "Bea", store.Playing))
	got, err = s.Invitations(ctx, "p2", 10)
	wantIDs(t, "p2's invitations after taking one", got, err, "t3")
	wantCount(t, s, store.InvitationFilter{Inviter: "p1"}, 1)
	got, err = s.Tables(ctx, store.TableFilter{PlayerID: "p2", Status: open})
	wantIDs(t, "p2's open tables after taking a seat", got, err, "t1")

	// Blocks hide the blocked player's invitations from the blocker only.
	must(t, s.Block(ctx, store.Block{Blocker: "p2", Blocked: "p3", Created: time.Unix(100, 0)}, 2))
	must(t, s.Block(ctx, store.Block{Blocker: "p2", Blocked: "p3"}, 2)) // again: no change
	got, err = s.Invitations(ctx, "p2", 10)
	wantIDs(t, "p2's invitations after blocking p3", got, err)
	wantCount(t, s, store.InvitationFilter{Invitee: "p2"}, 0)
	wantCount(t, s, store.InvitationFilter{Inviter: "p3"}, 1) // the inviter's count is as it was
	tb, err := s.Table(ctx, "t3")
	must(t, err)
	if tb.Seats[1].Invited != "p2" {
		t.Fatalf("a block changed the inviter's table: %+v", tb.Seats)
	}
	wantCode(t, s.Block(ctx, store.Block{Blocker: "p2", Blocked: "p2"}, 0), store.EINVALID, "blocking oneself")
	wantCode(t, s.Block(ctx, store.Block{Blocker: "p2", Blocked: "nobody"}, 0), store.ENOTFOUND, "blocking no player")
	wantCode(t, s.Block(ctx, store.Block{Blocker: "nobody", Blocked: "p1"}, 0), store.ENOTFOUND, "a block by no player")
	must(t, s.Block(ctx, store.Block{Blocker: "p2", Blocked: "p4", Created: time.Unix(200, 0)}, 2))
	wantCode(t, s.Block(ctx, store.Block{Blocker: "p2", Blocked: "p1"}, 2), store.ECONFLICT, "a block past the cap")
	blocks, err := s.Blocks(ctx, "p2", 10)
	must(t, err)
	if len(blocks) != 2 || blocks[0].Blocked != "p4" || blocks[0].Name != "Name p4" || blocks[1].Blocked != "p3" || !blocks[1].Created.Equal(time.Unix(100, 0)) || blocks[1].Blocker != "p2" {
		t.Fatalf("p2's blocks: %+v", blocks)
	}
	if blocks, err := s.Blocks(ctx, "p3", 10); err != nil || len(blocks) != 0 {
		t.Fatalf("p3's blocks: %+v %v", blocks, err)
	}
	must(t, s.Unblock(ctx, "p2", "p3"))
	must(t, s.Unblock(ctx, "p2", "p3")) // again: no error
	got, err = s.Invitations(ctx, "p2", 10)
	wantIDs(t, "p2's invitations after unblocking p3", got, err, "t3")

	// Declining frees the seat for anyone, once.
	freed, err := s.DeclineInvitation(ctx, "t3", "p2")
	must(t, err)
	if !reflect.DeepEqual(freed, []int{1}) {
		t.Fatalf("seats freed: %v", freed)
	}
	tb, err = s.Table(ctx, "t3")
	must(t, err)
	if want := (store.Seat{Clock: clock}); tb.Seats[1] != want || tb.Status != store.Waiting || tb.Seats[0].PlayerID != "p3" || tb.Seats[2].Bot != "steady" {
		t.Fatalf("t3 after the decline: %+v", tb)
	}
	got, err = s.Invitations(ctx, "p2", 10)
	wantIDs(t, "p2's invitations after declining", got, err)
	wantCount(t, s, store.InvitationFilter{Inviter: "p3"}, 0)
	_, err = s.DeclineInvitation(ctx, "t3", "p2")
	wantCode(t, err, store.ENOTFOUND, "declining twice")
	_, err = s.DeclineInvitation(ctx, "t1", "p2")
	wantCode(t, err, store.ENOTFOUND, "declining a seat taken")
	_, err = s.DeclineInvitation(ctx, "nope", "p2")
	wantCode(t, err, store.ENOTFOUND, "declining at no table")
	_, err = s.DeclineInvitation(ctx, "t5", "p2")
	wantCode(t, err, store.ECONFLICT, "declining at a table over")
	must(t, s.ClaimSeat(ctx, "t3", 1, "p4", "Di", ""))

	// Tables that end close their invitations and leave their players'
	// open tables.
	must(t, s.FailTable(ctx, "t2", "test"))
	if _, err := s.ExpireWaiting(ctx, time.Now().Add(time.Hour), "test"); err != nil {
		t.Fatal(err)
	}
	wantCount(t, s, store.InvitationFilter{Inviter: "p1"}, 0)
	wantCount(t, s, store.InvitationFilter{Invitee: "?ghost"}, 0)
	got, err = s.Tables(ctx, store.TableFilter{PlayerID: "p1", Status: open})
	wantIDs(t, "p1's open tables after the ends", got, err, "t1")
}

// testOpenSeatsIndex: after any sequence of table creations, seats taken,
// invitations declined, actions and ends, the index answers every
// player's open tables, invitations and counts exactly as a look at every
// table does.
func testOpenSeatsIndex(t *testing.T, s store.Store) {
	ctx := context.Background()
	players := []string{"a", "b", "c", "d"}
	for _, p := range players {
		must(t, s.CreatePlayer(ctx, store.Player{ID: p, Name: p, TokenHash: "h" + p}))
	}
	must(t, s.Block(ctx, store.Block{Blocker: "b", Blocked: "c"}, 0))
	blocks := map[[2]string]bool{{"b", "c"}: true}
	rng := rand.New(rand.NewPCG(23, 7))
	v := farkle(t)
	open := []store.Status{store.Waiting, store.Playing}
	var all []string
	done := map[string]int{} // the writes that took effect, by kind
	for step := range 200 {
		switch op := rng.IntN(9); {
		case op <= 2 || len(all) == 0: // a new table: the creator, and people, invitations, bots or free seats
			id := fmt.Sprintf("x%03d", step)
			creator := players[rng.IntN(len(players))]
			seats := []store.Seat{{Name: creator, PlayerID: creator}}
			for range 1 + rng.IntN(3) {
				p := players[rng.IntN(len(players))]
				switch rng.IntN(4) {
				case 0:
					seats = append(seats, store.Seat{Name: p, PlayerID: p})
				case 1:
					seats = append(seats, store.Seat{Name: p, Invited: p})
				case 2:
					seats = append(seats, store.Seat{Name: "Bot", Bot: "steady"})
				default:
					seats = append(seats, store.Seat{})
				}
			}
			tb := tableOf(v, id, seats...)
			tb.Creator, tb.Created = creator, time.Unix(int64(step), 0)
			must(t, s.CreateTable(ctx, tb))
			all = append(all, id)
		case op <= 6: // someone takes a free seat, or declines the seat kept for them
			id := all[rng.IntN(len(all))]
			tb, err := s.Table(ctx, id)
			must(t, err)
			seat, p := rng.IntN(len(tb.Seats)), players[rng.IntN(len(players))]
			if op == 6 && tb.Seats[seat].Invited != "" {
				p = tb.Seats[seat].Invited
			}
			if op >= 5 {
				switch _, err := s.DeclineInvitation(ctx, id, p); {
				case err == nil:
					done["decline"]++
				case store.Code(err) == "":
					t.Fatal(err)
				}
				break
			}
			status := store.Status("")
			if rng.IntN(2) == 0 {
				status = store.Playing
			}
			switch err := s.ClaimSeat(ctx, id, seat, p, p, status); {
			case err == nil:
				done["claim"]++
			case store.Code(err) != store.ECONFLICT:
				t.Fatal(err)
			}
		case op == 7: // an action is stored: the status is written, unchanged or playing
			id := all[rng.IntN(len(all))]
			tb, err := s.Table(ctx, id)
			must(t, err)
			if !tb.Status.Ended() {
				e := playOf(t, v, id).Record().Actions[0]
				must(t, s.AppendAction(ctx, id, tb.Actions+1, e, nil))
				done["action"]++
			}
		default: // a table ends
			switch err := s.FailTable(ctx, all[rng.IntN(len(all))], "test"); {
			case err == nil:
				done["end"]++
			case store.Code(err) != store.ECONFLICT:
				t.Fatal(err)
			}
		}
	}
	for _, k := range []string{"claim", "decline", "action", "end"} {
		if done[k] < 3 {
			t.Fatalf("the sequence did only %v: too little to prove anything", done)
		}
	}
	every, err := s.Tables(ctx, store.TableFilter{Limit: 1000})
	must(t, err)
	for _, p := range append(players, "nobody") {
		var seated, invited []string
		sent, kept := 0, 0
		for _, tb := range every {
			if tb.Status.Ended() {
				continue
			}
			in, inv := false, false
			for _, st := range tb.Seats {
				in = in || st.PlayerID == p
				free := st.PlayerID == "" && st.Bot == ""
				if free && st.Invited == p && !blocks[[2]string{p, tb.Creator}] {
					inv = true
					kept++
				}
				if free && st.Invited != "" && tb.Creator == p {
					sent++
				}
			}
			if in {
				seated = append(seated, tb.ID)
			}
			if inv && tb.Status == store.Waiting {
				invited = append(invited, tb.ID)
			}
		}
		got, err := s.Tables(ctx, store.TableFilter{PlayerID: p, Status: open, Limit: 1000})
		must(t, err)
		if g := idList(got); !sameSet(g, seated) {
			t.Errorf("%s's open tables from the index: %v, from every table: %v", p, g, seated)
		}
		if n, err := s.CountTables(ctx, store.TableFilter{PlayerID: p, Status: open}); err != nil || n != len(seated) {
			t.Errorf("%s's open tables counted: %d %v, want %d", p, n, err, len(seated))
		}
		got, err = s.Invitations(ctx, p, 1000)
		must(t, err)
		if g := idList(got); !sameSet(g, invited) {
			t.Errorf("%s's invitations from the index: %v, from every table: %v", p, g, invited)
		}
		wantCount(t, s, store.InvitationFilter{Invitee: p}, kept)
		wantCount(t, s, store.InvitationFilter{Inviter: p}, sent)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
