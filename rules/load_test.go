package rules_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/farkle/farkle/rules"
)

// kitchen is examples/kitchen.toml (every field of a rule file), written out by hand.
func kitchen() rules.Rules {
	return rules.Rules{
		Name: "Our kitchen table",
		Base: "classic",
		Dice: 6,
		Scoring: rules.Scoring{
			Single:         map[string]int{"1": 100, "5": 50},
			Triple:         [6]int{1000, 200, 300, 400, 500, 600},
			KindMode:       "multiply",
			FourOfAKind:    1000,
			FiveOfAKind:    2000,
			SixOfAKind:     3000,
			Straight:       1500,
			ThreePairs:     750,
			ThreePairsQuad: true,
		},
		Turn: rules.Turn{HotDice: true, EntryMinimum: 500, FarklePenalty: rules.Penalty{Count: 3, Points: 1000}},
		Game: rules.Game{Target: 10000, Ending: "final-round", MinPlayers: 1, MaxPlayers: 8, FirstPlayer: "roll-off", Tie: "roll-off"},
	}
}

func TestKitchenExample(t *testing.T) {
	for _, path := range []string{"testdata/kitchen.toml", "../examples/kitchen.toml"} {
		t.Run(path, func(t *testing.T) {
			r, err := rules.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r, kitchen()) {
				t.Fatalf("Load(%s) =\n%+v\nwant\n%+v", path, r, kitchen())
			}
			r2, err := rules.Resolve(path)
			if err != nil || !reflect.DeepEqual(r2, r) {
				t.Fatalf("Resolve(%s) = %+v, %v", path, r2, err)
			}
		})
	}
}

func TestParseOverridesBase(t *testing.T) {
	tests := []struct {
		name, toml, json string
		want             func() rules.Rules
	}{
		{
			"no base is classic", `name = "x"`, `{"name":"x"}`,
			func() rules.Rules { r := rules.MustPreset("classic"); r.Name = "x"; return r },
		},
		{
			"pocket-farkel with a lower target",
			"base = \"pocket-farkel\"\n[game]\ntarget = 5000\n",
			`{"base":"pocket-farkel","game":{"target":5000}}`,
			func() rules.Rules {
				r := rules.MustPreset("pocket-farkel")
				r.Name, r.Base, r.Game.Target = "", "pocket-farkel", 5000
				return r
			},
		},
		{
			"farkle-dice entry variation and double kinds",
			"base = \"farkle-dice\"\n[turn]\nentry_minimum = 250\n[scoring]\nkind_mode = \"double\"\ntriple = [300, 200, 300, 400, 500, 600]\n",
			`{"base":"farkle-dice","turn":{"entry_minimum":250},"scoring":{"kind_mode":"double","triple":[300,200,300,400,500,600]}}`,
			func() rules.Rules {
				r := rules.MustPreset("farkle-dice")
				r.Name, r.Base = "", "farkle-dice"
				r.Turn.EntryMinimum = 250
				r.Scoring.KindMode = "double"
				r.Scoring.Triple[0] = 300
				return r
			},
		},
		{
			"penalty count only keeps the preset's points",
			"[turn.farkle_penalty]\ncount = 4\n",
			`{"turn":{"farkle_penalty":{"count":4}}}`,
			func() rules.Rules {
				r := rules.MustPreset("classic")
				r.Name = ""
				r.Turn.FarklePenalty.Count = 4
				return r
			},
		},
		{
			"single replaces the preset's table",
			"base = \"cardgames\"\n[scoring]\nsingle = { \"1\" = 150 }\n",
			`{"base":"cardgames","scoring":{"single":{"1":150}}}`,
			func() rules.Rules {
				r := rules.MustPreset("cardgames")
				r.Name, r.Base = "", "cardgames"
				r.Scoring.Single = map[string]int{"1": 150}
				return r
			},
		},
		{
			"single as a table replaces too",
			"[scoring.single]\n\"5\" = 75\n",
			`{"scoring":{"single":{"5":75}}}`,
			func() rules.Rules {
				r := rules.MustPreset("classic")
				r.Name = ""
				r.Scoring.Single = map[string]int{"5": 75}
				return r
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want()
			got, err := rules.ParseTOML([]byte(tt.toml))
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ParseTOML:\n got %+v, %v\nwant %+v", got, err, want)
			}
			got, err = rules.ParseJSON([]byte(tt.json))
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ParseJSON:\n got %+v, %v\nwant %+v", got, err, want)
			}
		})
	}
}

