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
