package main

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// englishOnly are the words of the English catalogue that the Norwegian
// one never uses: one of them in a Norwegian error is English left over.
var englishOnly = sync.OnceValue(func() map[string]bool { return lang.OnlyIn(lang.Get("en"), lang.Get("nb")) })

var (
	catalogueWord = lang.Word
	// echoed is what an error repeats of its input or of the program:
	// flags, quoted text, file paths, URLs, "farkle COMMAND".
	echoed = regexp.MustCompile(`--[a-z-]+|«[^»]*»|"[^"]*"|'[^']*'|\S*/\S*|farkle [a-z]+|\(see farkle [a-z]+ -h\)|\(se farkle [a-z]+ -h\)`)
)

// programNames matches the names an error may list: commands, presets,
// bot levels, rule fields.
var programNames = sync.OnceValue(func() *regexp.Regexp {
	names := append(commandNames(), presetNames()...)
	names = append(names, bot.LevelNames()...)
	names = append(names, dragon.Levels()...)
	names = append(names, "base", "dice", "game", "name", "scoring", "turn", "target_score")
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
})

// englishIn returns the English words of the English catalogue in a
// Norwegian error text, once what it repeats of its input (args) is left
// out.
func englishIn(text string, args []string) []string {
	text = echoed.ReplaceAllString(text, " ")
	for _, a := range args {
		if len(a) > 1 {
			text = strings.ReplaceAll(text, a, " ")
		}
	}
	text = programNames().ReplaceAllString(text, " ")
	var out []string
	for _, w := range catalogueWord.FindAllString(strings.ToLower(text), -1) {
		if englishOnly()[w] {
			out = append(out, w)
		}
	}
	return out
}

// badInput is each command's errors of bad input: its flags' and its
// arguments' (FILE stands for a rule file the test writes, with an
// impossible rule).
var badInput = [][]string{
	{"play", "--plain", "--rules", "nosuch"},
	{"play", "--plain", "--rules", "RULEFILE"},
	{"play", "--plain", "--bot-speed", "warp"},
	{"play", "--plain", "--farkle-hold", "-1s"},
	{"play", "--plain", "--farkle-hold", "soon"},
	{"play", "--plain", "extra"},
	{"play", "--plain", "--resume", "/nonexistent/game.json"},
	{"play", "--plain", "--resume", "x.json", "--seed", "s"},
	{"play", "--online", "::bad"},
	{"play", "--online", "http://127.0.0.1:1", "--watch"},
	{"play", "--online", "http://127.0.0.1:1", "--seed", "x"},
	{"play", "--plain", "--players", "you,a,b,c,d,e,f,g,h,i,j"},
	{"play", "--plain", "--players", "you,you"},
	{"play", "--plain", "--players", "you,,bot:steady"},
	{"play", "--plain", "--players", "you,bot:genius"},
	{"play", "--plain", "--players", "you,rob=steady"},
	{"play", "--plain", "--rules", "dragon", "--players", "you"},
	{"play", "--plain", "--rules", "dragon", "--players", "you,bot:genius"},
	{"play", "--no-such-flag"},
	{"play", "--plain", "--players"},
	{"score", "7"},
	{"score", "1234567"},
	{"score", "11x"},
	{"score", "--rules", "nosuch", "1"},
	{"score", "--json=maybe", "1"},
	{"odds", "extra"},
	{"odds", "--rules", "nosuch"},
	{"rules", "extra"},
	{"rules", "--rules", "nosuch"},
	{"rules", "--rules", "RULEFILE"},
	{"sim", "--games", "1"},
	{"sim", "--players", "foo", "--games", "1"},
	{"sim", "--rules", "dragon", "--games", "1"},
	{"sim", "--rules", "dragon", "--players", "smart,steady", "--games", "1"},
	{"sim", "--rules", "nosuch", "--players", "steady,steady", "--games", "1"},
	{"sim", "--players", "steady,steady", "--games", "0"},
	{"sim", "--players", "steady,steady", "--workers", "-1"},
	{"sim", "--players", "steady,steady,steady,steady,steady,steady,steady,steady,steady", "--games", "1"},
	{"sim", "--players", "steady,steady", "extra"},
	{"sim", "--players", "steady,steady", "--games", "x"},
	{"solve"},
	{"solve", "--players", "4"},
	{"solve", "--solo", "--duel"},
	{"solve", "--players", "3", "--orbit-rule", "x"},
	{"solve", "--solo", "extra"},
	{"solve", "--players", "3", "--rules", "classic"},         // more memory than allowed
	{"solve", "--duel", "--no-cache", "--max-memory", "1000"}, // the same, of the duel's table
	{"advise", "extra"},
	{"advise", "--throw", "77"},
	{"advise", "--them", "-2"},
	{"advise", "--me", "-5"},
	{"advise", "--rules", "dragon"},
	{"analyze"},
	{"analyze", "a.json", "b.json"},
	{"analyze", "/nonexistent/game.json"},
	{"replay"},
	{"replay", "/nonexistent/game.json"},
	{"replay", "--rules", "classic", "x.json"},
	{"verify", "/nonexistent/game.json"},
	{"explore", "--me", "99999999", "--them", "0"},
	{"explore", "--me", "20000", "--them", "0"},
	{"explore", "--cells", "x"},
	{"explore", "--compare", "classic"},
	{"explore", "--compare", "classic,zilch"},
	{"explore", "--svg", "a.svg", "--png", "a.png"},
	{"explore", "--png", "/nonexistent/dir/x.png"},
	{"explore", "--png", "x.txt"},
	{"explore", "extra"},
	{"explore", "--rules", "dragon"},
	{"serve", "extra"},
	{"serve", "--lease", "0s"},
	{"serve", "--bot-delay", "-1s"},
	{"serve", "--turn-clock", "2h"},
	{"serve", "--tls-cert", "x.pem"},
	{"serve", "--max-header-bytes", "10"},
	{"serve", "--max-local-games", "-1"},
	{"serve", "--max-local-game-bytes", "1"},
	{"serve", "--ssh", "127.0.0.1:0", "--ssh-rate", "-1"},
	{"serve", "--explore-timeout", "1h"},
	{"serve", "--tls-cert", "x.pem", "--tls-key", "x.key", "--acme-domain", "example.org"},
	{"serve", "--max-turns", "999999999"},
	{"db"},
	{"db", "nosuch"},
	{"db", "copy"},
	{"db", "copy", "extra"},
	{"db", "backup"},
	{"db", "backup", "--from", "/nonexistent/f.db", "--to", "x.db"},
	{"db", "check"},
	{"admin"},
	{"admin", "moderator", "frob", "Ann"},
	{"admin", "moderator", "add"},
	{"admin", "moderator", "list", "Ann"},
	{"admin", "moderator", "add", "Ann", "--db", "/nonexistent/x.db"},
	{"load"},
	{"load", "--preset", "nosuch", "http://127.0.0.1:1"},
	{"version", "extra"},
	{"nosuch"},
	{"version", "--lang", "xx"},
}

