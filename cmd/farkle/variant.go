package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// variantFlag adds --rules to fs; its function loads the game the value
// names (loadVariant).
func variantFlag(fs *flag.FlagSet) func() (game.Variant, error) {
	spec := fs.String("rules", rules.DefaultBase, "a preset ("+strings.Join(append(rules.Presets(), dragonPreset), ", ")+") or a rule file (.toml or .json)")
	return func() (game.Variant, error) { return loadVariant(*spec) }
}

// loadVariant loads the --rules value spec: a preset (dragonPreset is
// Dragon Farkle) or a rule file, .toml or .json, which is a Dragon Farkle
// file when it says base = "dragon". It is the one place the command line
// decides which game a rule set plays. Any failure (unknown preset,
// missing or malformed file, invalid rules) is bad input: a usage error.
func loadVariant(spec string) (game.Variant, error) {
	v, err := openVariant(spec)
	if err == nil {
		return v, nil
	}
	var fe *rules.FieldError
	if errors.As(err, &fe) || errors.Is(err, dragon.ErrInvalid) {
		return nil, usagef("--rules %s: %v", spec, err)
	}
	all := strings.Join(append(rules.Presets(), dragonPreset), ", ")
	if errors.Is(err, rules.ErrUnknownPreset) {
		return nil, usagef("--rules %s: unknown preset %q (presets: %s; or a .toml or .json rule file)", spec, spec, all)
	}
	// A file that cannot be read or parsed: say what --rules takes.
	return nil, usagef("--rules %s: %v (--rules takes a preset: %s; or a .toml or .json rule file)", spec, err, all)
}

// openVariant is loadVariant without the wording of its errors. A rule
// file is read once: its base decides which parser reads it.
func openVariant(spec string) (game.Variant, error) {
	if spec == dragonPreset {
		return game.NewDragon(dragon.MustGame(dragon.DefaultRules(), nil)), nil
	}
	ext := strings.ToLower(filepath.Ext(spec))
	if ext != ".toml" && ext != ".json" {
		r, err := rules.Resolve(spec) // a preset, or a file without extension (TOML)
		if err != nil {
			return nil, err
		}
		return game.NewFarkle(r)
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	name := strings.TrimSuffix(filepath.Base(spec), filepath.Ext(spec))
	var head struct {
		Base string `toml:"base" json:"base"`
	}
	parseFarkle, parseDragon := rules.ParseTOML, dragon.ParseRules
	if ext == ".json" {
		parseFarkle, parseDragon = rules.ParseJSON, dragon.ParseRulesJSON
		_ = json.Unmarshal(data, &head) // a malformed file is the parser's to report
	} else {
		_, _ = toml.Decode(string(data), &head)
	}
	if head.Base == dragonPreset {
		d, err := parseDragon(data)
		if err != nil {
			return nil, err
		}
		if d.Name == dragonPreset {
			d.Name = name
		}
		g, err := dragon.NewGame(d, nil)
		if err != nil {
			return nil, err
		}
		return game.NewDragon(g), nil
	}
	r, err := parseFarkle(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	if r.Name == "" {
		r.Name = name
	}
	return game.NewFarkle(r)
}

// rulesFlag is variantFlag for the commands that play only the ordinary
// game: Dragon Farkle is refused.
func rulesFlag(fs *flag.FlagSet) func() (rules.Rules, error) {
	resolve := variantFlag(fs)
	return func() (rules.Rules, error) {
		v, err := resolve()
		if err != nil {
			return rules.Rules{}, err
		}
		f, ok := v.(*game.FarkleVariant)
		if !ok {
			return rules.Rules{}, dragonUnsupported(strings.TrimPrefix(fs.Name(), "farkle "))
		}
		return f.RuleSet(), nil
	}
}

// soldierOrRulesFlag is rulesFlag for commands where Dragon Farkle means
// its soldier table (score): the soldier table is a rules.Rules of its own.
func soldierOrRulesFlag(fs *flag.FlagSet) func() (rules.Rules, error) {
	resolve := variantFlag(fs)
	return func() (rules.Rules, error) {
		v, err := resolve()
		if err != nil {
			return rules.Rules{}, err
		}
		return ruleSet(v), nil
	}
}

// ruleSet is the rules.Rules of a variant: the ordinary game's rules, or
// Dragon Farkle's soldier table under the Dragon rules' name.
func ruleSet(v game.Variant) rules.Rules {
	if f, ok := v.(*game.FarkleVariant); ok {
		return f.RuleSet()
	}
	d := v.(*game.DragonVariant).Game().Rules()
	s := d.Soldiers
	s.Name = d.Name
	return s
}
