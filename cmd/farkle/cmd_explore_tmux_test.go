package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestExploreCursorInTmux runs farkle explore --cursor on a real terminal
// (tmux): the arrow keys move the cursor at once (raw mode), q quits and
// leaves the terminal as it was.
func TestExploreCursorInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: skipping the terminal test")
	}
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	sock := "farkle-explore-" + strings.ReplaceAll(t.TempDir(), "/", "-")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	cmd := farkleBin + " explore --rules " + rf + " --cache " + t.TempDir() + " --cells 20 --cursor; echo EXIT $?; sleep 60"
	tmux("new-session", "-d", "-s", "x", "-x", "120", "-y", "40", cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	// waitFor polls the screen until it shows want (the program's answer
	// to what was sent), for up to a minute.
	waitFor := func(want string) string {
		t.Helper()
		var screen string
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if screen = tmux("capture-pane", "-t", "x", "-p"); strings.Contains(screen, want) {
				return screen
			}
		}
		t.Fatalf("the screen never showed %q:\n%s", want, screen)
		return ""
	}
	waitFor("at 0 to 0: P(win) ")
	tmux("send-keys", "-t", "x", "Right", "Up")
	screen := waitFor("at 100 to 100: P(win) ")
	if strings.Contains(screen, "at 0 to 0: P(win)") {
		t.Errorf("the screen was not cleared between frames:\n%s", screen)
	}
	if !strings.Contains(screen, "   100 5 5<") {
		t.Errorf("the cursor is not on 100-100:\n%s", screen)
	}
	tmux("send-keys", "-t", "x", "q")
	waitFor("EXIT 0")
}

// TestExploreCursorFitsEightyByTwentyFour runs --cursor on an 80×24 and
// a 60×20 terminal (tmux) with the default cells: the frame is drawn in the
// alternate screen and fits it, so its title stays at the top, and q
// leaves the shell's screen as it was, with no map left on it.
func TestExploreCursorFitsEightyByTwentyFour(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: skipping the terminal test")
	}
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	rf := writeTestFile(t, "small.toml", smallExploreRules)
	for _, size := range [][2]string{{"80", "24"}, {"60", "20"}} {
		t.Run(size[0]+"x"+size[1], func(t *testing.T) { cursorFits(t, rf, size[0], size[1]) })
	}
}

func cursorFits(t *testing.T, rf, width, height string) {
	sock := "farkle-explore" + width + "-" + strings.ReplaceAll(t.TempDir(), "/", "-")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	cmd := "echo BEFORE; " + farkleBin + " explore --lang en --rules " + rf + " --cache " + t.TempDir() + " --cursor; echo EXIT $?; sleep 60"
	tmux("new-session", "-d", "-s", "x", "-x", width, "-y", height, cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	waitFor := func(want string) string {
		t.Helper()
		var screen string
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if screen = tmux("capture-pane", "-t", "x", "-p"); strings.Contains(screen, want) {
				return screen
			}
		}
		t.Fatalf("the screen never showed %q:\n%s", want, screen)
		return ""
	}
	screen := waitFor("arrows or h j k l move")
	lines := strings.Split(screen, "\n")
	if !strings.HasPrefix(lines[0], "P(the player to move wins) at the start of a turn") {
		t.Errorf("the title is not on the first line at %s×%s:\n%s", width, height, screen)
	}
	if strings.Contains(screen, "BEFORE") {
		t.Errorf("the frame is not in the alternate screen:\n%s", screen)
	}
	tmux("send-keys", "-t", "x", "Up")
	// The cursor one row up: at the map's step (which the size sets) to 0.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		screen = tmux("capture-pane", "-t", "x", "-p")
		if strings.Contains(screen, " to 0: P(win)") && !strings.Contains(screen, "at 0 to 0: P(win)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cursor did not move up:\n%s", screen)
		}
	}
	if lines := strings.Split(screen, "\n"); !strings.HasPrefix(lines[0], "P(the player to move wins)") {
		t.Errorf("the title scrolled away after a key:\n%s", screen)
	}
	tmux("send-keys", "-t", "x", "q")
	screen = waitFor("EXIT 0")
	if !strings.Contains(screen, "BEFORE") || strings.Contains(screen, "P(the player to move wins)") {
		t.Errorf("the shell's screen was not restored after q:\n%s", screen)
	}
}
