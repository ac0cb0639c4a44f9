package main

import (
	"regexp"
	"strings"
	"testing"
)

// englishWord matches words of the English error texts that Norwegian
// does not share; flags (--players) and quoted input are left out first.
var englishWord = regexp.MustCompile(`\b(unknown|the|players|impossible|levels|presets|is not|or a|score|solvers|play|rules file|multiple)\b`)

// withoutInput removes what an error repeats of its input or names of
// the program: flags, quoted text, rule and level names.
func withoutInput(s string) string {
	s = regexp.MustCompile(`--[a-z-]+|«[^»]*»|"[^"]*"|farkle [a-z]+:`).ReplaceAllString(s, "")
	return s
}

// TestErrorsNorwegian: each command's errors of bad input are said in
// Norwegian with --lang nb (and LANG=nb_NO.UTF-8): the text differs from
// the English one and has none of its words.
func TestErrorsNorwegian(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--plain", "--rules", "nosuch"},
		{"sim", "--rules", "nosuch", "--players", "steady,steady", "--games", "1"},
		{"solve", "--players", "4"},
		{"explore", "--me", "99999999", "--them", "0"},
		{"explore", "--me", "20000", "--them", "0"},
		{"sim", "--players", "foo", "--games", "1"},
	} {
		_, en, code := runFarkle(t, "", args...)
		_, nb, nbCode := runFarkle(t, "", append(args, "--lang", "nb")...)
		if code == 0 || nbCode != code {
			t.Errorf("%v: exit %d in English, %d in Norwegian", args, code, nbCode)
		}
		if en == nb || englishWord.MatchString(withoutInput(nb)) {
			t.Errorf("%v: English in the Norwegian error:\n en: %s nb: %s", args, en, nb)
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
