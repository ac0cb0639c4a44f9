package tui

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

func TestParsePlayers(t *testing.T) {
	classic := rules.MustPreset("classic")
	ok := map[string][]Seat{
		"you,bot:steady":                 {{Name: "you"}, {Name: "steady", Bot: "steady"}},
		" ana , bob ":                    {{Name: "ana"}, {Name: "bob"}},
		"bot:steady,bot:steady":          {{Name: "steady", Bot: "steady"}, {Name: "steady-2", Bot: "steady"}},
		"steady,bot:steady":              {{Name: "steady"}, {Name: "steady-2", Bot: "steady"}},
		"rob=bot:steady,you":             {{Name: "rob", Bot: "steady"}, {Name: "you"}},
		"ana":                            {{Name: "ana"}},
		"Zoë the Great,bot:steady":       {{Name: "Zoë the Great"}, {Name: "steady", Bot: "steady"}},
		"a,b,c,d,e,f,g,h":                {{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}, {Name: "g"}, {Name: "h"}},
		"bot:steady,steady-2,bot:steady": {{Name: "steady", Bot: "steady"}, {Name: "steady-2"}, {Name: "steady-3", Bot: "steady"}},
	}
	for spec, want := range ok {
		t.Run(spec, func(t *testing.T) {
			got, err := ParsePlayers(spec, classic)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
	bad := map[string]string{
		"":                      "empty name",
		"ana,,bob":              "empty name",
		"ana,ANA":               "unique",
		"bot:genius":            "unknown bot level",
		"rob=steady":            "bot:LEVEL",
		"a,b,c,d,e,f,g,h,i":     "1 to 8",
		"abcdefghijklmnopqrstu": "at most 16",
		"ana\x01":               "control",
	}
	for spec, want := range bad {
		t.Run("bad "+spec, func(t *testing.T) {
			_, err := ParsePlayers(spec, classic)
			if !errors.Is(err, ErrPlayers) || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want an ErrPlayers saying %q", err, want)
			}
		})
	}
	if _, err := ParsePlayers("a,b,c", rules.MustPreset("cardgames")); err == nil || !strings.Contains(err.Error(), "2 to 2") {
		t.Fatalf("cardgames is for two: %v", err)
	}
}

func TestRulesTextShowsTheRulesInForce(t *testing.T) {
	r := rules.MustPreset("classic")
	r.Name = "house"
	r.Scoring.Triple[1] = 250
	r.Scoring.Straight = 1234
	r.Turn.EntryMinimum = 750
	r.Turn.HotDice = false
	r.Game.Ending = rules.EndImmediate
	r.Turn.FarklePenalty = rules.Penalty{Count: 2, Points: 300}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	lines := RulesText(r, 60)
	text := strings.Join(lines, "\n")
	for _, want := range []string{"house", "2s=250", "1s=1,000", "1=100", "5=50", "1,234", "750 or more", "wins at once", "No hot dice", "2 farkles in a row cost 300"} {
		if !strings.Contains(text, want) {
			t.Errorf("the rules text does not say %q:\n%s", want, text)
		}
	}
	for _, absent := range []string{"2s=200", "three pairs", "four of a kind"} {
		if strings.Contains(text, absent) {
			t.Errorf("the rules text says %q, which these rules do not have", absent)
		}
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 60 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

func TestPointsAdvisor(t *testing.T) {
	r := seatOrder("classic")
	seed := seedWhere(t, "advise", func(h dice.Hand) bool {
		return h.Count(1) == 2 && h.Count(5) == 1 && !dice.NewTable(rules.MustPreset("classic")).Farkle(h)
	})
	g, err := NewGame(r, []Seat{{Name: "ana"}}, seed, "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Do(engine.ThrowBy(0)); err != nil {
		t.Fatal(err)
	}
	adv, err := PointsAdvisor{}.Advise(g.State())
	if err != nil {
		t.Fatal(err)
	}
	if adv.Measure != PointsNow || len(adv.Choices) != len(g.State().Table().Keeps(g.State().Throw)) {
		t.Fatalf("advice %+v", adv)
	}
	if adv.Choices[0].Value < 250 {
		t.Fatalf("the best keep of %v scores at least 1-1-5 = 250, advice says %v", g.State().Throw, adv.Choices[0].Value)
	}
	for i := 1; i < len(adv.Choices); i++ {
		if adv.Choices[i].Value > adv.Choices[i-1].Value {
			t.Fatalf("choices not best first: %+v", adv.Choices)
		}
	}
	if _, err := g.Do(engine.KeepBy(0, dice.Of(1))); err != nil {
		t.Fatal(err)
	}
	adv, _ = PointsAdvisor{}.Advise(g.State())
	labels := []string{}
	for _, c := range adv.Choices {
		labels = append(labels, c.Label()+" "+adv.Format(c.Value))
	}
	if !reflect.DeepEqual(labels, []string{"bank 100", "throw -"}) {
		t.Fatalf("after keeping a 1: %v", labels)
	}
}

func TestGamesDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"FARKLE_DATA_DIR": "/d", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/d/games"},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/farkle/games"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/farkle/games"},
	}
	for _, c := range cases {
		got, err := GamesDir(env(c.env))
		if err != nil || got != c.want {
			t.Errorf("%v: got %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	if _, err := GamesDir(env(nil)); !errors.Is(err, ErrSave) {
		t.Errorf("no directory at all: %v", err)
	}
}

func TestResumeRefusals(t *testing.T) {
	dir := t.TempDir()
	path := GamePath(dir, fixedNow(), []string{"Ana B.", "steady"})
	if filepath.Base(path) != "20261129-120000-ana_b_-steady.json" {
		t.Fatalf("file name %q", filepath.Base(path))
	}
	g, err := NewGame(seatOrder("classic"), []Seat{{Name: "Ana B."}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom("r"), path, fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Do(engine.ThrowBy(0)); err != nil {
		t.Fatal(err)
	}
	if err := g.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := ResumeGame(path, fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Seats()[1].Bot != "steady" || back.State().Throw != g.State().Throw {
		t.Fatalf("resumed seats %v, throw %v", back.Seats(), back.State().Throw)
	}
	seedFile := SeedPath(path)
	good, _ := os.ReadFile(seedFile)
	for name, c := range map[string]struct {
		seed string
		want string
	}{
		"wrong seed": {dice.SeedFrom("other").Hex() + "\n", "commitment"},
		"not a seed": {"hello\n", "64 hex digits"},
		"no seed":    {"", "cannot be read"},
	} {
		t.Run(name, func(t *testing.T) {
			if c.seed == "" {
				os.Remove(seedFile)
			} else if err := os.WriteFile(seedFile, []byte(c.seed), 0o600); err != nil {
				t.Fatal(err)
			}
			defer os.WriteFile(seedFile, good, 0o600)
			if _, err := ResumeGame(path, fixedNow, nil); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func TestDescribeForYou(t *testing.T) {
	names := []string{"you", "bayou"}
	cases := map[string]engine.Event{
		"your turn":                            {Kind: engine.EvTurn},
		"you throw 1 2":                        {Kind: engine.EvThrow, Dice: dice.Of(1, 2)},
		"bayou throws 1 2":                     {Kind: engine.EvThrow, Player: 1, Dice: dice.Of(1, 2)},
		"you farkle and lose 300 (1 in a row)": {Kind: engine.EvFarkle, Total: 300, Streak: 1},
		"you farkle (2 in a row)":              {Kind: engine.EvFarkle, Total: 0, Streak: 2},
		"bayou farkles (1 in a row)":           {Kind: engine.EvFarkle, Player: 1, Streak: 1},
		"you keep 1 for 100 (turn 100)":        {Kind: engine.EvKeep, Dice: dice.Of(1), Points: 100, Total: 100},
		"game over: you win with 10,000":       {Kind: engine.EvGameOver, Players: []int{0}, Score: 10000},
		"bayou's turn":                         {Kind: engine.EvTurn, Player: 1},
	}
	for want, e := range cases {
		if got := Describe(e, names); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
