package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
)

// openTables counts the tables of the server at base that wait for
// players or are played.
func openTables(t *testing.T, base string) int {
	t.Helper()
	resp, err := http.Get(base + "/api/tables?status=waiting,playing&limit=50")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ts []json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&ts); err != nil {
		t.Fatal(err)
	}
	return len(ts)
}

// TestOnlineLobbyFlows plays the lobby as issue 27 found it stuck: a new
// table for a friend goes to its waiting screen with the link, once
// however often Enter is pressed; ? helps in the lobby and on the waiting
// screen; q there goes back to the lobby, which shows the table by itself
// (no g); only the lobby's q ends the program.
func TestOnlineLobbyFlows(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "10ms")
	p := newTmuxPane(t, "env FARKLE_DATA_DIR="+dir+" "+farkleBin+" play --online "+base+" --name Ann --rules "+shortRulesFile(t)+
		"; echo \"farkle exited: $?\"; sleep 600")
	p.waitFor("Farkle online", "No open tables", "? help")
	p.keys("?")
	p.waitFor("sit down at the table", "esc or ? back")
	p.keys("Escape")
	p.waitFor("No open tables")
	// A new table: two players, the second a person (a free seat).
	p.keys("n")
	p.waitFor("a new game", "first to 1,000")
	p.keys("Down", "Down", "Down") // seat 2
	p.waitFor("▶ Seat 2")
	person := regexp.MustCompile(`Seat 2 .*◀ person ▶`)
	for i := 0; !person.MatchString(p.screen(false)); i++ {
		if i == 10 {
			t.Fatalf("seat 2 never became a person:\n%s", p.screen(false))
		}
		before := p.screen(false)
		p.keys("Left") // the kinds of seat: a person, then each bot level
		p.changedFrom(before)
	}
	p.keys("Enter", "Enter", "Enter")
	screen := p.waitFor("Waiting for players", "Friends join with the link")
	link := regexp.MustCompile(`http://\S+/t/([A-Za-z0-9_-]+)`).FindStringSubmatch(screen)
	if link == nil {
		t.Fatalf("no link on the waiting screen:\n%s", screen)
	}
	if n := openTables(t, base); n != 1 {
		t.Fatalf("three Enters made %d tables; want one", n)
	}
	p.keys("?")
	p.waitFor("sit down at the table", "esc or ? back")
	p.keys("Escape")
	p.waitFor("Waiting for players")
	// q: back to the lobby, which lists the table without being asked.
	p.keys("q")
	p.waitFor("▶ "+link[1], "waiting", "Ann (you), (free)")
	if strings.Contains(p.screen(false), "farkle exited") {
		t.Fatal("q on the waiting screen ended the program")
	}
	p.keys("q")
	p.waitFor("farkle exited: 0")
}

// TestOnlineErrorsAreSentences: a server that does not answer is said
// so, in the player's language, never as Go's wrapped error.
func TestOnlineErrorsAreSentences(t *testing.T) {
	for _, code := range []string{"en", "nb"} {
		t.Run(code, func(t *testing.T) {
			dir := t.TempDir()
			env := "env FARKLE_DATA_DIR=" + dir
			if code == "nb" {
				env += " LANG=nb_NO.UTF-8"
			}
			p := newTmuxPane(t, env+" "+farkleBin+" play --online http://127.0.0.1:1 --name Ann; echo \"farkle exited: $?\"; sleep 600")
			want := lang.Get(code).Msg("online.noAnswer", "server", "127.0.0.1:1")
			screen := p.waitFor("farkle exited: 1")
			if !strings.Contains(strings.Join(strings.Fields(screen), ""), strings.Join(strings.Fields(want), "")) {
				t.Errorf("the error does not say %q:\n%s", want, screen)
			}
			for _, raw := range []string{"dial tcp", "connection refused", "Post \"", "Get \""} {
				if strings.Contains(screen, raw) {
					t.Errorf("the error shows Go's %q:\n%s", raw, screen)
				}
			}
		})
	}
}
