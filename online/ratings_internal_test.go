package online

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/farkle/farkle/server/wsclient"
)

// TestRatingsBounded: a hostile table's ratings reach the terminal
// bounded: at most one a seat, no bot's, none out of ±maxRating; the
// player's own is the one of its seat's player.
func TestRatingsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"seats":[{"name":"Ann","player_id":"p1"},{"name":"Bob","player_id":"p2"}],"ratings":[`)
	b.WriteString(`{"player":"b","name":"Steady","before":1500,"after":1400,"bot":true},`)
	b.WriteString(`{"player":"x","name":"Huge","before":1e300,"after":1500},`)
	b.WriteString(`{"player":"y","name":"Low","before":1500,"after":-1e6},`)
	for i := range 10000 {
		fmt.Fprintf(&b, `{"player":"p%d","name":"P%d","before":1500,"after":%d},`, i%3+1, i, 1500+i)
	}
	b.WriteString(`{"player":"p9","name":"last","before":1,"after":2}]}`)
	var tb wireTable
	if err := json.Unmarshal([]byte(b.String()), &tb); err != nil {
		t.Fatal(err)
	}
	got := ratings(tb, 1)
	if len(got) != len(tb.Seats) {
		t.Fatalf("%d ratings kept of a table of %d seats", len(got), len(tb.Seats))
	}
	for i, c := range got {
		if c.Name != fmt.Sprintf("P%d", i) || c.Before != 1500 || c.After != float64(1500+i) {
			t.Errorf("rating %d: %+v", i, c)
		}
		if c.You != (i == 1) { // P1 is player p2, seat 1's
			t.Errorf("rating %d: You %v", i, c.You)
		}
	}
	if got := ratings(wireTable{Seats: []wsclient.Seat{{PlayerID: ""}}, Ratings: []wireChange{{Player: "", Before: 1, After: 2}}}, 0); len(got) != 1 || got[0].You {
		t.Errorf("a change of no player is the player's: %+v", got)
	}
	if got := ratings(tb, 7); len(got) != 2 || got[0].You || got[1].You {
		t.Errorf("a seat out of range: %+v", got)
	}
}
