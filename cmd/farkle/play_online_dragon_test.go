package main

import (
	"bytes"
	"context"
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
)

// dragonPage is what the test reads of the web page's Dragon Farkle game.
type dragonPage struct {
	Phase, Mode, Mine string
	Version           int
	Faces             []int
	Kinds             []string // the data-kind of every enabled button
	Pool              string
	Keep              bool    // the Keep button is enabled
	Keeps             [][]int // the legal keeps
	Show              string  // a brawl being shown, "" for none
}

const readDragonPage = `(() => {
  const g = document.getElementById('game');
  if (!g) return {phase: '', mode: '', mine: '', version: -1, faces: [], kinds: [], pool: '', keep: false};
  const k = document.getElementById('keep');
  return {phase: g.dataset.phase || '', mode: g.dataset.mode || '', mine: g.dataset.mine || '', version: Number(g.dataset.version),
    faces: [...document.querySelectorAll('.die-btn')].map((d) => Number(d.dataset.face)),
    kinds: [...document.querySelectorAll('button[data-kind]:not(:disabled)')].map((b) => b.dataset.kind),
    pool: (document.getElementById('pool') || {}).textContent || '', keep: !!k && !k.disabled, keeps: JSON.parse(g.dataset.keeps || '[]'), show: g.dataset.show || ''};
})()`

// clickIfThere clicks the first element sel matches unless it is missing
// or disabled, and reports whether it did.
func clickIfThere(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	js := `(() => { const b = document.querySelector(` + strconv.Quote(sel) + `); if (!b || b.disabled) return false; b.click(); return true; })()`
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	if err != nil {
		t.Fatal(err)
	}
	return clicked
}

// dragonKeys is the keep of most points among the dice of faces, by the
// soldier table of Dragon Farkle: the faces to press, one key a die.
func dragonKeys(t *testing.T, faces []int) []int {
	t.Helper()
	h, err := dice.FromFaces(faces)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := game.Preset("dragon")
	var best *dice.Keep
	for _, k := range engine.TableFor(v.Scoring()).Keeps(h) {
		if best == nil || k.Points > best.Points {
			best = &k
		}
	}
	if best == nil {
		return nil
	}
	return best.Hand.Faces()
}

// dragonThrow matches a throw of the log: "bob threw 1 2 2 5 6 and a
// Blank", "you threw 1 2 2 5 6 and a Blank".
var dragonThrow = regexp.MustCompile(`(?m)^\s*(\S+) threw ((?:[1-6] ?)+) and`)

// sshDragonAct plays the SSH player me's decision on the screen, if it is
// theirs, by its keys: recruit at the start of a turn, keep the best
// scoring dice and stop, accept a farkle, double on a Rally, stand by a
// brawl throw, keep one's Companion, discard the first item. It reports
// whether it pressed anything.
func sshDragonAct(t *testing.T, p *tmuxPane, screen, me string) bool {
	t.Helper()
	bar := ""
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "h hint") {
			bar = l
		}
	}
	if !strings.Contains(screen, "Your turn") && !strings.Contains(screen, "stand by it") { // me's own turn
		return false
	}
	switch {
	case bar == "":
		return false
	case strings.Contains(screen, "Choose your action:"):
		p.keys("r")
	case strings.Contains(screen, "stand by it"):
		p.keys("p")
	case strings.Contains(screen, "Keep one; the other is dismissed"):
		p.keys("k")
	case strings.Contains(bar, "enter choose"):
		p.keys("1") // a Rally: double; a discard: the first item
	case strings.Contains(bar, "keep & throw") || strings.Contains(bar, "keep & retreat"):
		if strings.Contains(bar, "a accept") {
			p.keys("a")
			break
		}
		if !strings.Contains(screen, "must be set aside") { // else the Dragon chose the dice
			throws := dragonThrow.FindAllStringSubmatch(screen, -1)
			for _, th := range throws {
				if th[1] == me {
					t.Fatalf("the terminal's own player %s is not spoken to in the log (%q):\n%s", me, th[0], screen)
				}
			}
			if len(throws) == 0 || throws[len(throws)-1][1] != "you" { // the terminal's own player is spoken to
				return false // the throw is not in the log yet
			}
			var faces []int
			for _, f := range strings.Fields(throws[len(throws)-1][2]) {
				n, _ := strconv.Atoi(f)
				faces = append(faces, n)
			}
			for _, f := range dragonKeys(t, faces) {
				p.keys(strconv.Itoa(f))
			}
		}
		p.keys("s")
	case strings.Contains(bar, "s stop") || strings.Contains(bar, "s retreat"):
		p.keys("s")
	default:
		return false
	}
	return true
}

