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
