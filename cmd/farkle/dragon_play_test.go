package main

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// dragonPerson is a plain person's play as line-mode commands: attack with
// enough soldiers, else recruit; keep the most soldiers (in battle the
// cheapest keep), double on a Rally, stop at 1000 or with two dice or
// fewer; discard the first item.
func dragonPerson(g *dragon.Game, v dragon.View) (dragon.Action, string) {
	switch v.Phase {
	case dragon.PhaseChoose:
		for _, a := range v.Legal {
			if a.Kind == dragon.ActBattle {
				return a, "battle"
			}
		}
		return dragon.Recruit(), "recruit"
	case dragon.PhaseKeep:
		var best dragon.Action
		bestPts := 0
		for _, a := range v.Legal {
			if a.Kind != dragon.ActKeep || a.Reward == dragon.DrawItem {
				continue
			}
			pts, _ := g.Table().Points(a.Keep)
			if v.Mode == dragon.Battling {
				pts = -pts
			}
			if best.Kind == 0 || pts > bestPts {
				best, bestPts = a, pts
			}
		}
		if best.Kind == 0 {
			return dragon.Accept(), "accept"
		}
		if best.Reward == dragon.Double {
			return best, "keep " + best.Keep.String() + " double"
		}
		return best, "keep " + best.Keep.String()
	case dragon.PhaseEvaded:
		return dragon.Roll(), "roll"
	case dragon.PhaseRoll:
		if v.Mode == dragon.Recruiting && (v.Pool >= 1000 || v.Dice <= 2) {
			return dragon.Stop(), "stop"
		}
		return dragon.Roll(), "roll"
	case dragon.PhaseDiscard:
		id := v.Players[v.Seat].Items[0].ID
		return dragon.Discard(id), "discard " + id
	}
	return dragon.Action{}, "quit"
}

// dragonScript plays `farkle play --rules dragon --seed seedText --players
// you,bot:smart` ahead with package dragon (the same seeds and bots as the
// command) and returns the person's commands and the final state.
func dragonScript(t *testing.T, seedText string) (string, dragon.State) {
	t.Helper()
	g := dragon.MustGame(dragon.DefaultRules(), dragon.DefaultCards())
	seed := dice.SeedFrom(seedText)
	src, botSrc := dice.NewSource(seed), dice.NewSource(dice.Seed(seed).Derive("dragon-bots"))
	s, _, err := g.New([]string{"you", "smart"}, src)
	if err != nil {
		t.Fatal(err)
	}
	bot := dragon.NewBot(dragon.Smart, dragon.NewBrains(g))
	var script strings.Builder
	for n := 0; !s.Over(); n++ {
		if n > 20000 {
			t.Fatal("the game does not end")
		}
		v := g.View(s, s.ToAct())
		var a dragon.Action
		if s.ToAct() == 1 {
			a = bot.Choose(v, botSrc)
		} else {
			var cmd string
			a, cmd = dragonPerson(g, v)
			script.WriteString(cmd + "\n")
		}
		if s, _, err = g.Apply(s, a, src); err != nil {
			t.Fatal(err)
		}
	}
	return script.String(), s
}

// runFarkleData is runFarkle with FARKLE_DATA_DIR set to dir.
func runFarkleData(t testing.TB, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "FARKLE_DATA_DIR" {
			return dir
		}
		return ""
	}}
	code := Main(context.Background(), e, args)
	return out.String(), errOut.String(), code
}

// TestPlayDragonWholeGame plays a whole game of Dragon Farkle against the
// smart bot through stdin and stdout, in-process and with the binary, and
// checks the lines, the winner and the saved record.
func TestPlayDragonWholeGame(t *testing.T) {
	script, final := dragonScript(t, "cmd-dragon")
	args := []string{"play", "--rules", "dragon", "--plain", "--seed", "cmd-dragon", "--players", "you,bot:smart"}
	outputs := map[string]string{}
	for _, runner := range []string{"in-process", "binary"} {
		t.Run(runner, func(t *testing.T) {
			dir := t.TempDir()
			var out, stderr string
			var code int
			if runner == "binary" {
				t.Setenv("FARKLE_DATA_DIR", dir)
				out, stderr, code = execFarkle(t, script, args...)
			} else {
				out, stderr, code = runFarkleData(t, dir, script, args...)
			}
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) < 3 {
				t.Fatalf("output %q", out)
			}
			winner := "winner: " + final.Players[final.Winners[0]].Name
			if !strings.HasPrefix(lines[len(lines)-2], winner) || !strings.HasPrefix(lines[len(lines)-1], "saved: ") {
				t.Fatalf("the game ends with %q, want %q and the saved file", lines[len(lines)-2:], winner)
			}
			throws := 0
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "error: "):
					t.Fatalf("a command was refused: %q", l)
				case strings.HasPrefix(l, "throw: "):
					throws++
					if _, err := dice.Parse(strings.TrimPrefix(l[:strings.Index(l, " event: ")], "throw: ")); err != nil {
						t.Fatalf("bad throw line %q: %v", l, err)
					}
				}
			}
			if throws == 0 {
				t.Fatal("no throw lines")
			}
			path := strings.TrimPrefix(lines[len(lines)-1], "saved: ")
			if filepath.Dir(path) != filepath.Join(dir, "games") {
				t.Fatalf("saved in %s, want %s/games", path, dir)
			}
			if !reflect.DeepEqual(verifiedGame(t, path).(*game.DragonGame).State(), final) {
				t.Fatal("the saved record does not replay to the game played")
			}
			outputs[runner] = strings.Join(lines[:len(lines)-1], "\n")
		})
	}
	if a, b := outputs["in-process"], outputs["binary"]; a != "" && a != b {
		t.Fatal("the binary printed another game than the in-process run")
	}
}

