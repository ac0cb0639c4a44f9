package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/lang"
)

// oscSeq matches an operating system command (a title is one), which may
// end with the bell's byte: those are not bells.
var oscSeq = regexp.MustCompile(`\x1b\][^\x07\x1b]*(\x07|\x1b\\)`)

// TestOnlineCallsToPlay: when an online game comes to the terminal's
// player, the terminal rings its bell once for the turn (not for each of
// its moves) and its title says it is the player's turn; while another
// player plays, the title names only the table. The bells are counted in
// the program's own output (tmux's pipe-pane), the title read as tmux
// keeps it.
func TestOnlineCallsToPlay(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "150ms")
	// First to 5,000: the test needs two turns of Ann and one of the bot
	// before anyone wins (at 1,000 the bot's first turn won once).
	p := newTmuxPane(t, "env FARKLE_DATA_DIR="+dir+" "+farkleBin+" play --online "+base+" --name Ann --rules "+classicToFile(t, 5000)+"; echo \"farkle exited: $?\"; sleep 600")
	raw := filepath.Join(dir, "raw")
	p.tmux("pipe-pane", "-o", "-t", "play", "cat >> "+raw)
	p.bigPane()
	bells := func() int {
		data, err := os.ReadFile(raw)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return bytes.Count(oscSeq.ReplaceAll(data, nil), []byte("\a"))
	}
	title := func() string {
		return strings.TrimSpace(p.tmux("display-message", "-p", "-t", "play", "#{pane_title}"))
	}
	p.waitFor("Farkle online", "you are Ann")
	p.keys("n")
	p.waitFor("a new game", "first to 5,000")
	if n := bells(); n != 0 {
		t.Fatalf("%d bells before any game", n)
	}
	p.keys("Enter")
	screen := p.waitFor("online · table", "you are Ann")
	m := tableOnScreen.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no table id on the screen:\n%s", screen)
	}
	en := lang.Get("en")
	yours, theirs := en.Msg("tui.online.titleTurn", "table", m[1]), en.Msg("tui.online.title", "table", m[1])
	// waitUntil polls what the terminal wrote until ok holds.
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) { // polling the pane
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d bells, title %q, screen:\n%s", what, bells(), title(), p.screen(false))
			}
		}
	}
	deadline := time.Now().Add(time.Minute)
	turns, sawTheirs := 0, false
	for turns < 2 || !sawTheirs {
		if time.Now().After(deadline) {
			t.Fatalf("two turns of Ann and one of the bot did not come in time (%d, %v):\n%s", turns, sawTheirs, screen)
		}
		screen = p.screen(false)
		if strings.Contains(screen, "Game over") {
			t.Fatalf("the game ended before the test saw two turns:\n%s", screen)
		}
		started, last := 0, "" // Ann's turns begun, and whose turn it is, as the log says
		for _, l := range logTail(screen) {
			if l == "your turn" {
				started++
			}
			if strings.HasSuffix(l, " turn") {
				last = l
			}
		}
		if strings.Contains(screen, "Your turn") {
			turns = started
			waitUntil("a bell for each turn of Ann", func() bool { return bells() >= started })
			if n := bells(); n != started {
				// What the terminal had drawn before each bell.
				data, _ := os.ReadFile(raw)
				parts := bytes.Split(oscSeq.ReplaceAll(data, nil), []byte("\a"))
				var around []string
				for _, b := range parts[:len(parts)-1] {
					around = append(around, strings.ToValidUTF8(string(b[max(0, len(b)-60):]), "?"))
				}
				t.Fatalf("%d bells in %d turns of Ann (%q):\n%s", n, started, around, screen)
			}
			waitUntil("the title of Ann's turn", func() bool { return title() == yours })
			termAct(t, p, screen, "Ann")
			continue
		}
		if strings.HasSuffix(last, "'s turn") {
			// Another's turn: the title names the table only. The bot may
			// be done before the title is read; then it is Ann's again.
			if got := title(); got == theirs {
				sawTheirs = true
			} else if got != yours {
				t.Fatalf("the title while the bot plays is %q, want %q", got, theirs)
			}
		}
		time.Sleep(20 * time.Millisecond) // polling the pane: the bot plays
	}
	if n := bells(); n != turns {
		t.Errorf("%d bells in %d turns of Ann", n, turns)
	}
}
