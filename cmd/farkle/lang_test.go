package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/record"
)

// keyShown finds a catalogue key printed in place of its text.
var keyShown = regexp.MustCompile(`\b(cli|dragon|card|ev)\.[a-zA-Z][a-zA-Z.]*\b`)

// TestReplayNorwegian: farkle replay --lang nb prints a real record of
// each kind in Norwegian: its headings, its event lines and its numbers
// (10 000, a no-break space between the thousands), no key in sight.
func TestReplayNorwegian(t *testing.T) {
	ordinary, rec := botRecord(t, shortRules("classic", 10000), []string{"steady", "bold"}, "replay nb", nil)
	final, _, err := record.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	nb := lang.Get("nb")
	dragonFile, drec := dragonRecord(t, "dragon nb", 0)
	dfinal, _, err := game.Verify(drec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, scores string
		final        []int
		names        []string
		want         []string
	}{
		{ordinary, "poeng", []int{final.Players[0].Score, final.Players[1].Score}, []string{"steady", "bold"},
			[]string{"classic, 2 spillere: steady, bold\n", "\ntur 1: ", " beholder ", " setter inn "}},
		{dragonFile, "soldater", dfinal.Scores(), drec.Players,
			[]string{"dragon, 3 spillere: Ana, Bo, Cy\n", " (runde 1)\n", "\ntur 1: ", " kastet ", " verver "}},
	} {
		out, errOut, code := execFarkle(t, "", "replay", "--lang", "nb", tc.file)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the replay does not say %q:\n%.600s", tc.file, w, out)
			}
		}
		parts := make([]string, len(tc.names))
		for i, s := range tc.final {
			parts[i] = tc.names[i] + " " + nb.Num(int64(s))
		}
		if last := "  " + tc.scores + ": " + strings.Join(parts, ", ") + "\n"; !strings.Contains(out, last) {
			t.Errorf("%s: the replay does not give the final %q:\n...%s", tc.file, last, out[max(0, len(out)-300):])
		}
		if m := keyShown.FindString(out); m != "" {
			t.Errorf("%s: a key is printed: %q", tc.file, m)
		}
		for _, english := range []string{" keeps ", " banks ", " threw ", "turn 1", "scores:", "soldiers:", "players"} {
			if strings.Contains(out, english) {
				t.Errorf("%s: English %q in the Norwegian replay", tc.file, english)
			}
		}
		// The same file in English: the flag, not the file, chose.
		en, _, _ := execFarkle(t, "", "replay", tc.file)
		if en == out || !strings.Contains(en, "\nturn 1: ") {
			t.Errorf("%s: the English replay:\n%.300s", tc.file, en)
		}
	}
	// --lang before the command is the same.
	before, _, code := execFarkle(t, "", "--lang=nb", "replay", dragonFile)
	after, _, _ := execFarkle(t, "", "replay", "--lang=nb", dragonFile)
	if code != 0 || before != after {
		t.Errorf("farkle --lang=nb replay differs from farkle replay --lang=nb (exit %d)", code)
	}
}

// TestVerifyLangFromEnv: LANG (and LC_ALL, LC_MESSAGES, LANGUAGE, as POSIX
// programs read them) chooses the language when --lang is not given;
// --lang wins over them.
func TestVerifyLangFromEnv(t *testing.T) {
	file, rec := dragonRecord(t, "verify nb", 0)
	g, _, err := game.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	w := g.Winners()[0]
	nbWinner := "vunnet av " + rec.Players[w] + " (" + lang.Get("nb").Num(int64(g.Scores()[w])) + ")"
	for _, tc := range []struct {
		env  []string
		args []string
		nb   bool
	}{
		{[]string{"LANG=nb_NO.UTF-8"}, nil, true},
		{[]string{"LC_ALL=nb_NO.UTF-8", "LANG=en_US.UTF-8"}, nil, true},
		{[]string{"LANG=en_US.UTF-8", "LC_MESSAGES=no_NO"}, nil, true},
		{[]string{"LANG=C"}, nil, false},
		{[]string{"LANG=de_DE.UTF-8"}, nil, false},
		{[]string{"LANG=nb_NO.UTF-8"}, []string{"--lang", "en"}, false},
		{nil, []string{"--lang", "nb-NO"}, true},
	} {
		args := append([]string{"verify"}, tc.args...)
		out, errOut, code := execFarkleEnv(t, tc.env, "", append(args, file)...)
		if code != 0 {
			t.Fatalf("%v %v: exit %d: %s", tc.env, tc.args, code, errOut)
		}
		wantStart, want := "ok: "+file+": ", nbWinner
		if !tc.nb {
			want = "won by " + rec.Players[w]
		}
		if !strings.HasPrefix(out, wantStart) || !strings.Contains(out, want) {
			t.Errorf("%v %v: %q, want it to say %q", tc.env, tc.args, out, want)
		}
		if tc.nb && (!strings.Contains(out, " trekk, dragon, ") || !strings.Contains(out, "frøet stemmer")) {
			t.Errorf("%v %v: not Norwegian: %q", tc.env, tc.args, out)
		}
	}
}

// TestUnknownLang: an unknown language is bad usage (exit 2), on one
// line naming the languages there are, before or after the command.
func TestUnknownLang(t *testing.T) {
	file, _ := dragonRecord(t, "unknown lang", 0)
	langs := strings.Join(lang.Codes(), ", ")
	if !strings.Contains(langs, "en") || !strings.Contains(langs, "nb") {
		t.Fatalf("languages: %s", langs)
	}
	for _, args := range [][]string{
		{"replay", "--lang", "xx", file},
		{"verify", "--lang=klingon", file},
		{"--lang", "xx", "replay", file},
		{"analyze", "--lang", "xx", file},
		{"odds", "--lang", "xx"},
		{"play", "--lang", "xx", "--players", "you,bot:steady"},
		{"--lang"},
	} {
		out, errOut, code := execFarkle(t, "", args...)
		checkBadInput(t, errOut, code, "--lang", "(languages: "+langs+")")
		if out != "" {
			t.Errorf("%v: printed %q", args, out)
		}
	}
	// An unknown LANG is no error: English.
	out, errOut, code := execFarkleEnv(t, []string{"LANG=xx_XX.UTF-8"}, "", "verify", file)
	if code != 0 || !strings.HasPrefix(out, "ok: ") || !strings.Contains(out, " actions, ") {
		t.Errorf("LANG=xx_XX: exit %d, %q %q", code, out, errOut)
	}
}

// TestJSONLanguageNeutral: --json prints the same in every language.
func TestJSONLanguageNeutral(t *testing.T) {
	file, _ := dragonRecord(t, "json neutral", 0)
	en, _, code := execFarkle(t, "", "analyze", "--json", file)
	nb, _, code2 := execFarkleEnv(t, []string{"LANG=nb_NO.UTF-8"}, "", "analyze", "--json", "--lang", "nb", file)
	if code != 0 || code2 != 0 || en != nb || !json.Valid([]byte(en)) {
		t.Errorf("analyze --json: exit %d/%d; English and Norwegian differ or are not JSON:\n%.300s\n%.300s", code, code2, en, nb)
	}
}
