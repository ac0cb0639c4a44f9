package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// architectureOrder reads the package table of the README's Architecture
// section: the module's packages in the order data flows, each allowed to
// import only those above it.
func architectureOrder(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, arch, ok := strings.Cut(string(b), "\n## Architecture\n")
	if !ok {
		t.Fatal("the README has no Architecture section")
	}
	arch, _, _ = strings.Cut(arch, "\n## ")
	var order []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9/]+)` \\|").FindAllStringSubmatch(arch, -1) {
		order = append(order, m[1])
	}
	if len(order) < 10 {
		t.Fatalf("the README's Architecture table lists only %q", order)
	}
	return order
}

// modulePackage is what go list says of one of the module's packages.
type modulePackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Module     *struct{ Path string }
}

// listPackages lists the module's packages with their own imports and
// files (go list -json: not their tests').
func listPackages(t *testing.T) []modulePackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,Imports,Module", "../../...")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []modulePackage
	for {
		var p modulePackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module != nil {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// TestArchitecture: every package of the module is in the README's
// Architecture table, and none imports a package listed below it (its
// own imports, not its tests': a test may drive what is above it), so
// the map the README draws is the one the code follows.
func TestArchitecture(t *testing.T) {
	order := architectureOrder(t)
	rank := map[string]int{}
	for i, p := range order {
		if _, dup := rank[p]; dup {
			t.Errorf("the README lists %s twice", p)
		}
		rank[p] = i
	}
	seen := map[string]bool{}
	for _, p := range listPackages(t) {
		mod := p.Module.Path + "/"
		name := strings.TrimPrefix(p.ImportPath, mod)
		seen[name] = true
		r, ok := rank[name]
		if !ok {
			t.Errorf("package %s is not in the README's Architecture table: add its row where it belongs in the flow", name)
			continue
		}
		for _, imp := range p.Imports {
			dep, inModule := strings.CutPrefix(imp, mod)
			if !inModule {
				continue
			}
			if d, ok := rank[dep]; ok && d > r {
				t.Errorf("%s imports %s, which the README's Architecture table lists below it: the data would flow back", name, dep)
			}
		}
	}
	for _, p := range order {
		if !seen[p] {
			t.Errorf("the README's Architecture table lists %s, which is not a package of the module", p)
		}
	}
}

// variantViews are the only files outside a variant's own package that
// may import it: its one file in game and its views, by package (a
// pattern of file names, filepath.Match). Everything else works with the
// variant through game's contract; a new import elsewhere is a kind check
// the contract should have answered.
var variantViews = map[string]map[string][]string{
	"dragon": {
		"game":       {"dragon.go"},
		"server":     {"dragon.go", "dragon_wire.go"},
		"tui":        {"dragon_*.go"},
		"online":     {"dragon.go"},
		"cmd/farkle": {"dragon.go"},
		// The tests' own helpers: a stand-in analysis that names Dragon
		// Farkle's actions, and the Dragon page's helpers.
		"internal/servertest": {"bots.go"},
		"server/webtest":      {"helpers.go"},
	},
}

// variantImports returns what is wrong with the imports of the variants'
// packages among pkgs (of module mod): a package or a file that imports a
// variant without being one of its listed views, and a listed view that
// matches no file importing it (the list has gone stale). imports reads
// one file's imports.
func variantImports(mod string, pkgs []modulePackage, imports func(path string) ([]string, error)) []string {
	var bad []string
	used := map[string]bool{}
	for _, p := range pkgs {
		name := strings.TrimPrefix(p.ImportPath, mod+"/")
		for variant, views := range variantViews {
			vpath := mod + "/" + variant
			if name == variant || !slices.Contains(p.Imports, vpath) {
				continue
			}
			allowed, ok := views[name]
			if !ok {
				bad = append(bad, fmt.Sprintf("%s imports %s: only game's file of the variant and its views (%v) may; go through package game", name, variant, views))
				continue
			}
			for _, f := range p.GoFiles {
				imps, err := imports(filepath.Join(p.Dir, f))
				if err != nil {
					bad = append(bad, fmt.Sprintf("%s/%s: %v", name, f, err))
					continue
				}
				if !slices.Contains(imps, vpath) {
					continue
				}
				view := slices.IndexFunc(allowed, func(pat string) bool { ok, _ := filepath.Match(pat, f); return ok })
				if view < 0 {
					bad = append(bad, fmt.Sprintf("%s/%s imports %s: only its views in %s (%q) may; go through package game", name, f, variant, name, allowed))
					continue
				}
				used[variant+" "+name+" "+allowed[view]] = true
			}
		}
	}
	for variant, views := range variantViews {
		for pkg, pats := range views {
			for _, pat := range pats {
				if !used[variant+" "+pkg+" "+pat] {
					bad = append(bad, fmt.Sprintf("the views of %s list %s/%s, which matches no file importing it", variant, pkg, pat))
				}
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// fileImports reads the imports of the Go file at path.
func fileImports(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// TestVariantImports: a variant's package (dragon) is imported, outside
// tests, only by its one file in game and its views (variantViews), so
// that nothing else can switch on its types; TestArchitecture's go list
// gives each package's imports and files, and the files of the packages
// that import it are read for theirs.
func TestVariantImports(t *testing.T) {
	pkgs := listPackages(t)
	mod := pkgs[0].Module.Path
	for _, b := range variantImports(mod, pkgs, fileImports) {
		t.Error(b)
	}
}

// TestVariantImportsFails: the check of TestVariantImports finds a stray
// import of a variant in a package that may not import it, in a file of a
// package that may, and a view that no longer imports it.
func TestVariantImportsFails(t *testing.T) {
	const mod = "example.com/m"
	files := map[string][]string{
		"game/dragon.go": {mod + "/dragon"}, "game/game.go": nil,
		"rating/family.go": {mod + "/dragon"},
		"tui/setup.go":     {mod + "/dragon"}, "tui/dragon_view.go": {mod + "/dragon"},
		"server/dragon.go": {mod + "/dragon"}, "server/dragon_wire.go": {mod + "/dragon"},
		"online/dragon.go": {mod + "/dragon"}, "cmd/farkle/dragon.go": nil,
		"internal/servertest/bots.go": {mod + "/dragon"}, "server/webtest/helpers.go": {mod + "/dragon"},
	}
	var pkgs []modulePackage
	for _, name := range []string{"dragon", "game", "rating", "tui", "server", "online", "cmd/farkle", "internal/servertest", "server/webtest"} {
		p := modulePackage{ImportPath: mod + "/" + name, Dir: name}
		for f, imps := range files {
			if filepath.Dir(f) == name {
				p.GoFiles = append(p.GoFiles, filepath.Base(f))
				for _, imp := range imps {
					if !slices.Contains(p.Imports, imp) {
						p.Imports = append(p.Imports, imp)
					}
				}
			}
		}
		pkgs = append(pkgs, p)
	}
	got := variantImports(mod, pkgs, func(path string) ([]string, error) { return files[path], nil })
	want := []string{"rating imports dragon", "the views of dragon list cmd/farkle/dragon.go", "tui/setup.go imports dragon"}
	if len(got) != len(want) {
		t.Fatalf("found %d faults, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("fault %d: %q, want it to begin %q", i, got[i], w)
		}
	}
}
