package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
)

// dragonRecord plays a game of Dragon Farkle between Smart bots through
// game.Play (finished unless stopAfter > 0 actions) and writes its record
// to a file. It returns the file and the record.
func dragonRecord(t *testing.T, seed string, stopAfter int) (string, *game.Record) {
	t.Helper()
	v := game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil))
	p, _, err := game.Start(v, []string{"Ana", "Bo", "Cy"}, dice.SeedFrom(seed))
	if err != nil {
		t.Fatal(err)
	}
	bot := dragon.NewBot(dragon.Smart, dragon.NewBrains(v.Game()))
	src := dice.NewSource(dice.SeedFrom("bots " + seed))
	for n := 0; !p.Game().Over() && (stopAfter == 0 || n < stopAfter); n++ {
		g := p.Game().(*game.DragonGame)
		seat := g.ToAct()
		if _, err := p.Do(seat, bot.Choose(v.Game().View(g.State(), seat), src)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := p.Record().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return writeTestFile(t, "dragon.json", string(data)), p.Record()
}

// TestDragonRecordReplayVerifyAnalyze: a finished Dragon Farkle game
// replays turn by turn with every event in words, verifies with its
// winners and analyses with a summary per player.
func TestDragonRecordReplayVerifyAnalyze(t *testing.T) {
	file, rec := dragonRecord(t, "dragon record", 0)
	final, steps, err := game.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	v := final.Variant()
	names := rec.Players
	// The events in order, the start's first (the seed draws them first).
	_, events, err := v.Start(names, dice.NewSource(dice.SeedFrom("dragon record")))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range steps {
		events = append(events, st.Events...)
	}
	turns := 0
	for _, ev := range events {
		if ev.(dragon.Event).Kind == dragon.EvTurn {
			turns++
		}
	}
	if turns < 2 {
		t.Fatalf("%d turns", turns)
	}
	win := final.Winners()
	if len(win) != 1 {
		t.Fatalf("winners %v", win)
	}
	winner := fmt.Sprintf("%s (%d)", names[win[0]], final.Scores()[win[0]])
	for _, runner := range farkleRunners {
		t.Run("replay/"+runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "replay", file)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.HasPrefix(out, "dragon, 3 players: Ana, Bo, Cy\n") {
				t.Errorf("heading: %q", out[:min(len(out), 80)])
			}
			if n := strings.Count(out, "\nturn "); n != turns {
				t.Errorf("%d turn headings for %d turns", n, turns)
			}
			if n := strings.Count(out, "  soldiers: "); n != turns {
				t.Errorf("%d soldier lines for %d turns", n, turns)
			}
			rest, turn := out, 0
			for _, ev := range events {
				line := v.Describe(lang.Get(lang.Default), ev, names)
				if de := ev.(dragon.Event); de.Kind == dragon.EvTurn {
					turn++
					line = fmt.Sprintf("\nturn %d: %s (round %d)\n", turn, names[de.Seat], de.Round)
				}
				i := strings.Index(rest, line)
				if i < 0 {
					t.Fatalf("event %q is missing or out of order", line)
				}
				rest = rest[i+len(line):]
			}
			scores := make([]string, len(names))
			for i, s := range final.Scores() {
				scores[i] = names[i] + " " + lang.Get(lang.Default).Num(int64(s)) // as English writes numbers
			}
			if !strings.Contains(out, "soldiers: "+strings.Join(scores, ", ")+"\n") {
				t.Errorf("the final soldiers %v are missing", scores)
			}
		})
		t.Run("verify/"+runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "verify", file)
			want := fmt.Sprintf("ok: %s: %d actions, dragon, won by %s;", file, len(rec.Actions), winner)
			if code != 0 || errOut != "" || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, want) {
				t.Errorf("exit %d, %q, %q; want %q…", code, out, errOut, want)
			}
		})
		t.Run("analyze/"+runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "analyze", file, "--json")
			var a analysisOut
			if code != 0 || json.Unmarshal([]byte(out), &a) != nil {
				t.Fatalf("exit %d %s:\n%s", code, errOut, out)
			}
			if a.Measure != "expected soldiers" || len(a.Players) != 3 || len(a.Decisions) == 0 {
				t.Fatalf("measure %q, %d players, %d decisions", a.Measure, len(a.Players), len(a.Decisions))
			}
			n := 0
			for i, p := range a.Players {
				n += p.Decisions
				if p.Name != names[i] || p.Best > p.Decisions || p.Accuracy != float64(p.Best)/float64(p.Decisions) {
					t.Errorf("player %d: %+v", i, p)
				}
			}
			if n != len(a.Decisions) {
				t.Errorf("%d decisions listed, %d counted", len(a.Decisions), n)
			}
		})
	}
	out, errOut, code := runFarkle(t, "", "analyze", file, "--all")
	if code != 0 || !strings.HasPrefix(out, file+": dragon, 3 players; values: expected soldiers\n") || !strings.Contains(out, "\nevery decision:\n") || !strings.Contains(out, "\nAna   action ") || !strings.Contains(out, " soldiers, strongest opponent ") {
		t.Errorf("exit %d %s:\n%s", code, errOut, out)
	}
}

