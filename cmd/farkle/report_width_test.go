package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"
)

// TestFitReport: a report's line wider than the width is broken at its
// spaces, every piece within the width and under the value's first
// column; the words are those of the line, in order, none cut; a word
// wider than the room (a file's name) stays whole after its label; lines
// that fit and the lines after a wrapped one are left as they are.
func TestFitReport(t *testing.T) {
	long := "final round           a player whose chance to make up the deficit in one turn is below 1e-13 counts as losing (error at most 2e-13)"
	file := "cache                 /tmp/x/" + strings.Repeat("f", 90) + ".bin"
	in := strings.Join([]string{"rules classic, target 1,000, three players", long, "memory                28.1 MiB", file, "P(seat 1 wins)        0.416869"}, "\n")
	got := strings.Split(fitReport(in, 60), "\n")
	if got[0] != "rules classic, target 1,000, three players" || got[len(got)-1] != "P(seat 1 wins)        0.416869" || !slices.Contains(got, "memory                28.1 MiB") || !slices.Contains(got, file) {
		t.Fatalf("the lines that fit (or cannot) changed:\n%s", strings.Join(got, "\n"))
	}
	var pieces []string
	for _, l := range got[1:] {
		if strings.HasPrefix(l, "memory") {
			break
		}
		pieces = append(pieces, l)
	}
	if len(pieces) < 3 {
		t.Fatalf("the long line in %d pieces:\n%s", len(pieces), strings.Join(pieces, "\n"))
	}
	for i, p := range pieces {
		if len([]rune(p)) > 60 {
			t.Errorf("piece %q is %d columns", p, len([]rune(p)))
		}
		if i > 0 && (!strings.HasPrefix(p, strings.Repeat(" ", 22)) || p[22] == ' ') {
			t.Errorf("piece %q is not under the value (column 23)", p)
		}
	}
	if w, want := strings.Fields(strings.Join(pieces, " ")), strings.Fields(long); !slices.Equal(w, want) {
		t.Errorf("the words became %q, want %q", w, want)
	}
	// A file's name inside a value, too wide to go under it: whole, on a
	// line of its own from the first column, the rest under the value.
	name := "/tmp/x/" + strings.Repeat("f", 50) + ".bin;"
	got = strings.Split(fitReport("seconds               0.115 (loaded from "+name+" solved in 0.7 s)", 60), "\n")
	if want := []string{"seconds               0.115 (loaded from", name, "                      solved in 0.7 s)"}; !slices.Equal(got, want) {
		t.Errorf("the line with a file's name:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSolveReportsFit: the reports of solve --duel and --players 3 fit a
// terminal's 80 columns in English and Norwegian, each value's
// continuation under its value, but for the cache file's name, which is
// one word: after its label, or from the first column (a table read
// from the cache).
func TestSolveReportsFit(t *testing.T) {
	cont := regexp.MustCompile(`^ {20,}\S`)
	cached := t.TempDir()
	for _, lang := range []string{"en", "nb"} {
		for _, args := range [][]string{
			{"solve", "--duel", "--target", "2000", "--no-cache"},
			{"solve", "--players", "3", "--target", "300", "--cache", t.TempDir()},
			{"solve", "--players", "3", "--target", "300", "--cache", cached}, // solved by en, read by nb
		} {
			out, errOut, code := runFarkle(t, "", append([]string{"--lang", lang}, args...)...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			wrapped, files := 0, 0
			for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				if len([]rune(l)) > 80 && !strings.HasSuffix(strings.TrimSuffix(l, ";"), ".bin") {
					t.Errorf("%s %v: a line of %d columns: %q", lang, args, len([]rune(l)), l)
				}
				if strings.HasPrefix(l, "/") {
					if !strings.Contains(out, "\n"+l+"\n") || len(strings.Fields(l)) != 1 {
						t.Errorf("%s %v: %q is not a file's name on a line of its own", lang, args, l)
					}
					files++
					continue
				}
				if strings.HasPrefix(l, " ") {
					if !cont.MatchString(l) {
						t.Errorf("%s %v: %q is not under a value", lang, args, l)
					}
					wrapped++
				}
			}
			if read := lang == "nb" && args[len(args)-1] == cached; read != (files == 1) {
				t.Errorf("%s %v: %d lines of a file's name alone:\n%s", lang, args, files, out)
			}
			if wrapped == 0 {
				t.Errorf("%s %v: no line wrapped (they were up to 138 columns):\n%s", lang, args, out)
			}
		}
	}
}

// TestNarrowTerminal: in a terminal of 60 columns, the help texts, the
// presets' list, farkle solve's and farkle sim's reports and a game's
// replay, analysis and verification (en and nb) wrap
// within them, the tables put their labels above their rows (or, too
// wide still, their cells one a line), and the duel's progress bars kept
// to a line each and left nothing: no line the program writes is wider
// (tmux joins the lines the terminal itself wrapped, -J), but for a word
// wider (a sim's seed, a file's name), kept whole on its own line. They were up to 140
// columns, and each redraw of a bar wider than the terminal began on its
// wrapped line.
func TestNarrowTerminal(t *testing.T) {
	records := t.TempDir()
	if _, errOut, code := runFarkle(t, "", "sim", "--games", "1", "--seed", "7", "--players", "expert,cautious", "--record", records); code != 0 {
		t.Fatalf("sim --record: exit %d: %s", code, errOut)
	}
	record := filepath.Join(records, "game-000000.json")
	for _, c := range []struct {
		args string
		want string // on the screen once it ends
	}{
		{"help", "version"},
		{"solve -h", "--published"},
		{"rules --list", "pocket-farkel"},
		{"solve --solo --rules farkle-dice", "to enter, 2 farkles in a row\n"},
		{"solve --duel --target 2000 --no-cache", "estimated error"},
		{"sim --games 200 --seed 1 --players expert,cautious,reckless", "3rd player"},
		{"sim --games 20 --seed 1 --rules dragon --players smart,simple", "Final Battles"},
		{"replay " + record, "wins"},
		{"analyze --all " + record, "decisions"},
		{"verify " + record, "ok: "},
	} {
		for _, lang := range []string{"en", "nb"} {
			p := newTmuxPane(t, "read go; "+farkleBin+" --lang "+lang+" "+c.args+"; echo \"farkle exited: $?\"; sleep 600")
			p.tmux("resize-window", "-t", "play", "-x", "60", "-y", "20")
			p.keys("Enter") // the command starts in a terminal of 60 columns
			// A duel solved or 200 games played: a few seconds alone, more
			// than ten in a loaded run (waitFor's time is a screen's).
			p.waitForWithin(2*time.Minute, "farkle exited: 0")
			out := p.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "play")
			if lang == "en" && !strings.Contains(out, c.want) {
				t.Errorf("%s: %q is not on the screen:\n%s", c.args, c.want, out)
			}
			for _, l := range strings.Split(out, "\n") {
				if n := len([]rune(l)); n > 60 && len(strings.Fields(l)) > 1 { // one word (a seed, a file's name) is kept whole
					t.Errorf("%s %s: a line of %d columns in a terminal of 60: %q", lang, c.args, n, l)
				}
				if strings.Contains(l, "% |") {
					t.Errorf("%s %s: a progress bar left on the screen: %q", lang, c.args, l)
				}
			}
		}
	}
}

// fitTable lays a table out as text/tabwriter did where it fits (the
// golden form), and with its labels above their rows where it does not.
func TestFitTable(t *testing.T) {
	cols, labels := []string{"1", "2"}, []string{"0 in a row", "to enter, 1 in a row"}
	cells := [][]string{{"300", "1,000"}, {"-", "50"}}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "dice\t1\t2\t\n0 in a row\t300\t1,000\t\nto enter, 1 in a row\t-\t50\t\n")
	tw.Flush()
	if got := fitTable("dice", cols, labels, cells, 80); got != b.String() {
		t.Errorf("wide:\n%s\nwant (text/tabwriter):\n%s", got, b.String())
	}
	narrow := "dice\n    1      2\n0 in a row\n  300  1,000\nto enter, 1 in a row\n    -     50\n"
	if got := fitTable("dice", cols, labels, cells, 30); got != narrow {
		t.Errorf("narrow:\n%s\nwant:\n%s", got, narrow)
	}
	cards := "0 in a row\n  1  300\n  2  1,000\nto enter, 1 in a row\n  1  -\n  2  50\n"
	if got := fitTable("dice", cols, labels, cells, 11); got != cards {
		t.Errorf("narrower:\n%s\nwant:\n%s", got, cards)
	}
}

// shorten keeps to n runes with an ellipsis, or leaves s alone.
func TestShorten(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"tospillertabellen", -1, "tospillertabellen"},
		{"tospillertabellen", 17, "tospillertabellen"},
		{"tospillertabellen", 5, "tosp…"},
		{"løser", 3, "lø…"},
		{"løser", 1, ""},
		{"løser", 0, ""},
	} {
		if got := shorten(c.s, c.n); got != c.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