// tomlToJSON turns a TOML document into the JSON of the same fields.
func tomlToJSON(t *testing.T, doc string) string {
	t.Helper()
	var m map[string]any
	if _, err := toml.Decode(doc, &m); err != nil {
		t.Fatalf("test input %q is not TOML: %v", doc, err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRejected checks that unknown fields and impossible values are refused
// in TOML and JSON with an error that names the field.
func TestRejected(t *testing.T) {
	tests := []struct {
		name, doc string
		field     string   // FieldError.Field
		mention   []string // more words the message must hold (what is allowed)
	}{
		{"unknown top-level field", `colour = "red"`, "colour", []string{"allowed", "scoring"}},
		{"unknown scoring field", "[scoring]\nquad = true", "scoring.quad", []string{"three_pairs_quad"}},
		{"unknown table", "[extras]\nbeer = 1", "extras", nil},
		{"unknown penalty field", "[turn.farkle_penalty]\ncount = 3\nrounds = 2", "turn.farkle_penalty.rounds", []string{"count, points"}},
		{"field in the wrong table", "[game]\nentry_minimum = 500", "game.entry_minimum", nil},
		{"capitalised top-level field", `Name = "x"`, "Name", []string{"name"}},
		{"capitalised table", "[GAME]\ntarget = 500", "GAME", nil},
		{"capitalised field", "[game]\nTarget = 500", "game.Target", []string{"target"}},
		{"negative straight", "[scoring]\nstraight = -1500", "scoring.straight", []string{"negative"}},
		{"negative single", "[scoring]\nsingle = { \"1\" = -100 }", "scoring.single.1", []string{"negative"}},
		{"single of face 7", "[scoring]\nsingle = { \"7\" = 100 }", "scoring.single", []string{"\"1\" to \"6\""}},
		{"negative triple", "[scoring]\ntriple = [1000, 200, -300, 400, 500, 600]", "scoring.triple[2]", []string{"negative"}},
		{"negative penalty", "[turn]\nfarkle_penalty = { count = 3, points = -1 }", "turn.farkle_penalty.points", nil},
		{"negative entry", "[turn]\nentry_minimum = -50", "turn.entry_minimum", nil},
		{"target 0", "[game]\ntarget = 0", "game.target", []string{"positive"}},
		{"entry above target", "[game]\ntarget = 5000\n[turn]\nentry_minimum = 6000", "turn.entry_minimum", []string{"game.target"}},
		{"bank minimum above target", "[turn]\nbank_minimum = 20000", "turn.bank_minimum", []string{"game.target"}},
		{"straight on five dice", "dice = 5\n[scoring]\nstraight = 1000", "scoring.straight", []string{"6 dice"}},
		{"pocket-farkel on five dice", "base = \"pocket-farkel\"\ndice = 5", "scoring.straight", []string{"6 dice"}},
		{"small straight on four dice", "dice = 4\n[scoring]\nsmall_straight_low = 500", "scoring.small_straight_low", []string{"5 dice"}},
		{"seven dice", "dice = 7", "dice", []string{"1 to 6"}},
		{"no dice", "dice = 0", "dice", []string{"1 to 6"}},
		{"bad kind mode", "[scoring]\nkind_mode = \"triple\"", "scoring.kind_mode", []string{"none", "fixed", "multiply", "double"}},
		{"bad ending", "[game]\nending = \"sudden-death\"", "game.ending", []string{"final-round", "immediate"}},
		{"bad first player", "[game]\nfirst_player = \"youngest\"", "game.first_player", []string{"roll-off", "seat-order"}},
		{"bad tie", "[game]\ntie = \"coin\"", "game.tie", []string{"roll-off", "share"}},
		{"nine players", "[game]\nmax_players = 9", "game.max_players", []string{"8"}},
		{"no players", "[game]\nmin_players = 0", "game.min_players", []string{"1 to 8"}},
		{"min above max", "[game]\nmin_players = 5\nmax_players = 3", "game.max_players", nil},
		{"unknown base", `base = "yahtzee"`, "base", []string{"classic", "pocket-farkel"}},
		{"nothing scores", "[scoring]\nsingle = {}\ntriple = [0, 0, 0, 0, 0, 0]", "scoring", []string{"farkle"}},
	}
	for _, tt := range tests {
		for _, format := range []string{"toml", "json"} {
			t.Run(format+"/"+tt.name, func(t *testing.T) {
				var err error
				if format == "toml" {
					_, err = rules.ParseTOML([]byte(tt.doc))
				} else {
					_, err = rules.ParseJSON([]byte(tomlToJSON(t, tt.doc)))
				}
				checkFieldError(t, err, tt.field, tt.mention...)
			})
		}
	}
}

func checkFieldError(t *testing.T, err error, field string, mention ...string) {
	t.Helper()
	var fe *rules.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a *rules.FieldError for %s", err, field)
	}
	if fe.Field != field {
		t.Fatalf("error %q names field %q, want %q", err, fe.Field, field)
	}
	if !errors.Is(err, rules.ErrInvalid) {
		t.Errorf("error %q does not wrap ErrInvalid", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "rules: ") || !strings.Contains(msg, field) {
		t.Errorf("error %q lacks the package prefix or the field", msg)
	}
	for _, m := range mention {
		if !strings.Contains(msg, m) {
			t.Errorf("error %q does not mention %q", msg, m)
		}
	}
}

// TestRejectedJSONShapes covers JSON inputs that TOML cannot express the
// same way.
func TestRejectedJSONShapes(t *testing.T) {
	tests := []struct {
		name, doc, field string
	}{
		{"short triple", `{"scoring":{"triple":[1000,200,300]}}`, "scoring.triple"},
		{"long triple", `{"scoring":{"triple":[1000,200,300,400,500,600,700]}}`, "scoring.triple"},
		{"unknown nested", `{"turn":{"farkle_penalty":{"count":3,"points":1000,"x":1}}}`, "turn.farkle_penalty.x"},
		{"capitalised", `{"Scoring":{}}`, "Scoring"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rules.ParseJSON([]byte(tt.doc))
			checkFieldError(t, err, tt.field)
		})
	}
	for _, bad := range []string{``, `[]`, `{"dice":"six"}`, `{"scoring":5}`, `{"name":1}`, `{} {}`} {
		if _, err := rules.ParseJSON([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "rules: ") {
			t.Errorf("ParseJSON(%s) = %v, want a rules: error", bad, err)
		}
	}
	for _, bad := range []string{`dice = `, `dice = "six"`, "[scoring]\ntriple = [1, 2]", `scoring = 5`, "[[game]]\ntarget = 1"} {
		if _, err := rules.ParseTOML([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "rules: ") {
			t.Errorf("ParseTOML(%q) = %v, want a rules: error", bad, err)
		}
	}
}

// roundTripRules are the presets and a few custom rule sets.
func roundTripRules() map[string]rules.Rules {
	out := map[string]rules.Rules{"kitchen": kitchen()}
	for _, name := range rules.Presets() {
		out[name] = rules.MustPreset(name)
	}
	r := rules.MustPreset("classic")
	r.Name = "odd"
	r.Scoring.Single = map[string]int{"2": 20}
	r.Scoring.KindMode = rules.KindDouble
	r.Scoring.SmallStraightLow, r.Scoring.FourKindPair, r.Scoring.SixDiceNothing = 500, 1500, 500
	r.Game.Tie, r.Game.FirstPlayer = rules.Share, rules.SeatOrder
	out["odd"] = r
	r = rules.MustPreset("classic")
	r.Name = "no singles"
	r.Scoring.Single = map[string]int{}
	out["no-singles"] = r
	return out
}

func TestTOMLRoundTrip(t *testing.T) {
	for name, r := range roundTripRules() {
		t.Run(name, func(t *testing.T) {
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			back, err := rules.ParseTOML(r.TOML())
			if err != nil {
				t.Fatalf("ParseTOML(TOML()) = %v\n%s", err, r.TOML())
			}
			if !reflect.DeepEqual(back, r) {
				t.Fatalf("round trip changed the rules:\n got %+v\nwant %+v\n%s", back, r, r.TOML())
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			back, err = rules.ParseJSON(b)
			if err != nil || !reflect.DeepEqual(back, r) {
				t.Fatalf("JSON round trip: %+v, %v", back, err)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A file without a name is named after the file.
	p := write("house.json", `{"base":"pocket-farkel","game":{"target":5000}}`)
	r, err := rules.Resolve(p)
	if err != nil || r.Name != "house" || r.Game.Target != 5000 || r.Scoring.Straight != 1500 {
		t.Fatalf("Resolve(%s) = %+v, %v", p, r, err)
	}
	p = write("quick", "[game]\ntarget = 2000\n") // no extension: TOML
	if r, err := rules.Resolve(p); err != nil || r.Name != "quick" || r.Game.Target != 2000 {
		t.Fatalf("Resolve(%s) = %+v, %v", p, r, err)
	}
	// A bad file names the file and the field.
	p = write("bad.toml", "[game]\ntarget = 0\n")
	_, err = rules.Resolve(p)
	checkFieldError(t, err, "game.target")
	if !strings.Contains(err.Error(), p) {
		t.Errorf("error %q does not name the file", err)
	}
	// A missing file is an error, not a preset lookup.
	if _, err := rules.Resolve(filepath.Join(dir, "missing.toml")); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("missing file: %v", err)
	}
	if r, err := rules.Resolve(""); err != nil || r.Name != rules.DefaultBase {
		t.Errorf(`Resolve("") = %v, %v; want the default preset`, r.Name, err)
	}
}

// TestReadmeExample parses the rule-file example of the README.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "```toml\n")
	if i < 0 {
		t.Fatal("README has no ```toml example")
	}
	s = s[i+len("```toml\n"):]
	r, err := rules.ParseTOML([]byte(s[:strings.Index(s, "```")]))
	if err != nil {
		t.Fatalf("the README's example does not parse: %v", err)
	}
	if r.Base != "classic" || r.Scoring.Straight == 0 || r.Turn.EntryMinimum == 0 {
		t.Fatalf("README example read as %+v", r)
	}
}
