package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// presetNames lists every preset --rules takes: the ordinary game's, then
// those of other kinds of game (game.Preset: "dragon").
func presetNames() []string { return append(rules.Presets(), game.PresetNames()...) }

// variantFlag adds --rules to fs; its function loads the game the value
// names (loadVariant).
func variantFlag(fs *flag.FlagSet) func() (game.Variant, error) {
	spec := fs.String("rules", rules.DefaultBase, "a preset ("+strings.Join(presetNames(), ", ")+") or a rule file (.toml or .json)")
	return func() (game.Variant, error) { return loadVariant(*spec) }
}

// loadVariant loads the --rules value spec: a preset (game.Preset names
// those of other kinds than the ordinary game: "dragon" is Dragon Farkle)
// or a rule file, .toml or .json, which is of another kind when its base
// names that kind's preset (game.ParseRuleFile). It is the one place the
// command line decides which game a rule set plays. Any failure (unknown
// preset, missing or malformed file, invalid rules) is bad input: a usage
// error.
func loadVariant(spec string) (game.Variant, error) {
	v, err := openVariant(spec)
	if err == nil {
		return v, nil
	}
	if game.InvalidRules(err) {
		return nil, usageMsg("cli.err.flagValue", "flag", "rules", "value", spec, "err", err)
	}
	all := strings.Join(presetNames(), ", ")
	if errors.Is(err, rules.ErrUnknownPreset) {
		return nil, usageMsg("cli.err.unknownPreset", "spec", spec, "presets", all)
	}
	// A file that cannot be read or parsed: say what --rules takes.
	return nil, usageMsg("cli.err.rulesFile", "value", spec, "err", err, "presets", all)
}

// openVariant is loadVariant without the wording of its errors. A rule
// file is read once: its base decides which parser reads it.
func openVariant(spec string) (game.Variant, error) {
	if v, ok := game.Preset(spec); ok {
		return v, nil
	}
	ext := strings.ToLower(filepath.Ext(spec))
	if ext != ".toml" && ext != ".json" {
		r, err := rules.Resolve(spec) // a preset, or a file without extension (TOML)
		if err != nil {
			return nil, err
		}
		return game.NewFarkle(r)
	}
	data, err := rules.ReadFile(spec)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(spec), filepath.Ext(spec))
	if v, ok, err := game.ParseRuleFile(data, ext == ".json", name); ok {
		return v, err
	}
	parse := rules.ParseTOML
	if ext == ".json" {
		parse = rules.ParseJSON
	}
	r, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	if r.Name == "" {
		r.Name = name
	}
	return game.NewFarkle(r)
}

// rulesFlag is variantFlag for the commands that play only the ordinary
// game: another kind is refused (its view says what it works with).
func rulesFlag(fs *flag.FlagSet) func() (rules.Rules, error) {
	resolve := variantFlag(fs)
	return func() (rules.Rules, error) {
		v, err := resolve()
		if err != nil {
			return rules.Rules{}, err
		}
		if o, ok := ownViews[v.Kind()]; ok {
			return rules.Rules{}, o.unsupported(strings.TrimPrefix(fs.Name(), "farkle "))
		}
		return v.Scoring(), nil
	}
}

// soldierOrRulesFlag is rulesFlag for commands where another kind means
// the rules its throws score by (score: Dragon Farkle's soldier table).
func soldierOrRulesFlag(fs *flag.FlagSet) func() (rules.Rules, error) {
	resolve := variantFlag(fs)
	return func() (rules.Rules, error) {
		v, err := resolve()
		if err != nil {
			return rules.Rules{}, err
		}
		return v.Scoring(), nil
	}
}
