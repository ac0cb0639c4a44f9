package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/tui"
)

// sentinel is a package-level error variable of the module and its text.
type sentinel struct{ pos, name, text string }

// moduleSentinels reads every package-level var Err... = errors.New("...")
// or fmt.Errorf("...") of the module's packages from their source, so a
// sentinel added anywhere is covered without touching this test.
func moduleSentinels(t *testing.T) []sentinel {
	t.Helper()
	var found []sentinel
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Err") || i >= len(vs.Values) {
						continue
					}
					call, ok := vs.Values[i].(*ast.CallExpr)
					if !ok || len(call.Args) == 0 {
						continue
					}
					lit, ok := call.Args[0].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					text, err := strconv.Unquote(lit.Value)
					if err != nil {
						return err
					}
					found = append(found, sentinel{fset.Position(name.Pos()).String(), f.Name.Name + "." + name.Name, text})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestUserTextEverySentinel: however a sentinel of any package reaches the
// command line (wrapped with %w or passed on with %v, behind a flag's
// name, under another package's prefix), what a person reads carries no
// package prefix and keeps the detail.
func TestUserTextEverySentinel(t *testing.T) {
	sentinels := moduleSentinels(t)
	if len(sentinels) < 30 {
		t.Fatalf("found %d sentinels in the module, want the 30 or more it has", len(sentinels))
	}
	prefixed := regexp.MustCompile(`(^|: )(` + strings.Join(modulePackages, "|") + `): `)
	for _, s := range sentinels {
		pkg, _, ok := strings.Cut(s.text, ": ")
		if !ok || pkg == "%w" {
			continue // no prefix to leak, or the prefix of the sentinel it wraps (tested as itself)
		}
		sent := errors.New(s.text)
		wrapped := fmt.Errorf("%w: the detail", sent)
		for _, err := range []error{
			wrapped,
			fmt.Errorf("advise: %w", wrapped),
			fmt.Errorf("--flag x: %v", wrapped),
			fmt.Errorf("%w: %s: %w", errors.New("tui: saved game"), "game.json", wrapped),
		} {
			got := userText(err)
			if prefixed.MatchString(got) || strings.HasPrefix(got, pkg+":") || strings.Contains(got, ": "+pkg+": ") {
				t.Errorf("%s (%s): %q is said %q", s.name, s.pos, err, got)
			}
			if !strings.HasSuffix(got, "the detail") {
				t.Errorf("%s: %q lost its detail: %q", s.name, err, got)
			}
		}
	}
}

// TestModulePackagesComplete: every package of the module is one whose
// prefix userText removes (go list is the independent account).
func TestModulePackagesComplete(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Name}}", "github.com/farkle/farkle/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	names := strings.Fields(string(out))
	if len(names) < 10 {
		t.Fatalf("go list gave %d packages: %q", len(names), out)
	}
	for _, n := range names {
		if n != "main" && !slices.Contains(modulePackages, n) {
			t.Errorf("package %s is missing from modulePackages: its error prefix would reach users", n)
		}
	}
}

// TestUserTextExamples: the messages of the issue, as a person reads them
// now, and text that only looks like a prefix left alone.
func TestUserTextExamples(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: 7 is not a die face (faces are 1 to 6)", dice.ErrBadThrow), "not a throw: 7 is not a die face (faces are 1 to 6)"},
		{fmt.Errorf("--throw 117: %v", fmt.Errorf("%w: 7 is not a die face", dice.ErrBadThrow)), "--throw 117: not a throw: 7 is not a die face"},
		{fmt.Errorf("advise: %w", fmt.Errorf("%w: turn total 0 with 3 dice", advise.ErrPosition)), "impossible position: turn total 0 with 3 dice"},
		{fmt.Errorf("%w: no directory for saved games", tui.ErrSave), "no directory for saved games"},
		{fmt.Errorf("%w: g.json: %w", tui.ErrSave, fmt.Errorf("%w: unexpected end of JSON input", game.ErrBadRecord)), "g.json: bad record: unexpected end of JSON input"},
		{fmt.Errorf("%w: action 7: the seed throws 1 2 3", record.ErrDiscrepancy), "discrepancy: action 7: the seed throws 1 2 3"},
		{fmt.Errorf("g.json: %w", fmt.Errorf("%w: action 3", game.ErrDiscrepancy)), "g.json: discrepancy: action 3"},
		{errors.New("--rules x.toml: x.toml: rules: game.target: must be positive"), "--rules x.toml: x.toml: game.target: must be positive"},
		{errors.New("cards: n: must be an integer"), "cards: n: must be an integer"},
		{errors.New("keep 1 1: the rules: classic\n  say   so"), "keep 1 1: the rules: classic say so"},
	} {
		if got := userText(tc.err); got != tc.want {
			t.Errorf("userText(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestUserTextSayings: each sentinel said in other words is said in them,
// and its own text is gone.
func TestUserTextSayings(t *testing.T) {
	for _, code := range lang.Codes() {
		c := lang.Get(code)
		for _, sy := range sayings {
			got := userTextIn(c, fmt.Errorf("x.json: %w: the detail", sy.err))
			want := "x.json: " + c.Msg(sy.key) + ": the detail"
			if sy.key == "" {
				want = "x.json: the detail"
			} else if !c.Has(sy.key) || strings.Contains(got, sy.key) || strings.Contains(got, sy.err.Error()) {
				t.Errorf("%s: %q is said %q", code, sy.err, got)
			}
			if got != want {
				t.Errorf("%s: %q is said %q, want %q", code, sy.err, got, want)
			}
		}
	}
	if got := userText(fmt.Errorf("x: %w", dice.ErrBadThrow)); got != "x: not a throw" {
		t.Errorf("in English: %q", got)
	}
}

// TestNoPackagePrefixOnStderr: the errors of the issue, through the
// binary: one line each, in words, no package prefix.
func TestNoPackagePrefixOnStderr(t *testing.T) {
	notJSON := writeTestFile(t, "g.json", "garbage")
	prefixed := regexp.MustCompile(`(^|: )(` + strings.Join(modulePackages, "|") + `): `)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"score", "117"}, "farkle score: not a throw: 7 is not a die face (faces are 1 to 6)\n"},
		{[]string{"advise", "--me", "0", "--turn", "0", "--dice", "3", "--throw", "222"}, "farkle advise: impossible position: turn total 0 with 3 dice: a turn starts with all 6 dice, and every keep scores\n"},
		{[]string{"play", "--resume", notJSON}, "farkle play: --resume: " + notJSON + ": bad record: invalid character 'g' looking for beginning of value\n"},
		{[]string{"sim", "--players", "steady,nope", "--games", "1"}, `farkle sim: --players: unknown bot level "nope" (levels: bold, cautious, expert, perfect, reckless, steady)` + "\n"},
	} {
		_, errOut, code := execFarkle(t, "", tc.args...)
		checkBadInput(t, errOut, code)
		if errOut != tc.want || prefixed.MatchString(strings.TrimPrefix(errOut, "farkle "+tc.args[0]+": ")) {
			t.Errorf("farkle %s: stderr %q, want %q", strings.Join(tc.args, " "), errOut, tc.want)
		}
	}
}
