package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// TestHelpGoesToStdout: COMMAND -h and --help print the command's usage on
// stdout with exit status 0 (so farkle play -h | less shows it), for every
// command; a flag that does not exist is still one line on stderr, exit 2.
func TestHelpGoesToStdout(t *testing.T) {
	if len(commands) < 10 {
		t.Fatalf("%d commands registered", len(commands))
	}
	for _, name := range commandNames() {
		for _, h := range []string{"-h", "--help"} {
			out, errOut, code := execFarkle(t, "", name, h)
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: farkle "+name) || !strings.Contains(out, "\nflags:\n") {
				t.Errorf("farkle %s %s: exit %d, stderr %q, stdout %.80q", name, h, code, errOut, out)
			}
		}
		out, errOut, code := execFarkle(t, "", name, "--no-such-flag")
		checkBadInput(t, errOut, code, "farkle "+name+": unknown flag --no-such-flag (see farkle "+name+" -h)")
		if out != "" {
			t.Errorf("farkle %s --no-such-flag wrote %q on stdout", name, out)
		}
	}
	// The command list, asked for, is on stdout too; without a command it
	// is a usage error, on stderr. farkle help COMMAND is COMMAND -h.
	for _, h := range []string{"--help", "-h", "help"} {
		if out, errOut, code := execFarkle(t, "", h); code != 0 || errOut != "" || !strings.Contains(out, "commands:") {
			t.Errorf("farkle %s: exit %d, %q, %q", h, code, out, errOut)
		}
	}
	if out, errOut, code := execFarkle(t, ""); code != 2 || out != "" || !strings.Contains(errOut, "commands:") {
		t.Errorf("farkle alone: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want, _, _ := execFarkle(t, "", "play", "-h")
	if out, errOut, code := execFarkle(t, "", "help", "play"); code != 0 || errOut != "" || out != want {
		t.Errorf("farkle help play: exit %d, stderr %q, stdout %.80q", code, errOut, out)
	}
}

// TestVersionText: the build information said on one line, with and
// without a VCS revision.
func TestVersionText(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/farkle/farkle", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-12-01T12:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, tc := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{info, true, "farkle v1.2.3 (revision 0123abcd, 2026-12-01T12:00:00Z, modified) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true, "farkle (devel) (no VCS revision recorded) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8"}, true, "farkle (devel) (no VCS revision recorded) go1.26.8"},
		{nil, false, "farkle (unknown version: no build information)"},
	} {
		if got := versionText(tc.info, tc.ok); got != tc.want {
			t.Errorf("versionText = %q, want %q", got, tc.want)
		}
	}
	info.Settings[3].Value = "false"
	if got := versionText(info, true); strings.Contains(got, "modified") {
		t.Errorf("an unmodified checkout is said %q", got)
	}
}

// TestVersion: farkle --version and farkle version print the same line
// from the binary's build information; a build that stamps the VCS
// revision prints the revision git has checked out.
func TestVersion(t *testing.T) {
	out, errOut, code := execFarkle(t, "", "--version")
	if code != 0 || errOut != "" || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "farkle ") || !strings.HasSuffix(out, " "+runtime.Version()+"\n") {
		t.Errorf("farkle --version: exit %d, %q, %q", code, out, errOut)
	}
	if out2, _, code := execFarkle(t, "", "version"); code != 0 || out2 != out {
		t.Errorf("farkle version: exit %d, %q; --version said %q", code, out2, out)
	}
	_, errOut, code = execFarkle(t, "", "version", "extra")
	checkBadInput(t, errOut, code, "version takes no arguments")

	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git checkout to compare with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "farkle")
	if b, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, b)
	}
	stamped, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(stamped), "(revision ") {
		// Go stamps builds in a checkout whose .git is a directory, not in
		// a git worktree (where .git is a file).
		t.Skipf("go build -buildvcs=true recorded no revision here: %q", stamped)
	}
	if want := "(revision " + strings.TrimSpace(string(head)) + ", "; !strings.Contains(string(stamped), want) {
		t.Errorf("farkle --version of a stamped build: %q, want it to hold %q", stamped, want)
	}
}

