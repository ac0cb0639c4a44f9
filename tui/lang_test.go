package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// ownPrefixes are the catalogue keys of the terminal game.
var ownPrefixes = []string{"tui.", "hint.", "rules.", "setup."}

func ownKey(k string) bool {
	for _, p := range ownPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// catalogueFile reads the messages of lang/CODE.json.
func catalogueFile(t *testing.T, code string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "lang", code+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Messages map[string]string }
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Messages
}

// keyLiteral is a string literal in Go source that is a key of the
// terminal game's.
var keyLiteral = regexp.MustCompile(`"((?:tui|hint|rules|setup)\.[A-Za-z0-9_.]*[A-Za-z0-9])"`)

// TestEveryKeyIsInTheCatalogue: every key the package's code names (as a
// string literal: Msg("tui.x"), a map of keys) is in en.json, and so are
// the keys made at run time (a pace's name, the event texts of the player
// spoken to).
func TestEveryKeyIsInTheCatalogue(t *testing.T) {
	en := catalogueFile(t, "en")
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyLiteral.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = f
		}
	}
	for _, p := range BotPaces {
		used["tui.pace."+p.Name] = "pace.go"
	}
	for _, e := range youEvents {
		used["tui.ev."+e+".you"] = "lang.go"
	}
	if len(used) < 200 {
		t.Fatalf("found only %d keys in the code: is the scan broken?", len(used))
	}
	for k, f := range used {
		if _, ok := en[k]; !ok {
			t.Errorf("%s uses %q, which en.json lacks", f, k)
		}
	}
}

