package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/bot"
)

// commandFlags runs farkle NAME -h and returns the flags it lists.
func commandFlags(t *testing.T, name string) []string {
	t.Helper()
	out, errOut, code := execFarkle(t, "", name, "-h")
	if code != 0 {
		t.Fatalf("farkle %s -h: exit %d, %s", name, code, errOut)
	}
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(out, -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// readmeUsage returns the README's command section: from "## Usage" to the
// next section of the same level.
func readmeUsage(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, usage, ok := strings.Cut(string(b), "\n## Usage\n")
	if !ok {
		t.Fatal("the README has no Usage section")
	}
	usage, _, _ = strings.Cut(usage, "\n## ")
	return usage
}

// backticked returns the `names` of a README phrase.
func backticked(s string) []string {
	var names []string
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

// TestReadmeCommands: what the README's command section says of the
// commands is what the binary does: every example's command exists and
// takes every flag the example gives it, and the commands said to take
// --rules and --json are exactly the ones whose -h lists them.
func TestReadmeCommands(t *testing.T) {
	usage := readmeUsage(t)
	flags := map[string][]string{}
	var withRules, withJSON []string
	for _, name := range commandNames() {
		flags[name] = commandFlags(t, name)
		if slices.Contains(flags[name], "rules") {
			withRules = append(withRules, name)
		}
		if slices.Contains(flags[name], "json") {
			withJSON = append(withJSON, name)
		}
	}

	examples := 0
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(usage, -1) {
		for _, line := range strings.Split(block[1], "\n") {
			cmdLine, _, _ := strings.Cut(line, "#")
			f := strings.Fields(cmdLine)
			i := slices.Index(f, "farkle")
			if i < 0 {
				continue
			}
			if i+1 >= len(f) {
				t.Errorf("README: %q names no command", line)
				continue
			}
			examples++
			name := f[i+1]
			known, ok := flags[name]
			if !ok {
				t.Errorf("README: %q: farkle has no command %s", line, name)
				continue
			}
			for _, w := range f[i+2:] {
				if flag, ok := strings.CutPrefix(w, "--"); ok {
					flag, _, _ = strings.Cut(flag, "=")
					if !slices.Contains(known, flag) {
						t.Errorf("README: %q: farkle %s has no flag --%s (it has %v)", line, name, flag, known)
					}
				}
			}
		}
	}
	if examples < 20 {
		t.Errorf("found %d examples in the README's command section, want its 20 or more", examples)
	}

	rulesClaim := regexp.MustCompile(`(?s)The commands that play or compute \(([^)]*)\)\s+take\s+` + "`--rules").FindStringSubmatch(usage)
	if rulesClaim == nil {
		t.Fatal("the README does not say which commands take --rules")
	}
	if got := backticked(rulesClaim[1]); !slices.Equal(got, withRules) {
		t.Errorf("the README says %v take --rules; the binary: %v", got, withRules)
	}
	jsonClaim := regexp.MustCompile("(?s)`--json` prints the results of (.*?) as JSON").FindStringSubmatch(usage)
	if jsonClaim == nil {
		t.Fatal("the README does not say which commands take --json")
	}
	if got := backticked(jsonClaim[1]); !slices.Equal(got, withJSON) {
		t.Errorf("the README says %v take --json; the binary: %v", got, withJSON)
	}
	// The commands said to play by the record's rules have no --rules.
	recordClaim := regexp.MustCompile(`(?s);\s+(` + "`[a-z]+`" + `(?:,\s+` + "`[a-z]+`" + `)*\s+and\s+` + "`[a-z]+`" + `)\s+read a game record`).FindStringSubmatch(usage)
	if recordClaim == nil {
		t.Fatal("the README does not say which commands play by a record's rules")
	}
	for _, n := range backticked(recordClaim[1]) {
		if _, ok := flags[n]; !ok || slices.Contains(withRules, n) {
			t.Errorf("the README says %s plays by the record's rules; the binary's %s has flags %v", n, n, flags[n])
		}
	}
	// Every flag of serve's table in the README is one serve has.
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, m := range regexp.MustCompile("(?m)^\\| (`--.*?) \\|").FindAllStringSubmatch(string(b), -1) {
		rows++
		for _, f := range regexp.MustCompile("`--([a-z0-9-]+)`").FindAllStringSubmatch(m[1], -1) {
			if !slices.Contains(flags["serve"], f[1]) {
				t.Errorf("README: serve's table lists --%s, which farkle serve does not have", f[1])
			}
		}
	}
	if rows < 10 {
		t.Errorf("found %d rows of serve's flags in the README", rows)
	}
}

// TestPlayHelpDescribesBotLevels: the README sends readers to farkle play
// -h for what each bot level does; it says it for every level.
func TestPlayHelpDescribesBotLevels(t *testing.T) {
	if !strings.Contains(readmeUsage(t), "(`farkle play -h` describes each)") {
		t.Skip("the README no longer sends readers to farkle play -h")
	}
	out, _, _ := execFarkle(t, "", "play", "-h")
	levels := bot.Levels()
	if len(levels) < 6 {
		t.Fatalf("%d bot levels", len(levels))
	}
	for _, l := range levels {
		words := strings.Fields(l.Description)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		// The description may wrap to fit 80 columns (TestHelpFits80).
		if !regexp.MustCompile(`(?m)^  ` + l.Name + ` +` + strings.Join(words, `\s+`) + `$`).MatchString(out) {
			t.Errorf("farkle play -h does not describe %s:\n%s", l.Name, out)
		}
	}
}
