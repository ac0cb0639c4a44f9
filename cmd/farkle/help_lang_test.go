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
		if got := helpMsg(en, key, english); got != english {
			t.Errorf("%s: the catalogue says %q, the code %q", key, got, english)
		}
	}
	if n == 0 {
		t.Fatal("no help text is in the catalogue")
	}
}

// notWords are the parts of a help text that are no language's words:
// flag names (--target, -h), URLs, environment variables ($FARKLE_DB),
// the examples of JSON answers and the defaults in quotes.
var notWords = regexp.MustCompile(`(?s)JSON: \{.*?(\n  -|$)|-{1,2}[a-z][a-z0-9-]*|https?://\S+|\$[A-Z_]+|"[^"\s]*"`)

// typed are the words of a usage line that are typed as they are: the
// subcommands of admin and db.
var typed = []string{"moderator", "add", "remove", "list", "copy", "backup", "check"}

// withoutDetails is a command's -h without its longer help, which stays
// English (the paragraphs between the summary and the flags); farkle
// help whole.
func withoutDetails(help, flagsTitle string) string {
	usage, rest, ok := strings.Cut(help, "\n\n")
	if !ok {
		return help
	}
	summary, rest, _ := strings.Cut(rest, "\n\n")
	i := strings.Index(rest, "\n"+flagsTitle+"\n")
	if !strings.HasPrefix(rest, flagsTitle+"\n") && i < 0 {
		return help // farkle help: no flags
	}
	return usage + "\n\n" + summary + "\n\n" + rest[i+1:]
}

// TestHelpNorwegian: farkle help and every command's -h say no word of
// the English help texts that is not Norwegian too (as
// TestErrorsNorwegian does for errors): the usage, the summary, every
// flag's description and the name of its value; every summary and flag
// description is in the Norwegian catalogue. A command's longer help
// (withoutDetails) is still English.
func TestHelpNorwegian(t *testing.T) {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	en, nb := lang.Get("en"), lang.Get("nb")
	out, texts := allHelp(t, "nb")
	// The Norwegian catalogue's own texts (nb.Msg falls back on English).
	own := func(k string) string {
		s, ok := nb.Messages[k]
		if !ok {
			t.Errorf("%s is not in the Norwegian catalogue", k)
		}
		return s
	}
	var english, norsk []string
	for _, k := range []string{"cli.help.title", "cli.help.usage", "cli.help.commands", "cli.help.footer", "cli.help.usageOf", "cli.help.flags", "cli.help.flagsArg", "cli.help.default"} {
		english = append(english, words(en.Msg(k))...)
		norsk = append(norsk, words(own(k))...)
	}
	for k, text := range texts {
		english = append(english, words(text)...)
		norsk = append(norsk, words(own(k))...)
	}
	for c, help := range out {
		text := notWords.ReplaceAllString(withoutDetails(help, nb.Msg("cli.help.flags")), "")
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if w == strings.ToUpper(w) || commands[w] != nil || slices.Contains(typed, w) {
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
