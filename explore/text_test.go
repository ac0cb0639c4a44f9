package explore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/lang"
)

// golden compares got with testdata/name, or rewrites it under -update
// (internal/testflags).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if testflags.Update() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./explore -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestTextWinMap(t *testing.T) {
	r := small("classic", 2000, true)
	tb := duel(t, r)
	m, err := NewWinMap(tb, 20)
	if err != nil {
		t.Fatal(err)
	}
	var plain, color bytes.Buffer
	if err := (Text{}).WinMap(&plain, m); err != nil {
		t.Fatal(err)
	}
	if err := (Text{Color: true}).WinMap(&color, m); err != nil {
		t.Fatal(err)
	}
	golden(t, "winmap.golden", plain.Bytes())
	golden(t, "winmap-color.golden", color.Bytes())
	if strings.Contains(plain.String(), "\x1b") {
		t.Error("escape codes without colour")
	}
	if ansi.Strip(color.String()) != plain.String() {
		t.Error("the coloured map does not read the same as the plain one")
	}
	// Read the digits back: each is the tenth of the solver's value.
	rows := 0
	for _, line := range strings.Split(plain.String(), "\n") {
		f := strings.Fields(line)
		if len(f) != len(m.Scores)+1 {
			continue
		}
		me, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		for j, d := range f[1:] {
			p, err := tb.WinProbability(me, m.Scores[j], 0, 0)
			if err != nil || d != strconv.Itoa(WinClass(p)) {
				t.Fatalf("cell %d-%d shows %s, P %v", me, m.Scores[j], d, p)
			}
		}
		rows++
	}
	if rows != len(m.Scores) {
		t.Errorf("%d rows read back", rows)
	}
}

func TestTextTurnMapAndThresholds(t *testing.T) {
	r := small("classic", 2000, false)
	tb := duel(t, r)
	m, err := NewTurnMap(tb, 1000, 1500, 1500, 50)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := (Text{}).TurnMap(&b, m); err != nil {
		t.Fatal(err)
	}
	golden(t, "turnmap.golden", b.Bytes())
	// Each character is the decision of its cell.
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") // the rows last, 1 die at the bottom
	for d := range m.Dice {
		line := lines[len(lines)-1-d]
		cells := line[7:]
		for k, c := range m.Cells[d] {
			if string(cells[k]) != decisionChar[c.Decision] {
				t.Fatalf("%d dice, %d: %q, decision %s", m.Dice[d], m.Totals[k], cells[k], c.Decision)
			}
		}
	}
	s, err := NewSoloThresholds(solo(t, r))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDuelThresholds(tb, solo(t, r), 1000, axis(250, 2000))
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := (Text{}).Thresholds(&b, s, d); err != nil {
		t.Fatal(err)
	}
	golden(t, "thresholds.golden", b.Bytes())
}

// TestTextNarrowTerminal: with the width of a narrower terminal, the
// thresholds' headings and tables keep to it, in both languages.
func TestTextNarrowTerminal(t *testing.T) {
	r := small("classic", 2000, false)
	tb := duel(t, r)
	s, err := NewSoloThresholds(solo(t, r))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDuelThresholds(tb, solo(t, r), 1000, axis(250, 2000))
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"en", "nb"} {
		for _, width := range []int{40, 60} {
			var b bytes.Buffer
			if err := (Text{Lang: lang.Get(code), Width: width}).Thresholds(&b, s, d); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if ansi.StringWidth(line) > width {
					t.Errorf("%s at %d columns: %q is %d wide", code, width, line, ansi.StringWidth(line))
				}
			}
		}
	}
}
