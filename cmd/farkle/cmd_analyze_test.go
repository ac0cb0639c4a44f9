package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/farkle/farkle/engine"
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
