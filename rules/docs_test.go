package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/farkle/farkle/rules"
)

// rulesDoc is the project's description of the rules.
const rulesDoc = "../docs/RULES.md"

// presetRows returns every option of r as it is written in the preset
// table of docs/RULES.md: the dotted name of the field in a rule file and
// its value (name and base left out).
func presetRows(r rules.Rules) map[string]string {
	rows := map[string]string{}
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
			if prefix == "" && (name == "name" || name == "base") {
				continue
			}
			key := prefix + name
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Struct:
				walk(key+".", f)
			case reflect.Map:
				var faces []string
				for _, k := range f.MapKeys() {
					if f.MapIndex(k).Int() != 0 {
						faces = append(faces, fmt.Sprintf("%s = %d", k.String(), f.MapIndex(k).Int()))
					}
				}
				sort.Strings(faces)
				rows[key] = strings.Join(faces, ", ")
			case reflect.Array:
				parts := make([]string, f.Len())
				for j := range parts {
					parts[j] = fmt.Sprint(f.Index(j).Interface())
				}
				rows[key] = strings.Join(parts, ", ")
			case reflect.String:
				rows[key] = f.String()
				if rows[key] == "" {
					rows[key] = "—" // an option left out
				}
			default:
				rows[key] = fmt.Sprint(f.Interface())
			}
		}
	}
	walk("", reflect.ValueOf(r))
	return rows
}

// TestRulesDocPresetTable checks the preset table of docs/RULES.md against
// the presets: one column per preset, one row per option of a rule file,
// every cell the preset's value. A new option or preset fails it until the
// table has it.
func TestRulesDocPresetTable(t *testing.T) {
	b, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	table := map[string][]string{} // option -> cells
	var order []string
	for line := range strings.SplitSeq(string(b), "\n") {
		cells := splitRow(line)
		switch {
		case header == nil && len(cells) > 1 && cells[0] == "option":
			header = cells[1:]
		case header != nil && len(table) > 0 && cells == nil:
			goto done // the end of the table
		case header != nil && len(cells) > 0 && strings.HasPrefix(cells[0], "`"):
			opt := strings.Trim(cells[0], "`")
			if _, dup := table[opt]; dup {
				t.Errorf("option %s has two rows", opt)
			}
			table[opt] = cells[1:]
			order = append(order, opt)
		}
	}
done:
	if header == nil {
		t.Fatalf("%s has no preset table (a row starting with | option |)", rulesDoc)
	}
	if presets := rules.Presets(); !slices.Equal(sortedCopy(header), presets) {
		t.Fatalf("the preset table's columns are %v, the presets %v", header, presets)
	}
	want := map[string]map[string]string{}
	for _, p := range header {
		want[p] = presetRows(rules.MustPreset(p))
	}
	for opt := range want[header[0]] {
		if _, ok := table[opt]; !ok {
			t.Errorf("option %s has no row in the preset table", opt)
		}
	}
	for _, opt := range order {
		cells := table[opt]
		if len(cells) != len(header) {
			t.Errorf("row %s has %d cells, want %d", opt, len(cells), len(header))
			continue
		}
		for i, p := range header {
			w, ok := want[p][opt]
			if !ok {
				t.Errorf("row %s is not an option of a rule file", opt)
				break
			}
			if cells[i] != w {
				t.Errorf("%s %s: the table says %q, the preset has %q", p, opt, cells[i], w)
			}
		}
	}
}

// TestRulesDocExamples parses every TOML example of docs/RULES.md.
func TestRulesDocExamples(t *testing.T) {
	b, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	rest, n := string(b), 0
	for {
		_, block, ok := strings.Cut(rest, "```toml\n")
		if !ok {
			break
		}
		block, rest, _ = strings.Cut(block, "```")
		n++
		if _, err := rules.ParseTOML([]byte(block)); err != nil {
			t.Errorf("TOML example %d does not parse: %v\n%s", n, err, block)
		}
	}
	if n == 0 {
		t.Fatalf("%s has no TOML example", rulesDoc)
	}
}

// splitRow returns the trimmed cells of a Markdown table row, or nil for a
// line that is not one.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") {
		return nil
	}
	cells := strings.Split(line[1:len(line)-1], "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}

// TestDocLinksResolve checks that every relative link of the project's
// Markdown files names a file of the repository.
func TestDocLinksResolve(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../README.md", "../dragon/RULES-DECISIONS.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", f, m[1])
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative links found: the test reads nothing")
	}
}