// TestErrorsNorwegian runs every command's errors of bad input with
// --lang nb (in-process) and with LANG=nb_NO.UTF-8 (the binary): each
// fails as in English, says something else than English does, and holds
// no word of the English catalogue that Norwegian does not use, once what
// it repeats of the input and the names it lists are left out. The refusal
// of Dragon Farkle, which lists the commands that play it, fits 80
// columns a line.
func TestErrorsNorwegian(t *testing.T) {
	ruleFile := writeTestFile(t, "bad.toml", "name = \"bad\"\ntarget_score = -5\n")
	seen := map[string]bool{}
	for _, args := range badInput {
		args = slices.Clone(args)
		for i, a := range args {
			if a == "RULEFILE" {
				args[i] = ruleFile
			}
		}
		seen[args[0]] = true
		withLang := append([]string{args[0], "--lang", "nb"}, args[1:]...)
		switch {
		case args[0] == "nosuch": // the language before the command
			withLang = append([]string{"--lang", "nb"}, args...)
		case slices.Contains(args, "xx"): // an unknown language: said in the one of the environment
			withLang = args
		case args[0] == "db" && len(args) > 1: // after the subcommand
			withLang = append([]string{"db", args[1], "--lang", "nb"}, args[2:]...)
		}
		_, en, code := runFarkle(t, "", args...)
		_, nb, nbCode := runFarkle(t, "", withLang...)
		_, envNb, envCode := execFarkleEnv(t, []string{"LANG=nb_NO.UTF-8"}, "", args...)
		if slices.Contains(args, "xx") {
			nb, nbCode = envNb, envCode // in-process there is no LANG to say it in
		}
		if code == 0 || nbCode != code || envCode != code {
			t.Errorf("%v: exit %d in English, %d with --lang nb, %d with LANG (%s)", args, code, nbCode, envCode, nb)
			continue
		}
		for _, got := range []string{nb, envNb} {
			if got == en {
				t.Errorf("%v: the same in Norwegian as in English: %s", args, en)
			}
			if w := englishIn(got, args); len(w) > 0 {
				t.Errorf("%v: English %q in the Norwegian error:\n en: %s nb: %s", args, w, en, got)
			}
			if !slices.Contains(args, "dragon") || !strings.Contains(got, "Dragon Farkle") {
				continue
			}
			for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if n := len([]rune(l)); n > 80 { // the commands Dragon Farkle works with (issue 27)
					t.Errorf("%v: a line of %d columns: %s", args, n, l)
				}
			}
		}
	}
	for name := range commands {
		if !seen[name] {
			t.Errorf("farkle %s has no error case here", name)
		}
	}
	_, nb, _ := execFarkleEnv(t, []string{"LANG=nb_NO.UTF-8"}, "", "play", "--plain", "--rules", "nosuch")
	if !strings.Contains(nb, "ukjente regler") {
		t.Errorf("LANG=nb_NO.UTF-8: %s", nb)
	}
}

// TestExplorePNGPathFailsFirst: a --png file that cannot be written is
// refused before anything is computed or printed.
func TestExplorePNGPathFailsFirst(t *testing.T) {
	out, errOut, code := runFarkle(t, "", "explore", "--png", t.TempDir()+"/no/such/dir/x.png")
	if code != 2 || out != "" || !strings.Contains(errOut, "does not exist") {
		t.Fatalf("exit %d, stdout %d bytes, stderr %q", code, len(out), errOut)
	}
	dir := t.TempDir()
	if _, errOut, code := runFarkle(t, "", "explore", "--png", dir); code != 2 || !strings.Contains(errOut, "want a file name ending in .png") && !strings.Contains(errOut, "directory") {
		t.Fatalf("a directory as the file: exit %d, %q", code, errOut)
	}
}

// TestExploreMapFits80: without a terminal the win map's rows fit 80
// columns.
func TestExploreMapFits80(t *testing.T) {
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	out, errOut, code := runFarkle(t, "", "explore", "--rules", rf, "--cache", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows := 0
	digit := regexp.MustCompile(`^\s*[0-9,]+( [0-9])+\s*$`)
	for _, l := range strings.Split(out, "\n") {
		if digit.MatchString(l) { // a row of the map: its score, then a digit a cell
			rows++
			if len([]rune(l)) > 80 {
				t.Errorf("a map row of %d columns: %q", len([]rune(l)), l)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("only %d map rows:\n%s", rows, out)
	}
}