// TestDragonRecordTampered: a Dragon Farkle record with an action the game
// refuses, or with another seed, fails verify with exit status 1 and the
// first discrepancy; replay and analyze refuse it too.
func TestDragonRecordTampered(t *testing.T) {
	_, rec := dragonRecord(t, "dragon tampered", 0)
	_, steps, err := game.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	// The first start of a turn after the tenth action, made a stop: no
	// turn starts with a stop.
	at := -1
	for i, st := range steps {
		if i >= 10 && st.Action.(dragon.Action).Kind != dragon.ActStop && st.Before.Check(st.Seat, dragon.Stop()) != nil {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("no action to change")
	}
	bad := *rec
	bad.Actions = append([]json.RawMessage(nil), rec.Actions...)
	bad.Actions[at] = json.RawMessage(`{"kind":"stop","target":0}`)
	data, err := bad.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	illegal := writeTestFile(t, "illegal.json", string(data))
	other := *rec
	other.Seed = dice.SeedFrom("another seed").Hex()
	if data, err = other.Marshal(); err != nil {
		t.Fatal(err)
	}
	reseeded := writeTestFile(t, "reseeded.json", string(data))
	for _, tc := range []struct{ name, file, mention string }{
		{"illegal action", illegal, fmt.Sprintf("action %d (stop by %s)", at+1, rec.Players[steps[at].Seat])},
		{"another seed", reseeded, "commitment is " + rec.Commitment},
	} {
		for _, runner := range farkleRunners {
			t.Run(tc.name+"/"+runner.name, func(t *testing.T) {
				out, errOut, code := runner.run(t, "", "verify", tc.file)
				if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "discrepancy") || !strings.Contains(errOut, tc.mention) {
					t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.mention)
				}
			})
		}
		for _, cmd := range []string{"replay", "analyze"} {
			if _, errOut, code := runFarkle(t, "", cmd, tc.file); code != 1 || !strings.Contains(errOut, tc.mention) {
				t.Errorf("%s %s: exit %d, %q", cmd, tc.name, code, errOut)
			}
		}
	}
}

// TestDragonRecordUnfinished: the seed of an unfinished Dragon Farkle game
// is not revealed, and its record holds only actions: nothing can be
// checked or rebuilt.
func TestDragonRecordUnfinished(t *testing.T) {
	file, rec := dragonRecord(t, "dragon unfinished", 12)
	if rec.Seed != "" || len(rec.Actions) != 12 {
		t.Fatalf("seed %q, %d actions", rec.Seed, len(rec.Actions))
	}
	for _, cmd := range []string{"verify", "replay", "analyze"} {
		_, errOut, code := execFarkle(t, "", cmd, file)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "the game is not over (12 actions so far), and its seed is revealed only when it ends") ||
			strings.Contains(errOut, "discrepancy") || strings.Contains(errOut, "game:") {
			t.Errorf("%s: exit %d, %q", cmd, code, errOut)
		}
	}
}

