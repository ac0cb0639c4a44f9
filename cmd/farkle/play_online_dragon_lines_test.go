package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
)

// plainOnline is a `farkle play --online --plain` process a test talks
// to as a script would: lines in, lines out.
type plainOnline struct {
	cmd    *exec.Cmd
	in     io.Writer
	out    *bufio.Scanner
	stderr *strings.Builder
	lines  []string // every line read so far
}

// startPlainOnline runs farkle play with args (the data directory dir)
// and kills it after two minutes.
func startPlainOnline(t *testing.T, dir string, args ...string) *plainOnline {
	t.Helper()
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	p := &plainOnline{cmd: exec.Command(farkleBin, append([]string{"play"}, args...)...), stderr: &strings.Builder{}}
	p.cmd.Env = append(p.cmd.Environ(), "FARKLE_DATA_DIR="+dir)
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := time.AfterFunc(2*time.Minute, func() { p.cmd.Process.Kill() })
	t.Cleanup(func() { kill.Stop(); p.cmd.Process.Kill() })
	p.out = bufio.NewScanner(stdout)
	return p
}

// next reads the next line; false at the end of the output.
func (p *plainOnline) next() (string, bool) {
	if !p.out.Scan() {
		return "", false
	}
	p.lines = append(p.lines, p.out.Text())
	return p.out.Text(), true
}

// send writes lines of input.
func (p *plainOnline) send(lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(p.in, l)
	}
}

// wait waits for the process to end, failing the test with everything
// it printed if it failed.
func (p *plainOnline) wait(t *testing.T) string {
	t.Helper()
	for {
		if _, ok := p.next(); !ok {
			break
		}
	}
	out := strings.Join(p.lines, "\n")
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("farkle play --online --plain: %v\n%s\n%s", err, out, p.stderr.String())
	}
	return out
}

var (
	dragonMostKeep  = regexp.MustCompile(`\(the most: (keep (?:[1-6] ?)+) for`)
	dragonRallyKeep = regexp.MustCompile(`keep scoring dice of ((?:[1-6] ?)+) with a Rally reward`)
	dragonPayKeep   = regexp.MustCompile(`keep scoring dice of ((?:[1-6] ?)+), paying`)
	dragonEatenKeep = regexp.MustCompile(`^choose: (keep (?:[1-6] ?)+) \(the Dragon`)
	dragonDiscard   = regexp.MustCompile(`^choose: (discard \S+)`)
	dragonDismiss   = regexp.MustCompile(`^choose: (dismiss \S+)`)
)

// dragonLineAnswer is a script's answer to a "choose:" line of Dragon
// Farkle's line mode, read from the line alone: attack when it may, else
// recruit; keep the most soldiers (doubled on a Rally), or what the
// Dragon takes; stop a recruiting turn at once, throw on in the Final
// Battle; stand by a brawl throw; discard or dismiss the first offered.
func dragonLineAnswer(t *testing.T, line string) string {
	t.Helper()
	faces := func(s string) []int {
		var out []int
		for _, f := range strings.Fields(s) {
			n, _ := strconv.Atoi(f)
			out = append(out, n)
		}
		return out
	}
	keep := func(s string) string {
		var k []string
		for _, f := range dragonKeys(t, faces(s)) {
			k = append(k, strconv.Itoa(f))
		}
		return "keep " + strings.Join(k, " ")
	}
	m := func(re *regexp.Regexp) string {
		if s := re.FindStringSubmatch(line); s != nil {
			return s[1]
		}
		return ""
	}
	switch {
	case strings.HasPrefix(line, "choose: recruit"):
		if strings.Contains(line, "| battle") && !strings.Contains(line, "battle needs") {
			return "battle"
		}
		return "recruit"
	case m(dragonEatenKeep) != "":
		return m(dragonEatenKeep)
	case m(dragonMostKeep) != "":
		return m(dragonMostKeep)
	case m(dragonRallyKeep) != "":
		return keep(m(dragonRallyKeep)) + " double"
	case m(dragonPayKeep) != "":
		return keep(m(dragonPayKeep))
	case strings.Contains(line, "stand by"):
		return "pass"
	case strings.Contains(line, "| retreat"):
		return "roll"
	case strings.Contains(line, "| stop"):
		return "stop"
	case m(dragonDiscard) != "":
		return m(dragonDiscard)
	case m(dragonDismiss) != "":
		return m(dragonDismiss)
	case line == "choose: accept" || strings.HasSuffix(line, "| accept"):
		return "accept"
	}
	t.Fatalf("no answer to %q", line)
	return ""
}

