package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The full-screen game in a real terminal: the farkle binary runs in a
// tmux pane (its own server, no user configuration), keys go in with
// send-keys and the screen comes back with capture-pane.

// tmuxPane is one tmux session of 80×24 running a command.
type tmuxPane struct {
	t    *testing.T
	sock string
}

// newTmuxPane starts command (run by sh) in a new tmux server of its own;
// the server is killed when the test ends.
func newTmuxPane(t *testing.T, command string) *tmuxPane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux; .ci/run does it): skipping the terminal test")
	}
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	p := &tmuxPane{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	p.tmux("-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command)
	t.Cleanup(func() { exec.Command("tmux", "-S", p.sock, "kill-server").Run() })
	return p
}

// tmux runs a tmux command on the pane's server and returns its output.
func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends keys as tmux names them ("r", "Right", "Space", "C-c").
func (p *tmuxPane) keys(keys ...string) {
	p.t.Helper()
	p.tmux(append([]string{"send-keys", "-t", "play"}, keys...)...)
}

// screen returns the text on the pane (escapes: with its colours and
// emphasis as escape sequences).
func (p *tmuxPane) screen(escapes bool) string {
	p.t.Helper()
	if escapes {
		return p.tmux("capture-pane", "-p", "-e", "-t", "play")
	}
	return p.tmux("capture-pane", "-p", "-t", "play")
}

// waitFor waits, up to ten seconds, until the pane shows every one of
// want, and returns the screen.
func (p *tmuxPane) waitFor(want ...string) string {
	p.t.Helper()
	return p.waitForWithin(10*time.Second, want...)
}

// waitForWithin is waitFor with its own deadline: for a command that
// works before it shows what is awaited (a solve, a simulation), whose
// time a loaded machine stretches.
func (p *tmuxPane) waitForWithin(d time.Duration, want ...string) string {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := p.screen(false)
		missing := ""
		for _, w := range want {
			if !strings.Contains(s, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the terminal does not show %q; it shows:\n%s", missing, s)
		}
		time.Sleep(20 * time.Millisecond) // polling the pane: tmux has no way to wait for text
	}
}

// waitCursor waits until the ▲ under the dice is under die i (from 0).
func (p *tmuxPane) waitCursor(i int) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, line := range strings.Split(p.screen(false), "\n") {
			if at := strings.Index(line, "▲"); at >= 0 && strings.TrimSpace(line) == "▲" {
				if n := len([]rune(line[:at])); n == 8*i+3 {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the cursor is not under die %d:\n%s", i+1, p.screen(false))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dieFace returns the face of die i (from 0) of the dice on screen, read
// from its pips.
func (p *tmuxPane) dieFace(i int) int {
	p.t.Helper()
	lines := strings.Split(p.screen(false), "\n")
	for y, line := range lines {
		if !strings.HasPrefix(line, "╭─────╮") && !strings.HasPrefix(line, "╔═════╗") && !strings.HasPrefix(line, "┏━━━━━┓") {
			continue
		}
		pips := 0
		for _, row := range lines[y+1 : y+4] {
			cells := []rune(row)
			pips += strings.Count(string(cells[8*i+1:8*i+6]), "●")
		}
		return pips
	}
	p.t.Fatalf("no dice on screen:\n%s", p.screen(false))
	return 0
}

// altScreen reports whether the program has the terminal's alternate
// screen on.
func (p *tmuxPane) altScreen() bool {
	p.t.Helper()
	return strings.TrimSpace(p.tmux("display-message", "-p", "-t", "play", "#{alternate_on}")) == "1"
}

// playInTmux starts a hot-seat game of you and ana (no bots, fixed seed)
// with the environment settings envs, saved under a temp data dir, and
// returns the pane and the data dir. The shell says how farkle exited.
func playInTmux(t *testing.T, envs ...string) (*tmuxPane, string) {
	dir := t.TempDir()
	cmd := "env -u NO_COLOR FARKLE_DATA_DIR=" + dir + " " + strings.Join(envs, " ") + " " + farkleBin +
		" play --rules classic --players you,ana --seed tmux; echo \"farkle exited: $?\"; sleep 600"
	return newTmuxPane(t, cmd), dir
}

// sgr matches the escape sequences that set colours and emphasis.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colours returns the colour settings among the escape sequences of s:
// foreground or background, but not the reset to the default colour
// (39, 49) that tmux writes after any emphasis.
func colours(s string) []string {
	var out []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		params := strings.Split(m[1], ";")
		for i := 0; i < len(params); i++ {
			n, _ := strconv.Atoi(params[i])
			switch {
			case n == 38 || n == 48:
				out = append(out, m[0])
				i = len(params) // the colour's own numbers follow
			case n >= 30 && n <= 37, n >= 40 && n <= 47, n >= 90 && n <= 97, n >= 100 && n <= 107:
				out = append(out, m[0])
			}
		}
	}
	return out
}

func TestPlayFullScreenInTmux(t *testing.T) {
	p, dir := playInTmux(t)
	p.waitFor("Farkle · classic", "press r to throw")
	if !p.altScreen() {
		t.Error("the game is not on the alternate screen")
	}
	if s := p.screen(true); len(colours(s)) == 0 {
		t.Errorf("no colours without NO_COLOR:\n%q", s)
	}

	// Keys: r throws; the arrows move the cursor (the ▲ under the dice);
	// space chooses the die over it, drawn with a double border; a number
	// key chooses a die showing that face.
	p.keys("r")
	p.waitFor("choose dice to keep")
	p.waitCursor(0)
	p.keys("Right", "Right")
	p.waitCursor(2)
	p.keys("Space")
	// (a double border when it can be kept, a heavy one when it cannot)
	if s := p.waitFor("chosen "); strings.Count(s, "╔═════╗")+strings.Count(s, "┏━━━━━┓") != 1 {
		t.Errorf("one die chosen, but the screen shows otherwise:\n%s", s)
	}
	p.keys("u")
	p.waitFor("choose scoring dice")
	face, first := p.dieFace(4), 0
	for p.dieFace(first) != face {
		first++
	}
	p.keys(strconv.Itoa(face))
	p.waitFor("chosen " + strconv.Itoa(face) + ":")
	p.waitCursor(first) // the first die showing that face
	p.keys("u")
	p.waitFor("choose scoring dice")

	// Resizing: too narrow asks for a wider window; wide enough again
	// shows the table as it was.
	p.tmux("resize-window", "-t", "play", "-x", "50", "-y", "20")
	p.waitFor("needs a window at least 60 columns wide", "(this one is 50)")
	p.tmux("resize-window", "-t", "play", "-x", "100", "-y", "30")
	if s := p.waitFor("choose dice to keep"); strings.Contains(s, "╔═════╗") {
		t.Errorf("the undone choice came back after the resize:\n%s", s)
	}
	p.waitCursor(first)

	// q asks first; y quits, saves, and gives the terminal back.
	p.keys("q")
	p.waitFor("Quit?")
	p.keys("y")
	s := p.waitFor("farkle exited: 0", "saved: "+filepath.Join(dir, "games"), "resume with: farkle play --resume")
	if p.altScreen() {
		t.Errorf("the alternate screen is still on after quitting:\n%s", s)
	}
	if games, _ := filepath.Glob(filepath.Join(dir, "games", "*.json")); len(games) != 1 {
		t.Errorf("saved games %v, want one", games)
	}
}

func TestPlayNoColorInTmux(t *testing.T) {
	// Any value but "" turns colours off (no-color.org), "yes" too;
	// emphasis stays.
	p, dir := playInTmux(t, "NO_COLOR=yes")
	p.waitFor("Farkle · classic", "press r to throw")
	p.keys("r")
	p.waitFor("choose dice to keep")
	s := p.screen(true)
	if c := colours(s); len(c) > 0 {
		t.Errorf("colours under NO_COLOR=yes: %q in\n%q", c, s)
	}
	if !strings.Contains(s, "\x1b[1m") {
		t.Errorf("no bold under NO_COLOR:\n%q", s)
	}

	// ctrl+c saves and quits at once.
	p.keys("C-c")
	p.waitFor("farkle exited: 0", "saved: "+filepath.Join(dir, "games"))
	if p.altScreen() {
		t.Error("the alternate screen is still on after ctrl+c")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		t.Error(err)
	}
}
