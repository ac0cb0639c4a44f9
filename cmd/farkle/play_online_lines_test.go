package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// TestOnlineLineMode plays a whole game at a server in line mode
// (farkle play --online --plain, issue 27 item 10), as a script would:
// it reads the lines, keeps the best dice of each of its throws and
// banks; the bot's moves come as lines; the end names the winner and the
// record, which verifies.
func TestOnlineLineMode(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "10ms")
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	cmd := exec.Command(farkleBin, "play", "--online", base, "--plain", "--name", "Ann", "--rules", shortRulesFile(t), "--players", "you,bot:steady")
	cmd.Env = append(cmd.Environ(), "FARKLE_DATA_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer done.Stop()
	var all []string
	throw := regexp.MustCompile(`^throw: ((?:[1-6] ?)+)$`)
	sc := bufio.NewScanner(stdout)
	keeps, banks, bot := 0, 0, 0
	for sc.Scan() {
		line := sc.Text()
		all = append(all, line)
		switch {
		case throw.MatchString(line):
			var faces []int
			for _, f := range strings.Fields(throw.FindStringSubmatch(line)[1]) {
				n, _ := strconv.Atoi(f)
				faces = append(faces, n)
			}
			if !scores(t, faces) {
				continue // a farkle: the turn passes without a word from us
			}
			var keep []string
			for _, i := range bestKeep(t, faces) {
				keep = append(keep, strconv.Itoa(faces[i]))
			}
			fmt.Fprintf(stdin, "keep %s\n", strings.Join(keep, " "))
			keeps++
		case strings.HasPrefix(line, "choose: "):
			if strings.Contains(line, "bank") {
				fmt.Fprintln(stdin, "bank")
				banks++
			} else {
				fmt.Fprintln(stdin, "roll")
			}
		case strings.HasPrefix(line, "Steady bot "):
			bot++
		}
	}
	io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("farkle play --online --plain: %v\n%s\n%s", err, strings.Join(all, "\n"), stderr.String())
	}
	out := strings.Join(all, "\n")
	if keeps == 0 || banks == 0 || bot == 0 {
		t.Fatalf("%d keeps, %d banks, %d lines of the bot:\n%s", keeps, banks, bot, out)
	}
	win := regexp.MustCompile(`(?m)^winner: (\S.*) with`).FindStringSubmatch(out)
	saved := regexp.MustCompile(`(?m)^saved: (\S+)$`).FindStringSubmatch(out)
	if win == nil || saved == nil {
		t.Fatalf("the end says no winner or record:\n%s", out)
	}
	g := verifyFile(t, saved[1])
	if ws := g.Winners(); len(ws) != 1 || g.Players()[ws[0]] != win[1] {
		t.Fatalf("the line names %s the winner; the record %v of %v", win[1], ws, g.Players())
	}
}

// scores reports whether some keep of the throw scores under classic.
func scores(t *testing.T, faces []int) bool {
	t.Helper()
	h, err := dice.FromFaces(faces)
	if err != nil {
		t.Fatal(err)
	}
	return len(engine.TableFor(rules.MustPreset("classic")).Keeps(h)) > 0
}
