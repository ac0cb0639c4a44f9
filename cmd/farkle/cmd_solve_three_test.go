package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// solveThreeJSON runs farkle with args (a solve --players 3 --json) and
// reads what it prints; a failure or output that is not its JSON fails t.
func solveThreeJSON(t *testing.T, args ...string) threeJSON {
	t.Helper()
	out, errOut, code := runFarkle(t, "", args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var got threeJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return got
}

// solve --players 3 prints each seat's chance from the start, as the solver
// gives them, and caches the table: the second run reads it.
func TestSolveThreeJSON(t *testing.T) {
	dir := t.TempDir()
	args := []string{"solve", "--players", "3", "--rules", "cardgames", "--target", "800", "--json", "--cache", dir}
	got := solveThreeJSON(t, args...)
	r := rules.MustPreset("cardgames")
	r.Game.Target = 800
	r.Game.MaxPlayers = 3
	th, err := solve.SolveThree(r, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i, p := range th.Start() {
		if math.Abs(got.PWins[i]-p) > 1e-11 {
			t.Errorf("seat %d: printed %v, solver %v", i+1, got.PWins[i], p)
		}
		sum += got.PWins[i]
	}
	if math.Abs(sum-1) > 1e-9 || got.Triples != 16*16*16 || got.Cached || got.CacheFile == "" || got.Bytes <= 0 {
		t.Errorf("json %+v", got)
	}
	again := solveThreeJSON(t, args...)
	if !again.Cached || again.PWins != got.PWins || again.Fair != got.Fair {
		t.Errorf("second run: cached %v, %v vs %v, fair %v vs %v", again.Cached, again.PWins, got.PWins, again.Fair, got.Fair)
	}
	// The fair compensation: the chances printed are the table's from
	// those scores, and no other start (points in steps of 50 below the
	// target, one seat given none) brings the chance farthest from a
	// third closer to it, read from the table start by start.
	from := func(pts [3]int) [3]float64 {
		w, err := th.WinProbabilities(pts, 0)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	dist := func(w [3]float64) float64 {
		return max(math.Abs(w[0]-1.0/3), math.Abs(w[1]-1.0/3), math.Abs(w[2]-1.0/3))
	}
	if w := from(got.Fair); math.Abs(w[0]-got.FairWins[0]) > 1e-11 || math.Abs(w[1]-got.FairWins[1]) > 1e-11 || math.Abs(w[2]-got.FairWins[2]) > 1e-11 {
		t.Errorf("fair compensation %v: printed %v, the table %v", got.Fair, got.FairWins, w)
	}
	if got.Fair == [3]int{} || min(got.Fair[0], got.Fair[1], got.Fair[2]) != 0 {
		t.Errorf("fair compensation %v: want points for someone, none for one seat at least", got.Fair)
	}
	for a := 0; a < 800; a += 50 {
		for b := 0; b < 800; b += 50 {
			for c := 0; c < 800; c += 50 {
				if min(a, b, c) == 0 && dist(from([3]int{a, b, c})) < dist(got.FairWins)-1e-12 {
					t.Fatalf("%v is fairer (%v) than the compensation printed, %v (%v)", [3]int{a, b, c}, from([3]int{a, b, c}), got.Fair, got.FairWins)
				}
			}
		}
	}
	text, _, code := runFarkle(t, "", "--lang", "nb", "solve", "--players", "3", "--rules", "cardgames", "--target", "800", "--cache", dir)
	if want := fmt.Sprintf("plass 1 +%d, plass 2 +%d, plass 3 +%d poeng ved start", got.Fair[0], got.Fair[1], got.Fair[2]); code != 0 || !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
		t.Errorf("exit %d: no %q in:\n%s", code, want, text)
	}
}

// solve --players 3 with a house rule file that has a bank minimum prints
// the solver's chances from the start.
func TestSolveThreeBankMinimum(t *testing.T) {
	file := writeTestFile(t, "house.toml", "base = \"pocket-farkel\"\n[turn]\nbank_minimum = 300\n[game]\ntarget = 500\n")
	got := solveThreeJSON(t, "solve", "--players", "3", "--rules", file, "--json", "--no-cache")
	r := rules.MustPreset("pocket-farkel")
	r.Turn.BankMinimum = 300
	r.Game.Target = 500
	th, err := solve.SolveThree(r, solve.ThreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range th.Start() {
		if math.Abs(got.PWins[i]-p) > 1e-11 {
			t.Errorf("seat %d: printed %v, solver %v", i+1, got.PWins[i], p)
		}
	}
	if got.Triples != 10*10*10 {
		t.Errorf("json %+v", got)
	}
}

func TestSolveThreeText(t *testing.T) {
	out, errOut, code := runFarkle(t, "", "solve", "--players", "3", "--rules", "classic", "--no-penalty", "--target", "600", "--no-cache", "--orbits")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"three players", "P(seat 1 wins)", "P(seat 3 wins)", "orbits", "mixed equilibrium", "orbit [", "memory"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestSolveThreePenalty: classic with its penalty at a small target is
// solved: each seat's streak in the state, the sweeps said, the chances
// summing to 1 and falling in turn order; read back from its cache file.
func TestSolveThreePenalty(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runFarkle(t, "", "solve", "--players", "3", "--rules", "classic", "--target", "300", "--cache", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		PWins   [3]float64 `json:"p_wins"`
		Triples int        `json:"triples"`
		Streaks int        `json:"streaks"`
		Sweeps  int        `json:"sweeps"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	p := got.PWins
	if got.Streaks != 3 || got.Triples != 6*6*6 || got.Sweeps < 2 || math.Abs(p[0]+p[1]+p[2]-1) > 1e-9 || !(p[0] > p[1] && p[1] > p[2]) {
		t.Fatalf("%+v", got)
	}
	// read back from the cache file: the streaks kept
	text, _, code := runFarkle(t, "", "solve", "--players", "3", "--rules", "classic", "--target", "300", "--cache", dir)
	if code != 0 || !strings.Contains(text, "3 farkle streak states per seat (27 states a triple)") || !strings.Contains(text, "loaded from") {
		t.Fatalf("exit %d:\n%s", code, text)
	}
}

func TestSolveThreeRefusals(t *testing.T) {
	// a turn that can end with nothing (no hot dice, a bank minimum)
	// under a farkle penalty: the one bank minimum the solver refuses
	nothing := writeTestFile(t, "nothing.toml", "base = \"classic\"\n[turn]\nhot_dice = false\nbank_minimum = 300\n[game]\ntarget = 500\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rules", "classic"}, "times 27 triples of farkle streaks), more than the 2.0 GiB allowed (--max-memory)"},
		{[]string{"--rules", "pocket-farkel", "--max-memory", "1000000"}, "--max-memory"},
		{[]string{"--rules", "pocket-farkel", "--orbit-rule", "odd"}, "mixed or pure"},
		{[]string{"--rules", "pocket-farkel", "--jobs", "-1"}, "--jobs -1: 0 (every core) to 64"},
		{[]string{"--rules", "pocket-farkel", "--jobs", "65"}, "--jobs 65: 0 (every core) to 64"},
		{[]string{"--rules", "pocket-farkel", "--duel", "--jobs", "1000"}, "--jobs 1,000"},
		{[]string{"--rules", nothing}, "needs hot dice (turn.hot_dice) where a bank minimum"},
	} {
		_, errOut, code := runFarkle(t, "", append([]string{"solve", "--players", "3", "--no-cache"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q (want %q)", c.args, code, errOut, c.want)
		}
	}
	_, errOut, code := runFarkle(t, "", "solve", "--players", "4", "--rules", "classic")
	if code != 2 || !strings.Contains(errOut, "2 or 3") {
		t.Errorf("--players 4: exit %d, %q", code, errOut)
	}
}

// TestSolvePublishedThree: solve --published shows the three-player tables
// farkle solve --players 3 left in the cache directory, each seat's chance
// from the start as that solve printed it, the orbits and the fair
// compensation, and for the games not solved yet the command that solves
// them; in English and Norwegian, within 80 columns.
func TestSolvePublishedThree(t *testing.T) {
	if testing.Short() {
		t.Skip("solves the published duel table to 10,000")
	}
	dir := t.TempDir()
	solved := solveThreeJSON(t, "solve", "--players", "3", "--rules", "cardgames", "--target", "2000", "--json", "--cache", dir)
	pct := func(p float64) string { return fmt.Sprintf("%.2f%%", 100*p) }
	for _, c := range []struct {
		lang  string
		wants []string
	}{
		{"en", []string{"Three players: the exact three-player tables at hand",
			"cardgames, target 2,000 (no farkle penalty)\n  P(seat 1 / 2 / 3 wins): " + pct(solved.PWins[0]) + " / " + pct(solved.PWins[1]) + " / " + pct(solved.PWins[2]),
			fmt.Sprintf("  orbits: %d (%d by a mixed equilibrium", solved.OrbitCount, solved.Mixed),
			"  fair compensation: seat 1 +0, seat 2 +",
			"    then P(seat 1 / 2 / 3 wins): 3",
			"pocket-farkel, target 10,000 (no farkle penalty)\n  not solved here yet (about ",
			"    farkle solve --players 3 --rules pocket-farkel --target 10000\n",
			"    farkle solve --players 3 --rules cardgames --target 10000\n"}},
		{"nb", []string{"Tre spillere:", "cardgames, mål 2\u00a0000 (uten farkle-straff)\n  P(plass 1 / 2 / 3 vinner): ", "rettferdig kompensasjon: plass 1 +0", "ikke løst her ennå"}},
	} {
		out, errOut, code := runFarkle(t, "", "solve", "--published", "--cache", dir, "--lang", c.lang)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.lang, code, errOut)
		}
		for _, want := range c.wants {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in:\n%s", c.lang, want, out)
			}
		}
		for i, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("%s: line %d is %d columns: %q", c.lang, i+1, n, line)
			}
		}
	}
	// a table past --max-memory is not read, and the line says why
	out, errOut, code := runFarkle(t, "", "solve", "--published", "--cache", dir, "--max-memory", "1000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "cardgames, target 2,000 (no farkle penalty)\n  ") || !strings.Contains(out, "more than the solver memory of 1000 B") || strings.Contains(out, pct(solved.PWins[0])) {
		t.Errorf("with --max-memory 1000:\n%s", out)
	}
}

// solve --jobs sets the number of workers: the tables are the same to the
// last bit with one as with three (more than this machine's cores).
func TestSolveJobs(t *testing.T) {
	for _, mode := range [][]string{{"--players", "3", "--target", "600"}, {"--duel", "--target", "1500"}} {
		var outs []string
		for _, jobs := range []string{"1", "3"} {
			args := append([]string{"solve", "--rules", "cardgames", "--json", "--no-cache", "--jobs", jobs}, mode...)
			out, errOut, code := runFarkle(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			for _, k := range []string{"seconds", "solve_seconds", "bytes"} {
				delete(got, k)
			}
			b, _ := json.Marshal(got)
			outs = append(outs, string(b))
		}
		if outs[0] != outs[1] || !strings.Contains(outs[0], "p_") {
			t.Errorf("%v: --jobs 1 %s, --jobs 3 %s", mode, outs[0], outs[1])
		}
	}
}

// TestSolveThreeResumes: a solve with a penalty interrupted (SIGINT, as
// Ctrl-C) after its second sweep says how to go on; the same command
// resumes after that sweep and gives the table of a solve never
// interrupted, and the checkpoint is removed once the table is saved.
// The real binary: an interruption and a restart are the question.
func TestSolveThreeResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"solve", "--players", "3", "--rules", "classic", "--target", "400", "--json", "--cache", dir}
	said, code := interruptAt(t, "farkle solve: sweep 2 in ", args...)
	if code != 130 || strings.Contains(said, "farkle solve: interrupted\n") {
		t.Fatalf("interrupted solve: exit %d\n%s", code, said)
	}
	checkpoint := firstFile(t, dir, ".sweeps")
	if !strings.Contains(said, "interrupted; the same command resumes after sweep 2") {
		t.Fatalf("interrupted solve said:\n%s", said)
	}

	out, errOut, code := execFarkle(t, "", args...)
	if code != 0 || !strings.Contains(errOut, "resuming after sweep 2") || strings.Contains(errOut, "sweep 2 in ") || !strings.Contains(errOut, "sweep 3 in ") {
		t.Fatalf("resumed solve: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(checkpoint); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("checkpoint left after the table was saved: %v", err)
	}
	whole, errWhole, code := execFarkle(t, "", "solve", "--players", "3", "--rules", "classic", "--target", "400", "--json", "--no-cache")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errWhole)
	}
	var a, b struct {
		PWins  [3]float64 `json:"p_wins"`
		Sweeps int        `json:"sweeps"`
		Error  float64    `json:"sweep_error"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(whole), &b); err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("resumed %+v, never interrupted %+v", a, b)
	}
}

// firstFile returns the path of the first file in dir whose name ends in
// suffix, failing the test where there is none.
func firstFile(t *testing.T, dir, suffix string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), suffix) {
			return filepath.Join(dir, e.Name())
		}
	}
	t.Fatalf("no %s file in %s", suffix, dir)
	return ""
}

