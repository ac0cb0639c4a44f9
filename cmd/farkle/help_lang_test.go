package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/lang"
)

// allHelp runs farkle help and every command's -h (and every db
// subcommand's: "db backup") with --lang code and returns their texts by
// command ("" for farkle help), and the English
// help texts of the code by catalogue key.
func allHelp(t *testing.T, code string) (map[string]string, map[string]helpText) {
	t.Helper()
	helpTexts = map[string]helpText{}
	defer func() { helpTexts = nil }()
	out := map[string]string{}
	names := append([]string{""}, commandNames()...)
	for sub := range dbSubcommands { // each parses flags of its own
		names = append(names, "db "+sub)
	}
	for _, c := range names {
		args := []string{"--lang", code, "help"}
		if c != "" {
			args = append(append([]string{"--lang", code}, strings.Fields(c)...), "-h")
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
// the code's own, filled with the values the code gives (English help
// reads as it did before the catalogue), and each command's longer help
// comes through the catalogue, paragraph by paragraph.
func TestHelpEnglishFromCatalogue(t *testing.T) {
	out, texts := allHelp(t, "en")
	en := lang.Get("en")
	details := 0
	for key, text := range texts {
		if !en.Has(key) {
			continue
		}
		if got := helpMsg(en, key, text.english, text.kv...); got != text.english {
			t.Errorf("%s: the catalogue says %q, the code %q", key, got, text.english)
		}
		if strings.HasPrefix(key, "cli.help.") && strings.Count(key, ".") > 2 && !strings.HasSuffix(key, ".summary") && !strings.HasPrefix(key, "cli.help.type.") {
			details++
		}
	}
	// Every command but rules, serve and solve has a longer help (play
	// three parts, sim one more of Dragon Farkle, db backup and db check
	// their own).
	if want := len(commandNames()) - 3 + 2 + 1 + 2; details != want {
		t.Errorf("%d longer help texts came through the catalogue, want %d", details, want)
	}
	// The English of the details as -h prints it: one text by the code.
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if !strings.Contains(oneLine(out["sim"]), "Levels: "+strings.Join(bot.LevelNames(), ", ")+". ") || !strings.Contains(oneLine(out["score"]), scoreLineExample+"; the ") {
		t.Errorf("sim's or score's help lacks the values of its text:\n%s\n%s", out["sim"], out["score"])
	}
}

// notWords are the parts of a help text that are no language's words:
// flag names (--target, -h), URLs, environment variables ($FARKLE_DB),
// the examples of JSON answers and the defaults in quotes.
var notWords = regexp.MustCompile(`(?s)JSON: \{.*?(\n  -|$)|-{1,2}[a-z][a-z0-9-]*|https?://\S+|\$[A-Z_]+|"[^"\s]*"`)

// typed are the words of a usage line that are typed as they are: the
// subcommands of admin and db.
var typed = []string{"moderator", "add", "remove", "list", "copy", "backup", "check"}

// TestHelpNorwegian: farkle help and every command's -h say no word of
// the English help texts that is not Norwegian too (as
// TestErrorsNorwegian does for errors): the usage, the summary, every
// flag's description and the name of its value, and the command's longer
// help; every one of those texts is in the Norwegian catalogue.
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
		english = append(english, words(text.english)...)
		norsk = append(norsk, words(own(k))...)
		// A text left in English counts its words as Norwegian: a
		// Norwegian text must differ from the English one.
		if s, ok := nb.Messages[k]; ok && s == en.Messages[k] {
			t.Errorf("%s: the Norwegian text is the English %q", k, s)
		}
	}
	for c, help := range out {
		text := notWords.ReplaceAllString(help, "")
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if w == strings.ToUpper(w) || commands[w] != nil || slices.Contains(typed, w) || slices.Contains(bot.LevelNames(), w) {
				continue // a placeholder (NAME, FILE), a command's or a bot level's name
			}
			w = strings.ToLower(w)
			if len(w) > 3 && slices.Contains(english, w) && !slices.Contains(norsk, w) {
				t.Errorf("farkle %s help says the English %q:\n%s", c, w, out[c])
				break
			}
		}
	}
}
