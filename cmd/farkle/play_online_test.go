package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/browsertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// Terminal players at a farkle serve: `farkle play --online` and `ssh` in
// tmux panes, a browser through chromedp, all at tables of one real
// server process.

// shortRulesFile writes the classic rules to 1000 (no entry or bank
// minimum: a keep can always be banked) and returns the file.
func shortRulesFile(t *testing.T) string {
	t.Helper()
	return classicToFile(t, 1000)
}

// classicToFile writes the classic rules with the target to a file and
// returns its path.
func classicToFile(t *testing.T, target int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "short.json")
	if err := os.WriteFile(path, fmt.Appendf(nil, `{"base":"classic","game":{"target":%d}}`, target), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// bigPane resizes the pane so that the log shows many lines.
func (p *tmuxPane) bigPane() {
	p.tmux("resize-window", "-t", "play", "-x", "100", "-y", "60")
}

// throwsLine matches a log line of a throw: "Ann throws 1 2 2 5 6", "you
// throw 1 2 2 5 6".
var throwsLine = regexp.MustCompile(`^\s*(\S.*?) throws? ((?:[1-6] ?)+)$`)

// logTail returns the log lines on the terminal screen, oldest first.
func logTail(screen string) []string {
	_, log, ok := strings.Cut(screen, "─ log ")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(log, "\n")[1:] {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// lastThrow returns the faces of the last throw in the terminal's log of
// its own player, who is spoken to ("you throw").
func lastThrow(screen string) []int {
	lines := logTail(screen)
	for i := len(lines) - 1; i >= 0; i-- {
		m := throwsLine.FindStringSubmatch(lines[i])
		if m == nil || m[1] != "you" {
			continue
		}
		var faces []int
		for _, f := range strings.Fields(m[2]) {
			n, _ := strconv.Atoi(f)
			faces = append(faces, n)
		}
		return faces
	}
	return nil
}

// youVerb matches a move of the player spoken to in a log line.
var youVerb = regexp.MustCompile(`^(game over: )?you (throw|start|keep|farkle|lose|bank|resign|win)\b`)

// hotDice matches the terminal's hot dice line, which counts the dice.
var hotDice = regexp.MustCompile(`^hot dice! (\S+) may throw (?:all \d+ dice|the die) again$`)

// thirdPerson is a terminal's log lines at a server as a watcher reads
// them: the moves of its player, name, in the third person ("you throw"
// is "Ann throws", "your turn" "Ann's turn").
func thirdPerson(lines []string, name string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		switch m := youVerb.FindStringSubmatch(l); {
		case l == "your turn":
			l = name + "'s turn"
		case strings.HasPrefix(l, "you reached "):
			l = name + strings.TrimPrefix(l, "you")
		case hotDice.MatchString(l):
			// The terminal counts the dice ("all 6 dice"); the server's
			// log says "all the dice".
			who := hotDice.FindStringSubmatch(l)[1]
			if who == "you" {
				who = name
			}
			l = "hot dice! " + who + " may throw all the dice again"
		case m != nil:
			l = m[1] + name + " " + m[2] + "s" + strings.Replace(l[len(m[0]):], " and lose ", " and loses ", 1)
		}
		out[i] = l
	}
	return out
}

// ownThird matches a log line of a move in the third person.
var ownThird = regexp.MustCompile(`^\S+ (throws|keeps|banks|farkles) `)

// termAct plays me's turn on the terminal screen if it is due: r to
// throw; at a throw, the dice of bestKeep by their faces and b to keep
// and bank. It waits for the move to reach the terminal's log and reports
// whether it moved.
func termAct(t *testing.T, p *tmuxPane, screen, me string) bool {
	t.Helper()
	turn := regexp.MustCompile(`Your turn · turn total \d+ · (\d+ dic?e to throw|choose dice to keep)`).FindStringSubmatch(screen) // me's own turn
	if turn == nil {
		return false
	}
	for _, l := range logTail(screen) {
		if ownThird.MatchString(l) && strings.HasPrefix(l, me+" ") {
			t.Fatalf("the terminal's own player %s is not spoken to in the log (%q):\n%s", me, l, screen)
		}
	}
	if turn[1] == "choose dice to keep" {
		faces := lastThrow(screen)
		if faces == nil {
			t.Fatalf("no throw of %s (\"you throw\") in the log:\n%s", me, screen)
		}
		for _, i := range bestKeep(t, faces) {
			p.keys(strconv.Itoa(faces[i])) // a number key chooses a die showing that face
		}
		p.keys("b")
	} else {
		p.keys("r")
	}
	before := strings.Join(logTail(screen), "\n")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Join(logTail(p.screen(false)), "\n") == before {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal's log did not change after %s moved:\n%s", me, p.screen(false))
		}
		time.Sleep(20 * time.Millisecond) // polling the pane: tmux has no way to wait for a change
	}
	return true
}

// changedFrom waits, up to ten seconds, for the pane's screen to differ
// from before and returns it.
func (p *tmuxPane) changedFrom(before string) string {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := p.screen(false)
		if s != before {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the screen did not change from:\n%s", before)
		}
		time.Sleep(20 * time.Millisecond) // polling the pane: tmux has no way to wait for a change
	}
}

