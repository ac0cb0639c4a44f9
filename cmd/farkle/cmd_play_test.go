package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// linePipe is stdout for an in-process game: every complete line goes to
// a channel that the test's player reads.
type linePipe struct {
	mu    sync.Mutex
	buf   strings.Builder
	all   strings.Builder
	lines chan string
}

func (p *linePipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.all.Write(b)
	p.buf.Write(b)
	for {
		s := p.buf.String()
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		p.lines <- s[:i]
		p.buf.Reset()
		p.buf.WriteString(s[i+1:])
	}
	return len(b), nil
}

// player is the test's own simple Farkle player for line mode: after a
// throw it keeps the keep scoring most (fewest dice on a tie), computed
// from the dice table; asked to choose it banks at 350 or more, or with
// two dice or fewer left, and throws otherwise.
type player struct {
	t *dice.Table
}

var (
	chooseRoll = regexp.MustCompile(`roll (\d+)`)
	chooseBank = regexp.MustCompile(`bank (\d+)`)
)

// answer returns the command for a line of output, "" if none is due.
func (p *player) answer(line string) string {
	switch {
	case strings.HasPrefix(line, "throw: "):
		h, err := dice.Parse(strings.TrimPrefix(line, "throw: "))
		if err != nil || p.t.Farkle(h) {
			return ""
		}
		best := dice.Keep{}
		for _, k := range p.t.Keeps(h) {
			if k.Points > best.Points || (k.Points == best.Points && k.N < best.N) {
				best = k
			}
		}
		return "keep " + best.Hand.String()
	case strings.HasPrefix(line, "choose: "):
		bank := chooseBank.FindStringSubmatch(line)
		roll := chooseRoll.FindStringSubmatch(line)
		if bank == nil {
			return "roll"
		}
		total, _ := strconv.Atoi(bank[1])
		left := 6
		if roll != nil {
			left, _ = strconv.Atoi(roll[1])
		}
		if roll == nil || total >= 350 || left <= 2 {
			return "bank"
		}
		return "roll"
	}
	return ""
}

// playAgainstBot plays a whole game of `farkle play` in-process as the
// test's player, answering each line, and returns the commands it typed,
// everything printed, and the exit status.
func playAgainstBot(t *testing.T, dataDir string, prefix string, args ...string) (input, output string, code int) {
	t.Helper()
	pr, pw := io.Pipe()
	out := &linePipe{lines: make(chan string, 1<<16)}
	var errOut strings.Builder
	e := &env{stdin: pr, stdout: out, stderr: &errOut, getenv: func(k string) string {
		if k == "FARKLE_DATA_DIR" {
			return dataDir
		}
		return ""
	}}
	done := make(chan int)
	go func() { done <- Main(context.Background(), e, args) }()
	r, _ := rules.Preset("classic")
	p := &player{t: dice.NewTable(r)}
	var typed strings.Builder
	send := func(cmd string) {
		typed.WriteString(cmd + "\n")
		if _, err := io.WriteString(pw, cmd+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range strings.Split(prefix, "\n") {
		if c != "" {
			send(c)
		}
	}
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line := <-out.lines:
			if strings.HasPrefix(line, "error:") && prefix == "" {
				t.Fatalf("refused: %s", line)
			}
			if cmd := p.answer(line); cmd != "" {
				send(cmd)
			}
		case code = <-done:
			pw.Close()
			if errOut.Len() > 0 {
				t.Errorf("stderr: %s", errOut.String())
			}
			return typed.String(), out.all.String(), code
		case <-timeout:
			t.Fatalf("the game did not end; output so far:\n%s", out.all.String())
		}
	}
}

var winnerLine = regexp.MustCompile(`(?m)^winner: (\S+) with ([\d,]+)$`)