// TestNorwegianHasEveryKey: nb.json has every key of the terminal game's
// that en.json has, and no text of them is left in English by mistake
// (one that reads the same in both is listed).
func TestNorwegianHasEveryKey(t *testing.T) {
	en, nb := catalogueFile(t, "en"), catalogueFile(t, "nb")
	same := map[string]bool{ // the same in both languages on purpose
		"tui.farkleBig": true, "tui.farkleNote": true, "tui.score.bot": true, "tui.lines.seatBot": true,
		"tui.lobby.bot": true, "tui.lobby.colStatus": true, "setup.person": true, "setup.botKind": true,
		"setup.straight": true, "setup.origin.pocket": true, "setup.origin.farkleDice": true,
		"rules.face": true, "rules.handPoints": true, "rules.meld.straight": true,
		"tui.lines.hintValue": true, "tui.lines.hintNote": true,
		"tui.end.rating": true, "tui.end.ratingOf": true, // "rating" is Norwegian too (as the web page's web.rating)
	}
	var missing []string
	for k, v := range en {
		if !ownKey(k) {
			continue
		}
		n, ok := nb[k]
		switch {
		case !ok:
			missing = append(missing, k)
		case n == v && !same[k]:
			t.Errorf("%s is the same in Norwegian as in English: %q", k, v)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("nb.json lacks %d keys: %s", len(missing), strings.Join(missing, ", "))
	}
}

func TestDescribeForYouInNorwegian(t *testing.T) {
	nb := norwegian()
	names := []string{"du", "Ann"}
	cases := map[string]engine.Event{
		"din tur":                               {Kind: engine.EvTurn},
		"Ann sin tur":                           {Kind: engine.EvTurn, Player: 1},
		"du kaster 1 2":                         {Kind: engine.EvThrow, Dice: dice.Of(1, 2)},
		"Ann kaster 1 2":                        {Kind: engine.EvThrow, Player: 1, Dice: dice.Of(1, 2)},
		"du setter inn 1 500: 10 250 poeng":     {Kind: engine.EvBank, Points: 1500, Score: 10250},
		"spillet er over: du vinner med 10 000": {Kind: engine.EvGameOver, Players: []int{0}, Score: 10000},
	}
	for want, e := range cases {
		want = strings.ReplaceAll(want, " 000", nb.Thousands+"000")
		want = strings.ReplaceAll(want, " 500", nb.Thousands+"500")
		want = strings.ReplaceAll(want, " 250", nb.Thousands+"250")
		if got := describeIn(nb, e, names); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	// An English name in a Norwegian game is nobody spoken to.
	if got := describeIn(nb, engine.Event{Kind: engine.EvTurn}, []string{"you"}); got != "you sin tur" {
		t.Errorf("got %q", got)
	}
	// The English forms stay English.
	if got := describeIn(lang.Get("en"), engine.Event{Kind: engine.EvResign}, []string{"you"}); got != "you resign" {
		t.Errorf("got %q", got)
	}
}

// TestLineModeInNorwegian: line mode speaks the game's language, takes
// the Norwegian words ("behold", "kast", "sett inn", "tips", "poeng",
// "hjelp", "avslutt") as well as the English ones and the first letters,
// and says so in its help.
func TestLineModeInNorwegian(t *testing.T) {
	r := seatOrder("classic")
	seed := seedWhere(t, "lines-nb", loneTwo)
	g, err := NewGame(r, []Seat{{Name: "du"}, {Name: "Kari"}}, seed, "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.SetLang(norwegian())
	input := strings.Join([]string{
		"behold 2", // refused: a lone 2 does not score
		"kast",     // refused: keep first
		"sett inn", // refused: keep first
		"behold 1", // du keeps a 1
		"tips",     // the hint
		"poeng",    // the scores
		"sett inn", // du banks 100
		"keep 1",   // Kari, in English words
		"k",        // no dice named
		"hopp",     // no such command
		"kast",     // Kari throws on
		"hjelp",    // the help
		"avslutt",
	}, "\n") + "\n"
	var out strings.Builder
	if err := RunLines(context.Background(), g, strings.NewReader(input), &out, nil); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(out.String(), "\u00a0", " ")
	for _, want := range []string{
		"farkle: reglene classic, først til 10 000; spillere: du, Kari",
		"kommandoer: behold TERNINGER (f.eks. behold 1 1 5), kast, sett inn, tips, poeng, hjelp, avslutt",
		"tur: du (0 poeng)",
		"kast: ",
		"feil: behold 2: 2 teller bare i tre like",
		"feil: kast: behold minst én terning som gir poeng fra ",
		"feil: sett inn: behold noen terninger først",
		"du beholder 1 for 100 (runden 100)",
		"velg: kast 5 terninger eller sett inn 100",
		"tips: sett inn: 100 poeng nå (setter inn rundens poeng)",
		"tips: kast: 5 terninger: P(farkle) 0,08, risikerer 100",
		"poeng: du 0, i tur",
		"poeng: mål 10 000, rundens poeng 100, 5 terninger å kaste",
		"du setter inn 100: 100 poeng",
		"tur: Kari (0 poeng)",
		"feil: behold hvilke terninger?",
		`feil: ukjent kommando "hopp"`,
		"hjelp: de engelske ordene virker også",
		"hjelp: Regler: classic, 6 terninger",
		"hjelp:   Mål: 10 000;",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("line mode does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "error:") || strings.Contains(text, "choose:") || strings.Contains(text, "score:") {
		t.Errorf("English left in Norwegian line mode:\n%s", text)
	}
}

// TestMeterInNorwegian: the perfect bot's progress is written as Norwegian
// writes it (percent and decimal comma, "omtrent 1 min 10 s igjen").
func TestMeterInNorwegian(t *testing.T) {
	nb := norwegian()
	st := solveStatus{part: 0.75, left: 70 * time.Second, sweep: 2, sweeps: 6}
	nbsp := func(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }
	if got, want := nbsp(st.stringIn(nb)), "75 % · gjennomløp 2 av omtrent 6 · omtrent 1 min 10 s igjen"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := nbsp(st.shortIn(nb)), "75 %, omtrent 1 min 10 s igjen"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := st.String(), "75% · sweep 2 of about 6 · about 1 min 10 s left"; got != want {
		t.Errorf("English: got %q, want %q", got, want)
	}
}