// bestKeep returns the indices in faces of the dice of the keep that
// scores most under the classic rules (the engine's keep table).
func bestKeep(t *testing.T, faces []int) []int {
	t.Helper()
	h, err := dice.FromFaces(faces)
	if err != nil {
		t.Fatal(err)
	}
	keeps := engine.TableFor(rules.MustPreset("classic")).Keeps(h)
	if len(keeps) == 0 {
		t.Fatalf("no keep scores in %v", faces)
	}
	best := keeps[0]
	for _, k := range keeps {
		if k.Points > best.Points {
			best = k
		}
	}
	left := best.Hand
	var out []int
	for i, f := range faces {
		if left.Count(f) > 0 {
			out = append(out, i)
			left = left.Minus(dice.Single(f, 1))
		}
	}
	return out
}

// verifyRecordOf downloads a table's record and checks it with farkle
// verify; it returns the verified game.
func verifyRecordOf(t *testing.T, base, id string) game.Game {
	t.Helper()
	resp, err := http.Get(base + "/api/tables/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "farkle-"+id+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return verifyFile(t, path)
}

// verifyFile runs farkle verify on a record and returns its game.
func verifyFile(t *testing.T, path string) game.Game {
	t.Helper()
	if out, err := exec.Command(farkleBin, "verify", path).CombinedOutput(); err != nil {
		t.Fatalf("farkle verify %s: %v\n%s", path, err, out)
	}
	return verifiedGame(t, path)
}

// showsScores fails the test unless the screen shows every player of g
// with the final score.
func showsScores(t *testing.T, screen string, g game.Game) {
	t.Helper()
	names := g.Players()
	for i, s := range g.Scores() {
		if !regexp.MustCompile(regexp.QuoteMeta(names[i]) + `\s+` + regexp.QuoteMeta(lang.Get("en").Num(int64(s))) + `\b`).MatchString(screen) {
			t.Errorf("the final screen does not show %s with %d:\n%s", names[i], s, screen)
		}
	}
}

// clockOnScreen matches the turn clock of the online line.
var clockOnScreen = regexp.MustCompile(`· \S+ clock [01]:[0-5]\d`)

// tableOnScreen reads the table id from the online line.
var tableOnScreen = regexp.MustCompile(`online · table (\S+) ·`)

func TestSSHPlaysAWholeGameAgainstABot(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client (apt-get install -y openssh-client): skipping")
	}
	dir := t.TempDir()
	_, lines := startServeLines(t, filepath.Join(dir, "f.db"), 2, "--bot-delay", "10ms", "--rules", shortRulesFile(t), "--ssh", "127.0.0.1:0")
	base := strings.Fields(lines[0])[2]
	f := strings.Fields(lines[1]) // farkle: ssh on 127.0.0.1:PORT (host key SHA256:…)
	if len(f) < 4 || f[1] != "ssh" {
		t.Fatalf("serve printed %q", lines[1])
	}
	host, port, _ := strings.Cut(f[3], ":")
	key := filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	p := newTmuxPane(t, "ssh -p "+port+" -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null ann@"+host+
		"; echo \"ssh exited: $?\"; sleep 600")
	p.bigPane()
	p.waitFor("Farkle online", "you are ann")
	p.keys("n")
	p.waitFor("a new game", "first to 1,000")
	p.keys("Enter")
	screen := p.waitFor("online · table", "you are ann")
	m := tableOnScreen.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no table id on the screen:\n%s", screen)
	}
	deadline := time.Now().Add(2 * time.Minute)
	clock := false
	for !strings.Contains(screen, "Game over") {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in time:\n%s", screen)
		}
		clock = clock || clockOnScreen.MatchString(screen)
		if termAct(t, p, screen, "ann") {
			screen = p.screen(false)
			continue
		}
		screen = p.changedFrom(screen)
	}
	if !clock {
		t.Error("the turn clock was never on the screen")
	}
	if !strings.Contains(screen, "/api/tables/"+m[1]+"/record") {
		t.Errorf("the end screen does not say where the record is:\n%s", screen)
	}
	showsScores(t, screen, verifyRecordOf(t, base, m[1]))
	if !strings.Contains(strings.Join(strings.Fields(screen), " "), "p asks for a rematch, q goes back to the lobby") {
		t.Errorf("the end screen does not offer the rematch and the lobby:\n%s", screen)
	}
	// p: the rematch, a new table at which ann sits again with the bot.
	p.keys("p")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if n := tableOnScreen.FindStringSubmatch(p.screen(false)); n != nil && n[1] != m[1] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("p at the end did not sit ann at a rematch:\n%s", p.screen(false))
		}
		time.Sleep(20 * time.Millisecond) // polling the pane
	}
	p.waitFor("you are ann", "Steady bot")
	// q leaves the table for the lobby (asking first, the game going on),
	// and only the lobby's q ends the session.
	p.keys("q")
	p.waitFor("Leave the table?")
	p.keys("y")
	p.waitFor("Farkle online", "enter sit down")
	if strings.Contains(p.screen(false), "ssh exited") {
		t.Fatal("q at the table closed the connection")
	}
	p.keys("q")
	p.waitFor("ssh exited: 0")
}

