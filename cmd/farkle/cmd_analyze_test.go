package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

type analysisOut struct {
	Measure string `json:"measure"`
	Players []struct {
		Name      string  `json:"name"`
		Decisions int     `json:"decisions"`
		Best      int     `json:"best"`
		Accuracy  float64 `json:"accuracy"`
		TotalLoss float64 `json:"total_loss"`
		Worst     []struct {
			Action int     `json:"action"`
			Played string  `json:"played"`
			Best   string  `json:"best"`
			Loss   float64 `json:"loss"`
		} `json:"worst"`
	} `json:"players"`
	Decisions []json.RawMessage `json:"decisions"`
}

// TestAnalyzeFindsThePlantedBlunder: two perfect players, one of whom
// banks once where perfect play throws on; the analysis finds that one
// decision and nothing else.
func TestAnalyzeFindsThePlantedBlunder(t *testing.T) {
	r := shortRules("pocket-farkel", 2000)
	r.Game.MaxPlayers = 2
	var file string
	planted := 0
	for seed := 0; planted == 0 && seed < 50; seed++ {
		n := 0
		file, _ = botRecord(t, r, []string{"perfect", "perfect"}, "blunder"+itoa(seed), func(s engine.State, a engine.Action) engine.Action {
			n++
			if planted == 0 && s.Current == 0 && s.Step == engine.StepChoose && a.Kind == engine.Throw && s.Left >= 2 && s.Total < 300 {
				if ok, _ := s.CanBank(); ok {
					planted = n
					return engine.BankBy(0)
				}
			}
			return a
		})
	}
	if planted == 0 {
		t.Fatal("no blunder planted")
	}
	for _, runner := range farkleRunners {
		t.Run(runner.name, func(t *testing.T) {
			out, errOut, code := runner.run(t, "", "analyze", file, "--json", "--cache", t.TempDir())
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var a analysisOut
			if err := json.Unmarshal([]byte(out), &a); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if a.Measure != "win probability" || len(a.Players) != 2 {
				t.Fatalf("%+v", a)
			}
			p0, p1 := a.Players[0], a.Players[1]
			if p1.Best != p1.Decisions || p1.TotalLoss != 0 || len(p1.Worst) != 0 {
				t.Errorf("the perfect player: %+v", p1)
			}
			if p0.Decisions-p0.Best != 1 || len(p0.Worst) != 1 || p0.Worst[0].Action != planted || p0.Worst[0].Played != "bank" || p0.Worst[0].Best != "throw" || p0.Worst[0].Loss <= 0 || p0.Worst[0].Loss != p0.TotalLoss {
				t.Errorf("the blunderer: %+v (planted at action %d)", p0, planted)
			}
			if len(a.Decisions) != p0.Decisions+p1.Decisions {
				t.Errorf("%d decisions listed, %d counted", len(a.Decisions), p0.Decisions+p1.Decisions)
			}
		})
	}
	out, errOut, code := runFarkle(t, "", "analyze", file, "--cache", t.TempDir())
	if code != 0 || !strings.Contains(out, "worst decisions") || !strings.Contains(out, "played bank") || !strings.Contains(out, "every decision was best") {
		t.Errorf("exit %d %s:\n%s", code, errOut, out)
	}
}

func TestAnalyzeExpectedPoints(t *testing.T) {
	file, _ := botRecord(t, shortRules("farkle-dice", 1500), []string{"steady", "bold", "reckless"}, "three", nil)
	out, errOut, code := runFarkle(t, "", "analyze", "--json", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var a analysisOut
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Measure != "expected points" || len(a.Players) != 3 || len(a.Decisions) == 0 {
		t.Errorf("%+v", a)
	}
}

// TestAnalyzeNoDecisions: a player who made no decision has no accuracy
// (not 100%) and is said to have nothing to judge; a game saved after one
// throw has such a player, called you.
func TestAnalyzeNoDecisions(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FARKLE_DATA_DIR", dir)
	if _, errOut, code := execFarkle(t, "quit\n", "play", "--players", "you,bot:steady", "--seed", "no decisions"); code != 0 {
		t.Fatalf("play: exit %d, %s", code, errOut)
	}
	files := savedGames(t, dir)
	if len(files) != 1 {
		t.Fatalf("saved: %v", files)
	}
	out, errOut, code := execFarkle(t, "", "analyze", "--points", files[0])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	row := regexp.MustCompile(`(?m)^ *you +0 +0 +(\S+) +\S+ *$`).FindStringSubmatch(out)
	if row == nil || row[1] != "—" || !strings.Contains(out, "\nyou: no decisions to judge\n") || strings.Contains(out, "100.0%") {
		t.Errorf("analysis:\n%s", out)
	}
	out, errOut, code = execFarkle(t, "", "analyze", "--points", "--json", files[0])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var a struct {
		Players []struct {
			Name     string   `json:"name"`
			Accuracy *float64 `json:"accuracy"`
		} `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || len(a.Players) == 0 || a.Players[0].Name != "you" || a.Players[0].Accuracy != nil || !strings.Contains(out, `"accuracy":null`) {
		t.Errorf("the JSON gives no decisions an accuracy (want null): %v\n%s", err, out)
	}
}

// TestPrintAnalysisPossessive: the worst decisions of a player called you
// are "your worst decisions", of anyone else "NAME's".
func TestPrintAnalysisPossessive(t *testing.T) {
	d := advise.Decision{Action: 3, Turn: 1, Played: "bank", Best: "throw", Value: 50, BestValue: 80, Loss: 30}
	rep := &advise.Report{Rules: "classic", Measure: advise.ExpectedPoints, Players: []advise.Summary{
		{Name: "you", Decisions: 2, Best: 1, Accuracy: ptr(0.5), TotalLoss: 30, Worst: []advise.Decision{d}},
		{Name: "You", Decisions: 1, Best: 0, Accuracy: ptr(0.0), TotalLoss: 30, Worst: []advise.Decision{d}},
		{Name: "ana", Decisions: 1, Best: 0, Accuracy: ptr(0.0), TotalLoss: 30, Worst: []advise.Decision{d}},
		{Name: "bo", Decisions: 3, Best: 3, Accuracy: ptr(1.0)},
	}}
	var b strings.Builder
	printAnalysis(&b, lang.Get("en"), "g.json", []string{"you", "You", "ana", "bo"}, rep, farkleView{}, false, 80)
	out := b.String()
	for _, want := range []string{"\nyour worst decisions:\n", "\nYour worst decisions:\n", "\nana's worst decisions:\n", "\nbo: every decision was best\n", " 50.0%", " 100.0%"} {
		if !strings.Contains(out, want) {
			t.Errorf("the analysis does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "you's") || strings.Contains(out, "You's") {
		t.Errorf("analysis:\n%s", out)
	}
}

func ptr[T any](v T) *T { return &v }
