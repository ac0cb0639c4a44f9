package online_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/internal/tcpproxy"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/tui"
)

// short is the classic rules to 1500, for whole games in a test.
func short(t *testing.T) rules.Rules {
	t.Helper()
	r, err := rules.Preset("classic")
	if err != nil {
		t.Fatal(err)
	}
	r.Game.Target = 1500
	return r
}

// choose is a simple player's action in s: the roll-off throw, a throw
// when due, the keep of the most points, bank when allowed.
func choose(s engine.State) engine.Action {
	p := s.Actor()
	switch {
	case s.Phase != engine.PhasePlay:
		return engine.RollOffBy(p)
	case s.Step == engine.StepThrow:
		return engine.ThrowBy(p)
	case s.Step == engine.StepKeep:
		best := s.Table().Keeps(s.Throw)[0]
		for _, k := range s.Table().Keeps(s.Throw) {
			if k.Points > best.Points {
				best = k
			}
		}
		return engine.KeepBy(p, best.Hand)
	}
	if ok, _ := s.CanBank(); ok {
		return engine.BankBy(p)
	}
	return engine.ThrowBy(p)
}

// newTable opens a table of the short rules with the seats at c's server
// and sits at it; the link closes with the test.
func newTable(t *testing.T, c *online.Client, seats ...tui.Seat) (string, tui.Remote) {
	t.Helper()
	return openTable(t, c, tui.NewTable{Rules: short(t), Seats: seats})
}

