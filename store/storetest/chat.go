package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

func testChat(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreateTable(ctx, newTable(t, "c1", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bea", PlayerID: "p2"})))
	must(t, s.CreateTable(ctx, newTable(t, "c2", store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bea", PlayerID: "p2"})))
	if got, err := s.Chat(ctx, "c1", 10); err != nil || len(got) != 0 {
		t.Fatalf("chat of a new table: %v %v", got, err)
	}
	for i := range 5 {
		l, err := s.AddChat(ctx, store.ChatLine{TableID: "c1", PlayerID: "p1", Name: "Ann", Text: fmt.Sprintf("<b>line %d</b>", i), At: time.Unix(int64(i), 0)}, 5)
		must(t, err)
		if l.N != i+1 {
			t.Fatalf("line %d numbered %d", i, l.N)
		}
	}
	_, err := s.AddChat(ctx, store.ChatLine{TableID: "c1", PlayerID: "p2", Name: "Bea", Text: "one too many"}, 5)
	wantCode(t, err, store.ECONFLICT, "a full chat")
	_, err = s.AddChat(ctx, store.ChatLine{TableID: "nope", PlayerID: "p2", Name: "Bea", Text: "hi"}, 5)
	wantCode(t, err, store.ENOTFOUND, "the chat of no table")
	_, err = s.AddChat(ctx, store.ChatLine{TableID: "c1", PlayerID: "p2", Name: "Bea"}, 0)
	wantCode(t, err, store.EINVALID, "an empty line")
	l, err := s.AddChat(ctx, store.ChatLine{TableID: "c2", PlayerID: "p2", Name: "Bea", Text: "gg"}, 5)
	must(t, err)
	if l.N != 1 {
		t.Fatalf("the first line of another table is numbered %d", l.N)
	}
	got, err := s.Chat(ctx, "c1", 3)
	must(t, err)
	if len(got) != 3 || got[0].N != 3 || got[2].N != 5 || got[2].Text != "<b>line 4</b>" || got[2].Name != "Ann" || got[2].PlayerID != "p1" || !got[2].At.Equal(time.Unix(4, 0)) {
		t.Fatalf("the last three lines of c1: %+v", got)
	}
}