// TestOnlineDragonLineMode plays a Dragon Farkle table to the end at a
// real server in line mode (farkle play --online --plain, issue 24 item 3
// and issue 27): a script reads the lines and answers each "choose:" line
// from its words alone; the bot's moves come as sentences. At its first
// decision the script sends lines that are wrong (an illegal keep, a
// brawl of nobody, an unknown word): each is refused with "error: " and
// why, and the score before and after them is the same; hint gives the
// advice. The end names the winner and the record, which verifies as a
// game of Dragon Farkle with that winner.
func TestOnlineDragonLineMode(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"), "--bot-delay", "10ms", "--max-turns", "3")
	p := startPlainOnline(t, dir, "--online", base, "--plain", "--name", "Ann", "--rules", "dragon", "--players", "Ann,bot:simple")
	answers, checked := 0, -1
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		if !strings.HasPrefix(line, "choose: ") {
			continue
		}
		if checked < 0 && strings.HasPrefix(line, "choose: recruit") {
			checked = len(p.lines)
			p.send("score", "keep 1 1 1", "brawl nobody", "frobnicate", "score", "hint")
		}
		p.send(dragonLineAnswer(t, line))
		answers++
	}
	out := p.wait(t)
	if answers < 3 || checked < 0 {
		t.Fatalf("%d answers, no decision at the start of a turn (%d):\n%s", answers, checked, out)
	}
	// The wrong lines: refused, and the game as it was.
	after := p.lines[checked:]
	// The server's turn clock (90 s) is said under the choice.
	if len(after) == 0 || !strings.HasPrefix(after[0], "time left to decide: 1:") {
		t.Errorf("no turn clock under the choice:\n%s", strings.Join(p.lines[:min(len(p.lines), checked+3)], "\n"))
	} else {
		after = after[1:]
	}
	score := func(from int) (block []string, next int) {
		for next = from; next < len(after) && strings.HasPrefix(after[next], "score: "); next++ {
			block = append(block, after[next])
		}
		return block, next
	}
	before, i := score(0)
	if len(before) < 3 || i+3 > len(after) {
		t.Fatalf("no score, or no answer to the wrong lines:\n%s", strings.Join(after[:min(len(after), 20)], "\n"))
	}
	for j, want := range []string{"error: ", `error: no player called "nobody"`, `error: unknown command "frobnicate"`} {
		if !strings.HasPrefix(after[i+j], want) {
			t.Errorf("wrong line %d answered %q, want %q…", j+1, after[i+j], want)
		}
	}
	again, k := score(i + 3)
	if strings.Join(again, "\n") != strings.Join(before, "\n") {
		t.Errorf("the score changed across the wrong lines:\n%s\nthen\n%s", strings.Join(before, "\n"), strings.Join(again, "\n"))
	}
	var hints []string
	for ; k < len(after) && strings.HasPrefix(after[k], "hint: "); k++ {
		hints = append(hints, after[k])
	}
	if !slices.ContainsFunc(hints, func(h string) bool { return strings.HasPrefix(h, "hint: recruit: ") }) {
		t.Errorf("hint at the start of a turn does not value recruiting:\n%s", strings.Join(after[:min(len(after), k+2)], "\n"))
	}
	// The end, and the record.
	win := regexp.MustCompile(`(?m)^winners?: (\S.*) \(`).FindStringSubmatch(out)
	saved := regexp.MustCompile(`(?m)^saved: (\S+)$`).FindStringSubmatch(out)
	if win == nil || saved == nil {
		t.Fatalf("the end says no winner or record:\n%s", out)
	}
	g := verifyFile(t, saved[1])
	if g.Variant().Kind() != game.Dragon {
		t.Fatalf("the record is of %s", g.Variant().Kind())
	}
	var names []string
	for _, w := range g.Winners() {
		names = append(names, g.Players()[w])
	}
	if strings.Join(names, ", ") != win[1] {
		t.Fatalf("the line names %s the winner; the record %v", win[1], names)
	}
	if bot := g.Players()[1]; !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(bot) + ` \S`).MatchString(out) {
		t.Errorf("no line tells a move of %s:\n%s", bot, out)
	}
}
