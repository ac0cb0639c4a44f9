package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

type gameLineJSON struct {
	ID       string
	Status   string
	Pace     string
	Seat     int
	YourMove bool   `json:"your_move"`
	ToAct    string `json:"to_act"`
	Deadline *time.Time
	Last     string
}

func myGames(t *testing.T, ctx context.Context, c *wsclient.Client) []gameLineJSON {
	t.Helper()
	var out []gameLineJSON
	if err := c.Do(ctx, "GET", "/api/me/games", nil, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// rollOff plays the first roll-off of a table where host and guest sit,
// until the first player's turn starts.
func rollOff(t *testing.T, ctx context.Context, host, guest *player) {
	t.Helper()
	for host.Last.Phase == "first-roll-off" {
		actor := host
		if host.Last.Actor != host.Seat {
			actor = guest
		}
		if err := playTurn(actor, ctx); err != nil {
			t.Fatal(err)
		}
		for _, p := range []*player{host, guest} {
			for p.Last.Version != actor.Last.Version {
				if _, err := p.Read(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestOwnPaceGames: a game at a pace of a day shows on both players' home
// lists, "your move" for the seat to act with a deadline a day away; once
// that seat has played its turn the other's line says what it did and
// the scores; a player's games waiting on it come first.
func TestOwnPaceGames(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	defer ann.Close()
	defer bea.Close()
	id := paceTable(t, ctx, ann, bea, "1d")
	rollOff(t, ctx, ann, bea)
	mover, other := ann, bea
	if ann.Last.Actor != ann.Seat {
		mover, other = bea, ann
	}
	lines := myGames(t, ctx, mover.Client)
	if len(lines) != 1 || lines[0].ID != id || lines[0].Pace != "1d" || !lines[0].YourMove || lines[0].Deadline == nil {
		t.Fatalf("the mover's games: %+v", lines)
	}
	if left := time.Until(*lines[0].Deadline); left < 23*time.Hour || left > 24*time.Hour {
		t.Fatalf("the deadline is %v away, want a day", left)
	}
	if ol := myGames(t, ctx, other.Client); len(ol) != 1 || ol[0].YourMove || ol[0].Last != "" || ol[0].ToAct != mover.Last.Players[mover.Seat].Name {
		t.Fatalf("the other's games before any turn: %+v", ol)
	}
	if err := playTurn(mover, ctx); err != nil {
		t.Fatal(err)
	}
	// The other player sees the turn once its update comes.
	for other.Last.Version != mover.Last.Version {
		if _, err := other.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	st := other.Last
	name := st.Players[mover.Seat].Name
	score := func(i int) string { return thousandsOf(st.Players[i].Score) }
	ol := myGames(t, ctx, other.Client)
	want := fmt.Sprintf(" — %s to %s", score(mover.Seat), score(other.Seat))
	if len(ol) != 1 || !ol[0].YourMove || !strings.HasPrefix(ol[0].Last, name+" ") || !strings.HasSuffix(ol[0].Last, want) {
		t.Fatalf("the other's line after the turn: %+v, want %q… ending %q", ol, name, want)
	}
	if st.Players[mover.Seat].Score > 0 && !strings.Contains(ol[0].Last, "banked "+score(mover.Seat)) {
		t.Fatalf("the summary %q does not say %s banked %s", ol[0].Last, name, score(mover.Seat))
	}

	// A second game: a player's games waiting on it come first, then the
	// soonest deadline.
	id2 := paceTable(t, ctx, mover, other, "3d")
	rollOff(t, ctx, mover, other)
	ml, ol := myGames(t, ctx, mover.Client), myGames(t, ctx, other.Client)
	if len(ml) != 2 || len(ol) != 2 {
		t.Fatalf("two games each: %+v and %+v", ml, ol)
	}
	if mover.Last.Actor == mover.Seat {
		if ml[0].ID != id2 || !ml[0].YourMove || ml[1].YourMove {
			t.Fatalf("the mover's games, the second waiting on it: %+v", ml)
		}
	} else if ml[0].YourMove || ml[1].YourMove || !ol[0].YourMove || !ol[1].YourMove || ol[0].ID != id || ol[1].ID != id2 {
		t.Fatalf("both games wait on the other, the day's before the three days': %+v and %+v", ml, ol)
	}
}

// thousandsOf writes n as the server does: 4,350.
func thousandsOf(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestOwnPaceClockRunsOut: at your own pace a clock that runs out acts as
// the live turn clock: nobody acts, the server plays the seats' turns and
// then resigns the seat whose clock ran out three times in a row, so the
// game ends: a loss on time, said so. (An hour of the pace clocks is 50 ms
// here.)
func TestOwnPaceClockRunsOut(t *testing.T) {
	ts := start(t, "", server.Options{PaceHour: 50 * time.Millisecond, ClockForfeits: 3})
	ctx := ctxT(t, time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	defer ann.Close()
	defer bea.Close()
	paceTable(t, ctx, ann, bea, "1h")
	resigned := false
	for ann.Last.Phase != "over" {
		m, err := ann.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resigned = resigned || strings.Contains(string(m.Raw), " loses on time")
	}
	if len(ann.Last.Winners) != 1 || !resigned {
		t.Fatalf("winners %v, a loss on time %v: want one seat resigned by its clock (on time) and the other the winner", ann.Last.Winners, resigned)
	}
	if lines := myGames(t, ctx, ann.Client); len(lines) != 0 {
		t.Fatalf("a finished game is still listed: %+v", lines)
	}
}

// TestOwnPaceClockSurvivesRestart: the clock of a game at your own pace
// runs from the table's last change, so a server that comes back five
// hours later gives the seat the nineteen hours it has left, not a fresh
// day.
func TestOwnPaceClockSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	ts := start(t, path, server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	paceTable(t, ctx, ann, bea, "1d")
	ann.Close()
	bea.Close()
	ts.Stop()
	later := func() time.Time { return time.Now().Add(5 * time.Hour) }
	ts2 := start(t, path, server.Options{Now: later})
	lines := myGames(t, ctx, clientWithToken(t, ts2.URL, ann.Token))
	if len(lines) != 1 || lines[0].Deadline == nil {
		t.Fatalf("after the restart: %+v", lines)
	}
	if left := time.Until(*lines[0].Deadline); left < 18*time.Hour+50*time.Minute || left > 19*time.Hour {
		t.Fatalf("after five hours away the seat has %v left, want 19h", left)
	}
}

func TestPaceIsValidated(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	for _, body := range []map[string]any{
		{"pace": "2d", "seats": []map[string]string{{"type": "me"}, {"type": "human"}}},
		{"pace": "1d", "clock": 30, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}},
	} {
		err := c.Do(ctx, "POST", "/api/tables", body, nil)
		var se *wsclient.StatusError
		if !errors.As(err, &se) || se.Status != http.StatusBadRequest {
			t.Errorf("%v: %v, want 400", body, err)
		}
	}
}
