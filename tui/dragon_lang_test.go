package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// keyShown finds a catalogue key drawn in place of its text.
var keyShown = regexp.MustCompile(`\b(dragon|card|tui|ev)\.[a-zA-Z][a-zA-Z.]*`)

// english finds words of the English screen that a Norwegian one must
// not show (the players' names, bot levels and card ids aside).
var english = regexp.MustCompile(`\b(soldiers|turn|round|throw|keep|dice|damage|the|your|help|quit|recruit|brawl|choose|item|items|Companion|Magic|Final Battle|Rally)\b`)

// TestGoldenDragonBattleNorwegian is TestGoldenDragonBattle in Norwegian
// Bokmål, the person called "du": the dragon's wounds, the players'
// soldiers (4 800, a no-break space), the card texts, the keys and the log.
func TestGoldenDragonBattleNorwegian(t *testing.T) {
	m := NewDragon(DragonOptions{Game: battleGame(t, "du,bot:smart"), Lang: lang.Get("nb")})
	goldenScreen(t, m, 80, 32,
		screenStep{"", "Velg hva du gjør"},
		screenStep{"f", "1 av 3 i skade"})
}

// TestGoldenDragonChooseNorwegian: the start of a turn in Norwegian, 80×24.
func TestGoldenDragonChooseNorwegian(t *testing.T) {
	seed := dragonSeed(t, "golden-choose", "du,bot:smart", youStart)
	m := NewDragon(DragonOptions{Game: newDragonGame(t, "du,bot:smart", seed, ""), Lang: lang.Get("nb")})
	goldenScreen(t, m, 80, 24, screenStep{"", "Velg hva du gjør"})
}

// TestDragonScreensNorwegian plays games of bots and a person in
// Norwegian and looks at every screen on the way: no key shows, no
// English word, and the help is Norwegian too.
func TestDragonScreensNorwegian(t *testing.T) {
	nb := lang.Get("nb")
	check := func(what, screen string) {
		t.Helper()
		body := screen
		for _, allowed := range []string{"Dragon Farkle", "bot smart", "bot:smart", "farkle", "FARKLE"} {
			body = strings.ReplaceAll(body, allowed, "")
		}
		if k := keyShown.FindString(screen); k != "" {
			t.Fatalf("%s: the key %q is drawn:\n%s", what, k, screen)
		}
		if w := english.FindString(body); w != "" {
			t.Fatalf("%s: English %q on the Norwegian screen:\n%s", what, w, screen)
		}
	}
	screens := 0
	for i := range 6 {
		g := newDragonGame(t, "du,bot:smart", dice.SeedFrom("nb screens "+string(rune('a'+i))), "")
		m := NewDragon(DragonOptions{Game: g, Lang: nb}) // bots play at once
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
		for step := 0; step < 400 && !g.Over(); step++ {
			check("table", drawn(m))
			screens++
			switch {
			case m.show != nil:
				press(m, "s")
			case g.BotToAct():
				m.auto(dragonAutoMsg{version: m.version()})
			case m.menu != nil:
				press(m, "1")
			case len(m.faces) > 0:
				if k := firstKeepAction(g.View(g.ToAct())); k.Kind != 0 {
					press(m, faceKeys(t, m.faces, k.Keep)...)
					check("chosen", drawn(m))
				}
				press(m, "h")
				check("hint", drawn(m))
				press(m, "h", "s")
			default:
				press(m, "r")
			}
		}
		check("over", drawn(m))
	}
	m := NewDragon(DragonOptions{Game: newDragonGame(t, "du,bot:smart", dice.SeedFrom("nb help"), ""), Lang: nb})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 200})
	press(m, "?")
	help := drawn(m)
	if !strings.Contains(help, "Hjelp") || !strings.Contains(help, "Følgesvenner (åpne):") || !strings.Contains(help, "Pip, væpneren") {
		t.Errorf("the help is not Norwegian:\n%s", help)
	}
	check("help", help)
	if screens < 50 {
		t.Errorf("only %d screens looked at", screens)
	}
}

// TestDragonLinesNorwegian: the line mode in Norwegian: its lines, its
// refusals and its help are Norwegian (its hint and help lines begin
// "tips:" and "hjelp:" as the ordinary game's do), the commands stay the
// English words, and no key shows.
func TestDragonLinesNorwegian(t *testing.T) {
	g := newDragonGame(t, "du,bot:smart", dice.SeedFrom("lines nb"), "")
	var out strings.Builder
	in := "bogus\nbrawl nobody\nscore\nhand\nhint\nrecruit\nhelp\nquit\n"
	if err := RunDragonLinesIn(t.Context(), lang.Get("nb"), g, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"dragon farkle: reglene dragon, drep dragen",
		"kommandoer (på engelsk): recruit, brawl NAME",
		"keep DICE (f.eks. keep 1 1 5; ved en samling legg til double eller item)",
		"tur: du (runde 1, ",
		`feil: ukjent kommando "bogus"`,
		`feil: ingen spiller heter "nobody" (andre: smart)`,
		"stilling: du ",
		"tips: sjansen i sluttslaget med dine ",
		"velg: ",
		"kast: ",
		"hjelp: Regler: Dragon Farkle (dragon)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the Norwegian lines do not say %q:\n%s", want, text)
		}
	}
	if k := keyShown.FindString(text); k != "" {
		t.Errorf("the key %q is printed:\n%s", k, text)
	}
	for _, english := range []string{"on a Rally", "error:", "choose:", "turn:", "throw:", "score:", " soldiers", "\nhint:", "\nhelp:"} {
		if strings.Contains(text, english) {
			t.Errorf("English %q in the Norwegian lines:\n%s", english, text)
		}
	}
}

// TestDragonSharedNotesNorwegian: the notes the Dragon table shares with the
// ordinary one (the mouse, the bots' speed) speak the table's language.
func TestDragonSharedNotesNorwegian(t *testing.T) {
	seed := dragonSeed(t, "shared-notes", "du,bot:smart", youStart)
	nb := lang.Get("nb")
	m := NewDragon(DragonOptions{Game: newDragonGame(t, "du,bot:smart", seed, ""), Lang: nb})
	m.Update(keyMsgSize(80, 24))
	press(m, "m")
	if want := nb.Msg("tui.mouseOff"); m.flash != want || want == lang.Get("en").Msg("tui.mouseOff") {
		t.Errorf("the mouse note reads %q, want %q", m.flash, want)
	}
}