func TestPlayDragonBadPlayers(t *testing.T) {
	for _, c := range []struct {
		players string
		mention []string
	}{
		{"you,bot:steady", []string{"steady", "random, simple, smart"}},
		{"you", []string{"1 player,", "2 to 5"}},
		{"you,you", []string{"plays twice"}},
	} {
		t.Run(c.players, func(t *testing.T) {
			_, stderr, code := runFarkle(t, "", "play", "--rules", "dragon", "--plain", "--players", c.players)
			checkBadInput(t, stderr, code, c.mention...)
		})
	}
}

// TestPlayDragonQuit: quitting at once saves the game so far.
func TestPlayDragonQuit(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := runFarkleData(t, dir, "recruit\nquit\n", "play", "--rules", "dragon", "--seed", "q", "--players", "ana,bob")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(out, "\nthrow: ") || !strings.Contains(out, "saved: "+filepath.Join(dir, "games")) {
		t.Fatalf("output:\n%s", out)
	}
}

// TestPlayDragonResume: a game quit in the middle is continued with
// --resume and plays on from where it stopped.
func TestPlayDragonResume(t *testing.T) {
	dir := t.TempDir()
	script, final := dragonScript(t, "cmd-resume")
	cmds := strings.SplitAfter(script, "\n")
	first := strings.Join(cmds[:5], "")
	out, stderr, code := runFarkleData(t, dir, first+"quit\n", "play", "--rules", "dragon", "--seed", "cmd-resume", "--players", "you,bot:smart")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	i := strings.Index(out, "saved: ")
	if i < 0 || !strings.Contains(out[i:], "resume with") {
		t.Fatalf("no saved line:\n%s", out)
	}
	path := strings.Fields(out[i:])[1]
	out, stderr, code = runFarkleData(t, dir, strings.Join(cmds[5:], ""), "play", "--resume", path)
	if code != 0 || stderr != "" {
		t.Fatalf("resume: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(out, "resumed: "+path) || !strings.Contains(out, "\nwinner: "+final.Players[final.Winners[0]].Name) {
		t.Fatalf("resume output:\n%s", out)
	}
	// A finished game cannot be resumed; --resume with --rules is refused.
	_, stderr, code = runFarkleData(t, dir, "", "play", "--resume", path)
	checkBadInput(t, stderr, code, "the game is over")
	_, stderr, code = runFarkleData(t, dir, "", "play", "--resume", path, "--rules", "dragon")
	checkBadInput(t, stderr, code, "--rules")
}

// TestPlayDragonRefusalsInWords: line mode refuses in a player's words:
// where the turn stands instead of the engine's phase, the throw written
// as the game writes it, and no package's name.
func TestPlayDragonRefusalsInWords(t *testing.T) {
	in := "stop\nrecruit\nstop\nkeep 7\nkeep 6 6 6 6 6 6 double\nquit\n"
	out, stderr, code := runFarkleData(t, t.TempDir(), in, "play", "--rules", "dragon", "--seed", "words", "--players", "ana,bob")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	throw := regexp.MustCompile(`(?m)^throw: ([1-6 ]+) event: `).FindStringSubmatch(out)
	if throw == nil || strings.Count(throw[1], "6") == 6 {
		t.Fatalf("no throw to refuse six 6s from:\n%s", out)
	}
	errs := regexp.MustCompile(`(?m)^error: .*$`).FindAllString(out, -1)
	want := []string{
		"error: stop is not allowed at the start of a turn (now you may: recruit, brawl)",
		"error: stop is not allowed with a throw on the table to keep from (now you may: keep)",
		"error: keep 7: 7 is not a die face (faces are 1 to 6)",
		"error: keep 6 6 6 6 6 6: the throw " + throw[1] + " has ",
	}
	if len(errs) != len(want) {
		t.Fatalf("%d error lines, want %d:\n%s", len(errs), len(want), out)
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i], w) || strings.Contains(errs[i], "phase") || strings.Contains(errs[i], "dice:") || strings.Contains(errs[i], "dragon:") {
			t.Errorf("error %d is %q, want %q", i+1, errs[i], w)
		}
	}
}
