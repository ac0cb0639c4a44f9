package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/rules"
)

func TestRulesPrintsTOML(t *testing.T) {
	kitchen := "../../examples/kitchen.toml"
	fromFile, err := rules.Load(kitchen)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want rules.Rules
	}{
		{"default", nil, rules.MustPreset("classic")},
		{"pocket-farkel", []string{"--rules", "pocket-farkel"}, rules.MustPreset("pocket-farkel")},
		{"file", []string{"--rules", kitchen}, fromFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runFarkle(t, "", append([]string{"rules"}, tt.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			got, err := rules.ParseTOML([]byte(stdout))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("output does not parse back to the rules: %v\n%s", err, stdout)
			}
			stdout, _, code = runFarkle(t, "", append([]string{"rules", "--json"}, tt.args...)...)
			got, err = rules.ParseJSON([]byte(stdout))
			if code != 0 || err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("--json output does not parse back: exit %d, %v\n%s", code, err, stdout)
			}
		})
	}
}

func TestRulesList(t *testing.T) {
	stdout, stderr, code := runFarkle(t, "", "rules", "--list")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	names := append(rules.Presets(), dragonPreset) // Dragon Farkle comes last
	if len(lines) != 1+len(names) {
		t.Fatalf("want a head and %d rows:\n%s", len(names), stdout)
	}
	col := strings.Index(lines[0], "description")
	for i, name := range names {
		line := lines[i+1]
		if !strings.HasPrefix(line, name+" ") || len(line) <= col || line[col-1] != ' ' || line[col] == ' ' {
			t.Errorf("row %q: not %s with its description in column %d", line, name, col)
		}
	}
	stdout, _, code = runFarkle(t, "", "rules", "--list", "--json")
	var list []struct {
		Name, Description, Hash string
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, stdout)
	}
	if len(list) != len(names) {
		t.Fatalf("%d presets in JSON, want %d", len(list), len(names))
	}
	for i, p := range list {
		if p.Name == dragonPreset && i == len(list)-1 {
			continue // its own rule set: checked in dragon_test.go
		}
		if p.Name != names[i] || p.Hash != rules.MustPreset(p.Name).Hash() || strings.Contains(p.Description, "\n") {
			t.Errorf("entry %d: %+v", i, p)
		}
		if !strings.HasPrefix(p.Description, presetSources[p.Name]+": ") {
			t.Errorf("%s: description %q does not start with its source", p.Name, p.Description)
		}
	}
}

// TestPresetDescriptions: every preset names its source, and the summary
// follows the rules (checked on facts from docs/RULES.md section 3).
func TestPresetDescriptions(t *testing.T) {
	for _, name := range rules.Presets() {
		if presetSources[name] == "" {
			t.Errorf("preset %s has no source in presetSources", name)
		}
	}
	want := map[string][]string{
		"classic":       {"three 1s 1000", "no 4-6 of a kind", "3 farkles -1000", "final round"},
		"pocket-farkel": {"three 1s 300", "1000/2000/3000", "straight 1500", "three pairs 1500", "two triplets 2500"},
		"farkle-dice":   {"×2/×3/×4", "straight 1000", "three pairs 750", "entry 500"},
		"cardgames":     {"straight 2500", "immediate", "2 players"},
	}
	for name, facts := range want {
		d := describe(name, rules.MustPreset(name))
		for _, f := range facts {
			if !strings.Contains(d, f) {
				t.Errorf("%s: %q lacks %q", name, d, f)
			}
		}
	}
}
