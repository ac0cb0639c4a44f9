package dragon_test

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dragon"
)

// TestRulesDocOptions checks the Dragon Farkle options table of
// docs/RULES.md section 5 against DefaultRules: every option of a Dragon
// rule file has a row, and the row's preset value is DefaultRules' value.
func TestRulesDocOptions(t *testing.T) {
	b, err := os.ReadFile("../docs/RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## 5. Dragon Farkle\n")
	if !ok {
		t.Fatal("docs/RULES.md has no section 5. Dragon Farkle")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")

	want := map[string]string{} // option -> DefaultRules' value as the table writes it
	def := reflect.ValueOf(dragon.DefaultRules())
	for i := range def.NumField() {
		name, _, _ := strings.Cut(def.Type().Field(i).Tag.Get("toml"), ",")
		if name == "name" || name == "base" || name == "soldiers" {
			continue
		}
		f := def.Field(i)
		switch {
		case f.Kind() == reflect.Array:
			parts := make([]string, f.Len())
			for j := range parts {
				parts[j] = fmt.Sprint(f.Index(j).Interface())
			}
			want[name] = strings.Join(parts, ", ")
		case f.Kind() == reflect.String && f.String() == "":
			want[name] = "none"
		default:
			want[name] = fmt.Sprint(f.Interface())
		}
	}

	seen := map[string]bool{}
	for line := range strings.SplitSeq(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			continue
		}
		var keys, vals []string
		for k := range strings.SplitSeq(cells[0], ",") {
			keys = append(keys, strings.Trim(strings.TrimSpace(k), "`"))
		}
		for _, k := range keys {
			w, ok := want[k]
			if !ok {
				t.Errorf("row %q: %s is not an option of dragon.Rules", strings.TrimSpace(cells[0]), k)
				continue
			}
			seen[k] = true
			vals = append(vals, w)
		}
		if got, w := strings.TrimSpace(cells[1]), strings.Join(vals, ", "); got != w {
			t.Errorf("row %s: the table says %q, DefaultRules has %q", strings.TrimSpace(cells[0]), got, w)
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("option %s has no row in docs/RULES.md section 5", k)
		}
	}
}