// readTable is what the test reads of the web page's game: as the
// browser tests of package server read it, with the log.
const readTable = `(() => {
  const g = document.getElementById('game');
  const on = (id) => { const e = document.getElementById(id); return !!e && !e.disabled; };
  if (!g) return {phase: '', step: '', mine: '', version: -1, faces: [], bank: false, log: []};
  return {phase: g.dataset.phase, step: g.dataset.step, mine: g.dataset.mine, version: Number(g.dataset.version),
    faces: [...document.querySelectorAll('.die-btn')].map((d) => Number(d.dataset.face)), bank: on('bank'),
    log: [...document.querySelectorAll('ol.log li')].map((l) => l.textContent)};
})()`

type pageTable struct {
	Phase, Step, Mine string
	Version           int
	Faces             []int
	Bank              bool
	Log               []string
}

// goOnKey is the key bar's word while the terminal holds its player's
// farkle on the table.
const goOnKey = "go on (any key)"

func TestBrowserAndTerminalAtOneTable(t *testing.T) {
	browsertest.Chromium(t) // skips without one
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "10ms")
	p := newTmuxPane(t, "env FARKLE_DATA_DIR="+dir+" "+farkleBin+" play --online "+base+" --name Ann --rules "+shortRulesFile(t)+
		" --players you,friend; echo \"farkle exited: $?\"; sleep 600")
	p.bigPane()
	screen := p.waitFor("Waiting for players", "Friends join with the link")
	link := regexp.MustCompile(`http://\S+/t/[A-Za-z0-9_-]+`).FindString(screen)
	if link == "" {
		t.Fatalf("no link on the screen:\n%s", screen)
	}
	bea := browsertest.New(t, 1280, 900)
	if err := chromedp.Do(bea,
		chromedp.Navigate(link),
		chromedp.WaitVisible("#take-seat"),
		chromedp.SendKeys("#join-name", "Bea"),
		browsertest.Click("#take-seat"),
		chromedp.WaitVisible("#game .play:not(.waiting)"),
	); err != nil {
		t.Fatal(err)
	}
	page := func() pageTable {
		t.Helper()
		g, err := chromedp.Run(bea, chromedp.Evaluate[pageTable](readTable))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	click := func(sel string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(bea, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, browsertest.Click(sel)); err != nil {
			html, _ := chromedp.Run(bea, chromedp.OuterHTML("#game"))
			t.Fatalf("clicking %s: %v; the page shows %+v:\n%s", sel, err, page(), html)
		}
	}
	screen = p.waitFor("online · table", "you are Ann")
	deadline := time.Now().Add(2 * time.Minute)
	termMoves, pageMoves, clock := 0, 0, false
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in time: the page shows %+v, the terminal:\n%s", page(), screen)
		}
		g := page()
		screen = p.screen(false)
		clock = clock || clockOnScreen.MatchString(screen)
		if g.Phase == "over" && strings.Contains(screen, "Game over") {
			break
		}
		if termAct(t, p, screen, "Ann") {
			// The browser sees the terminal's move.
			for page().Version <= g.Version {
				if time.Now().After(deadline) {
					t.Fatalf("the browser stayed at version %d after the terminal moved", g.Version)
				}
				time.Sleep(20 * time.Millisecond) // polling the page
			}
			termMoves++
			continue
		}
		if g.Mine != "yes" || g.Phase == "over" {
			time.Sleep(20 * time.Millisecond) // polling both: nobody is to act yet
			continue
		}
		moved := 1 // actions the page's move sends
		switch {
		case g.Phase != "play":
			// The page may throw the roll-off die by itself.
			ctx, cancel := context.WithTimeout(bea, 2*time.Second)
			err := chromedp.Do(ctx, browsertest.Click("#roll:not([disabled])"))
			cancel()
			if err != nil && page().Version == g.Version {
				t.Fatalf("the roll-off die was not thrown: %v", err)
			}
		case g.Step == "keep":
			for _, i := range bestKeep(t, g.Faces) {
				click(`.die-btn[aria-label^="die ` + strconv.Itoa(i+1) + `:"]`)
			}
			if page().Bank {
				click("#bank")
			} else {
				click("#throw")
			}
			moved++ // the keep goes first, as an action of its own
		case g.Bank:
			click("#bank")
		default:
			click("#throw")
		}
		// The page has the server's answer to all it sent before it is read
		// again (a keep and a bank are two actions: reading between them
		// would see a keep still to make).
		for page().Version < g.Version+moved {
			if time.Now().After(deadline) {
				t.Fatalf("the page stayed before version %d after its move: %+v", g.Version+moved, page())
			}
			time.Sleep(20 * time.Millisecond) // polling the page
		}
		// The terminal sees the browser's move: a new line in its log. After
		// its own player's farkle it holds the server's words until a key
		// (--farkle-hold 0) or its player's next turn: Ann goes on, as a
		// player would who sees the farkle.
		before := strings.Join(logTail(screen), "\n")
		wentOn := false
		for now := p.screen(false); strings.Join(logTail(now), "\n") == before; now = p.screen(false) {
			if time.Now().After(deadline) {
				t.Fatalf("the terminal's log did not change after the browser moved (the page shows %+v):\n%s", page(), now)
			}
			if !wentOn && strings.Contains(now, goOnKey) {
				p.keys("Enter")
				wentOn = true
			}
			time.Sleep(20 * time.Millisecond) // polling the pane
		}
		pageMoves++
	}
	if !clock {
		t.Error("the turn clock was never on the terminal's screen")
	}
	if termMoves == 0 || pageMoves == 0 {
		t.Fatalf("the terminal moved %d times and the browser %d: both should have played", termMoves, pageMoves)
	}
	// Both saw every action: the terminal's log is the end of the page's.
	g := page()
	term := logTail(screen)
	if len(term) < 10 || len(g.Log) < len(term) {
		t.Fatalf("the terminal shows %d log lines, the page %d", len(term), len(g.Log))
	}
	if got, want := strings.Join(thirdPerson(term, "Ann"), "\n"), strings.Join(g.Log[len(g.Log)-len(term):], "\n"); got != want {
		t.Fatalf("the terminal's log ends\n%s\nthe page's\n%s", got, want)
	}
	// The record the terminal saved verifies and ends as both screens. q
	// goes back to the lobby, whose q ends the program.
	p.keys("q")
	p.waitFor("Farkle online", "enter sit down")
	p.keys("q")
	out := p.waitFor("farkle exited: 0")
	saved := regexp.MustCompile(`saved: (\S+)`).FindStringSubmatch(out)
	if saved == nil {
		t.Fatalf("the terminal says nothing of the record:\n%s", out)
	}
	showsScores(t, screen, verifyFile(t, saved[1]))
}