// TestHelpFits80: the command list and every command's -h (and every db
// subcommand's) fit a terminal's 80 columns, with --lang nb as in
// English, through the binary; and no paragraph leaves a short piece on
// a line of its own before it goes on (a text whose filled-in value made
// a line too long: "smart). The").
func TestHelpFits80(t *testing.T) {
	for _, lang := range [][]string{nil, {"--lang", "nb"}} {
		pages := map[string][]string{"farkle help": append(slices.Clone(lang), "help")}
		for _, name := range commandNames() {
			pages[name] = append([]string{name, "-h"}, lang...)
		}
		for sub := range dbSubcommands {
			pages["db "+sub] = append([]string{"db", sub, "-h"}, lang...)
		}
		for name, args := range pages {
			out, errOut, code := execFarkle(t, "", args...)
			if code != 0 || errOut != "" || strings.Count(out, "\n") < 3 {
				t.Errorf("%v: exit %d, %q, %.80q", args, code, errOut, out)
			}
			lines := strings.Split(out, "\n")
			for i, l := range lines {
				if n := len([]rune(l)); n > 80 || strings.Contains(l, "\t") {
					t.Errorf("farkle %s (%v): a line of %d columns: %q", name, lang, n, l)
				}
				body := strings.TrimLeft(l, " ")
				if i+1 < len(lines) && body != "" && len([]rune(l)) < helpWidth/2 && !listItem.MatchString(l) && goesOn(lines[i+1], len(l)-len(body)) {
					t.Errorf("farkle %s (%v): a short piece before its paragraph goes on:\n%s\n%s", name, lang, l, lines[i+1])
				}
			}
		}
	}
}

// TestFitWidth: a long line wraps at its spaces under its own indent, a
// list's item under its text, a long JSON example after its commas;
// short lines stay as they are.
func TestFitWidth(t *testing.T) {
	in := "short\n  play     " + strings.Repeat("word ", 20) + "\n    \t" + strings.Repeat("flag usage ", 10) + "\n" + `{"a":1,` + strings.Repeat(`"bb":22,`, 12) + `"c":3}`
	out := fitWidth(in, 40)
	lines := strings.Split(out, "\n")
	if lines[0] != "short" || !strings.HasPrefix(lines[1], "  play     word") || !strings.HasPrefix(lines[2], "           word") {
		t.Fatalf("the list item:\n%s", out)
	}
	words := 0
	for _, l := range lines {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
		words += strings.Count(l, "word") + strings.Count(l, "flag usage") + strings.Count(l, `"bb":22`)
	}
	if words != 20+10+12 {
		t.Errorf("%d words came through, want 42:\n%s", words, out)
	}
	if !strings.Contains(out, "\n        flag usage") {
		t.Errorf("the flag's usage is not under its tab:\n%s", out)
	}
	// What a long line leaves over goes on into the next line of its
	// paragraph, not onto a line of its own; a new paragraph, a list's
	// item and a flag start their own lines.
	para := strings.Repeat("x", 35) + " tail\nnext line\n\nnew\n" + strings.Repeat("y", 35) + " end\n- item"
	if got, want := fitWidth(para, 38), strings.Repeat("x", 35)+"\ntail next line\n\nnew\n"+strings.Repeat("y", 35)+"\nend\n- item"; got != want {
		t.Errorf("fitWidth of a paragraph:\n%s\nwant\n%s", got, want)
	}
	// A line that starts with a long flag named in the sentence goes on
	// it ("served on its / --metrics-addr), the…" left "its" alone on
	// 60 columns); a flag of flag.PrintDefaults (one dash) does not.
	para = strings.Repeat("x", 35) + " its\n--metrics-addr), the end\n" + strings.Repeat("z", 35) + " tail\n-json"
	if got, want := fitWidth(para, 38), strings.Repeat("x", 35)+"\nits --metrics-addr), the end\n"+strings.Repeat("z", 35)+"\ntail\n-json"; got != want {
		t.Errorf("fitWidth of a paragraph with a long flag:\n%s\nwant\n%s", got, want)
	}
}
