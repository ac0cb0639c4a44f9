package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/rules"
)

// dragonPreset is the --rules name of Dragon Farkle. Dragon Farkle has its
// own package and rule set; a rule file is a Dragon Farkle file when it says
// base = "dragon".
const dragonPreset = "dragon"

// dragonCommands are the commands that play or describe Dragon Farkle.
const dragonCommands = "rules, score, odds, sim, play"

// resolveDragon reports whether spec names Dragon Farkle and, if so, loads
// its rules. Files that are not Dragon Farkle files return false, nil.
func resolveDragon(spec string) (dragon.Rules, bool, error) {
	if spec == dragonPreset {
		return dragon.DefaultRules(), true, nil
	}
	ext := strings.ToLower(filepath.Ext(spec))
	if ext != ".toml" && ext != ".json" {
		return dragon.Rules{}, false, nil
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		return dragon.Rules{}, false, nil // rules.Resolve reports it
	}
	var head struct {
		Base string `toml:"base" json:"base"`
	}
	if ext == ".json" {
		_ = json.Unmarshal(data, &head)
	} else {
		_, _ = toml.Decode(string(data), &head)
	}
	if head.Base != dragonPreset {
		return dragon.Rules{}, false, nil
	}
	var r dragon.Rules
	if ext == ".json" {
		r, err = dragon.ParseRulesJSON(data)
	} else {
		r, err = dragon.ParseRules(data)
	}
	if err != nil {
		return r, true, usagef("--rules %s: %v", spec, err)
	}
	if r.Name == dragonPreset {
		r.Name = strings.TrimSuffix(filepath.Base(spec), filepath.Ext(spec))
	}
	return r, true, nil
}

func dragonUnsupported(cmd string) error {
	return usagef("--rules dragon: farkle %s does not play Dragon Farkle (Dragon Farkle works with: %s)", cmd, dragonCommands)
}

// soldierOrRulesFlag is rulesFlag for commands where Dragon Farkle means
// its soldier table (score): the soldier table is a rules.Rules of its own.
func soldierOrRulesFlag(fs *flag.FlagSet) func() (rules.Rules, error) {
	resolve := rulesOrDragonFlag(fs)
	return func() (rules.Rules, error) {
		r, d, err := resolve()
		if d != nil {
			s := d.Soldiers
			s.Name = d.Name
			return s, nil
		}
		return r, err
	}
}