// savedGames returns the record files in dataDir/games.
func savedGames(t *testing.T, dataDir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dataDir, "games", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// verifiedGame reads the record at path and returns its game, checked
// as farkle verify checks it (seed revealed, every throw).
func verifiedGame(t *testing.T, path string) game.Game {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := game.Verify(rec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// checkFinishedRecord verifies the one saved game of dataDir (seed
// revealed, every throw checked) and that its winner is the one printed.
func checkFinishedRecord(t *testing.T, dataDir, output string) {
	t.Helper()
	m := winnerLine.FindStringSubmatch(output)
	if m == nil {
		t.Fatalf("no winner line in:\n%s", output)
	}
	files := savedGames(t, dataDir)
	if len(files) != 1 {
		t.Fatalf("saved games: %v", files)
	}
	st := verifiedGame(t, files[0]).(*game.FarkleGame).State()
	if !st.Over() || len(st.Winners) != 1 {
		t.Fatalf("the saved game is not over with one winner: %+v", st.Winners)
	}
	w := st.Players[st.Winners[0]]
	if w.Name != m[1] || strings.ReplaceAll(m[2], ",", "") != strconv.Itoa(w.Score) {
		t.Fatalf("printed %q, the record says %s with %d", m[0], w.Name, w.Score)
	}
	if _, err := os.Stat(strings.TrimSuffix(files[0], ".json") + ".seed"); !os.IsNotExist(err) {
		t.Fatalf("the seed file of a finished game is still there (%v)", err)
	}
}

// normalize replaces the lines naming a saved file, which differ between
// runs.
func normalize(out string) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "saved: ") {
			continue
		}
		b.WriteString(sc.Text() + "\n")
	}
	return b.String()
}

func TestPlayLineModeWholeGame(t *testing.T) {
	args := []string{"play", "--players", "you,bot:steady", "--seed", "line-game"}
	dir := t.TempDir()
	input, output, code := playAgainstBot(t, dir, "", args...)
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, output)
	}
	for _, want := range []string{"turn: you (score 0)", "throw: ", "steady throws ", "steady keeps ", "choose: roll "} {
		if !strings.Contains(output, want) {
			t.Errorf("the output has no %q", want)
		}
	}
	checkFinishedRecord(t, dir, output)

	// The same commands through the built binary (and through Main with a
	// reader for stdin) play the same game to the same end.
	t.Run("binary", func(t *testing.T) {
		dir2 := t.TempDir()
		t.Setenv("FARKLE_DATA_DIR", dir2)
		out, stderr, code := execFarkle(t, input, args...)
		if code != 0 || stderr != "" {
			t.Fatalf("exit status %d, stderr %q", code, stderr)
		}
		if normalize(out) != normalize(output) {
			t.Fatalf("the binary played differently:\n%s", out)
		}
		checkFinishedRecord(t, dir2, out)
	})
	t.Run("in-process reader", func(t *testing.T) {
		out, stderr, code := runFarkle(t, input, args...)
		if code != 0 || normalize(out) != normalize(output) {
			t.Fatalf("exit status %d, output:\n%s", code, out)
		}
		if !strings.Contains(stderr, "will not be saved") {
			t.Fatalf("without a data directory the game should say it is not saved; stderr %q", stderr)
		}
	})
}

func TestPlayLineModeRefusalsChangeNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FARKLE_DATA_DIR", dir)
	// Seed "refuse": you start (seat order) and the first throw is on the
	// table; every command below is refused.
	in := "bank\nroll\nkeep\nkeep 7\nkeep 1 1 1 1 1 1\nfrobnicate\nroll now\nquit\n"
	out, stderr, code := execFarkle(t, in, "play", "--players", "you", "--seed", "refuse")
	if code != 0 || stderr != "" {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	errs := regexp.MustCompile(`(?m)^error: .*$`).FindAllString(out, -1)
	if len(errs) != 7 {
		t.Fatalf("%d error lines, want 7:\n%s", len(errs), out)
	}
	// Errors write the throw as the game does, and name no package.
	throw := regexp.MustCompile(`(?m)^throw: (.*)$`).FindStringSubmatch(out)
	if throw == nil {
		t.Fatalf("no throw line:\n%s", out)
	}
	for i, want := range []string{"bank: keep some dice first", "throw: keep at least one scoring die from " + throw[1] + " first", "keep which dice?",
		"error: keep 7: 7 is not a die face", "error: keep 1 1 1 1 1 1: the throw " + throw[1] + " has ", `unknown command "frobnicate"`, "roll takes no arguments"} {
		if !strings.Contains(errs[i], want) {
			t.Errorf("error %d is %q, want it to say %q", i+1, errs[i], want)
		}
		if strings.Contains(errs[i], "dice:") || strings.Contains(errs[i], "engine:") {
			t.Errorf("error %d names a package: %q", i+1, errs[i])
		}
	}
	files := savedGames(t, dir)
	if len(files) != 1 {
		t.Fatalf("saved: %v", files)
	}
	data, _ := os.ReadFile(files[0])
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Actions) != 1 || !strings.Contains(string(rec.Actions[0]), `"type":"throw"`) {
		t.Fatalf("the record holds %d actions, want only the first throw", len(rec.Actions))
	}
}

func TestPlayLineModeQuitAndResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"play", "--players", "you,bot:steady", "--seed", "resume-me"}
	// Play until the first choice, then quit.
	_, out, code := playAgainstBot(t, dir, "", args...)
	if code != 0 {
		t.Fatal(out)
	}
	os.RemoveAll(filepath.Join(dir, "games"))

	// Quit at once after the first keep: the game is saved with its seed.
	t.Setenv("FARKLE_DATA_DIR", dir)
	first := strings.SplitN(out, "\nthrow: ", 2)
	if len(first) != 2 {
		t.Fatalf("no throw in:\n%s", out)
	}
	keep := (&player{t: dice.NewTable(rules.MustPreset("classic"))}).answer("throw: " + strings.SplitN(first[1], "\n", 2)[0])
	out1, _, code := execFarkle(t, keep+"\nquit\n", args...)
	if code != 0 || !strings.Contains(out1, "resume with: farkle play --resume ") {
		t.Fatalf("exit status %d:\n%s", code, out1)
	}
	files := savedGames(t, dir)
	if len(files) != 1 {
		t.Fatalf("saved: %v", files)
	}
	if _, err := os.Stat(strings.TrimSuffix(files[0], ".json") + ".seed"); err != nil {
		t.Fatalf("no seed file beside the unfinished game: %v", err)
	}

	// Resuming continues the same game: the whole game played on from
	// there ends exactly as the uninterrupted one.
	_, out2, code := playAgainstBot(t, dir, "", "play", "--resume", files[0])
	if code != 0 || !strings.Contains(out2, "resumed: "+files[0]) {
		t.Fatalf("exit status %d:\n%s", code, out2)
	}
	if w1, w2 := winnerLine.FindString(out), winnerLine.FindString(out2); w1 == "" || w1 != w2 {
		t.Fatalf("uninterrupted game: %q; resumed game: %q", w1, w2)
	}
	checkFinishedRecord(t, dir, out2)

	_, stderr, code := runFarkle(t, "", "play", "--resume", files[0])
	checkBadInput(t, stderr, code, "the game is over")
}

func TestPlayBadInput(t *testing.T) {
	cases := map[string]struct {
		args    []string
		mention []string
	}{
		"unknown bot":      {[]string{"--players", "you,bot:genius"}, []string{"genius", "levels:"}},
		"duplicate name":   {[]string{"--players", "ana,ana"}, []string{"ana", "unique"}},
		"too many players": {[]string{"--rules", "cardgames", "--players", "a,b,c"}, []string{"3 players", "2 to 2"}},
		"resume and rules": {[]string{"--resume", "x.json", "--rules", "classic"}, []string{"--rules"}},
		"missing resume":   {[]string{"--resume", "/nonexistent/game.json"}, []string{"/nonexistent/game.json"}},
		"stray argument":   {[]string{"ana"}, []string{"no arguments"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			for _, run := range farkleRunners {
				_, stderr, code := run.run(t, "", append([]string{"play"}, c.args...)...)
				checkBadInput(t, stderr, code, c.mention...)
			}
		})
	}
}
