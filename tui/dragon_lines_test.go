package tui

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// dragonPolicy is a plain person's play, written as line-mode commands
// from the person's view: attack with enough soldiers, else recruit; keep
// the most soldiers (in battle the cheapest keep), double on a Rally,
// stop at 1000 or with two dice or fewer; discard the first item; hire a
// Companion when holding none and keep the hired one; in a brawl use the
// first usable card, then pass.
func dragonPolicy(g *dragon.Game, v dragon.View) string {
	switch v.Phase {
	case dragon.PhaseChoose:
		if hasKind(v.Legal, dragon.ActBattle) {
			return "battle"
		}
		if hasKind(v.Legal, dragon.ActHire) && (v.Players[v.Seat].Companion == nil || v.Round%4 == 0) {
			return "hire"
		}
		return "recruit"
	case dragon.PhaseHire:
		return "dismiss " + v.Players[v.Seat].Companion.ID
	case dragon.PhaseBrawl:
		for _, a := range v.Legal {
			if a.Kind == dragon.ActUse {
				return dragonCommand(a, nil)
			}
		}
		return "pass"
	case dragon.PhaseKeep:
		best, bestPts := dice.Hand(0), -1
		for _, a := range v.Legal {
			if a.Kind != dragon.ActKeep {
				continue
			}
			pts, _ := g.Table().Points(a.Keep)
			if v.Mode == dragon.Battling {
				pts = -pts
			}
			if bestPts == -1 || pts > bestPts || v.Mode == dragon.Battling && bestPts < 0 && pts > bestPts {
				best, bestPts = a.Keep, pts
			}
		}
		if best == 0 {
			return "accept"
		}
		if v.Mode == dragon.Recruiting && v.Event == dragon.Rally {
			return "keep " + best.String() + " double"
		}
		return "keep " + best.String()
	case dragon.PhaseEvaded:
		return "roll"
	case dragon.PhaseRoll:
		if v.Mode == dragon.Recruiting && (v.Pool >= 1000 || v.Dice <= 2) {
			return "stop"
		}
		return "roll"
	case dragon.PhaseDiscard:
		return "discard " + v.Players[v.Seat].Items[0].ID
	}
	return "quit"
}

// playDragonLines plays a whole game of you against a smart bot through
// the line commands, one at a time, and returns the commands and what was
// printed.
func playDragonLines(t *testing.T, seed [32]byte) (*DragonGame, []string, string) {
	t.Helper()
	g := newDragonGame(t, "you,bot:smart", seed, "")
	var out strings.Builder
	w := bufio.NewWriter(&out)
	l := &dragonLines{g: g, w: w}
	l.intro()
	var script []string
	for !g.Over() {
		if len(script) > 5000 {
			t.Fatal("the game does not end")
		}
		cmd := dragonPolicy(g.Game(), g.View(g.ToAct()))
		script = append(script, cmd)
		before := len(g.Record().Actions)
		l.command(cmd)
		if len(g.Record().Actions) == before {
			w.Flush()
			t.Fatalf("command %q did nothing:\n%s", cmd, tail(out.String(), 10))
		}
	}
	w.Flush()
	return g, script, out.String()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// testDragon is the default game, whose bots' tables are made once for
// all tests.
var testDragon = game.NewDragon(dragon.MustGame(dragon.DefaultRules(), dragon.DefaultCards()))

// newDragonGame starts a game with the default rules and cards.
func newDragonGame(t testing.TB, players string, seed [32]byte, path string) *DragonGame {
	t.Helper()
	r := dragon.DefaultRules()
	seats, err := ParseDragonPlayers(players, r)
	if err != nil {
		t.Fatal(err)
	}
	g, err := startDragon(testDragon, seats, seed, path, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDragonLinesWholeGame plays a whole game against a bot through
// RunDragonLines (stdin and stdout), and checks the lines, the winner and
// the saved record.
func TestDragonLinesWholeGame(t *testing.T) {
	seed := dice.SeedFrom("lines-1")
	played, script, stepOut := playDragonLines(t, seed)

	path := filepath.Join(t.TempDir(), "game.json")
	g := newDragonGame(t, "you,bot:smart", seed, path)
	var out strings.Builder
	if err := RunDragonLines(context.Background(), g, strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, stepOut) {
		t.Fatalf("RunDragonLines printed something else than the commands one by one")
	}
	if !g.Over() || !reflect.DeepEqual(g.State(), played.State()) {
		t.Fatal("the game through stdin differs from the game played command by command")
	}
	winner := g.Winners()
	if !strings.HasPrefix(winner, "winner: ") && !strings.HasPrefix(winner, "winners: ") {
		t.Fatalf("winner line %q", winner)
	}
	if !strings.Contains(text, "\n"+winner+"\nsaved: "+path+"\n") {
		t.Fatalf("no winner and saved lines at the end:\n%s", tail(text, 5))
	}
	// Every throw of the person is a "throw: D D D event: E" line; count
	// them against the events.
	throws := 0
	for _, e := range g.Events() {
		if e.Kind == dragon.EvThrow && e.Seat == 0 {
			throws++
		}
	}
	if got := strings.Count(text, "\nthrow: "); got != throws || throws == 0 {
		t.Fatalf("%d throw lines for %d throws of the person", got, throws)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "throw: ") && !strings.Contains(line, " event: ") {
			t.Fatalf("throw line without the event die: %q", line)
		}
		if strings.HasPrefix(line, "error: ") {
			t.Fatalf("the policy's command was refused: %q", line)
		}
	}
	// The saved record replays to the same final state.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	final, _, err := game.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(final.(*game.DragonGame).State(), g.State()) {
		t.Fatal("the saved record replays to another state")
	}
	if rec.Meta.Level(1) != "smart" || rec.Meta.Level(0) != "" {
		t.Fatalf("levels %q", rec.Meta.Extra)
	}
}

// TestDragonLinesRefused: commands that are refused say why and change
// nothing.
func TestDragonLinesRefused(t *testing.T) {
	g := newDragonGame(t, "you,ana", dice.SeedFrom("refused"), "")
	var out strings.Builder
	w := bufio.NewWriter(&out)
	l := &dragonLines{g: g, w: w}
	l.intro()
	w.Flush()
	first := g.Names()[g.Turn()]
	for _, c := range []struct{ cmd, want string }{
		{"battle", "5,000"},
		{"brawl " + first, "yourself"},
		{"brawl nobody", "no player called"},
		{"roll", ""},
		{"keep 1", ""},
		{"dance", "unknown command"},
		{"recruit now", "takes no arguments"},
		{"discard nothing", "no such card"},
		{"use nothing", "no card to use"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			before := g.State()
			out.Reset()
			l.command(c.cmd)
			w.Flush()
			if !strings.HasPrefix(out.String(), "error: ") || !strings.Contains(out.String(), c.want) {
				t.Fatalf("%q printed %q, want an error naming %q", c.cmd, out.String(), c.want)
			}
			if !reflect.DeepEqual(before, g.State()) {
				t.Fatal("a refused command changed the game")
			}
		})
	}
	// A keep that does not score.
	out.Reset()
	l.command("recruit")
	w.Flush()
	v := g.View(g.Turn())
	if v.Phase == dragon.PhaseKeep {
		bad := ""
		for f := 2; f <= 6; f++ {
			if f != 5 && v.Throw.Count(f) > 0 && v.Throw.Count(f) < 3 {
				bad = string(rune('0' + f))
			}
		}
		if bad != "" {
			before := g.State()
			out.Reset()
			cmd := "keep " + bad
			if v.Event == dragon.Rally {
				cmd += " double"
			}
			l.command(cmd)
			w.Flush()
			if !strings.HasPrefix(out.String(), "error: ") || !reflect.DeepEqual(before, g.State()) {
				t.Fatalf("%s: %q", cmd, out.String())
			}
		}
	}
}