func TestSSHAndTerminalAtOneTable(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client (apt-get install -y openssh-client): skipping")
	}
	dir := t.TempDir()
	_, lines := startServeLines(t, filepath.Join(dir, "f.db"), 2, "--bot-delay", "10ms", "--ssh", "127.0.0.1:0")
	base := strings.Fields(lines[0])[2]
	host, port, _ := strings.Cut(strings.Fields(lines[1])[3], ":")
	ann := newTmuxPane(t, "env FARKLE_DATA_DIR="+dir+" "+farkleBin+" play --online "+base+" --name Ann --rules "+shortRulesFile(t)+
		" --players you,friend; echo \"farkle exited: $?\"; sleep 600")
	ann.bigPane()
	screen := ann.waitFor("Waiting for players")
	id := regexp.MustCompile(`/t/([A-Za-z0-9_-]+)`).FindStringSubmatch(screen)
	if id == nil {
		t.Fatalf("no link on the screen:\n%s", screen)
	}
	key := filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	bob := newTmuxPane(t, "ssh -p "+port+" -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null bob@"+host+
		"; echo \"ssh exited: $?\"; sleep 600")
	bob.bigPane()
	// Bob finds Ann's table in the lobby and sits down.
	bob.waitFor("▶ "+id[1], "waiting", "Ann, (free)")
	bob.keys("Enter")
	bob.waitFor("online · table "+id[1], "you are bob")
	ann.waitFor("online · table "+id[1], "you are Ann")

	deadline := time.Now().Add(2 * time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in time:\n%s\n%s", ann.screen(false), bob.screen(false))
		}
		a, b := ann.screen(false), bob.screen(false)
		if strings.Contains(a, "Game over") && strings.Contains(b, "Game over") {
			// Both saw every action: the same log on both screens.
			// The log's window is as tall as the rest of the screen leaves
			// (Ann's end screen has a line more while it analyses): the
			// common end is compared.
			la, lb := thirdPerson(logTail(a), "Ann"), thirdPerson(logTail(b), "bob")
			n := min(len(la), len(lb))
			if la, lb = la[len(la)-n:], lb[len(lb)-n:]; strings.Join(la, "\n") != strings.Join(lb, "\n") || n < 10 {
				t.Fatalf("the logs differ at the end:\n%s\n---\n%s", a, b)
			}
			g := verifyRecordOf(t, base, id[1])
			showsScores(t, a, g)
			showsScores(t, b, g)
			// The terminal that saved the record analyses its decisions,
			// as a local game's end screen does.
			if end := ann.waitFor("decisions best"); strings.Count(end, "decisions best") != 2 {
				t.Fatalf("the end screen does not analyse both players' decisions:\n%s", end)
			}
			return
		}
		if !termAct(t, ann, a, "Ann") && !termAct(t, bob, b, "bob") {
			time.Sleep(20 * time.Millisecond) // polling both panes: nobody is to act yet
		}
	}
}

// TestOnlineNorwegian: farkle play --online speaks the language LANG asks
// for, as the game on one computer does: the lobby's waiting screen and
// the table's header are Norwegian.
func TestOnlineNorwegian(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "10ms")
	p := newTmuxPane(t, "env LANG=nb_NO.UTF-8 FARKLE_DATA_DIR="+dir+" "+farkleBin+" play --online "+base+" --name Ann --rules "+shortRulesFile(t)+
		" --players you,friend; echo \"farkle exited: $?\"; sleep 600")
	p.bigPane()
	nb := lang.Get("nb")
	waiting := nb.Msg("tui.lobby.waiting")
	if waiting == lang.Get("en").Msg("tui.lobby.waiting") {
		t.Fatal("the Norwegian waiting text is the English one")
	}
	p.waitFor(waiting[:20])
}
