package game

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/BurntSushi/toml"
)

// preset is a variant named by a preset of its own and how a rule file
// based on it is read.
type preset struct {
	// open returns the preset, made once and shared (a variant is
	// immutable).
	open func() Variant
	// parse reads a rule file whose base names the preset (TOML, or JSON
	// with asJSON), named name when the file gives no name of its own.
	parse func(data []byte, asJSON bool, name string) (Variant, error)
}

// presets are the variants named by a preset of their own, beyond the
// ordinary game's rule presets (rules.Presets): "dragon", Dragon Farkle
// with its default rules and cards.
var presets = map[string]preset{
	"dragon": {open: func() Variant { return defaultDragon() }, parse: parseDragonFile},
}

// Preset returns the variant a preset name of a kind other than the
// ordinary game stands for ("dragon": Dragon Farkle with its default rules
// and cards); ok is false for any other name (the ordinary game's presets
// are rules.Preset's). Every call returns the same variant.
func Preset(name string) (v Variant, ok bool) {
	p, ok := presets[name]
	if !ok {
		return nil, false
	}
	return p.open(), true
}

// ParseRuleFile reads a rule file (TOML, or JSON with asJSON) whose base
// names a preset of Preset's ("base = "dragon""): that kind's rules, named
// name when the file gives no name of its own. ok is false, and nothing is
// read, when the base is none of them: an ordinary rule file
// (rules.ParseTOML, rules.ParseJSON). A malformed file is ok false: the
// ordinary parser reports it.
func ParseRuleFile(data []byte, asJSON bool, name string) (v Variant, ok bool, err error) {
	var head struct {
		Base string `toml:"base" json:"base"`
	}
	if asJSON {
		_ = json.Unmarshal(data, &head)
	} else {
		_, _ = toml.Decode(string(data), &head)
	}
	p, ok := presets[head.Base]
	if !ok {
		return nil, false, nil
	}
	v, err = p.parse(data, asJSON, name)
	return v, true, err
}

// PresetNames lists the names Preset knows, sorted.
func PresetNames() []string { return slices.Sorted(maps.Keys(presets)) }

// PresetOf returns the name of the preset of kind k, ok false when k has
// none (the ordinary game, whose rule sets are rules.Rules).
func PresetOf(k Kind) (name string, ok bool) {
	for _, n := range PresetNames() {
		if v, _ := Preset(n); v.Kind() == k {
			return n, true
		}
	}
	return "", false
}
