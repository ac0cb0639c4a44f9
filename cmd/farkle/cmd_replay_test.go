package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// botRecord plays a whole game between bots of levels under r, with
// change, if set, replacing the bot's choice, and writes its record to a
// file. It returns the file and the record.
func botRecord(t *testing.T, r rules.Rules, levels []string, seed string, change func(engine.State, engine.Action) engine.Action) (string, *record.Record) {
	t.Helper()
	ts := solved.NewTables("")
	bots := make([]bot.Strategy, len(levels))
	for i, l := range levels {
		bots[i], _ = bot.New(l, r, bot.WithTables(ts))
	}
	g, err := record.Start(r, levels, dice.SeedFrom(seed))
	if err != nil {
		t.Fatal(err)
	}
	for !g.State.Over() {
		a := bots[g.State.Actor()].Choose(g.State)
		if change != nil {
			a = change(g.State, a)
		}
		if _, err := g.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	data, err := g.Record.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return writeTestFile(t, "game.json", string(data)), g.Record
}

func shortRules(base string, target int) rules.Rules {
	r := rules.MustPreset(base)
	r.Game.Target = target
	return r
}

func TestReplayTurnByTurn(t *testing.T) {
	file, rec := botRecord(t, shortRules("classic", 2000), []string{"steady", "bold"}, "replay", nil)
	final, steps, err := record.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, s := range steps {
		for _, ev := range s.Events {
			if ev.Kind == engine.EvTurn {
				turns++
			}
		}
	}
	for _, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "replay", file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if n := strings.Count(out, "\nturn "); n != turns {
				t.Errorf("%d turn headings for %d turns", n, turns)
			}
			if n := strings.Count(out, "  scores: "); n != turns {
				t.Errorf("%d score lines for %d turns", n, turns)
			}
			en := lang.Get(lang.Default) // the scores are numbers as English writes them (2,000)
			last := "scores: " + final.Players[0].Name + " " + en.Num(int64(final.Players[0].Score)) + ", " + final.Players[1].Name + " " + en.Num(int64(final.Players[1].Score))
			if !strings.Contains(out, last) {
				t.Errorf("the final scores %q are missing", last)
			}
			names := final.Names()
			for _, s := range steps {
				for _, ev := range s.Events {
					if ev.Kind != engine.EvTurn && !strings.Contains(out, ev.Describe(names)) {
						t.Fatalf("event %q is missing", ev.Describe(names))
					}
				}
			}
			if !strings.HasSuffix(strings.TrimSpace(out), final.Players[final.Winners[0]].Name+" wins with "+lang.Get("en").Num(int64(final.Players[final.Winners[0]].Score))) {
				t.Errorf("does not end with the winner:\n%s", out[max(0, len(out)-200):])
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestVerify(t *testing.T) {
	file, rec := botRecord(t, shortRules("classic", 1500), []string{"cautious", "reckless"}, "verify", nil)
	for _, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "verify", file)
			if code != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "ok: ") || errOut != "" {
				t.Errorf("exit %d, %q, %q", code, out, errOut)
			}
		})
	}
	// A throw changed: the seed gives another one. Take a throw entry and
	// turn one die to another face, keeping the count.
	bad := *rec
	idx := -1
	for i, e := range bad.Actions {
		if e.Kind == engine.Throw && i > 10 {
			idx = i
			break
		}
	}
	faces := bad.Actions[idx].Threw.Faces()
	faces[0] = faces[0]%6 + 1
	data, _ := json.Marshal(&bad)
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["actions"].([]any)[idx].(map[string]any)["threw"] = faces
	data, _ = json.Marshal(raw)
	tampered := writeTestFile(t, "tampered.json", string(data))
	for _, runner := range farkleRunners {
		t.Run("tampered/"+runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "verify", tampered)
			if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "discrepancy") || !strings.Contains(errOut, "action "+itoa(idx+1)) {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
	// A game not finished: the seed is not revealed.
	g, _ := record.Start(shortRules("classic", 1500), []string{"a", "b"}, dice.SeedFrom("open"))
	g.Do(g.State.Legal()[0])
	data, _ = g.Record.Marshal()
	open := writeTestFile(t, "open.json", string(data))
	for _, runner := range farkleRunners {
		_, errOut, code := runner.run(t, "", "verify", open)
		if code != 1 || errOut != "farkle verify: "+open+": the game is not over (1 action so far), and its seed is revealed only when it ends: until then its dice cannot be checked\n" {
			t.Errorf("open game, %s: exit %d, %q", runner.name, code, errOut)
		}
	}
	// A finished game whose seed was taken out: that is a discrepancy.
	hidden := *rec
	hidden.Seed = ""
	data, _ = hidden.Marshal()
	hiddenFile := writeTestFile(t, "hidden.json", string(data))
	if _, errOut, code := execFarkle(t, "", "verify", hiddenFile); code != 1 || !strings.Contains(errOut, ": discrepancy: the seed is not revealed") || strings.Contains(errOut, "game:") {
		t.Errorf("finished game without its seed: exit %d, %q", code, errOut)
	}
}

