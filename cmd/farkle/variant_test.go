package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// TestLoadVariant: every preset, and rule files of both games in both
// formats, load as the game they name, with the name they give (or the
// file's); anything else is a usage error.
func TestLoadVariant(t *testing.T) {
	for _, name := range rules.Presets() {
		v, err := loadVariant(name)
		f, ok := v.(*game.FarkleVariant)
		if err != nil || !ok || f.RuleSet().Hash() != rules.MustPreset(name).Hash() || v.Name() != name {
			t.Errorf("%s: %T %v", name, v, err)
		}
	}
	if v, err := loadVariant(dragonPreset); err != nil || v.Kind() != game.Dragon || v.Name() != "dragon" {
		t.Errorf("dragon: %v %v", v, err)
	}
	classic := rules.MustPreset("classic")
	classic.Game.Target = 2500
	for _, c := range []struct {
		file, body string
		kind       game.Kind
		name       string
		check      func(game.Variant) bool
	}{
		{"short.toml", "base = \"classic\"\n[game]\ntarget = 2500\n", game.Farkle, "short", func(v game.Variant) bool {
			r := v.Scoring()
			r.Name = classic.Name
			return r.Hash() == classic.Hash()
		}},
		{"short.json", `{"base":"classic","name":"mine","game":{"target":2500}}`, game.Farkle, "mine", func(v game.Variant) bool {
			return v.(*game.FarkleVariant).RuleSet().Game.Target == 2500
		}},
		{"nobase.toml", "[game]\ntarget = 3000\n", game.Farkle, "nobase", func(v game.Variant) bool {
			return v.(*game.FarkleVariant).RuleSet().Game.Target == 3000
		}},
		{"quick.toml", "base = \"dragon\"\nbattle_minimum = 3000\n", game.Dragon, "quick", func(v game.Variant) bool {
			return v.(*game.DragonVariant).Game().Rules().BattleMinimum == 3000
		}},
		{"quick.json", `{"base":"dragon","battle_minimum":4000,"name":"fast"}`, game.Dragon, "fast", func(v game.Variant) bool {
			d := v.(*game.DragonVariant).Game().Rules()
			return d.BattleMinimum == 4000 && v.Scoring().Hash() == dragon.DefaultRules().Soldiers.Hash()
		}},
	} {
		v, err := loadVariant(writeTestFile(t, c.file, c.body))
		if err != nil || v.Kind() != c.kind || v.Name() != c.name || !c.check(v) {
			t.Errorf("%s: %v, %v", c.file, v, err)
		}
	}
	for _, bad := range []string{
		"no-such-preset",
		writeTestFile(t, "broken.toml", "base = \n"),
		writeTestFile(t, "broken.json", `{"base":"dragon",`),
		writeTestFile(t, "invalid.toml", "base = \"dragon\"\nbattle_minimum = -1\n"),
		writeTestFile(t, "invalid.json", `{"base":"classic","game":{"target":0}}`),
		writeTestFile(t, "unknown.toml", "base = \"dragon\"\nsoldierz = 1\n"),
		t.TempDir() + "/missing.toml",
	} {
		var u *usageError
		if v, err := loadVariant(bad); !errors.As(err, &u) || v != nil {
			t.Errorf("%s: %v, %v; want a usage error", bad, v, err)
		}
	}
}

// FuzzLoadVariant: whatever a rule file holds, loadVariant returns a game
// whose kind the file's base says, or a usage error; it never panics.
func FuzzLoadVariant(f *testing.F) {
	for _, seed := range []string{
		"base = \"dragon\"\nbattle_minimum = 3000\n", "base = \"classic\"\n[game]\ntarget = 2500\n",
		`{"base":"dragon","round_limit":5}`, `{"base":"pocket-farkel","dice":5}`, "base = \"dragon\"\nbase = 1\n", `{"base":`,
	} {
		f.Add(seed, seed[0] == '{')
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body string, asJSON bool) {
		path := filepath.Join(dir, "rules.toml")
		if asJSON {
			path = filepath.Join(dir, "rules.json")
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := loadVariant(path)
		var u *usageError
		if err != nil {
			if v != nil || !errors.As(err, &u) {
				t.Fatalf("%q: %v, %v", body, v, err)
			}
			return
		}
		if v.Kind() == game.Dragon && !strings.Contains(body, "dragon") {
			t.Fatalf("%q: Dragon Farkle from a file that does not say so", body)
		}
		if open, err := game.Open(v.Kind(), v.Rules()); err != nil || open.Name() != v.Name() {
			t.Fatalf("%q: the variant's rules do not open again: %v", body, err)
		}
	})
}