// TestDragonResume saves a game in the middle of a turn, resumes it from
// the file and finds the same state, record and next dice; a record whose
// bot action was changed is refused.
func TestDragonResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.json")
	seed := dice.SeedFrom("resume")
	g := newDragonGame(t, "you,bot:random,bot:smart", seed, path)
	// Play until the person has thrown a few times.
	for n := 0; n < 40 && !g.Over(); n++ {
		if g.BotToAct() {
			if _, _, err := g.Auto(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f := strings.Fields(dragonPolicy(g.Game(), g.View(g.Turn())))
		a, err := (&dragonLines{g: g}).parse(f[0], f[1:])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := ResumeDragonGame(path, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.State(), g.State()) || !reflect.DeepEqual(back.Record(), g.Record()) {
		a, _ := back.Record().Marshal()
		b, _ := g.Record().Marshal()
		t.Fatalf("the resumed game differs:\n%s\n%s", a, b)
	}
	// Both go on identically.
	for n := 0; n < 30 && !g.Over(); n++ {
		var a dragon.Action
		if g.BotToAct() {
			var err error
			if a, _, err = g.Auto(); err != nil {
				t.Fatal(err)
			}
			if b, _, err := back.Auto(); err != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("the bots differ after resuming: %v %v", a, b)
			}
		} else {
			a = g.View(g.Turn()).Legal[0]
			if _, err := g.Do(a); err != nil {
				t.Fatal(err)
			}
			if _, err := back.Do(a); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(back.State(), g.State()) {
			t.Fatal("the resumed game throws other dice")
		}
	}
	// A bot's recruit changed by hand into another legal action (a brawl):
	// the game could replay it, but the bot would not have chosen it.
	rec := *g.Record()
	src := dice.NewSource(seed)
	st, _, _ := g.Game().New(rec.Players, src)
	changed := false
	for i, raw := range rec.Actions {
		var a dragon.Action
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		if st.Turn != 0 && a.Kind == dragon.ActRecruit {
			brawl, _ := json.Marshal(dragon.Brawl(0))
			rec.Actions = append(append([]json.RawMessage(nil), rec.Actions[:i]...), brawl)
			changed = true
			break
		}
		st, _, _ = g.Game().Apply(st, a, src)
	}
	if !changed {
		t.Fatal("no bot recruited")
	}
	data, _ := rec.Marshal()
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, data, 0o644)
	os.WriteFile(SeedPath(bad), []byte(seed.Hex()), 0o600)
	if _, err := ResumeDragonGame(bad, fixedNow); !errors.Is(err, ErrSave) || !strings.Contains(err.Error(), "chooses") {
		t.Fatalf("a changed record resumed: %v", err)
	}
}