// TestOlderRecordFormatsVerify: records written before farkle-record/2
// (an ordinary farkle-record/1, a farkle-dragon-record/1) still verify,
// replay and analyse.
func TestOlderRecordFormatsVerify(t *testing.T) {
	for _, c := range []struct {
		file, rules string
		players     int
	}{
		{"../../record/testdata/classic-2p.json", "classic", 2},
		{"../../dragon/testdata/classic-record.json", "dragon", 3},
	} {
		out, errOut, code := runFarkle(t, "", "verify", c.file)
		if code != 0 || !strings.HasPrefix(out, "ok: "+c.file+": ") || !strings.Contains(out, ", "+c.rules+", won by ") {
			t.Errorf("verify %s: exit %d, %q, %q", c.file, code, out, errOut)
		}
		out, errOut, code = runFarkle(t, "", "replay", c.file)
		if code != 0 || !strings.HasPrefix(out, fmt.Sprintf("%s, %d players: ", c.rules, c.players)) || !strings.Contains(out, "\nturn 1: ") {
			t.Errorf("replay %s: exit %d %s:\n%s", c.file, code, errOut, out)
		}
		out, errOut, code = runFarkle(t, "", "analyze", c.file, "--json", "--points")
		var a analysisOut
		if code != 0 || json.Unmarshal([]byte(out), &a) != nil || len(a.Players) != c.players || len(a.Decisions) == 0 {
			t.Errorf("analyze %s: exit %d %s:\n%s", c.file, code, errOut, out)
		}
	}
}

// TestOrdinaryRecordBothFormats: the same ordinary game recorded in the
// format of package record (farkle-record/1) and in game.Format replays,
// verifies and analyses to the same output.
func TestOrdinaryRecordBothFormats(t *testing.T) {
	r := shortRules("classic", 2000)
	levels := []string{"steady", "bold"}
	oldFile, old := botRecord(t, r, levels, "both formats", nil)
	v, err := game.NewFarkle(r)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := game.Start(v, levels, dice.SeedFrom("both formats"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range old.Actions {
		if _, err := p.Do(e.Action.Player, e.Action); err != nil {
			t.Fatal(err)
		}
	}
	data, err := p.Record().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"format": "farkle-record/2"`) || !strings.Contains(string(data), `"kind": "farkle"`) {
		t.Fatalf("not a record of game.Format:\n%.300s", data)
	}
	newFile := writeTestFile(t, "game.json", string(data))
	cache := t.TempDir()
	for _, args := range [][]string{{"replay"}, {"verify"}, {"analyze", "--all", "--cache", cache}, {"analyze", "--json", "--cache", cache}} {
		want, errOld, codeOld := runFarkle(t, "", append(args, oldFile)...)
		got, errNew, codeNew := runFarkle(t, "", append(args, newFile)...)
		want = strings.ReplaceAll(want, oldFile, "FILE")
		got = strings.ReplaceAll(got, newFile, "FILE")
		if codeOld != 0 || codeNew != 0 || got != want || len(got) < 100 {
			t.Errorf("%v: exit %d %s / %d %s; the outputs differ:\n%s\n---\n%s", args, codeOld, errOld, codeNew, errNew, want, got)
		}
	}
}

// TestSimDragonRecords: farkle sim --rules dragon --record writes one
// record a game; each verifies through the binary, and the wins in the
// records are the ones the simulation reports.
func TestSimDragonRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "records")
	out, errOut, code := runFarkle(t, "", "sim", "--rules", "dragon", "--players", "smart,simple", "--games", "6", "--seed", "dragon records", "--record", dir, "--json")
	var res dragonSimOut
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d %s:\n%s", code, errOut, out)
	}
	files, err := filepath.Glob(filepath.Join(dir, "game-*.json"))
	if err != nil || len(files) != 6 {
		t.Fatalf("%d record files for 6 games (%v)", len(files), err)
	}
	wins := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseRecord(data)
		if err != nil || rec.Kind != game.Dragon || rec.Format != game.Format {
			t.Fatalf("%s: %v", f, err)
		}
		for _, w := range rec.Meta.Winners {
			wins[rec.Players[w]]++
		}
		out, errOut, code := execFarkle(t, "", "verify", f)
		if code != 0 || !strings.HasPrefix(out, "ok: "+f+": ") {
			t.Errorf("verify %s: exit %d, %q, %q", f, code, out, errOut)
		}
	}
	for _, p := range res.Players {
		if wins[p.Name] != p.Wins {
			t.Errorf("%s: %d wins in the records, %d reported", p.Name, wins[p.Name], p.Wins)
		}
	}
	if _, errOut, code := runFarkle(t, "", "analyze", files[0]); code != 0 {
		t.Errorf("analyze %s: exit %d, %s", files[0], code, errOut)
	}
}
