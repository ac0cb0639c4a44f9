package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/farkle/farkle/lang"
)

// allHelp runs farkle help and every command's -h with --lang code and
// returns their texts by command ("" for farkle help), and the English
// help texts of the code by catalogue key.
func allHelp(t *testing.T, code string) (map[string]string, map[string]string) {
	t.Helper()
	helpTexts = map[string]string{}
	defer func() { helpTexts = nil }()
	out := map[string]string{}
	for _, c := range append([]string{""}, commandNames()...) {
		args := []string{"--lang", code, "help"}
		if c != "" {
			args = []string{"--lang", code, c, "-h"}
		}
		var stdout, stderr bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		Main(context.Background(), e, args)
		out[c] = stdout.String() + stderr.String()
	}
	texts := helpTexts
	return out, texts
}

// TestHelpEnglishFromCatalogue: the English catalogue's help texts are
// the code's own (English help reads as it did before the catalogue).
func TestHelpEnglishFromCatalogue(t *testing.T) {
	_, texts := allHelp(t, "en")
	en := lang.Get("en")
	n := 0
	for key, english := range texts {
		if !en.Has(key) {
			continue
		}
		n++
		if got := en.Msg(key); got != english {
			t.Errorf("%s: the catalogue says %q, the code %q", key, got, english)
		}
	}
	if n == 0 {
		t.Fatal("no help text is in the catalogue")
	}
}

// helpDone are the commands whose -h is Norwegian throughout with --lang
// nb (the others' summaries are, in farkle help)
var helpDone = []string{"", "solve"}

var flagName = regexp.MustCompile(`-{1,2}[a-z][a-z0-9-]*`)

// TestHelpNorwegian: farkle help and the -h of the commands done say no
// word of the English help texts that is not Norwegian too
// (as TestErrorsNorwegian does for errors), and every summary is
// Norwegian.
func TestHelpNorwegian(t *testing.T) {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	en, nb := lang.Get("en"), lang.Get("nb")
	out, texts := allHelp(t, "nb")
	var english, norsk []string
	for _, k := range []string{"cli.help.title", "cli.help.usage", "cli.help.commands", "cli.help.footer", "cli.help.usageOf", "cli.help.flags", "cli.help.default"} {
		english = append(english, words(en.Msg(k))...)
		norsk = append(norsk, words(nb.Msg(k))...)
	}
	for k, text := range texts {
		english = append(english, words(text)...)
		norsk = append(norsk, words(nb.Msg(k))...)
	}
	for key := range texts {
		if strings.HasSuffix(key, ".summary") && !nb.Has(key) {
			t.Errorf("%s is not in the Norwegian catalogue", key)
		}
	}
	for _, c := range helpDone {
		text := flagName.ReplaceAllString(out[c], "") // --target, -h: names, not words
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if w == strings.ToUpper(w) || commands[w] != nil {
				continue // a placeholder (NAME, FILE) or a command's name
			}
			w = strings.ToLower(w)
			if len(w) > 3 && slices.Contains(english, w) && !slices.Contains(norsk, w) {
				t.Errorf("farkle %s help says the English %q:\n%s", c, w, out[c])
				break
			}
		}
	}
}