// TestDragonTableOfBrowserAndSSH plays a Dragon Farkle table to the end
// between a player in the browser and one over SSH (issue 24 item 3): the
// SSH player creates it from the lobby's setup screen, whose waiting
// screen gives the link; the browser joins by it; each plays its turns,
// with the turn clock on the SSH screen; at the end both see it over and
// the server's record verifies (farkle verify) and names the winners both
// screens show.
func TestDragonTableOfBrowserAndSSH(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client (apt-get install -y openssh-client): skipping")
	}
	browsertest.Chromium(t) // skips without one
	dir := t.TempDir()
	_, lines := startServeLines(t, filepath.Join(dir, "f.db"), 2, "--bot-delay", "10ms", "--max-turns", "3", "--ssh", "127.0.0.1:0")
	base := strings.Fields(lines[0])[2]
	host, port, _ := strings.Cut(strings.Fields(lines[1])[3], ":")
	key := filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	bob := newTmuxPane(t, "ssh -p "+port+" -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null bob@"+host+
		"; echo \"ssh exited: $?\"; sleep 600")
	raw := filepath.Join(dir, "raw") // what the SSH session wrote, for its bells
	bob.tmux("pipe-pane", "-o", "-t", "play", "cat >> "+raw)
	bob.bigPane()
	bob.waitFor("Farkle online", "you are bob")
	// A new table of Dragon Farkle (left of the first rules), the second
	// seat a person: a free seat for the browser.
	bob.keys("n")
	bob.waitFor("a new game")
	bob.keys("Left")
	bob.waitFor("◀ Dragon Farkle")
	bob.keys("Down", "Down", "Down")
	bob.waitFor("▶ Seat 2")
	person := regexp.MustCompile(`Seat 2 .*◀ person ▶`)
	for i := 0; !person.MatchString(bob.screen(false)); i++ {
		if i == 6 {
			t.Fatalf("seat 2 never became a person:\n%s", bob.screen(false))
		}
		before := bob.screen(false)
		bob.keys("Left")
		bob.changedFrom(before)
	}
	bob.keys("Enter")
	screen := bob.waitFor("Waiting for players", "Friends join with the link")
	link := regexp.MustCompile(`http://\S+/t/([A-Za-z0-9_-]+)`).FindStringSubmatch(screen)
	if link == nil {
		t.Fatalf("no link on the waiting screen:\n%s", screen)
	}

	ann := browsertest.New(t, 1280, 1000)
	join, cancel := context.WithTimeout(ann, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(join,
		chromedp.Navigate(link[0]),
		chromedp.WaitVisible("#take-seat"),
		chromedp.SendKeys("#join-name", "Ann"),
		browsertest.Click("#take-seat"),
		chromedp.WaitVisible("#game .scoreboard"),
	); err != nil {
		html, _ := chromedp.Run(ann, chromedp.OuterHTML("body"))
		t.Fatalf("joining %s in the browser: %v; the page:\n%s", link[0], err, html)
	}
	page := func() dragonPage {
		t.Helper()
		d, err := chromedp.Run(ann, chromedp.Evaluate[dragonPage](readDragonPage))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	click := func(sel string) {
		t.Helper()
		for end := time.Now().Add(5 * time.Second); !clickIfThere(t, ann, sel); {
			if time.Now().After(end) {
				t.Fatalf("click %s: not on the page (%+v)", sel, page())
			}
			time.Sleep(20 * time.Millisecond) // the page redraws as messages come
		}
	}
	bob.waitFor("Dragon Farkle", "online · table "+link[1], "you are bob")

	deadline := time.Now().Add(2 * time.Minute) // within the browser's three
	bobMoves, annMoves, clock := 0, 0, false
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in time (bob %d moves, Ann %d): the page shows %+v, the terminal:\n%s", bobMoves, annMoves, page(), bob.screen(false))
		}
		d := page()
		screen = bob.screen(false)
		clock = clock || clockOnScreen.MatchString(screen)
		if d.Phase == "over" && strings.Contains(screen, "The game is over") {
			break
		}
		if sshDragonAct(t, bob, screen, "bob") {
			bobMoves++
			bob.changedFrom(screen)
			continue
		}
		if d.Mine != "yes" || d.Show != "" || d.Phase == "over" {
			time.Sleep(20 * time.Millisecond) // polling both: nobody is to act here yet
			continue
		}
		switch d.Phase {
		case "choose":
			click(`button[data-kind="recruit"]`)
		case "keep":
			if !hasKindOf(d.Kinds, "keep") && hasKindOf(d.Kinds, "accept") {
				click(`button[data-kind="accept"]`)
				break
			}
			for _, i := range pickDragonKeep(d.Faces, d.Keeps) {
				click(`.die-btn[data-i="` + strconv.Itoa(i) + `"]`)
			}
			click("#keep")
		case "roll", "evaded":
			click("#stop")
		case "discard":
			click(`button[data-kind="discard"]`)
		case "brawl":
			click("#pass")
		case "hire":
			click(`button[data-kind="dismiss"]`)
		default:
			t.Fatalf("unknown phase %q", d.Phase)
		}
		annMoves++
		for end := time.Now().Add(10 * time.Second); page().Version == d.Version; {
			if time.Now().After(end) {
				t.Fatalf("the page stayed at version %d after Ann's move: %+v", d.Version, page())
			}
			time.Sleep(20 * time.Millisecond) // polling the page
		}
	}
	if bobMoves == 0 || annMoves == 0 {
		t.Fatalf("bob moved %d times and Ann %d: both should have played", bobMoves, annMoves)
	}
	if !clock {
		t.Error("the turn clock was never on the SSH screen")
	}
	// The bell rang when the game came to bob: once a turn (at most the
	// three of --max-turns), not at each of the turn's decisions.
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if bells := bytes.Count(oscSeq.ReplaceAll(data, nil), []byte("\a")); bells < 1 || bells > 3 {
		t.Errorf("the bell rang %d times for bob's %d decisions in at most 3 turns", bells, bobMoves)
	} else if bobMoves <= 3 {
		t.Logf("bob decided only %d times: the bell's count (%d) does not tell a turn from a decision", bobMoves, bells)
	}
	// The record verifies, and its winners are those the SSH screen names.
	g := verifyRecordOf(t, base, link[1])
	if g.Variant().Kind() != game.Dragon {
		t.Fatalf("the record is of %s", g.Variant().Kind())
	}
	dg := g.(*game.DragonGame).State()
	flat := strings.Join(strings.Fields(screen), " ")
	for _, w := range dg.Winners {
		if !strings.Contains(flat, dg.Players[w].Name) {
			t.Errorf("the end screen does not name the winner %s:\n%s", dg.Players[w].Name, screen)
		}
	}
	for _, p := range dg.Players {
		if !strings.Contains(flat, p.Name+" "+lang.Get("en").Num(int64(p.Soldiers))+" soldiers") {
			t.Errorf("the end screen does not show %s with %d soldiers:\n%s", p.Name, p.Soldiers, screen)
		}
	}
	if !strings.Contains(flat, "/api/tables/"+link[1]+"/record") {
		t.Errorf("the end screen does not say where the record is:\n%s", screen)
	}
	// q: back to the lobby; q again ends the session.
	bob.keys("q")
	bob.waitFor("Farkle online", "enter sit down")
	bob.keys("q")
	bob.waitFor("ssh exited: 0")
}

