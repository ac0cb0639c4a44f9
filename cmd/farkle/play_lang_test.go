package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestPlayLang: farkle play speaks the language of --lang, else of LANG;
// an unknown --lang is refused, naming the languages there are.
func TestPlayLang(t *testing.T) {
	_, stderr, code := runFarkle(t, "", "play", "--lang", "xx", "--plain")
	checkBadInput(t, stderr, code, "--lang", `"xx"`, "en, nb")

	play := func(lang string, args ...string) string {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader("avslutt\n"), stdout: &out, stderr: &errOut, getenv: func(k string) string {
			if k == "LANG" {
				return lang
			}
			return ""
		}}
		args = append([]string{"play", "--plain", "--players", "du,bot:steady", "--seed", "lang"}, args...)
		if code := Main(context.Background(), e, args); code != 0 {
			t.Fatalf("%v: exit status %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	for _, c := range []struct {
		lang string
		args []string
		want string
	}{
		{"nb_NO.UTF-8", nil, "kommandoer: behold"},
		{"", []string{"--lang", "nb"}, "kommandoer: behold"},
		{"nb_NO.UTF-8", []string{"--lang", "en"}, "commands: keep"},
		{"C.UTF-8", nil, "commands: keep"},
	} {
		if out := play(c.lang, c.args...); !strings.Contains(out, c.want) {
			t.Errorf("LANG=%s %v: no %q in\n%s", c.lang, c.args, c.want, out)
		}
	}
}