// TestSolveThreeNorwegian: solve --players 3 under --lang nb says its
// sweeps and its report in Norwegian, with decimal commas, and no English
// label is left; the same solve in English says them in English.
func TestSolveThreeNorwegian(t *testing.T) {
	args := []string{"solve", "--players", "3", "--rules", "classic", "--target", "300", "--no-cache", "--orbits"}
	out, errOut, code := runFarkle(t, "", append([]string{"--lang", "nb"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"reglene classic, mål 300, tre spillere", "P(plass 1 vinner)         0,", "tripler                   216 (", "gjennomganger, gjenværende feil under", "baner                     ", "minne                     "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\nsekunder {18}[0-9 ]+,[0-9]{3}\n`).MatchString(out) {
		t.Errorf("no seconds with a decimal comma in:\n%s", out)
	}
	for _, english := range []string{"P(seat", "triples", "streaks", "orbits", "memory", "seconds", "sweeps"} {
		if strings.Contains(out, english) {
			t.Errorf("English %q in:\n%s", english, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if !strings.HasPrefix(lines[0], "farkle solve: tabellen uten straffen på ") {
		t.Errorf("first line %q", lines[0])
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "farkle solve: gjennomgang ") || !strings.Contains(l, " i alt), endring ") {
			t.Errorf("sweep line %q", l)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasSuffix(last, "; ferdig") {
		t.Errorf("last sweep line %q", last)
	}
	enOut, enErr, code := runFarkle(t, "", append([]string{"--lang", "en"}, args...)...)
	if code != 0 || !strings.Contains(enOut, "P(seat 1 wins)        0.") || !strings.Contains(enErr, "farkle solve: sweep 1 in ") || strings.Contains(enOut+enErr, "gjennomgang") {
		t.Errorf("English: exit %d\n%s\n%s", code, enOut, enErr)
	}
}

// TestInterruptedSaysSo: a command stopped by SIGINT says that it was
// interrupted, in the reader's language, not "context canceled", and exits
// with 130, the shell's status of a command ended by Ctrl-C. The real
// binary: the signal is the question.
func TestInterruptedSaysSo(t *testing.T) {
	said, code := interruptAt(t, "farkle solve: gjennomgang 2: ", "--lang", "nb", "solve", "--players", "3", "--rules", "classic", "--target", "400", "--no-cache")
	if code != 130 || !strings.HasSuffix(said, "\nfarkle solve: avbrutt\n") {
		t.Fatalf("interrupted: exit %d\n%s", code, said)
	}
}

// interruptAt runs the farkle binary with args, sends it SIGINT once a
// line of its stderr starts with at, and returns all it said on stderr and
// its exit status.
func interruptAt(t *testing.T, at string, args ...string) (said string, code int) {
	t.Helper()
	cmd, lines := startFarkle(t, args...)
	var b strings.Builder
	for lines.Scan() {
		b.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), at) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return b.String(), cmd.ProcessState.ExitCode()
}

// TestSolveThreeOneAtATime: while a three-player solve runs with a cache
// directory, a second solve of the same rules there is refused at once
// (exit 1, naming the lock, nothing on stdout), one of other rules is
// not; the real binaries. The lock is the system's: the first solve
// killed with SIGKILL leaves none behind. A table already saved is read
// without it.
func TestSolveThreeOneAtATime(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--lang", "en", "solve", "--players", "3", "--rules", "classic", "--target", "1500", "--cache", dir}
	first, lines := startFarkle(t, args...)
	defer first.Process.Kill()
	for lines.Scan() && !strings.HasPrefix(lines.Text(), "farkle solve: the table without the penalty in ") {
	}
	// the first is in its sweeps: it holds the lock
	out, errOut, code := runFarkle(t, "", args...)
	locks, err := filepath.Glob(filepath.Join(dir, "*.lock"))
	if err != nil || len(locks) != 1 {
		t.Fatalf("the lock files in the cache directory: %q %v", locks, err)
	}
	lock := locks[0]
	if code != 1 || out != "" || !strings.Contains(errOut, "another solve of these rules holds this cache directory's lock:\n"+lock+"\n") || !strings.Contains(errOut, lock) {
		t.Fatalf("the second solve: exit %d, stdout %q, stderr %q; want exit 1 naming %s", code, out, errOut, lock)
	}
	if _, errOut, code := runFarkle(t, "", "solve", "--players", "3", "--rules", "classic", "--target", "300", "--cache", dir); code != 0 {
		t.Fatalf("a solve of other rules in the same directory: exit %d: %s", code, errOut)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // what it said before it died
	}
	_ = first.Wait()
	fl := flock.New(lock)
	if ok, err := fl.TryLock(); err != nil || !ok {
		t.Fatalf("after the first solve was killed its lock is still held: %v %v", ok, err)
	}
	fl.Unlock()
	// A table already saved is read whatever holds its lock.
	locks, err = filepath.Glob(filepath.Join(dir, "*.lock"))
	if err != nil || len(locks) != 2 {
		t.Fatalf("the lock files in the cache directory: %q %v", locks, err)
	}
	other := flock.New(locks[0])
	if locks[0] == lock {
		other = flock.New(locks[1])
	}
	if ok, err := other.TryLock(); err != nil || !ok {
		t.Fatalf("the lock of the solve that ended: %v %v", ok, err)
	}
	defer other.Unlock()
	if out, errOut, code := runFarkle(t, "", "solve", "--players", "3", "--rules", "classic", "--target", "300", "--cache", dir); code != 0 || !strings.Contains(out, "loaded from") {
		t.Fatalf("a saved table read while its lock is held: exit %d: %s%s", code, out, errOut)
	}
}

// startFarkle starts the farkle binary with args and returns it and the
// lines of its stderr.
func startFarkle(t *testing.T, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	cmd := exec.Command(farkleBin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(stderr)
}