// openTable opens the table nt at c's server and sits at it; the link
// closes with the test.
func openTable(t *testing.T, c *online.Client, nt tui.NewTable) (string, tui.Remote) {
	t.Helper()
	ctx := context.Background()
	id, err := c.Create(ctx, nt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Open(ctx, id, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return id, r
}

func TestOnlineGameWithReconnect(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	px := tcpproxy.New(t, strings.TrimPrefix(base, "http://"))
	c := online.New("http://" + px.Addr())
	c.RecordDir = t.TempDir()
	ctx := context.Background()
	p, err := c.SignIn(ctx, "Ann", "")
	if err != nil {
		t.Fatal(err)
	}
	_, r := newTable(t, c, tui.Seat{Name: "you"}, tui.Seat{Name: "Steady", Bot: "steady"})

	// The same guest signs in again with its token.
	again := online.New(base)
	if q, err := again.SignIn(ctx, "", p.Token); err != nil || q.ID != p.ID {
		t.Fatalf("signing in with the token gave %+v, %v; want %s", q, err, p.ID)
	}

	var (
		g                game.Game
		acted            = -1
		cut, lost, reset bool
		saved            string
	)
	deadline, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for saved == "" {
		u, err := r.Next(deadline)
		if err != nil {
			t.Fatalf("the link ended: %v (cut %v, lost %v, reset %v)", err, cut, lost, reset)
		}
		if u.Refused != "" {
			t.Fatalf("the server refused an action: %s", u.Refused)
		}
		if u.Reconnecting > 0 {
			lost = true
		}
		if u.Record != "" {
			saved = u.Record
		}
		if u.Game == nil {
			continue
		}
		if u.Reset && cut {
			if !lost {
				t.Fatal("the game came back after the cut without the player being told the connection was lost")
			}
			if u.Game.Version() < g.Version() {
				t.Fatalf("after reconnecting the game is at version %d, before the cut it was at %d", u.Game.Version(), g.Version())
			}
			reset = true
			acted = -1 // an action sent into the cut may be lost: act again
		}
		g = u.Game
		s := g.(*game.FarkleGame).State()
		if s.Over() {
			continue // the record comes next
		}
		if !cut && s.Version >= 4 { // early: a short game may end after a dozen actions
			// Drop the connection in the middle of the game.
			if n := px.Drop(); n == 0 {
				t.Fatal("the proxy had no connection to cut")
			}
			cut = true
			continue
		}
		if s.Actor() != u.You || s.Version == acted {
			continue
		}
		acted = s.Version
		if err := r.Act(s.Version, choose(s)); err != nil && !cut {
			t.Fatal(err)
		}
	}
	if !reset {
		t.Fatal("the game never came back after the connection was cut")
	}
	// The record saved at the end is the game played: it verifies, and it
	// ends as the mirror here did.
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	final, _, err := game.Verify(rec)
	if err != nil {
		t.Fatalf("the saved record does not verify: %v", err)
	}
	if final.Version() != g.Version() || !slices.Equal(final.Scores(), g.Scores()) || !slices.Equal(final.Winners(), g.Winners()) {
		t.Fatalf("the record ends at version %d with scores %v, winners %v; the terminal's game at %d with %v, %v",
			final.Version(), final.Scores(), final.Winners(), g.Version(), g.Scores(), g.Winners())
	}
}

func TestParseLink(t *testing.T) {
	for _, tc := range []struct{ in, base, table string }{
		{"http://localhost:8080", "http://localhost:8080", ""},
		{"http://localhost:8080/", "http://localhost:8080", ""},
		{"https://farkle.example.org/t/AbC-_9", "https://farkle.example.org", "AbC-_9"},
		{"http://h:1/farkle/t/x1", "http://h:1/farkle", "x1"},
	} {
		base, table, err := online.ParseLink(tc.in)
		if err != nil || base != tc.base || table != tc.table {
			t.Errorf("ParseLink(%q) = %q, %q, %v; want %q, %q", tc.in, base, table, err, tc.base, tc.table)
		}
	}
	for _, bad := range []string{"", "localhost:8080", "ftp://h/t/x", "http:///t/x"} {
		if _, _, err := online.ParseLink(bad); err == nil {
			t.Errorf("ParseLink(%q) took it", bad)
		}
	}
}

func TestRefusedActionSaysWhy(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	c := online.New(base)
	ctx := context.Background()
	if _, err := c.SignIn(ctx, "Ann", ""); err != nil {
		t.Fatal(err)
	}
	// Ann and a free seat: the game waits, then starts when Bea sits.
	id, r := newTable(t, c, tui.Seat{Name: "you"}, tui.Seat{Name: "friend"})
	deadline, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	u, err := r.Next(deadline)
	if err != nil || u.Game != nil || u.You != 0 {
		t.Fatalf("before the friend sits: %+v, %v; want a welcome without a game, at seat 0", u, err)
	}
	bea := online.New(base)
	if _, err := bea.SignIn(ctx, "Bea", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := bea.Open(ctx, id, false); err != nil {
		t.Fatal(err)
	}
	defer bea.Close()
	for u.Game == nil {
		if u, err = r.Next(deadline); err != nil {
			t.Fatal(err)
		}
	}
	if u.Clock.Seconds == 0 {
		t.Fatalf("a table of people has no clock: %+v", u.Clock)
	}
	// An action at a version that is not the game's is refused, with the
	// server's reason, and the table's clock stays.
	v := u.Game.Version()
	if u.Game.ToAct() != u.You {
		t.Fatalf("the roll-off starts with seat %d, not Ann's", u.Game.ToAct())
	}
	if err := r.Act(v+5, engine.RollOffBy(u.You)); err != nil {
		t.Fatal(err)
	}
	for u.Refused == "" {
		if u, err = r.Next(deadline); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(u.Refused, "version") || u.RefusedCode != "stale" {
		t.Errorf("the refusal says %q, code %q; want the reason (the version), code stale", u.Refused, u.RefusedCode)
	}
	if u.Clock.Seconds == 0 {
		t.Error("the clock went away with the refusal")
	}
}

// TestOnlineDragonGame sits at a Dragon Farkle table against the smart
// bot and plays it to the end through the link alone, with the smart
// bot's choices made here from the game the link rebuilds (the seat's
// view): every action is accepted, the log's events come with the
// updates, and the record saved at the end verifies and ends as the
// terminal's game.
// dragonAgainstSmart signs c in as Ann and sits her at a new table of
// Dragon Farkle against the smart bot: the table, its link, and a smart
// bot to choose Ann's actions here.
func dragonAgainstSmart(t *testing.T, c *online.Client) (string, tui.Remote, game.Bot) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.SignIn(ctx, "Ann", ""); err != nil {
		t.Fatal(err)
	}
	id, err := c.Create(ctx, tui.NewTable{Preset: "dragon", Seats: []tui.Seat{{Name: "you"}, {Name: "Smart", Bot: "smart"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Open(ctx, id, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	v, _ := game.Preset("dragon")
	bot, err := game.DefaultCast().Bot(v, "smart")
	if err != nil {
		t.Fatal(err)
	}
	return id, r, bot
}

func TestOnlineDragonGame(t *testing.T) {
	// The bots' pace keeps Ann under the server's message rate of a connection.
	base := servertest.Start(t, server.Options{BotDelay: 100 * time.Millisecond, MaxTurns: 6}).URL
	px := tcpproxy.New(t, strings.TrimPrefix(base, "http://"))
	c := online.New("http://" + px.Addr())
	c.RecordDir = t.TempDir()
	ctx := context.Background()
	_, r, bot := dragonAgainstSmart(t, c)
	src := dice.NewSource(dice.SeedFrom("ann's choices"))
	var g game.Game
	acted, events, saved := -1, 0, ""
	cut, back := false, false
	deadline, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for saved == "" {
		u, err := r.Next(deadline)
		if err != nil {
			t.Fatalf("the link ended: %v", err)
		}
		if u.Refused != "" {
			t.Fatalf("the server refused an action: %s", u.Refused)
		}
		saved = u.Record
		if u.Game == nil {
			continue
		}
		if u.Game.Variant().Kind() != game.Dragon {
			t.Fatalf("the game is %s", u.Game.Variant().Kind())
		}
		if u.Reset && cut {
			if u.Game.Version() < g.Version() {
				t.Fatalf("after reconnecting the game is at version %d, before the cut at %d", u.Game.Version(), g.Version())
			}
			back, acted = true, -1 // an action sent into the cut may be lost: act again
		}
		g = u.Game
		events += len(u.Events)
		if !cut && g.Version() >= 4 && !g.Over() {
			// Drop the connection in the middle of the game: the link
			// comes back with the seat's view.
			if n := px.Drop(); n == 0 {
				t.Fatal("the proxy had no connection to cut")
			}
			cut = true
			continue
		}
		if g.Over() || g.ToAct() != u.You || g.Version() == acted {
			continue
		}
		a, err := bot.Choose(g, u.You, src)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Check(u.You, a); err != nil {
			t.Fatalf("the rebuilt game refuses the bot's own choice %v: %v", a, err)
		}
		acted = g.Version()
		if err := r.Act(g.Version(), a); err != nil && !cut {
			t.Fatal(err)
		}
	}
	if !back {
		t.Fatal("the game never came back after the connection was cut")
	}
	if events == 0 || acted < 0 {
		t.Fatalf("%d events, last action at %d: the game was not played here", events, acted)
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	final, _, err := game.Verify(rec)
	if err != nil {
		t.Fatalf("the saved record does not verify: %v", err)
	}
	if final.Version() != g.Version() || !slices.Equal(final.Scores(), g.Scores()) || !slices.Equal(final.Winners(), g.Winners()) {
		t.Fatalf("the record ends at version %d with %v, winners %v; the terminal's game at %d with %v, %v",
			final.Version(), final.Scores(), final.Winners(), g.Version(), g.Scores(), g.Winners())
	}
}

// TestTableEndSaidByCode: a table that expires (nobody joined in time)
// reaches the terminal as its code, "expired", with the server's reason
// beside it, so that the terminal says it in its own language; a refusal
// carries its code too.
func TestTableEndSaidByCode(t *testing.T) {
	base := servertest.Start(t, server.Options{WaitingExpiry: 300 * time.Millisecond}).URL
	c := online.New(base)
	ctx := context.Background()
	if _, err := c.SignIn(ctx, "Ann", ""); err != nil {
		t.Fatal(err)
	}
	_, r := newTable(t, c, tui.Seat{Name: "you"}, tui.Seat{Name: "friend"})
	deadline, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var u tui.RemoteUpdate
	for u.Ended == "" {
		var err error
		if u, err = r.Next(deadline); err != nil {
			t.Fatalf("no end came: %v", err)
		}
	}
	if u.Ended != "expired" || !strings.Contains(u.EndReason, "nobody joined") || u.Status != "" {
		t.Fatalf("the end came as %q (%q), status %q", u.Ended, u.EndReason, u.Status)
	}
}

// TestDragonJoinedMidwayHasItsLog: a watcher who comes to a Dragon
// Farkle table in the middle of the game gets the log so far. While the
// server still holds the game's events from its start, they come as events
// (the terminal writes the lines in its own words, "you" for its player);
// once the start is forgotten (a short history tail), as the server's
// lines in the language the client asks for, one line a line, as many as
// the server has.
func TestDragonJoinedMidwayHasItsLog(t *testing.T) {
	for _, tail := range []int{0, 2} { // 0: the server's default, longer than this game
		base := servertest.Start(t, server.Options{BotDelay: time.Millisecond, HistoryTail: tail}).URL
		c := online.New(base)
		ctx := context.Background()
		id, r, bot := dragonAgainstSmart(t, c)
		src := dice.NewSource(dice.SeedFrom("ann's choices"))
		deadline, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		acted := -1
		var g game.Game
		for g == nil || g.Version() < 8 {
			u, err := r.Next(deadline)
			if err != nil {
				t.Fatal(err)
			}
			if u.Game == nil {
				continue
			}
			if g = u.Game; g.Over() {
				t.Fatal("the game ended before the watcher came")
			}
			if g.ToAct() != u.You || g.Version() == acted {
				continue
			}
			a, err := bot.Choose(g, u.You, src)
			if err != nil {
				t.Fatal(err)
			}
			acted = g.Version()
			if err := r.Act(g.Version(), a); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			lang  string
			words []string // one of them is on a line of the last actions, in the language
		}{{"nb", []string{"kastet", "soldater", "runde", " tur"}}, {"en", []string{"threw", "soldiers", "round", " turn"}}} {
			w := online.New(base)
			w.Lang = tc.lang
			if _, err := w.SignIn(ctx, "Bea", ""); err != nil {
				t.Fatal(err)
			}
			wr, err := w.Open(ctx, id, true)
			if err != nil {
				t.Fatal(err)
			}
			u, err := wr.Next(deadline)
			for err == nil && u.Game == nil {
				u, err = wr.Next(deadline)
			}
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !u.Reset {
				t.Fatalf("tail %d, %s: the first update is not the whole game", tail, tc.lang)
			}
			if tail == 0 {
				// The events from the start: round 1's first turn is there,
				// and the throws, as a watcher may see them.
				kinds, first := map[dragon.EventKind]int{}, false
				for _, e := range u.Events {
					de := e.(dragon.Event)
					kinds[de.Kind]++
					first = first || de.Kind == dragon.EvTurn && de.Round == 1
				}
				if len(u.Earlier) != 0 || !first || kinds[dragon.EvThrow] < 2 {
					t.Fatalf("%s: at version %d the watcher got %d earlier lines and %d events (%v)", tc.lang, u.Game.Version(), len(u.Earlier), len(u.Events), kinds)
				}
				continue
			}
			said := 0 // lines with a word of the language
			for _, l := range u.Earlier {
				if strings.TrimSpace(l) == "" || strings.ContainsAny(l, "\n\x1b") {
					t.Errorf("%s: a log line %q", tc.lang, l)
				}
				for _, w := range tc.words {
					if strings.Contains(l, w) {
						said++
						break
					}
				}
			}
			if len(u.Events) != 0 || said < 1 || len(u.Earlier) < tail { // the last tail to 2*tail actions: a line each at least
				t.Fatalf("%s: at version %d the watcher got %d earlier lines, %d with a word of %v, and %d events:\n%s",
					tc.lang, u.Game.Version(), len(u.Earlier), said, tc.words, len(u.Events), strings.Join(u.Earlier, "\n"))
			}
		}
	}
}