func TestReplayVerifyBadInput(t *testing.T) {
	garbage := writeTestFile(t, "garbage.json", "{\"format\": 7")
	other := writeTestFile(t, "other.json", `{"format":"something-else/1"}`)
	missing := filepath.Join(t.TempDir(), "missing.json")
	for _, cmd := range []string{"replay", "verify", "analyze"} {
		for _, tc := range []struct {
			name    string
			args    []string
			mention string
		}{
			{"garbage", []string{garbage}, "garbage.json"},
			{"other format", []string{other}, "format"},
			{"missing", []string{missing}, "missing.json"},
			{"no file", nil, "FILE"},
			{"two files", []string{garbage, other}, "FILE"},
		} {
			t.Run(cmd+"/"+tc.name, func(t *testing.T) {
				_, errOut, code := runFarkle(t, "", append([]string{cmd}, tc.args...)...)
				checkBadInput(t, errOut, code, tc.mention)
			})
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a missing file was created")
	}
}

// TestReplayVerifyAnalyzeResignation: a three-player game in which the
// leader resigns part way replays with the resignation in its turn,
// verifies, and analyzes (the resignation is no decision).
func TestReplayVerifyAnalyzeResignation(t *testing.T) {
	r := shortRules("classic", 3000)
	resigned := -1
	n := 0
	file, rec := botRecord(t, r, []string{"steady", "bold", "cautious"}, "resign", func(s engine.State, a engine.Action) engine.Action {
		n++
		if resigned < 0 && n > 40 && s.Phase == engine.PhasePlay && s.Step == engine.StepChoose {
			resigned = s.Current
			return engine.ResignBy(s.Current)
		}
		return a
	})
	if resigned < 0 {
		t.Fatal("nobody resigned")
	}
	final, _, err := record.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range final.Winners {
		if w == resigned {
			t.Fatalf("%s resigned and won", rec.Players[w])
		}
	}
	name := rec.Players[resigned]
	out, errOut, code := runFarkle(t, "", "replay", file)
	if code != 0 || !strings.Contains(out, "\n  "+name+" resigns") {
		t.Errorf("replay: exit %d %s: no resignation line for %s:\n%s", code, errOut, name, out)
	}
	out, errOut, code = runFarkle(t, "", "verify", file)
	if code != 0 || !strings.HasPrefix(out, "ok: ") || !strings.Contains(out, "won by "+rec.Players[final.Winners[0]]) {
		t.Errorf("verify: exit %d, %q, %q", code, out, errOut)
	}
	out, errOut, code = runFarkle(t, "", "analyze", file, "--json", "--cache", t.TempDir())
	var a analysisOut
	if code != 0 || json.Unmarshal([]byte(out), &a) != nil || len(a.Players) != 3 {
		t.Errorf("analyze: exit %d %s:\n%s", code, errOut, out)
	}

	// Alone: the only player resigns and the game ends with no winner.
	g, _ := record.Start(shortRules("classic", 1500), []string{"ana"}, dice.SeedFrom("alone"))
	g.Do(engine.ThrowBy(0))
	g.Do(engine.ResignBy(0))
	data, _ := g.Record.Marshal()
	alone := writeTestFile(t, "alone.json", string(data))
	if out, errOut, code := runFarkle(t, "", "verify", alone); code != 0 || !strings.Contains(out, "ended with no winner") {
		t.Errorf("alone: exit %d, %q, %q", code, out, errOut)
	}
	if out, errOut, code := runFarkle(t, "", "replay", alone); code != 0 || !strings.Contains(out, "ana resigns") || !strings.Contains(out, "game over: no winner") {
		t.Errorf("alone replay: exit %d, %q, %q", code, out, errOut)
	}
}

// TestReplayVerifyCappedGame: a bot game under game.max_turns ends at the
// cap; replay says so on its own line and verify passes.
func TestReplayVerifyCappedGame(t *testing.T) {
	r := shortRules("classic", 2000) // a small duel table for analyze
	r.Game.MaxTurns = 2
	file, rec := botRecord(t, r, []string{"steady", "cautious"}, "capped", nil)
	final, _, err := record.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if final.Players[0].Turns != 2 || final.Players[1].Turns != 2 {
		t.Fatalf("turns %d and %d, want 2 each", final.Players[0].Turns, final.Players[1].Turns)
	}
	out, errOut, code := runFarkle(t, "", "replay", file)
	if code != 0 || !strings.Contains(out, "\n\nthe game reached its limit of 2 turns\n") || !strings.Contains(out, "game over: ") {
		t.Errorf("replay: exit %d %s:\n%s", code, errOut, out)
	}
	out, errOut, code = runFarkle(t, "", "verify", file)
	if code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("verify: exit %d, %q, %q", code, out, errOut)
	}
	// The solvers know no cap: analyze values the game with the tables of
	// the uncapped rules.
	out, errOut, code = runFarkle(t, "", "analyze", file, "--json", "--cache", t.TempDir())
	var a analysisOut
	if code != 0 || json.Unmarshal([]byte(out), &a) != nil || len(a.Players) != 2 || len(a.Decisions) == 0 {
		t.Errorf("analyze: exit %d %s:\n%s", code, errOut, out)
	}
}

// TestRecordCommandsRefuseRules: replay, verify and analyze play by the
// rules of the record; --rules, before or after FILE, is refused saying so.
func TestRecordCommandsRefuseRules(t *testing.T) {
	file, _ := botRecord(t, shortRules("classic", 1000), []string{"steady", "bold"}, "rules", nil)
	for _, name := range []string{"replay", "verify", "analyze"} {
		for _, args := range [][]string{{"--rules", "classic", file}, {file, "--rules=cardgames"}} {
			out, errOut, code := execFarkle(t, "", append([]string{name}, args...)...)
			checkBadInput(t, errOut, code, "farkle "+name+": --rules: farkle "+name+" plays by the rules the game record holds")
			if out != "" {
				t.Errorf("farkle %s %v wrote %q", name, args, out)
			}
		}
	}
}