func hasKindOf(kinds []string, k string) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// pickDragonKeep returns the indices of the dice of the legal keep of
// most dice.
func pickDragonKeep(faces []int, keeps [][]int) []int {
	var best []int
	for _, k := range keeps {
		if best == nil || len(k) > len(best) {
			best = k
		}
	}
	used := make([]bool, len(faces))
	var out []int
	for _, f := range best {
		for i, g := range faces {
			if g == f && !used[i] {
				used[i] = true
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// TestDragonOnlineLogFromTheStart: a Dragon Farkle table against a bot
// starts at the server before the terminal connects, so the game's first
// events (the seat bonus, round 1's first turn) come in the welcome; the
// terminal writes them in its own words, speaking to its player ("you
// started with 300 soldiers", "round 1: your turn"), never by name. One of
// the two names the player whoever starts.
func TestDragonOnlineLogFromTheStart(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "10s") // the bot waits: the start stays on the screen
	p := newTmuxPane(t, "env FARKLE_DATA_DIR="+dir+" "+farkleBin+" play --online "+base+" --name Ann --rules dragon --players you,bot:smart; echo \"farkle exited: $?\"; sleep 600")
	p.bigPane()
	screen := p.waitFor("Dragon Farkle", "you are Ann", "round 1: ")
	log := logTail(screen)
	spoken := false
	for _, l := range log {
		if strings.HasPrefix(l, "Ann ") || strings.Contains(l, "Ann's turn") {
			t.Errorf("the terminal's own player is named in the log (%q):\n%s", l, screen)
		}
		spoken = spoken || strings.HasPrefix(l, "you started with ") || l == "round 1: your turn"
	}
	if !spoken {
		t.Errorf("the log's start does not speak to the player:\n%s", strings.Join(log, "\n"))
	}
	// While the bot decides at the server, the screen says so; it does
	// not ask the player to choose ("Smart bot's turn: choose an action
	// below").
	if strings.Contains(screen, "round 1: Smart bot's turn") {
		if strings.Contains(screen, "choose an action below") || !strings.Contains(screen, "Smart bot is thinking…") {
			t.Errorf("the bot's turn at the server reads as the player's to choose:\n%s", screen)
		}
	} else if !strings.Contains(screen, "Choose your action") {
		t.Errorf("Ann's turn does not ask her to choose:\n%s", screen)
	}
}
